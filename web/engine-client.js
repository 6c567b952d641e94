// The page's side of the engine worker: starts it, reports loading progress, and turns
// requests into promises matched to replies by id.
//
//   const client = engine();               // the page's one client, started on first call
//   client.onProgress(({stage, fraction}) => ...);
//   const {engine, protocol} = await client.ready;   // the hello reply
//   const result = await client.request("type", {...payload});
//
// Every failure rejects with an EngineError carrying the protocol's {code, message}.

export class EngineError extends Error {
  constructor({ code, message }) {
    super(message);
    this.name = "EngineError";
    this.code = code;
  }
}

export class EngineClient {
  constructor(workerUrl = new URL("./worker.js", import.meta.url)) {
    this.failure = null; // {code, message} once the worker is unusable
    this._pending = new Map();
    this._nextId = 1;
    this._progressListeners = new Set();
    this.worker = new Worker(workerUrl, { type: "module" });
    this.worker.addEventListener("message", (event) => this._receive(event.data));
    // Fires when the script itself fails to load or throws outside its own handlers.
    this.worker.addEventListener("error", (event) => {
      event.preventDefault();
      this._fail({
        code: "worker_failed",
        message: event.message || `the engine worker ${workerUrl} failed to load`,
      });
    });
    this.worker.addEventListener("messageerror", () =>
      this._fail({ code: "worker_failed", message: "a worker message could not be read" }));
    // Queued by the worker until loading is done, so this settles when the engine is ready.
    this.ready = this.request("hello");
  }

  /** Calls listener({stage, fraction}) as loading advances; returns an unsubscribe function. */
  onProgress(listener) {
    this._progressListeners.add(listener);
    return () => this._progressListeners.delete(listener);
  }

  /** Sends {id, type, ...payload}; resolves with the reply's result or rejects with EngineError. */
  request(type, payload = {}) {
    if (this.failure) return Promise.reject(new EngineError(this.failure));
    const id = this._nextId++;
    return new Promise((resolve, reject) => {
      this._pending.set(id, { resolve, reject });
      this.worker.postMessage(JSON.stringify({ ...payload, id, type }));
    });
  }

  _receive(data) {
    if (typeof data !== "string") {
      if (data?.type === "progress") this._progressListeners.forEach((listener) => listener(data));
      else if (data?.type === "fatal") this._fail(data.error);
      return;
    }
    const reply = JSON.parse(data);
    const pending = this._pending.get(reply.id);
    if (!pending) return; // a reply to a message not sent through request()
    this._pending.delete(reply.id);
    if (reply.ok) pending.resolve(reply.result);
    else pending.reject(new EngineError(reply.error));
  }

  _fail(error) {
    if (this.failure) return;
    this.failure = error;
    for (const { reject } of this._pending.values()) reject(new EngineError(error));
    this._pending.clear();
  }
}

let shared = null;

/** Returns the page's one EngineClient, starting its worker on the first call. */
export function engine() {
  shared ??= new EngineClient();
  return shared;
}
