// Starts the engine's worker as the page's first script, before any other module loads:
// Pyodide is most of a first visit's wait, and start-engine.js runs only once its module
// graph (engine-client.js and the remote table's modules it imports) has loaded and run,
// a few hundred milliseconds later on a throttled link (bench/timeline.py). This module
// imports nothing. Only a page with no fragment starts the worker here: whether a page is a
// guest's or a host's (#join=…, #host=…) is remote/choose.js's to say, later.
// Until the engine's client takes the worker over, the events it sends are held for it.

const KINDS = ["message", "error", "messageerror"];
/** @type {Event[]} */
const held = [];
/** @param {Event} event */
const hold = (event) => {
  if (event.type === "error") event.preventDefault(); // the client reports it, once it takes over
  held.push(event);
};
const url = new URL("./worker.js", import.meta.url);
/** @type {Worker | null} */
let early = null;
if (!location.hash) {
  early = new Worker(url, { type: "module" });
  for (const kind of KINDS) early.addEventListener(kind, hold);
}

/** The worker started here, if it runs workerUrl, with the events it sent meanwhile, oldest
 * first; null when there is none (only the first call can have one).
 * @param {URL} workerUrl */
export function takeEarlyWorker(workerUrl) {
  if (!early || workerUrl.href !== url.href) return null;
  const worker = early;
  early = null;
  for (const kind of KINDS) worker.removeEventListener(kind, hold);
  return { worker, held: held.splice(0) };
}
