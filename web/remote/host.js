// A host's table: this tab's engine (its worker) and computer players, with guests on other
// devices. Wraps the tab's EngineClient with the same surface, so the page's flow runs
// unchanged: the first deal waits until every guest's seat is taken and seats them; a "step"
// on a guest's turn waits for that guest's card and plays it with seat_play (the engine
// checks it as any card); after every change each guest is sent its own seat_view, and
// nothing else about the game.

import { hasWords, onLanguage, t, translatePage } from "../i18n.js";
import { FairDeal } from "./commit.js";
import { inviteUrl, SEAT_KEYS } from "./invite.js";
import { joinRooms, pairByHand } from "./manual.js";
import { iceServers } from "./relays.js";
import { savedTurn } from "./turn.js";
import { readIntent } from "./wire.js";

const DEALS = new Set(["new_game", "load", "daily"]);
const CHANGES = new Set(["play", "step", "undo", "next_game", "view", "reveal"]);
const RATE = { messages: 20, perMs: 1000 }; // a peer's messages beyond this are dropped

export class HostClient {
  constructor(engine, hosting) {
    this.engine = engine;
    this.hosting = hosting; // {guests, relays, room, secret}
    this.refused = {}; // reason -> how many messages were refused for it
    this.ready = engine.ready;
    this.seats = new Map(hosting.guests.map((seat) => [seat, { name: null, token: null, peer: null, lastIntent: 0 }]));
    this._peers = new Map(); // peer -> seat
    this._rates = new Map(); // peer -> times of its recent messages
    this._view = null; // this device's latest view
    this._started = false;
    this._turn = null; // {seat, resolve}: a guest's card awaited
    this.fair = new FairDeal(); // the deal's seed mixes this secret and the guests' seeds
    this._revealed = false;
    this._seatedAll = new Promise((resolve) => {
      this._allSeated = resolve;
    });
    this._showLobby();
    this._open();
  }

  onProgress(listener) {
    return this.engine.onProgress(listener);
  }

  onRestart(listener) {
    return this.engine.onRestart(listener);
  }

  get game() {
    return this.engine.game;
  }

  /** The seat of this device's person: South, else the first seat no guest takes. */
  get hostSeat() {
    return [2, 3, 0, 1].find((seat) => !this.seats.has(seat));
  }

  async request(type, payload = {}) {
    if (!this._started && DEALS.has(type)) return this._deal(payload);
    if (type === "step" && this._guestToMove()) return this._guestCard(this._view.to_move);
    const reply = await this.engine.request(type, payload);
    if (CHANGES.has(type)) this._tellGuests(reply);
    return reply;
  }

  // -- the game ----------------------------------------------------------------------------

  // The first deal of the page, once every guest is seated: the page's level and rules, with
  // this device's person and the guests in their seats; a match of one game.
  async _deal(payload) {
    await this._seatedAll;
    const people = [{ seat: this.hostSeat, name: "" },
      ...[...this.seats].map(([seat, s]) => ({ seat, name: s.name, remote: true }))];
    const deal = { people, games: 1 };
    for (const key of ["level", "levels", "rules", "suit"]) if (payload[key] !== undefined) deal[key] = payload[key];
    deal.seed = await this.fair.dealSeed(this.engine); // never ?seed=: nobody chooses the cards
    const view = await this.engine.request("new_game", deal);
    this._started = true;
    this._lobby.hidden = true;
    this._tellGuests(view);
    return view;
  }

  _guestToMove() {
    const view = this._view;
    return Boolean(view && view.status === "waiting" && this.seats.has(view.to_move));
  }

  // Waits for the guest at seat to send a card the engine takes; each refusal goes back.
  async _guestCard(seat) {
    for (;;) {
      const intent = await new Promise((resolve) => {
        this._turn = { seat, resolve };
      });
      this._turn = null;
      try {
        const reply = await this.engine.request("seat_play", { seat, card: intent.card });
        this._tellGuests(reply);
        return reply;
      } catch (error) {
        this._refuse(this.seats.get(seat).peer, error.code ?? "refused", intent.n, error.message);
      }
    }
  }

  // This device's reply goes to its page at once; the guests' views follow (their seat_view
  // requests are queued to the worker now, in order, so each guest gets them in order).
  _tellGuests(reply) {
    this._changed(reply).catch((error) => console.error("a guest's view was not sent", error));
  }

  // Takes a reply as this device's view and sends each guest its own.
  async _changed(reply) {
    if (!reply || typeof reply.status !== "string") return;
    this._view = reply;
    await Promise.all([...this.seats.keys()].map((seat) => this._sendView(seat, reply.event ?? null)));
    if (reply.status === "game_over" && !this._revealed) {
      this._revealed = true; // the game is over: every guest gets its recipe and the seeds
      const reveal = this.fair.reveal(await this.engine.request("record"));
      for (const s of this.seats.values()) if (s.peer) this._send(s.peer, reveal);
    }
  }

  async _sendView(seat, event = null) {
    const peer = this.seats.get(seat).peer;
    if (!peer || !this._started) return;
    const view = await this.engine.request("seat_view", { seat });
    this._send(peer, { t: "view", view: { ...view, event } });
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
    });
  }

  _send(peer, message) {
    this._room?.send(JSON.stringify(message), peer);
  }

  _refuse(peer, reason, n = null, message = reason) {
    this.refused[reason] = (this.refused[reason] ?? 0) + 1;
    if (peer && n !== null) this._send(peer, { t: "refused", code: reason, message, n });
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
    if (this._turn?.seat !== seat) return this._refuse(peer, "not_your_turn", intent.n);
    this._turn.resolve(intent);
    return undefined;
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
    this._send(peer, { t: "seated", seat, hello: await this.engine.ready, commit: await this.fair.commitment });
    const seats = [...this.seats].map(([at, s]) => ({ seat: at, name: s.name }));
    for (const s of this.seats.values()) if (s.peer) this._send(s.peer, { t: "lobby", seats });
    if (this._started) await this._sendView(seat);
    this._checkSeated();
    return undefined;
  }

  // A guest's seed, sent once it had the commitment; another seed from the same seat later
  // is refused (the deal may be dealt from the first already).
  _seed(seat, seed, peer) {
    if (!this.fair.take(seat, seed)) return this._refuse(peer, "seed_changed");
    this._checkSeated();
    return undefined;
  }

  // The first deal waits for every guest's seat and seed.
  _checkSeated() {
    const seats = [...this.seats.keys()];
    if (seats.every((seat) => this.seats.get(seat).token !== null) && this.fair.hasAll(seats)) this._allSeated();
  }

  // -- the lobby: one invitation per guest's seat ------------------------------------------

  _showLobby() {
    const lobby = document.createElement("section");
    lobby.className = "remote-panel";
    lobby.dataset.remotePanel = "host";
    lobby.setAttribute("aria-live", "polite");
    lobby.innerHTML = `<p data-i18n="remote.host_lead">Send each friend the link of their seat.</p><ul></ul>
      <p class="remote-note" data-i18n="remote.who_sees"></p>`;
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
      pairByHand({ hosting: this.hosting, addRoom: (room) => this._room?.add(room),
        ice: iceServers(this.hosting.relays, savedTurn()) }, seat, li);
      lobby.querySelector("ul").append(li);
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

  _drawLobby() {
    const lobby = this._lobby;
    if (!hasWords()) return; // the page's words are loading: onLanguage comes next
    translatePage(lobby);
    for (const [seat, s] of this.seats) {
      const li = lobby.querySelector(`[data-seat=${SEAT_KEYS[seat]}]`);
      li.querySelector("a").textContent = t("remote.invite_for", { seat });
      li.dataset.joined = String(s.token !== null);
      li.querySelector("[data-remote-seat-state]").textContent = s.token === null
        ? t("remote.waiting_for", { seat }) : t("remote.joined", { name: s.name, seat });
    }
  }
}
