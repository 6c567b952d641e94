// Starts the engine worker as early as the page can, then loads the page's own modules.
// This module's graph is small and preloaded by index.html, so it runs first. The page's
// modules (app.js with its thirty-odd imports, and sw-register.js) load once the worker has
// asked for the runtime's files: a browser opens at most six connections to a host that
// speaks HTTP/1.1, and loaded first they held the worker's first requests back by about half
// a second on a slow link (bench/timeline.py). The loading screen is plain HTML until then.
// A page the offline copy serves, a guest's or a host's page, and a worker that fails load
// them at once.
import { EngineClient } from "./engine-client.js";
import { engine } from "./engine.js";

const client = engine();
const WAIT_AT_MOST_MS = 3000; // should the worker say nothing, the page loads all the same

function runtimeRequested() {
  if (!(client instanceof EngineClient) || navigator.serviceWorker?.controller) return Promise.resolve();
  let stop = () => {};
  return new Promise((go) => {
    // The worker counts the runtime's files (their sizes, from the manifest) just before
    // loadPyodide asks for them.
    stop = client.onProgress(({ expected }) => {
      if (expected) go(undefined);
    });
    client.ready.then(go, go);
    setTimeout(go, WAIT_AT_MOST_MS);
  }).finally(() => stop());
}

runtimeRequested().then(() => {
  import("./app.js");
  import("./sw-register.js");
});
