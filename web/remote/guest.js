// A guest's engine client: the table at the host's, with the same surface as EngineClient
// (ready, request, onProgress, onRestart, onChange, game). A guest's page runs no Python: each
// request is answered from what the host sends this seat.
//
//   hello                     the host's hello, once the seat is taken
//   view, and any request     the latest view of this seat (the host deals; a guest saves
//   that starts a game        nothing: `game` stays null); next_game after a game's end
//   (hello.requests)          waits for the host to deal the next game
//   step                      the next view the host sends (the next move, whoever makes it)
//   play {card}               sends the intent; the first view the host sends after it (one
//                             kept from before is passed over), or the host's refusal
//   hint, review,             asks the host (ASK_FIELDS in wire.js: the payload's fields it
//   review_next, review_line, names, never a seat), whose engine answers for this seat from
//   rerun, rerun_next         its observation only; its answer, or its refusal. The host
//                             serves its guests' asks in turn, a slice of its worker each
//   anything else             refused with remote_unavailable
//
// A view that comes while the page asks for nothing (the last one it was handed has its
// person to move, or the game over: the host dealt, undid, or its page reloaded) goes to the
// page at once, through onChange; while the computers play, the page's next step takes it.
//
// It speaks the protocol only: what the table shows (the name form, the way to the seat, who is
// here, the fair deal's check) goes into the page's state through state.js's remote* functions
// and the remote panel draws it (remote/panel.js); the panel's Take the seat and Replay are
// intents of app.js, which call join and replayFair here. The seat's token and the name stay
// in this browser, so opening the link again takes the same seat back without asking.

import { EngineError } from "../engine-client.js";
import { app, remoteAnswer, remoteFair, remoteJoined, remoteName, remoteOpened, remoteStage, requestDraw } from "../state.js";
import { readJson, readText, writeJson, writeText } from "../storage.js";
import { checkReveal, checkSeen, newSeed, replayWithEngine, seenHands, seenOf } from "./fair.js";
import { answerPair, readOffer } from "./manual.js";
import { GuestPresence, readPresence } from "./presence.js";
import { iceServers } from "./relays.js";
import { savedTurn } from "./turn.js";
import { ASK_FIELDS, newToken, proofOf, RATE, readMessage } from "./wire.js";

const JOIN_RETRY_MS = 2_000;
// Asks go at most one in this long: half the host's rate, which drops what goes beyond it
// unanswered (a review asks for its cards one after another, as fast as they come).
const ASK_GAP_MS = (2 * RATE.perMs) / RATE.messages;
const NO_HOST_MS = 12_000; // no table found through the relays by then: say so, offer pairing by hand

// The name a guest gave, and their seat's token at a room (storage.js names the keys). If
// the storage refuses, the name is asked again and the seat taken afresh.
const stored = (entry, room = "") => readText(entry, room);
const store = (entry, value, room = "") => writeText(entry, value, room);

export class GuestClient {
  constructor(invite) {
    this.invite = invite;
    this.game = null; // a guest keeps no recipe: the host saves the game
    this.received = []; // every message text from the host, in order (the tests read it)
    this.refused = 0; // messages not acted on
    this.connectedAt = null; // when the first peer connected (Date.now())
    this._views = []; // every view the host sent, in order (the fair deal's check reads them)
    this._matchStart = 0; // the first of them of the match in play (a new match: a new commitment)
    this._taken = 0; // views handed to the page, or passed over, so far
    this._shown = null; // the last view handed to the page
    this._changes = new Set(); // onChange's listeners
    this._waiting = []; // requests waiting for the next view: {resolve, reject, intent}
    this._asks = new Map(); // n -> {resolve, reject}: questions waiting for the host's answer
    this._host = null; // the peer that seated this guest
    this._hello = null; // the host's hello, once seated
    this._intents = 0;
    this._nextAsk = 0; // the earliest time (performance.now()) the next ask may go
    this._token = null; // this seat's token at the room, once a name is given
    this._name = ""; // the name the seat is asked for under
    this._stopJoining = false; // the host refused the name: the form asks for another first
    this._room = null;
    this._inbox = Promise.resolve(); // the host's messages, taken in the order they came
    this.presence = new GuestPresence(invite.seat); // who is here, on this page's banner
    // {commitment, seed, sentEarly}: this seat's part of a fair deal (fair.js); sentEarly: its
    // seed went for this commitment, so the host may not say it was left out
    this._fair = null;
    this._reveal = null; // the host's reveal, once the match is over
    this.ready = new Promise((resolve) => {
      this._seated = resolve;
    });
    const remembered = stored("remote_name") ?? "";
    remoteOpened("guest", { seat: invite.seat, name: remembered, stage: "name" });
    requestDraw();
    // This browser took the seat before (a reload, the link opened again): take it back.
    if (remembered && stored("remote_seat", invite.room)) this.join(remembered);
  }

  onProgress(listener) {
    listener({ stage: "runtime", fraction: 0 });
    this.ready.then(() => listener({ stage: "ready", fraction: 1 }));
    return () => {};
  }

  onRestart() {
    return () => {};
  }

  onChange(listener) {
    this._changes.add(listener);
    return () => this._changes.delete(listener);
  }

  async request(type, payload = {}) {
    if (type === "hello") return this.ready;
    const hello = await this.ready;
    if (type === "next_game" && this._views.at(-1)?.status === "game_over") await this._next();
    if (type === "view" || hello.requests?.[type]?.effect === "starts") {
      if (!this._views.length) return new Promise((resolve, reject) => this._waiting.push({ resolve, reject, intent: null }));
      return this._hand(this._views.at(-1));
    }
    if (type === "step") return this._next();
    if (type === "play") {
      // The reply to this card is a view sent after it: one kept from before is passed over
      // (the host's engine checks the card against its position, never one shown before).
      this._taken = this._views.length;
      this._intents += 1;
      const next = this._next(this._intents);
      this._send({ t: "play", card: payload.card, n: this._intents });
      return next;
    }
    if (Object.hasOwn(ASK_FIELDS, type)) return this._ask(type, payload);
    throw new EngineError({ code: "remote_unavailable", message: `${type} is not offered at a friend's table`, text: { id: "error.remote_unavailable" } });
  }

  // The next view not yet handed to the page (or the refusal of intent n).
  _next(intent = null) {
    if (this._taken < this._views.length) {
      this._shown = this._views[this._taken++];
      return Promise.resolve(this._shown);
    }
    return new Promise((resolve, reject) => this._waiting.push({ resolve, reject, intent }));
  }

  // Hands the page a view, the latest: those before it are passed over.
  _hand(view) {
    this._taken = this._views.length;
    this._shown = view;
    return view;
  }

  // A view from the host: the reply to a request waiting for one; else, when the page asks
  // for nothing (the view it was handed last is not one the computers play on from), drawn
  // at once; else kept for the page's next step.
  _viewCame(view) {
    this.presence.start();
    this._views.push(view);
    const waiting = this._waiting.shift();
    if (waiting) waiting.resolve(this._hand(view));
    else if (this._shown && this._shown.status !== "waiting" && this._changes.size) {
      // The position shown, sent again (the host's page reloaded, or asked for its view; the
      // view comes without the move that led to it, maybe with the match's table): nothing to
      // draw, no turn to announce again (a hint stays).
      const position = (shown) => JSON.stringify({ ...shown, event: null, table: null });
      const same = position(view) === position(this._shown);
      this._hand(view);
      if (!same) this._changes.forEach((listener) => listener(view));
    }
  }

  // Asks the host with the fields of the payload this ask may carry (a seat is the host's to
  // fill in: the one this guest holds), ASK_GAP_MS after the ask before at the earliest.
  async _ask(what, payload = {}) {
    const wait = this._nextAsk - performance.now();
    this._nextAsk = Math.max(this._nextAsk, performance.now()) + ASK_GAP_MS;
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const n = ++this._intents;
    const answer = new Promise((resolve, reject) => this._asks.set(n, { resolve, reject }));
    const fields = Object.fromEntries(Object.entries(payload).filter(([key]) => Object.hasOwn(ASK_FIELDS[what], key)));
    this._send({ ...fields, t: "ask", what, n });
    return answer;
  }

  _send(message) {
    if (this._host !== null) this._room?.send(JSON.stringify(message), this._host);
  }

  async _receive(text, peer) {
    const message = readMessage(text, ["seated", "lobby", "view", "answer", "refused", "presence", "reveal", "commit"]);
    if (!message || (this._host !== null && peer !== this._host)) {
      this.refused += 1;
      return;
    }
    this.received.push(text);
    if (message.t === "seated") {
      // Only the host holds this seat's ticket: a "seated" without its proof is another page's.
      if (this._host !== null || message.seat !== this.invite.seat || !message.hello
          || message.proof !== await proofOf(this.invite.ticket, this.invite.seat, this._token)) {
        this.refused += 1;
        return;
      }
      if (this._host !== null) return; // another answer of the host's came meanwhile
      this._host = peer;
      this._room.quiet?.(true); // connected to the host: no more announcing (room.js)
      this.presence.host(false);
      this._takeCommit(message, true);
      remoteStage("seated");
      requestDraw();
      this._hello = message.hello;
      this._seated(message.hello);
    } else if (message.t === "refused" && message.n === null && this._host === null) {
      this._joinRefused(message);
    } else if (message.t === "lobby") {
      if (Array.isArray(message.seats)) remoteJoined(message.seats.filter((s) => s && typeof s.name === "string" && s.seat !== this.invite.seat));
      requestDraw();
    } else if (message.t === "presence" && peer === this._host) {
      const seats = readPresence(message.seats, this._hello);
      if (seats) this.presence.heard(seats);
      else this.refused += 1;
    } else if (message.t === "view" && peer === this._host) {
      this._viewCame(message.view);
    } else if (message.t === "answer" && peer === this._host) {
      this._asks.get(message.n)?.resolve(message.result);
      this._asks.delete(message.n);
    } else if (message.t === "reveal" && peer === this._host && this._fair) {
      this._revealed(message);
    } else if (message.t === "commit" && peer === this._host) {
      // A new match at the same table: a new commitment, a new seed of this guest's.
      this._takeCommit(message, false);
    } else if (message.t === "refused" && peer === this._host) {
      const text = typeof message.text?.id === "string" ? message.text : null; // drawn from our catalogs
      const error = new EngineError({ code: message.code, message: String(message.message ?? message.code), text });
      const at = this._waiting.findIndex((w) => w.intent !== null && w.intent === message.n);
      if (at >= 0) this._waiting.splice(at, 1)[0].reject(error);
      this._asks.get(message.n)?.reject(error);
      this._asks.delete(message.n);
    }
  }

  // The host refused this page its seat: its words, shown; a refused name goes back to the
  // form. A page of this room that is not the host could send this too: it is only shown,
  // and the join goes on being asked (a seat in use is taken once its device has gone).
  _joinRefused(message) {
    const text = typeof message.text?.id === "string" ? message.text : { id: "remote.refused_no_seat" };
    if (message.retype === true) { // the name is refused: the form again, saying why
      this._stopJoining = true;
      remoteStage("name", text);
    } else {
      remoteStage("refused", text);
    }
    requestDraw();
  }

  // The host's commitment (with the seat, or a new match's): this seat's seed goes back, unless
  // the match was dealt while this guest was away (left_out: its seed is not in the mix). A
  // host that says so of a commitment this page had sent its seed for, or at the first seating
  // of this browser at the table (nobody dealt it before it sat down), is not believed: the
  // deal cannot be verified.
  _takeCommit({ commit, left_out: leftOut }, seating) {
    const commitment = String(commit ?? "");
    if (this._fair?.commitment !== commitment) this._matchStart = this._views.length; // a new match's
    if (leftOut === true) {
      const kept = readJson("remote_seed", this.invite.room).value;
      const sent = kept?.commitment === commitment || (this._fair?.commitment === commitment && this._fair.seed !== null);
      const first = seating && kept === null;
      this._fair = { commitment, seed: null, unverified: sent || first };
      remoteFair(sent || first ? "unverified" : "late", { id: sent || first ? "remote.fair_unverified" : "remote.fair_late" });
      requestDraw();
      return;
    }
    this._sendSeed(commitment);
    remoteFair("committed", { id: "remote.fair_committed" });
    requestDraw();
  }

  // A fair deal: this seat's seed goes to the host only once its commitment has come (the
  // same seed again after a reload, unless the host committed to another).
  _sendSeed(commitment) {
    // {commitment, seed}: this seat's part of a fair deal, kept by room (a reload sends the
    // same seed for the same commitment); a hand-edited value: a new seed.
    const kept = readJson("remote_seed", this.invite.room).value;
    const fair = kept?.commitment === commitment && /^[0-9a-f]{32}$/.test(kept.seed) ? kept : { commitment, seed: newSeed() };
    writeJson("remote_seed", fair, this.invite.room);
    this._fair = { ...fair, unverified: false };
    this._send({ t: "seed", seed: fair.seed });
  }

  // The match is over: the host revealed its recipe and every seed. Checked at once, without
  // the engine: the host's seed against its commitment, this guest's seed in the mix, and the
  // recipe against every view the host sent (every card seen played, this seat's hands).
  async _revealed(reveal) {
    this._reveal = reveal;
    const mine = { ...this._fair, seat: this.invite.seat };
    const verdict = await checkReveal(reveal, mine);
    if (verdict === "bad_commitment") return this._fairSaid("bad_commitment", "remote.fair_bad_commitment");
    if (verdict === "bad_mine") return this._fairSaid("bad_mine", "remote.fair_bad_mine");
    const hello = this._hello;
    const recipe = reveal.recipe && typeof reveal.recipe === "object" && reveal.recipe.record ? reveal.recipe : { record: { plays: [] } };
    const wrong = checkSeen(recipe, seenOf(this._views.slice(this._matchStart), this.invite.seat, hello), hello);
    if (wrong?.hand) return this._fairSaid("bad_hand", "remote.fair_bad_hand", { game: wrong.game, deal: wrong.deal });
    if (wrong && wrong.record_card === null) return this._fairSaid("bad_card", "remote.fair_no_card", wrong);
    if (wrong) return this._fairSaid("bad_card", "remote.fair_bad_card", wrong);
    if (this._fair.unverified) return this._fairSaid("unverified", "remote.fair_unverified");
    return this._fairSaid(verdict, verdict === "left_out" ? "remote.fair_left_out" : "remote.fair_ok");
  }

  _fairSaid(state, id, params = {}) {
    remoteFair(state, { id, params });
    requestDraw();
  }

  /** Replays the revealed match with this tab's own engine (loaded only now): the seeds deal
   * it, every card was legal, and this seat was dealt the hands it saw. */
  async replayFair() {
    const reveal = this._reveal;
    if (!reveal || !["ok", "left_out"].includes(app.remote.fair.state)) return;
    this._fairSaid("replaying", "remote.fair_replaying");
    try {
      const hands = seenHands(seenOf(this._views.slice(this._matchStart), this.invite.seat, this._hello), this._hello);
      const checked = await replayWithEngine(reveal, { commitment: this._fair.commitment, seat: this.invite.seat }, hands);
      this._fairSaid("replayed", "remote.fair_replayed", { count: checked.plays });
    } catch (error) {
      const reason = error instanceof EngineError && error.text ? error.text : { id: "remote.fair_engine_failed", params: { problem: String(error.message) } };
      this._fairSaid("replay_bad", "remote.fair_replay_bad", { reason });
    }
  }

  // -- joining -------------------------------------------------------------------------------

  /** Takes the seat under this name (the form's, or the one remembered): the host's engine
   * judges the name, and the host refuses a name, or the seat, with words to show. */
  join(typed) {
    const name = String(typed ?? "").trim();
    if (!name) return;
    store("remote_name", name);
    remoteName(name);
    remoteStage("joining");
    requestDraw();
    this._stopJoining = false;
    this._name = name;
    if (this._room) {
      this._askSeat();
      return;
    }
    this._open();
  }

  // The join message, with this browser's token at the room (a new one the first time).
  _joinMessage() {
    const { seat, ticket, room } = this.invite;
    if (!this._token) {
      this._token = stored("remote_seat", room);
      if (!this._token) {
        this._token = newToken();
        store("remote_seat", this._token, room);
      }
    }
    return JSON.stringify({ t: "join", seat, name: this._name, token: this._token, ticket });
  }

  _askSeat() {
    if (this._host !== null || this._stopJoining) return;
    const join = this._joinMessage();
    for (const peer of this._room.peers()) this._room.send(join, peer);
  }

  async _open() {
    const { room, secret, relays } = this.invite;
    const offer = readOffer(location.href);
    if (offer) {
      // A pairing link (manual.js): no relay; the answer goes back to the host by hand.
      const pair = answerPair(offer, iceServers(relays, savedTurn()));
      this._room = pair.room;
      remoteStage("pairing");
      requestDraw();
      pair.answer.then((blob) => {
        remoteAnswer(blob);
        requestDraw();
      }, () => {
        remoteStage("bad_offer");
        requestDraw();
      });
    } else {
      const { openRoom } = await import("./room.js");
      this._room = openRoom({ room, secret, relays });
      setTimeout(() => {
        if (this._host === null && app.remote.stage === "joining") {
          remoteStage("unreachable");
          requestDraw();
        }
      }, NO_HOST_MS);
    }
    // One message after another: a "seated" is checked (a digest, awaited) before the view
    // that follows it is taken.
    this._room.onMessage((text, peer) => {
      this._inbox = this._inbox.then(() => this._receive(text, peer)).catch((error) => console.error(error));
    });
    this._room.onJoin((peer) => {
      this.connectedAt ??= Date.now(); // the first connection to a peer (bench/remote.py)
      if (this._host === null && !this._stopJoining) this._room.send(this._joinMessage(), peer);
    });
    // A join sent while a connection is still settling may be lost: ask again until seated,
    // and again whenever the host's page is gone (a reload, a lost connection).
    setInterval(() => this._askSeat(), JOIN_RETRY_MS);
    this._room.onLeave((peer) => {
      if (peer !== this._host) return;
      this._host = null;
      this._room.quiet?.(false); // announce again: the host's page (or its next one) finds us
      remoteStage("host_left");
      this.presence.host(true);
    });
  }
}
