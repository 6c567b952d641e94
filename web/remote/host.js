// A host's table: this tab's engine (its worker) and computer players, with guests on other
// devices. Wraps the tab's EngineClient with the same surface, so the page's flow runs
// unchanged: the first deal waits until every guest's seat is taken and seats them; a "step"
// on a guest's turn waits for that guest's card and plays it (play for the guest's seat: the
// engine checks it as any card); after every change each guest is sent its own view, which
// the engine's reply carries beside this device's (guests), and nothing else about the game.
//
// It speaks the protocol only: what the table shows (the lobby, who is here, the pairings by
// hand) goes into the page's state through state.js's remote* functions, and the remote panel
// draws it (remote/panel.js); the panel's buttons are intents of app.js, which call startNow,
// startPair, acceptAnswer and presence.give here.
//
// A seat is taken only with its own ticket (invite.js): a link edited to another seat is
// refused with words for that page, as is a second seat for one page, and a second device
// while the seat's own is connected; a name only once the engine's check_name passes it.
// A guest's asks (a hint, a review and its lines, the master in its seat) reach the worker one
// slice at a time, the guests in turn, so that no guest holds this device's own requests for
// long.

import { remoteInvites, remoteLobby, remoteOpened, remotePair, remoteStarted, requestDraw } from "../state.js";
import { loadSettings } from "../storage.js";
import { FairDeal } from "./fair.js";
import { inviteUrl } from "./invite.js";
import { hosting, keep } from "./kept.js";
import { joinRooms, offerPair } from "./manual.js";
import { HostPresence } from "./presence.js";
import { iceServers } from "./relays.js";
import { savedTurn } from "./turn.js";
import { ONE_AT_A_TIME, RATE, proofOf, readIntent } from "./wire.js";

const FAIR_ROUND_MS = 5_000; // a new match waits this long at most for the guests' new seeds
// A guest's ask for more of the master's game plays on this long (rerun_next slices of 50 ms
// for its seat, this device's requests between them), then answers: the guest's page draws
// progress.
const RERUN_ASK_MS = 300;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
// The words a page refused its seat is shown (a message of the catalogs), by reason.
const JOIN_REFUSALS = { no_seat: "remote.refused_no_seat", bad_ticket: "remote.refused_ticket",
  one_seat: "remote.refused_one_seat", seat_in_use: "remote.refused_in_use" };

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
    // seat -> {ticket, name, token, peer, lastIntent, computer: the level standing in, or
    // null, working: the kinds of work (ONE_AT_A_TIME) of this guest's asks in progress}
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
    this._asks = new Map(); // seat -> its asks waiting for a slice of the worker, in order
    this._served = -1; // the seat whose ask had the last slice (the guests take turns)
    this._serving = false;
    this._sending = Promise.resolve(); // the guests' views, in order, each after its card's hold
    this._pairs = new Map(); // seat -> the pairing by hand in progress ({pair, joined})
    remoteOpened("host", { invites: this._invites() });
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
    this._begin();
    const view = this.tellGuests(reply);
    this.presence.changed();
    return view;
  }

  // The table is dealt (or loaded): the lobby goes.
  _begin() {
    this._started = true;
    remoteStarted();
    requestDraw();
  }

  // The names this device's saved settings give its people, "" for a seat a guest takes.
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
    this._begin();
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
   * every reply that is a view of a table with guests) once the card it shows has been held
   * as long as this page holds it (a computer's: event.hold_ms), the views in the order they
   * came; returns this device's view, for its page. A reply of another match (a game
   * opened, the day's deal) has no guests. */
  tellGuests(reply) {
    if (!reply || typeof reply.status !== "string" || !reply.guests) return reply;
    const { guests, ...view } = reply;
    this._view = view;
    if (this._early && !this._onTurn(this._early.seat)) this._early = null; // undone meanwhile
    const due = performance.now() + (view.event?.hold_ms ?? 0);
    this._sending = this._sending.then(() => sleep(due - performance.now())).then(() => {
      for (const [seat, s] of this.seats) if (s.peer && this._started && guests[seat]) this._send(s.peer, { t: "view", view: guests[seat] });
      return this._revealAtEnd(view);
    }).catch((error) => console.error("a guest's view was not sent", error));
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
      this._lobby();
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

  // A join refused, with words for the page that asked (it holds no seat: n is null); retype:
  // its name is what is refused, so that its page asks for another.
  _refuseJoin(peer, reason, text = { id: JOIN_REFUSALS[reason] }, retype = false) {
    this.refused[reason] = (this.refused[reason] ?? 0) + 1;
    this._send(peer, { t: "refused", code: reason, message: reason, n: null, text, ...(retype ? { retype } : {}) });
  }

  // A guest's question (a hint, a review, its next card, the master in its seat): the engine's
  // request of that name made for the seat the guest holds (never one the guest names), from
  // that seat's observation. A guest has one ask of each work (ONE_AT_A_TIME) at a time:
  // another meanwhile is refused (busy). The asks wait in a queue per guest and reach the
  // worker one slice at a time (_serve).
  _answer(peer, seat, { what, n, fields }) {
    const held = this.seats.get(seat);
    const work = ONE_AT_A_TIME[what];
    if (held.working.has(work)) return this._refuse(peer, "busy", n, `a ${work} ask of this seat is in progress`, { id: "error.busy" });
    held.working.add(work);
    const queue = this._asks.get(seat) ?? [];
    queue.push({ peer, seat, what, n, fields, work, asked: performance.now() });
    this._asks.set(seat, queue);
    this._serve();
    return undefined;
  }

  // Serves the guests' asks: one request to the worker at a time, each a slice of 50 ms at
  // most (a guest's hint, review and rerun are searched in slices), the guests in turn, an ask
  // not done going back to the end of its guest's queue. This device's own requests go
  // straight to the worker, so they wait for one slice at most, however many guests ask.
  async _serve() {
    if (this._serving) return;
    this._serving = true;
    try {
      for (let ask = this._nextAsk(); ask; ask = this._nextAsk()) {
        let result = null;
        let failure = null;
        try {
          result = await this.engine.request(ask.what, { ...ask.fields, guest: ask.seat });
        } catch (error) {
          failure = error;
        }
        if (!failure && this._more(ask, result)) {
          this._asks.get(ask.seat).push(ask);
          continue;
        }
        this.seats.get(ask.seat)?.working.delete(ask.work);
        if (failure) this._refuse(ask.peer, failure.code ?? "refused", ask.n, failure.message, failure.text);
        else this._send(ask.peer, { t: "answer", n: ask.n, result });
      }
    } finally {
      this._serving = false;
    }
  }

  // The next guest's ask to serve: the first of the next guest after the last one served.
  _nextAsk() {
    const seats = [...this._asks.keys()].filter((seat) => this._asks.get(seat).length).sort((a, b) => a - b);
    if (!seats.length) return null;
    const seat = seats.find((s) => s > this._served) ?? seats[0];
    this._served = seat;
    return this._asks.get(seat).shift();
  }

  // Whether an ask needs another slice before it is answered: the engine still thinking (a
  // hint, a card's lines played out), a review's card not done yet, the master's game played
  // on for less than RERUN_ASK_MS.
  _more({ what, asked }, result) {
    return result.thinking === true || (what === "review_next" && !result.move)
      || (what === "rerun_next" && !result.finished && performance.now() - asked < RERUN_ASK_MS);
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

  // A page asks for a seat with the seat's ticket: its own token takes it back as it is; a
  // page holding no seat takes a seat no page holds (checking its name first, while the table
  // is not dealt), or one whose page is gone (the same invitation on another device). A ticket
  // of another seat, a second seat for one page, and a seat whose page is connected are
  // refused, with words for that page.
  async _join({ seat, name, token, ticket }, peer) {
    const held = this.seats.get(seat);
    if (!held) return this._refuseJoin(peer, "no_seat");
    if (ticket !== held.ticket) return this._refuseJoin(peer, "bad_ticket");
    const other = this._peers.get(peer);
    if (other !== undefined && other !== seat) return this._refuseJoin(peer, "one_seat");
    if (held.token !== token) {
      if (held.peer !== null && held.peer !== peer) return this._refuseJoin(peer, "seat_in_use");
      if (held.token === null && this._started) return this._refuseJoin(peer, "no_seat");
      if (held.token === null) {
        const kept = await this._checkName(name, seat, peer);
        if (kept === null || this.seats.get(seat) !== held || held.token !== null) return undefined;
        held.name = kept;
      }
      held.token = token; // the seat's own page: from now on, this token takes it back
    }
    const before = held.peer;
    // The same peer asking again lost our answer (a connection still settling): answer again.
    if (before !== peer) {
      if (before) this._peers.delete(before);
      held.lastIntent = 0; // a page opened again counts its intents from 1
      held.peer = peer;
      this._peers.set(peer, seat);
    }
    this._send(peer, { t: "seated", seat, hello: await this.engine.ready, commit: await this.fair.commitment,
      proof: await proofOf(held.ticket, seat, token), ...(this.fair.leftOut(seat) ? { left_out: true } : {}) });
    const seats = [...this.seats].map(([at, s]) => ({ seat: at, name: s.name }));
    for (const s of this.seats.values()) if (s.peer) this._send(s.peer, { t: "lobby", seats });
    if (this._started) await this._sendView(seat);
    this._lobby();
    if (before !== peer) this.presence.changed();
    else this.presence.tell(peer);
    this._checkSeated();
    return undefined;
  }

  // A new guest's name as the engine keeps it, judged by its rule and against the names at the
  // table (the other guests', this device's people's); null when it is refused, and the page
  // told why in its words.
  async _checkName(name, seat, peer) {
    const taken = [...this.seats].filter(([at, s]) => at !== seat && s.name).map(([, s]) => s.name);
    taken.push(...(loadSettings().people ?? []).filter((p) => !this.seats.has(p.seat) && p.name).map((p) => p.name));
    try {
      return (await this.engine.request("check_name", { name, taken })).name;
    } catch (error) {
      this._refuseJoin(peer, "bad_name", error.text ?? { id: "error.bad_name" }, true);
      return null;
    }
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
    this._lobby();
    if (seats.every((seat) => this.seats.get(seat).token !== null) && this.fair.hasAll(seats)) this._allSeated();
  }

  /** Keeps the room, its seats and the fair deal's secret and seeds for a reload of this tab
   * or the table opened again in another (a match over: not in another). */
  keep() {
    keep(this.hosting, this.seats, this.fair.kept(), this._revealed);
  }

  // -- the lobby: one invitation per guest's seat ------------------------------------------

  // Each guest's seat's invitation: this page's address with the room and the seat's ticket.
  _invites() {
    return Object.fromEntries([...this.seats].map(([seat, s]) => [seat, inviteUrl(location.href, this.hosting, seat, s.ticket)]));
  }

  // What the lobby shows: the seats taken, and what the deal waits for (a guest to take a
  // seat, the guests' seeds for a fair deal).
  _lobby() {
    const joined = [...this.seats].filter(([, s]) => s.token !== null).map(([seat]) => seat);
    const waiting = joined.length < this.seats.size ? "guests" : this.fair.hasAll(joined) ? null : "seeds";
    remoteLobby(joined, this._started ? null : waiting);
    requestDraw();
  }

  /** Starts before every guest is seated: the seats not taken go to computer players. */
  startNow() {
    for (const [seat, s] of this.seats) if (s.token === null) this.seats.delete(seat);
    remoteInvites(this._invites());
    this._lobby();
    this._allSeated();
  }

  /** Pairs a guest's seat by hand (manual.js): its offer, as a pairing link, to send the guest. */
  async startPair(seat) {
    if (!this.seats.has(seat) || this._pairs.has(seat)) return;
    const pair = offerPair(iceServers(this.hosting.relays, savedTurn()));
    const entry = { pair, joined: false };
    this._pairs.set(seat, entry);
    remotePair(seat, { link: null, state: "offering" });
    requestDraw();
    // A pairing may start before the relays' room is open (its module still loading).
    this._opened.then(() => this._room.add(pair.room));
    pair.room.onJoin(() => {
      entry.joined = true;
      remotePair(seat, { state: "connected" });
      requestDraw();
    });
    const offer = await pair.offer;
    remotePair(seat, { link: `${inviteUrl(location.href, this.hosting, seat, this.seats.get(seat).ticket)}&offer=${offer}` });
    requestDraw();
  }

  /** Takes the guest's answer pasted under its seat's pairing link. */
  async acceptAnswer(seat, text) {
    const entry = this._pairs.get(seat);
    if (!entry) return;
    const taken = await entry.pair.accept(String(text ?? ""));
    // The guest may have joined while the answer was taken (a busy machine): it stays so.
    if (entry.joined) return;
    remotePair(seat, { state: taken ? "connecting" : "bad_answer" });
    requestDraw();
  }
}
