// The page's one engine client: this tab's worker (web/engine-client.js), or at a table with
// friends the host's table or a guest's (web/remote/choose.js reads the address). Apart from
// the worker's client, so that the remote table's modules, which use that client (a host's
// table wraps it, a guest's fair check loads one), import no module that imports them back.

import { EngineClient } from "./engine-client.js";
import { tableClient } from "./remote/choose.js";

let shared = null;

/** Returns the page's one engine client, starting it on the first call. */
export function engine() {
  shared ??= tableClient(() => new EngineClient()) ?? new EngineClient();
  return shared;
}
