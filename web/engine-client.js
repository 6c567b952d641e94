// The page's side of the engine worker: starts it, reports loading progress, turns requests
// into promises matched to replies by id, and replaces the worker if it dies.
//
//   const client = engine();               // the page's one client (engine.js), on first call
//   client.onProgress(({stage, fraction}) => ...);
//   const {engine, protocol} = await client.ready;   // the hello reply
//   const result = await client.request("type", {...payload});
//   client.onRestart(({reason, restored}) => ...);    // a new worker took over (optional)
//   client.onChange((view) => ...);        // the table changed unasked (a friend's table)
//   client.game;                           // the game's recipe after its last change
//   client.effect("daily");                // "starts": what a request does, as hello declares
//
// Every failure rejects with an EngineError carrying the protocol's {code, message, text,
// input, no_game}. The page decides nothing from the code (it is for logs and tests): the
// engine says what a refusal means where it raises it (docs/protocol.md).
//
// Crash recovery needs nothing from the page. The engine declares what each request does to
// the recipe of the game in play ({record, settings, history}, what "record" gives), and
// hello announces it (hello.requests: {type: {effect: "starts", "changes" or "reads", view}};
// docs/protocol.md).
// Every reply to a request that starts or changes a game carries the recipe the engine
// computed: whole after a start, as a change ({keep, add, deck?}: the plays kept, the cards
// played after them, and the deck when the game's end unseals it) after a move. The deck of
// a game in play comes sealed (calypso_core/table/sealed.py): the page holds no hidden card.
// The client keeps that recipe and follows it, deciding nothing by rules of its own; should
// a change not fit the recipe kept, or a reply that should carry one not, it asks for the
// record. When the worker dies after it was ready (it reports a crash, throws outside its
// handlers, or leaves a request unanswered for replyTimeoutMs), the client starts a new
// one, loads that recipe (with the hand that was shown, in a game of several people) and
// sends again the requests that had no reply — the page sees one slow reply. A request in
// flight at two crashes in a row is refused ("engine_crashed": it may be the cause); after
// MAX_RESTARTS restarts within RESTART_WINDOW_MS the client gives up like a failed boot.
//
// Replies are matched by id. The worker answers in the order it was asked, so a reply whose
// id could not be read (null: the request was refused before it could be parsed) belongs to
// the oldest request still waiting: no request waits for a reply that cannot come.

import { takeEarlyWorker } from "./early-worker.js";

export class EngineError extends Error {
  constructor({ code, message, text = null, input = false, no_game = false }) {
    super(message);
    this.name = "EngineError";
    this.code = code;
    this.text = text; // what people read: a message {id, params} (the engine's refusals)
    this.input = input; // the engine refused what the request carried: sending it again fails
    this.noGame = no_game; // the engine holds no game in play
  }
}

/** Which day is today where the person is (their device's local date, YYYY-MM-DD): sent with
 * every request, for the engine to judge the dates of the Calypso of the day by
 * (docs/review.md#which-day-is-today). */
export function localToday(now = new Date()) {
  const pad = (n) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

const MAX_RESTARTS = 3;
const RESTART_WINDOW_MS = 60_000;
const MAX_ATTEMPTS = 2; // a request is sent at most twice: once, and once after a crash

export class EngineClient {
  constructor(workerUrl = new URL("./worker.js", import.meta.url)) {
    this.workerUrl = workerUrl;
    this.failure = null; // {code, message} once the worker is unusable
    this.restarts = 0; // how many times a new worker replaced a dead one
    // Far longer than any computer player thinks (their budgets have wall-clock caps).
    this.replyTimeoutMs = 90_000;
    this._pending = new Map(); // id -> entry (see _enqueue), until its reply is handed over
    this._unanswered = []; // entries posted to the current worker, oldest first, until answered
    this._nextId = 1;
    this._progressListeners = new Set();
    this._restartListeners = new Set();
    this._restartTimes = [];
    this._saved = null; // the recipe of the game in play: {record, settings, history}
    this._requests = {}; // request type -> {effect, view}, as hello declares them
    this._viewer = null; // the seat whose hand the last view showed
    this._watchdog = null;
    this._startWorker();
    // Queued by the worker until loading is done, so this settles when the engine is ready.
    this.ready = this.request("hello");
  }

  /** What a request type does to the game in play, as hello declares it: "starts",
   * "changes" or "reads" (undefined before hello, or for a type the engine does not know). */
  effect(type) {
    return this._requests[type]?.effect;
  }

  /** Calls listener({stage, fraction}) as loading advances; returns an unsubscribe function. */
  onProgress(listener) {
    this._progressListeners.add(listener);
    return () => this._progressListeners.delete(listener);
  }

  /**
   * Calls listener({reason, restored, error}) when a new worker has replaced a dead one and
   * the game in play was loaded into it (restored: false when there was none or the load
   * failed, with error saying why); returns an unsubscribe function.
   */
  onRestart(listener) {
    this._restartListeners.add(listener);
    return () => this._restartListeners.delete(listener);
  }

  /**
   * Calls listener(view) when the table changed without this page asking, at a moment the
   * page asks for nothing (its person to move, or the game over): at a friend's table, the
   * host dealt, undid or reloaded (web/remote/guest.js). Never here: this tab's worker
   * changes the game only when asked. Returns an unsubscribe function.
   */
  onChange(listener) {
    return () => {};
  }

  /** Sends {id, type, ...payload}; resolves with the reply's result or rejects with EngineError. */
  async request(type, payload = {}) {
    return unwrap(await this._enqueue(type, payload).promise);
  }

  // Asks for the recipe of the game in play; its reply replaces the one kept.
  _askRecord() {
    const record = this._enqueue("record");
    record.keep = true;
    return record;
  }

  // Follows the game in play from a reply: the recipe the engine hands over (whole, or as
  // a change to the one kept), and the hand the view shows.
  _follow(entry, reply) {
    if (entry.keep) {
      if (reply.ok) this._saved = reply.result;
      else if (reply.error.no_game) this._saved = null; // the engine holds no game in play
      return;
    }
    if (!reply.ok) return;
    if (entry.type === "hello") this._requests = reply.result.requests ?? {};
    const result = reply.result;
    if (result && "viewer" in result) this._viewer = result.viewer;
    const effect = this.effect(entry.type);
    if (effect !== "starts" && effect !== "changes") return;
    const recipe = result?.recipe;
    delete result.recipe; // the client's to keep (client.game): the page draws the view
    if (recipe?.record) {
      // With the work done ahead that a loaded game brought back: a save without it would
      // lose that work (and, smaller, could fit in a storage too full for the whole game).
      this._saved = { record: recipe.record, settings: recipe.settings, history: recipe.history,
        ...(recipe.ahead ? { ahead: recipe.ahead } : {}) };
      return;
    }
    const plays = this._saved?.record?.plays;
    if (!Array.isArray(plays) || !Array.isArray(recipe?.add) || plays.length < recipe.keep) {
      this._askRecord(); // out of step: ask for the whole recipe
      return;
    }
    plays.length = recipe.keep;
    plays.push(...recipe.add);
    if ("deck" in recipe) this._saved.record.deck = recipe.deck; // unsealed at the game's end
  }

  /** Keeps the work the engine did ahead on the game in play (a "work" reply's keep: all of
   * it, sealed) with its recipe, so that the save and a new worker keep it. */
  keepAhead(ahead) {
    if (this._saved) this._saved = { ...this._saved, ahead };
  }

  /** The game in play as the client keeps its recipe ({record, settings, history}, what
   * "record" returns, and its "ahead"), kept up to date by every request that changes the
   * game; null before. */
  get game() {
    return this._saved;
  }

  /** Ends the worker as a crash would; the client replaces it (for tests and diagnostics). */
  kill() {
    this.worker.terminate();
    this._crashed({ code: "worker_killed", message: "the worker was terminated" });
  }

  /** The worker's figures: {wasm_bytes, python_objects, start} (for tests and diagnostics). */
  stats() {
    return new Promise((resolve) => {
      const worker = this.worker;
      const listen = (event) => {
        if (event.data?.type !== "stats") return;
        worker.removeEventListener("message", listen);
        resolve(event.data);
      };
      worker.addEventListener("message", listen);
      worker.postMessage({ type: "stats" });
    });
  }

  // -- the worker ---------------------------------------------------------------------------

  _startWorker() {
    // The page's first script may have started it already (early-worker.js).
    const early = takeEarlyWorker(this.workerUrl);
    const worker = early?.worker ?? new Worker(this.workerUrl, { type: "module" });
    this.worker = worker;
    this._booted = false;
    this._unanswered = [];
    const current = () => worker === this.worker && !this.failure;
    const handlers = {
      message: (event) => {
        if (current()) this._receive(event.data);
      },
      error: (event) => this._workerError(event, current),
      messageerror: () => {
        if (current()) this._fail({ code: "worker_failed", message: "a worker message could not be read" });
      },
    };
    for (const [kind, handler] of Object.entries(handlers)) worker.addEventListener(kind, handler);
    // What it said before, in a microtask: after whoever made this client has listened to its
    // progress, before the events that come next.
    if (early?.held.length) queueMicrotask(() => early.held.forEach((event) => handlers[event.type](event)));
  }

  // Fires when the script fails to load, or throws outside its own handlers.
  _workerError(event, current) {
    event.preventDefault();
    if (!current()) return;
    const error = {
      code: "worker_failed",
      message: event.message || `the engine worker ${this.workerUrl} failed`,
    };
    if (this._booted) this._crashed(error);
    else this._fail(error);
  }

  // Queues a request; entry.promise gives the raw reply {id, ok, result | error} and rejects
  // only when the client fails.
  _enqueue(type, payload = {}) {
    if (this.failure) throw new EngineError(this.failure);
    const id = this._nextId++;
    let message;
    try {
      message = JSON.stringify({ today: localToday(), ...payload, id, type });
    } catch (error) { // a cycle, a BigInt, nesting too deep for the stack
      throw new EngineError({ code: "bad_request", message: `the ${type} request cannot be written as JSON: ${error.message}` });
    }
    const entry = { id, type, message, attempts: 0 };
    entry.promise = new Promise((resolve, reject) => Object.assign(entry, { resolve, reject }));
    this._pending.set(id, entry);
    this._post(entry);
    return entry;
  }

  _post(entry) {
    entry.attempts += 1;
    this._unanswered.push(entry);
    this.worker.postMessage(entry.message);
    this._armWatchdog();
  }

  _receive(data) {
    if (typeof data !== "string") {
      if (data?.type === "progress") {
        if (data.stage === "ready") this._booted = true;
        if (!this.restarts) this._progressListeners.forEach((listener) => listener(data));
      } else if (data?.type === "fatal") {
        this._fail(data.error); // loading failed: a new worker would fail the same way
      } else if (data?.type === "crashed") {
        this._crashed(data.error);
      }
      this._armWatchdog();
      return;
    }
    const reply = JSON.parse(data);
    const entry = reply.id === null && !reply.ok ? this._unanswered[0] : this._pending.get(reply.id);
    if (!entry) return; // a reply to a message not sent through request()
    this._unanswered = this._unanswered.filter((waiting) => waiting !== entry);
    this._armWatchdog();
    this._follow(entry, reply); // in the order the worker answered, before anyone awaits it
    this._pending.delete(entry.id);
    entry.resolve(reply);
  }

  // Any message from the worker proves it alive; a silent worker with work to do is dead.
  _armWatchdog() {
    clearTimeout(this._watchdog);
    this._watchdog = null;
    if (!this._booted || !this._pending.size || this.failure) return;
    this._watchdog = setTimeout(() => this._crashed({
      code: "worker_unresponsive",
      message: `the engine did not answer for ${this.replyTimeoutMs / 1000} s`,
    }), this.replyTimeoutMs);
  }

  // -- recovery -----------------------------------------------------------------------------

  _crashed(reason) {
    if (this.failure) return;
    const now = performance.now();
    this._restartTimes = this._restartTimes.filter((t) => now - t < RESTART_WINDOW_MS);
    if (this._restartTimes.length >= MAX_RESTARTS) {
      this._fail({
        code: "engine_crashed",
        message: `the engine stopped ${MAX_RESTARTS + 1} times in a short while: ${reason.message}`,
      });
      return;
    }
    this._restartTimes.push(now);
    this.restarts += 1;
    clearTimeout(this._watchdog);
    this.worker.terminate();
    const unanswered = [...this._pending.values()].sort((a, b) => a.id - b.id);
    this._startWorker();
    // The new worker handles messages in order: the load comes before the requests resent.
    const hello = this._enqueue("hello").promise;
    const recipe = this._saved && this._viewer !== null ? { ...this._saved, viewer: this._viewer } : this._saved;
    const load = recipe ? this._enqueue("load", recipe).promise : null;
    for (const entry of unanswered) {
      if (entry.attempts < MAX_ATTEMPTS) {
        this._post(entry);
      } else {
        this._pending.delete(entry.id);
        entry.reject(new EngineError({
          code: "engine_crashed",
          message: `the engine stopped twice while working on this request (${reason.message})`,
        }));
      }
    }
    Promise.all([hello, load]).then(([, loaded]) => {
      const info = { reason, restored: Boolean(loaded?.ok), error: loaded?.ok ? null : loaded?.error ?? null };
      this._restartListeners.forEach((listener) => listener(info));
    }, () => {}); // the new worker failed to boot: _fail has rejected everything already
  }

  _fail(error) {
    if (this.failure) return;
    this.failure = error;
    clearTimeout(this._watchdog);
    for (const { reject } of this._pending.values()) reject(new EngineError(error));
    this._pending.clear();
  }
}

function unwrap(reply) {
  if (reply.ok) return reply.result;
  throw new EngineError(reply.error);
}
