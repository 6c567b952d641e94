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
//   review_next, rerun,       names, never a seat), whose engine answers for
//   rerun_next                this seat from its observation only; its answer, or its
//                             refusal. A review's next card comes once the host's engine
//                             has searched it (in slices, between the table's requests);
//                             the master's game in the guest's seat plays on in slices too
//   anything else             refused with remote_unavailable
//
// A view that comes while the page asks for nothing (the last one it was handed has its
// person to move, or the game over: the host dealt, undid, or its page reloaded) goes to the
// page at once, through onChange; while the computers play, the page's next step takes it.
//
// The page asks the guest's name (remembered), then joins; the seat's token stays in this
// browser, so opening the link again takes the same seat.

import { EngineError } from "../engine-client.js";
import { hasWords, onLanguage, t, translatePage } from "../i18n.js";
import { readJson, readText, writeJson, writeText } from "../storage.js";
import { fairnessPanel, newSeed } from "./commit.js";
import { answerPair, readOffer, showAnswer } from "./manual.js";
import { GuestPresence, readPresence } from "./presence.js";
import { iceServers } from "./relays.js";
import { savedTurn } from "./turn.js";
import { ASK_FIELDS, MAX_NAME_CHARS, newToken, RATE, readMessage } from "./wire.js";

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
    this._views = []; // every view the host sent, in order (the tests read it)
    this._taken = 0; // views handed to the page, or passed over, so far
    this._shown = null; // the last view handed to the page
    this._changes = new Set(); // onChange's listeners
    this._waiting = []; // requests waiting for the next view: {resolve, reject, intent}
    this._asks = new Map(); // n -> {resolve, reject}: questions waiting for the host's answer
    this._host = null; // the peer that seated this guest
    this._hello = null; // the host's hello, once seated
    this._intents = 0;
    this._nextAsk = 0; // the earliest time (performance.now()) the next ask may go
    this.presence = new GuestPresence(invite.seat); // who is here, on this page's banner
    this._fair = null; // {commitment, seed}: this seat's part of a fair deal (commit.js)
    this._fairness = null; // its panel
    this.ready = new Promise((resolve) => {
      this._seated = resolve;
    });
    this._askName();
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

  _receive(text, peer) {
    const message = readMessage(text, ["seated", "lobby", "view", "answer", "refused", "presence", "reveal", "commit"]);
    if (!message || (this._host !== null && peer !== this._host)) {
      this.refused += 1;
      return;
    }
    this.received.push(text);
    if (message.t === "seated") {
      if (this._host !== null || message.seat !== this.invite.seat || !message.hello) return;
      this._host = peer;
      this._room.quiet?.(true); // connected to the host: no more announcing (room.js)
      this.presence.host(false);
      this._takeCommit(message);
      this._panel.dataset.remoteState = "seated";
      this._word();
      this._hello = message.hello;
      this._seated(message.hello);
    } else if (message.t === "lobby") {
      this._lobby = message.seats;
      this._word();
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
      const where = document.querySelector("[data-side-panel]");
      if (where) where.prepend(this._fairness.element);
      this._fairness.revealed(message, { ...this._fair, seat: this.invite.seat });
    } else if (message.t === "commit" && peer === this._host) {
      // A new match at the same table: a new commitment, a new seed of this guest's.
      this._takeCommit(message);
    } else if (message.t === "refused" && peer === this._host) {
      const text = typeof message.text?.id === "string" ? message.text : null; // drawn from our catalogs
      const error = new EngineError({ code: message.code, message: String(message.message ?? message.code), text });
      const at = this._waiting.findIndex((w) => w.intent !== null && w.intent === message.n);
      if (at >= 0) this._waiting.splice(at, 1)[0].reject(error);
      this._asks.get(message.n)?.reject(error);
      this._asks.delete(message.n);
    }
  }

  // The host's commitment (with the seat, or a new match's): this seat's seed goes back, unless
  // the match was dealt while this guest was away (left_out: its seed is not in the mix).
  _takeCommit({ commit, left_out: leftOut }) {
    const commitment = String(commit ?? "");
    if (leftOut === true) {
      this._fair = { commitment, seed: null };
      this._fairness?.late();
      // Said beside the table (the panel starts in the loading card, hidden by now).
      const where = document.querySelector("[data-side-panel]");
      if (where && this._fairness) where.prepend(this._fairness.element);
      return;
    }
    this._sendSeed(commitment);
    this._fairness?.committed();
  }

  // A fair deal: this seat's seed goes to the host only once its commitment has come (the
  // same seed again after a reload, unless the host committed to another).
  _sendSeed(commitment) {
    // {commitment, seed}: this seat's part of a fair deal, kept by room (a reload sends the
    // same seed for the same commitment); a hand-edited value: a new seed.
    const kept = readJson("remote_seed", this.invite.room).value;
    const fair = kept?.commitment === commitment && /^[0-9a-f]{32}$/.test(kept.seed) ? kept : { commitment, seed: newSeed() };
    writeJson("remote_seed", fair, this.invite.room);
    this._fair = fair;
    this._send({ t: "seed", seed: fair.seed });
  }


  // -- joining -------------------------------------------------------------------------------

  _askName() {
    const panel = document.createElement("form");
    const fields = /** @type {any} */ (panel.elements); // its input, by name
    panel.className = "remote-panel";
    panel.dataset.remotePanel = "guest";
    panel.dataset.remoteState = "name";
    panel.innerHTML = `<p data-remote-words></p>
      <label><span data-i18n="remote.your_name">Your name</span>
        <input name="name" required maxlength="${MAX_NAME_CHARS}" autocomplete="nickname"></label>
      <button type="submit" class="btn btn-primary" data-remote-join></button>`;
    const remembered = stored("remote_name") ?? "";
    fields.name.value = remembered;
    const join = (name) => {
      panel.dataset.remoteState = "joining";
      fields.name.disabled = true;
      this._word();
      this._join(name);
    };
    panel.addEventListener("submit", (event) => {
      event.preventDefault();
      const name = fields.name.value.trim();
      if (!name) return;
      store("remote_name", name);
      join(name);
    });
    this._panel = panel;
    const place = () => {
      document.documentElement.dataset.remote = "guest"; // no engine loads here (style.css)
      document.querySelector(".boot-card")?.append(panel);
      this._fairness = fairnessPanel(document.querySelector(".boot-card") ?? document.body);
      this._word();
    };
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", place);
    else place();
    onLanguage(() => this._word());
    // This browser took the seat before (a reload, the link opened again): take it back.
    if (remembered && stored("remote_seat", this.invite.room)) join(remembered);
  }

  _word() {
    const panel = this._panel;
    if (!hasWords()) return; // the page's words are loading: onLanguage comes next
    translatePage(panel);
    const seat = this.invite.seat; // a seat parameter is worded by the catalog (i18n.js)
    const state = panel.dataset.remoteState;
    // Seated, before the game: who else has joined (the panel goes with the loading card).
    const joined = state === "seated" ? (this._lobby ?? []).filter((s) => s.name && s.seat !== seat)
      .map((s) => t("remote.joined", { name: s.name, seat: s.seat })) : [];
    panel.querySelector("[data-remote-words]").textContent = [t(`remote.guest_${state}`, { seat }), ...joined].join(" ");
    panel.querySelector("[data-remote-join]").textContent = t("remote.take_seat", { seat });
    panel.querySelector("[data-remote-join]").hidden = state !== "name";
    panel.querySelector("label").hidden = state === "seated";
  }

  async _join(name) {
    const { room, secret, relays, seat } = this.invite;
    let token = stored("remote_seat", room);
    if (!token) {
      token = newToken();
      store("remote_seat", token, room);
    }
    const offer = readOffer(location.href);
    if (offer) {
      // A pairing link (manual.js): no relay; the answer goes back to the host by hand.
      const pair = answerPair(offer, iceServers(relays, savedTurn()));
      this._room = pair.room;
      this._setState("pairing");
      pair.answer.then((blob) => showAnswer(this._panel, blob), () => this._setState("bad_offer"));
    } else {
      const { openRoom } = await import("./room.js");
      this._room = openRoom({ room, secret, relays });
      setTimeout(() => {
        if (this._host === null && this._panel.dataset.remoteState === "joining") this._setState("unreachable");
      }, NO_HOST_MS);
    }
    this._room.onMessage((text, peer) => this._receive(text, peer));
    const join = JSON.stringify({ t: "join", seat, name, token });
    this._room.onJoin((peer) => {
      this.connectedAt ??= Date.now(); // the first connection to a peer (bench/remote.py)
      if (this._host === null) this._room.send(join, peer);
    });
    // A join sent while a connection is still settling may be lost: ask again until seated,
    // and again whenever the host's page is gone (a reload, a lost connection).
    setInterval(() => {
      if (this._host === null) for (const peer of this._room.peers()) this._room.send(join, peer);
    }, JOIN_RETRY_MS);
    this._room.onLeave((peer) => {
      if (peer !== this._host) return;
      this._host = null;
      this._room.quiet?.(false); // announce again: the host's page (or its next one) finds us
      this._panel.dataset.remoteState = "host_left";
      this.presence.host(true);
    });
  }

  _setState(state) {
    this._panel.dataset.remoteState = state;
    this._word();
  }
}
