// Starts the engine worker as early as the page can: this module's graph is one small file,
// so it runs first (module scripts run in order, each once its own imports are in), before
// app.js and its many imports have loaded. app.js gets the same client (one module instance).
import { engine } from "./engine-client.js";

engine();
