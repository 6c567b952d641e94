// A host's table: this tab's engine (its worker) and computer players, with guests on other
// devices. Wraps the tab's EngineClient with the same surface, so the page's flow runs
// unchanged: the first deal waits until every guest's seat is taken and seats them; a "step"
// on a guest's turn waits for that guest's card and plays it (play for the guest's seat: the
// engine checks it as any card); after every change each guest is sent its own view, which
// the engine's reply carries beside this device's (guests), and nothing else about the game.

import { hasWords, onLanguage, t, translatePage } from "../i18n.js";
import { FairDeal } from "./commit.js";
import { inviteUrl, SEAT_KEYS } from "./invite.js";
import { hosting, keep } from "./kept.js";
import { HostPresence } from "./presence.js";
import { joinRooms, pairByHand } from "./manual.js";
import { iceServers } from "./relays.js";
import { savedTurn } from "./turn.js";
import { loadSettings } from "../storage.js";
import { ONE_AT_A_TIME, RATE, readIntent } from "./wire.js";

const FAIR_ROUND_MS = 5_000; // a new match waits this long at most for the guests' new seeds
// A guest's ask for more of the master's game plays on this long (rerun_next slices of 50 ms
// for its seat, this device's requests between them), then answers: the guest's page draws
// progress.
const RERUN_ASK_MS = 300;

export class HostClient {
  /** The table the address asks for (readHosting), in the room kept for it if any (kept.js). */
  static async open(engine, asked) {
    return new HostClient(engine, await hosting(asked));
  }

  constructor(engine, { hosting: room, seats, resumed, fair }) {
    this.engine = engine;
    // {guests, relays, room, secret}: the room kept (a reload, the table opened again), else a new one
    this.hosting = room;
    this._resumed = resumed; // the room kept: the saved game is loaded, not dealt again
    this.refused = {}; // reason -> how many messages were refused for it
    this.ready = engine.ready;
    // seat -> {name, token, peer, lastIntent, computer: the level standing in, or null,
    // working: the kinds of work (ONE_AT_A_TIME) of this guest's asks in progress}
    this.seats = new Map(seats.map(([seat, s]) => [seat, { ...s, peer: null, lastIntent: 0, working: new Set() }]));
    this._peers = new Map(); // peer -> seat
    this._rates = new Map(); // peer -> times of its recent messages
    this._view = null; // this device's latest view
    this._started = false;
    this._turn = null; // {seat, resolve}: a guest's card awaited
    // {seat, intent}: a guest's card come on its turn before this page's flow asked for it
    // (this page was still drawing the card before): played when the flow asks
    this._early = null;
    // The deal's seed mixes this secret and the guests' seeds (a reload keeps them: the
    // guests' pages check the reveal against the commitment they were sent).
    this.fair = FairDeal.from(fair);
    this._revealed = false;
    this._fairRound = null; // a new match's round of seeds: checks whether every seed is in
    this._seatedAll = new Promise((resolve) => {
      this._allSeated = resolve;
    });
    this._showLobby();
    this.presence = new HostPresence(this);
    this._opened = this._open(); // the relays' room (room.js loads first)
    this._checkSeated();
  }

  get started() {
    return this._started;
  }

  get room() {
    return this._room;
  }

  onProgress(listener) {
    return this.engine.onProgress(listener);
  }

  onRestart(listener) {
    return this.engine.onRestart(listener);
  }

  // The host's page asks for every change of its table (guests' cards come through its step).
  onChange(listener) {
    return this.engine.onChange(listener);
  }

  get game() {
    return this.engine.game;
  }

  /** The seat of this device's person: the engine's default person's (South), else the
   * first seat after it, clockwise, that no guest takes (the seats as hello gives them). */
  hostSeat(hello) {
    const seats = hello.seats.length;
    return hello.seats.map((_, i) => (hello.people.default[0] + i) % seats).find((seat) => !this.seats.has(seat));
  }

  // What each request does comes from the engine's hello (engine.effect): the first request
  // that starts a game deals it here; a reply that is a view of this table carries the
  // guests' views beside this device's, and each guest is sent its own (tellGuests).
  async request(type, payload = {}) {
    await this.engine.ready;
    if (!this._started && this.engine.effect(type) === "starts") {
      return type === "load" && this._resumed && this._sameTable(payload) ? this._resume(payload) : this._deal(payload);
    }
    // A new match keeps the guests (the page's own settings know only this device's people).
    if (type === "new_game") return this._deal(payload);
    if (type === "step" && this._guestToMove()) return this._guestCard(this._view.to_move);
    return this.tellGuests(await this.engine.request(type, payload));
  }

  // -- the game ----------------------------------------------------------------------------

  // A match dealt once every guest is seated: the page's level, rules and match length, with
  // this device's people (the page's, in seats no guest takes; else hostSeat) and the guests.
  // A person of this device the address left unnamed (?humans= holds seats only) gets the
  // name the saved settings give that seat, so that the guests see the host by name.
  async _deal(payload) {
    await this._seatedAll;
    const hostSeat = this.hostSeat(await this.engine.ready);
    const here = (payload.people ?? []).filter((p) => !this.seats.has(p.seat))
      .map((p) => ({ ...p, name: p.name || this._savedName(p.seat) }));
    const people = [...(here.length ? here : [{ seat: hostSeat, name: this._savedName(hostSeat) }]),
      ...[...this.seats].map(([seat, s]) => ({ seat, name: s.name, remote: true }))];
    const deal = { people };
    for (const key of ["level", "levels", "rules", "games", "suit"]) if (payload[key] !== undefined) deal[key] = payload[key];
    if (this._started) await this._newFairRound(); // a new match: new seeds, never the last match's
    deal.seed = await this.fair.dealSeed(this.engine); // never ?seed=: nobody chooses the cards
    const reply = await this.engine.request("new_game", deal);
    this._forgetTurn();
    this._started = true;
    this._lobby.hidden = true;
    const view = this.tellGuests(reply);
    this.presence.changed();
    return view;
  }

  // The name this device's saved settings give the person in seat, "" when none or when a
  // guest took it (two people of one name cannot sit at a table).
  _savedName(seat) {
    const name = loadSettings().people?.find((p) => p.seat === seat)?.name ?? "";
    const taken = [...this.seats.values()].some((s) => s.name?.toLowerCase() === name.toLowerCase());
    return taken ? "" : name;
  }

  // A reload of the host's page: the saved game of this table (its guests in their seats)
  // comes back, with the computers that stood in for absent guests.
  _sameTable(saved) {
    const remote = (saved?.settings?.people ?? []).filter((p) => p?.remote).map((p) => p.seat).sort();
    return JSON.stringify(remote) === JSON.stringify([...this.seats.keys()].sort());
  }

  async _resume(saved) {
    const loaded = await this.engine.request("load", saved);
    this._forgetTurn();
    await this.presence.restore();
    this._started = true;
    this._lobby.hidden = true;
    const view = this.tellGuests(loaded);
    this.presence.changed();
    return view;
  }

  // A new game: a card awaited for the last one (by a flow the page has left) is not taken,
  // nor one kept.
  _forgetTurn() {
    this._turn = null;
    this._early = null;
  }

  _guestToMove() {
    const view = this._view;
    return Boolean(view && view.status === "waiting" && this.seats.get(view.to_move)?.computer === null);
  }

  /** The host gave a seat to a computer, or back: a wait for that guest's card ends. */
  standInChanged(seat) {
    if (this.seats.get(seat).computer === null) return;
    if (this._early?.seat === seat) this._early = null;
    if (this._turn?.seat === seat) this._turn.resolve(null);
  }

  // Waits for the guest at seat to send a card the engine takes; each refusal goes back. A
  // computer given the seat meanwhile plays it instead.
  async _guestCard(seat) {
    for (;;) {
      let intent = this._early?.seat === seat ? this._early.intent : null;
      this._early = null;
      if (!intent) {
        intent = await new Promise((resolve) => {
          this._turn = { seat, resolve };
        });
        this._turn = null;
      }
      if (intent === null) return this.tellGuests(await this.engine.request("step"));
      try {
        return this.tellGuests(await this.engine.request("play", { guest: seat, card: intent.card }));
      } catch (error) {
        this._refuse(this.seats.get(seat).peer, error.code ?? "refused", intent.n, error.message, error.text);
      }
    }
  }

  /** Sends each guest its view of a reply (the engine's guests, beside this device's view, in
   * every reply that is a view of a table with guests); returns this device's view, for its
   * page. A reply of another match (a game opened, the day's deal) has no guests. */
  tellGuests(reply) {
    if (!reply || typeof reply.status !== "string" || !reply.guests) return reply;
    const { guests, ...view } = reply;
    this._view = view;
    if (this._early && !this._onTurn(this._early.seat)) this._early = null; // undone meanwhile
    for (const [seat, s] of this.seats) if (s.peer && this._started && guests[seat]) this._send(s.peer, { t: "view", view: guests[seat] });
    this._revealAtEnd(view).catch((error) => console.error("the fair deal was not revealed", error));
    return view;
  }

  // Once the match is over (not before: the seeds deal its every game), every guest gets its
  // recipe and the seeds.
  async _revealAtEnd(reply) {
    if (reply.status === "game_over" && reply.match?.is_over && !this._revealed) {
      this._revealed = true;
      this.keep();
      const reveal = this.fair.reveal(await this.engine.request("record"));
      for (const s of this.seats.values()) if (s.peer) this._send(s.peer, reveal);
    }
  }

  // The table as the guest at seat sees it now (a guest just seated): the engine's view gives
  // every guest's.
  async _sendView(seat) {
    const peer = this.seats.get(seat).peer;
    if (!peer || !this._started) return;
    const view = (await this.engine.request("view")).guests?.[seat];
    if (view) this._send(peer, { t: "view", view });
  }

  // -- the guests ----------------------------------------------------------------------------

  async _open() {
    const { openRoom } = await import("./room.js");
    this._room = joinRooms(openRoom(this.hosting)); // and the rooms paired by hand (manual.js)
    this._room.onMessage((text, peer) => this._receive(text, peer));
    this._room.onLeave((peer) => {
      const seat = this._peers.get(peer);
      this._peers.delete(peer);
      if (seat !== undefined && this.seats.get(seat).peer === peer) this.seats.get(seat).peer = null;
      this._drawLobby();
      this.presence.changed();
    });
  }

  send(peer, message) {
    this._send(peer, message);
  }

  _send(peer, message) {
    this._room?.send(JSON.stringify(message), peer);
  }

  _refuse(peer, reason, n = null, message = reason, text = null) {
    this.refused[reason] = (this.refused[reason] ?? 0) + 1;
    if (peer && n !== null) this._send(peer, { t: "refused", code: reason, message, n, ...(text ? { text } : {}) });
  }

  // A guest's question (a hint, a review, its next card, the master in its seat): the engine's
  // request of that name made for the seat the guest holds (never one the guest names), from
  // that seat's observation. A review's next card is searched in slices, a review_next each,
  // so this device's requests go between them; the guest is answered once the card is done.
  // The master's game plays on in slices too (rerun_next), for RERUN_ASK_MS or to its end,
  // the guest's page drawing its progress between. A guest has one ask of each work
  // (ONE_AT_A_TIME) at a time: another meanwhile is refused (busy).
  async _answer(peer, seat, { what, n, fields }) {
    const held = this.seats.get(seat);
    const work = ONE_AT_A_TIME[what];
    if (work && held.working.has(work)) return this._refuse(peer, "busy", n, `a ${work} ask of this seat is in progress`, { id: "error.busy" });
    if (work) held.working.add(work);
    try {
      const ask = () => this.engine.request(what, { ...fields, guest: seat });
      const asked = performance.now();
      let result = await ask();
      while (what === "review_next" && !result.move) result = await ask();
      while (what === "hint" && result.thinking) result = await ask();
      while (what === "rerun_next" && !result.finished && performance.now() - asked < RERUN_ASK_MS) result = await ask();
      this._send(peer, { t: "answer", n, result });
    } catch (error) {
      this._refuse(peer, error.code ?? "refused", n, error.message, error.text);
    } finally {
      if (work) held.working.delete(work);
    }
    return undefined;
  }

  _tooFast(peer) {
    const now = performance.now();
    const times = (this._rates.get(peer) ?? []).filter((at) => now - at < RATE.perMs);
    times.push(now);
    this._rates.set(peer, times);
    return times.length > RATE.messages;
  }

  async _receive(text, peer) {
    if (this._tooFast(peer)) return this._refuse(null, "rate");
    if (text === null) return this._refuse(null, "oversized");
    const intent = readIntent(text);
    if (!intent) return this._refuse(null, "malformed");
    if (intent.t === "join") return this._join(intent, peer);
    const seat = this._peers.get(peer);
    if (seat === undefined) return this._refuse(null, "no_seat");
    const held = this.seats.get(seat);
    if (intent.t === "seed") return this._seed(seat, intent.seed, peer);
    if (intent.n <= held.lastIntent) return this._refuse(peer, "repeated", intent.n);
    held.lastIntent = intent.n;
    if (intent.t === "ask") return this._answer(peer, seat, intent);
    if (this._turn?.seat === seat) this._turn.resolve(intent);
    else if (this._onTurn(seat) && !this._early) this._early = { seat, intent };
    else return this._refuse(peer, "not_your_turn", intent.n);
    return undefined;
  }

  // The table waits for this guest's card (the engine's last view says so), whether or not
  // this page's flow has asked for it yet.
  _onTurn(seat) {
    return this._guestToMove() && this._view.to_move === seat;
  }

  async _join({ seat, name, token }, peer) {
    const held = this.seats.get(seat);
    if (!held) return this._refuse(null, "no_seat");
    if (held.token !== null && held.token !== token) return this._refuse(null, "seat_taken");
    if (held.token === null) {
      const taken = [...this.seats.values()].some((s) => s.name?.toLowerCase() === name.toLowerCase());
      if (!name || taken) return this._refuse(null, "bad_name");
      if (this._started) return this._refuse(null, "seat_taken");
      Object.assign(held, { name, token });
    }
    const before = held.peer;
    // The same peer asking again lost our answer (a connection still settling): answer again.
    if (before !== peer) {
      if (before) this._peers.delete(before);
      held.lastIntent = 0; // a page opened again counts its intents from 1
      held.peer = peer;
      this._peers.set(peer, seat);
      this._drawLobby();
    }
    this._send(peer, { t: "seated", seat, hello: await this.engine.ready, commit: await this.fair.commitment,
      ...(this.fair.leftOut(seat) ? { left_out: true } : {}) });
    const seats = [...this.seats].map(([at, s]) => ({ seat: at, name: s.name }));
    for (const s of this.seats.values()) if (s.peer) this._send(s.peer, { t: "lobby", seats });
    if (this._started) await this._sendView(seat);
    if (before !== peer) this.presence.changed();
    else this.presence.tell(peer);
    this._checkSeated();
    return undefined;
  }

  // A guest's seed, sent once it had the commitment; another seed from the same seat later
  // is refused (the deal may be dealt from the first already).
  _seed(seat, seed, peer) {
    if (!this.fair.take(seat, seed)) return this._refuse(peer, "seed_changed");
    this.keep();
    this._checkSeated();
    this._fairRound?.();
    return undefined;
  }

  // A new match at the same table: a new secret, its commitment to every guest here, and
  // their new seeds: every guest's, for FAIR_ROUND_MS at most. A guest away who comes back
  // meanwhile is sent the commitment with its seat and is in the mix; one who comes back
  // after the deal is told it is not (left_out), and its seed is not taken.
  async _newFairRound() {
    this.fair = new FairDeal();
    this._revealed = false;
    this.keep();
    const commit = await this.fair.commitment;
    for (const s of this.seats.values()) if (s.peer) this._send(s.peer, { t: "commit", commit });
    await new Promise((resolve) => {
      const done = () => {
        this._fairRound = null;
        resolve(undefined);
      };
      this._fairRound = () => {
        if (this.fair.hasAll([...this.seats.keys()])) done();
      };
      this._fairRound();
      setTimeout(done, FAIR_ROUND_MS);
    });
  }

  // The first deal waits for every guest's seat and seed.
  _checkSeated() {
    const seats = [...this.seats.keys()];
    if (seats.every((seat) => this.seats.get(seat).token !== null) && this.fair.hasAll(seats)) this._allSeated();
  }

  /** Keeps the room, its seats and the fair deal's secret and seeds for a reload of this tab
   * or the table opened again in another (a match over: not in another). */
  keep() {
    keep(this.hosting, this.seats, this.fair.kept(), this._revealed);
  }

  // -- the lobby: one invitation per guest's seat ------------------------------------------

  _showLobby() {
    const lobby = document.createElement("section");
    lobby.className = "remote-panel";
    lobby.dataset.remotePanel = "host";
    lobby.setAttribute("aria-live", "polite");
    lobby.innerHTML = `<p data-i18n="remote.host_lead">Send each friend the link of their seat.</p><ul></ul>
      <p class="remote-note" data-i18n="remote.who_sees"></p>
      <button type="button" class="btn" data-remote-start data-i18n="remote.start_now">Start now</button>`;
    lobby.querySelector("[data-remote-start]").addEventListener("click", () => this.startNow());
    for (const seat of this.seats.keys()) {
      const li = document.createElement("li");
      li.dataset.seat = SEAT_KEYS[seat];
      const link = document.createElement("a");
      link.href = inviteUrl(location.href, this.hosting, seat);
      link.dataset.invite = SEAT_KEYS[seat];
      const copy = document.createElement("button");
      copy.type = "button";
      copy.className = "btn";
      copy.dataset.i18n = "remote.copy";
      copy.addEventListener("click", () => navigator.clipboard?.writeText(link.href).catch(() => {}));
      const state = document.createElement("span");
      state.dataset.remoteSeatState = "";
      li.append(link, " ", copy, " ", state);
      // A pairing may start before the relays' room is open (its module still loading).
      pairByHand({ hosting: this.hosting, addRoom: (room) => this._opened.then(() => this._room.add(room)),
        ice: iceServers(this.hosting.relays, savedTurn()) }, seat, li);
      lobby.querySelector("ul").append(li);
      import("./qr.js").then(({ qrCode }) => {
        li.append(qrCode(link.href, ""));
        this._drawLobby();
      });
    }
    this._lobby = lobby;
    const place = () => {
      document.querySelector(".boot-card")?.append(lobby);
      this._drawLobby();
    };
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", place);
    else place();
    onLanguage(() => this._drawLobby());
  }

  /** Starts before every guest is seated: the seats not taken go to computer players. */
  startNow() {
    for (const [seat, s] of this.seats) {
      if (s.token !== null) continue;
      this.seats.delete(seat);
      this._lobby.querySelector(`[data-seat=${SEAT_KEYS[seat]}]`).remove();
    }
    this._allSeated();
  }

  _drawLobby() {
    const lobby = this._lobby;
    if (!hasWords()) return; // the page's words are loading: onLanguage comes next
    translatePage(lobby);
    lobby.querySelector("[data-remote-start]").hidden = [...this.seats.values()].every((s) => s.token !== null);
    for (const [seat, s] of this.seats) {
      const li = lobby.querySelector(`[data-seat=${SEAT_KEYS[seat]}]`);
      li.querySelector("a").textContent = t("remote.invite_for", { seat });
      li.querySelector("svg")?.setAttribute("aria-label", t("remote.qr_for", { seat }));
      li.dataset.joined = String(s.token !== null);
      li.querySelector("[data-remote-seat-state]").textContent = s.token === null
        ? t("remote.waiting_for", { seat }) : t("remote.joined", { name: s.name, seat });
    }
  }
}
