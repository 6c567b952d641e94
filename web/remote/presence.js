// Who is at a remote table (docs/remote.md): which guests are connected, which are away, and
// for whom a computer player stands in; what every screen shows about it, and what screen
// readers hear (joins, leaves, waits, stand-ins).
//
// The host keeps the seats (HostClient.seats): a guest's name and token, whether their page
// is connected, the level of a computer standing in for them. They are kept in this browser
// with the room (kept.js), so that a host who reloads or opens the table again reopens the
// same room and the guests' tokens still hold. Guests hear of every change as
//   {t: "presence", seats: [{seat, name, here, computer}], host: true}
// and draw the same banner (drawPresence).

import { $, h, redraw } from "../dom.js";
import { hasWords, onLanguage, say, t } from "../i18n.js";
import { MAX_NAME_CHARS } from "./wire.js";

/** The guests' seats as every screen is told: [{seat, name, here, computer}]. */
export function presenceOf(seats) {
  return [...seats].map(([seat, s]) => ({ seat, name: s.name, here: s.peer !== null, computer: s.computer }));
}

/** A presence message's seats checked for shape (names are shown as text), else null: at
 * most one a seat but the host's, of the seats the host's hello gives. */
export function readPresence(seats, hello) {
  const count = hello.seats.length;
  if (!Array.isArray(seats) || seats.length >= count) return null;
  const ok = seats.every((p) => p && Number.isInteger(p.seat) && p.seat >= 0 && p.seat < count
    && (p.name === null || (typeof p.name === "string" && p.name.length <= MAX_NAME_CHARS))
    && typeof p.here === "boolean" && (p.computer === null || (typeof p.computer === "string" && p.computer.length <= 20)));
  return ok ? seats.map(({ seat, name, here, computer }) => ({ seat, name, here, computer })) : null;
}

// -- what screen readers hear ------------------------------------------------------------------

export const said = []; // every sentence this page announced, in order (the tests read it)

/** Says sentences to screen readers (a polite live region of its own). */
export function announce(sentences) {
  if (!sentences.length) return;
  said.push(...sentences);
  const text = sentences.join(" ");
  let live = $("[data-presence-live]");
  if (!live) {
    live = h("p", { class: "sr-only", "data-presence-live": "", "aria-live": "polite", role: "status" });
    document.body.append(live);
  }
  live.textContent = text;
}

/** What changed between two presences, as sentences: joins, leaves, returns, stand-ins. */
export function changes(before, after, me = null) {
  const said = [];
  for (const now of after) {
    const was = before.find((p) => p.seat === now.seat) ?? { name: null, here: false, computer: null };
    const who = { name: now.name, seat: now.seat };
    if (now.seat === me) {
      if (now.computer && !was.computer) said.push(t("presence.stand_in_you", { level: now.computer }));
      continue;
    }
    if (now.name && was.name === null && now.here) said.push(t("presence.joined", who));
    else if (now.here && !was.here && now.name) said.push(t("presence.back", who));
    else if (!now.here && was.here) said.push(t("presence.left", who), t("presence.waiting", who));
    if (now.computer && !was.computer) said.push(t("presence.stand_in", { ...who, level: now.computer }));
    else if (!now.computer && was.computer) said.push(t("presence.given_back", who));
  }
  return said;
}

// -- the banner on every screen ----------------------------------------------------------------

/**
 * Draws what every screen says about who is away: "Waiting for Ben (North)…", or who a
 * computer plays for; on the host's screen, with the buttons that give an away guest's seat
 * to a computer player of a level and back. state: {seats: presence, hostAway, me, levels,
 * started, onGive, onGiveBack}: me is this guest's seat (null on the host's page), levels the
 * engine's levels for the host's choice.
 */
export function drawPresence(state) {
  let banner = $("[data-presence]");
  if (!banner) {
    banner = h("div", { class: "remote-presence", "data-presence": "" });
    const notice = $("[data-notice]");
    if (notice) notice.before(banner);
    else document.body.append(banner);
    onLanguage(() => {
      delete banner.dataset.key;
      drawPresence(banner.state);
    });
  }
  banner.state = state;
  if (!hasWords()) return;
  const { seats, hostAway, me, levels, started } = state;
  const lines = [];
  if (hostAway) lines.push({ text: t("presence.waiting_host"), away: true });
  for (const p of started ? seats : []) {
    const who = { name: p.name, seat: p.seat };
    if (p.computer) {
      lines.push({ seat: p.seat, text: p.seat === me ? t("presence.stand_in_you", { level: p.computer })
        : t("presence.stand_in", { ...who, level: p.computer }), computer: true, here: p.here, name: p.name });
    } else if (!p.here && p.seat !== me) {
      lines.push({ seat: p.seat, text: t("presence.waiting", who), away: true, name: p.name });
    }
  }
  banner.hidden = lines.length === 0;
  banner.dataset.away = String(lines.some((l) => l.away));
  redraw(banner, JSON.stringify([lines, levels?.length ?? 0]), () => lines.map((line) => {
    const row = h("p", { "data-presence-seat": line.seat ?? "host", "data-presence-state": line.away ? "away" : "computer" },
      h("span", { text: line.text }));
    if (levels && line.seat !== undefined) row.append(...controls(line, state));
    return row;
  }));
}

// The host's buttons for one seat: a level and "let a computer play", or "give the seat back".
function controls(line, { levels, onGive, onGiveBack }) {
  if (line.computer) {
    const back = h("button", { type: "button", class: "btn btn-primary", "data-presence-give-back": line.seat,
      text: t("presence.give_back", { name: line.name }) });
    back.addEventListener("click", () => onGiveBack(line.seat));
    return [back];
  }
  const select = h("select", { "data-presence-level": line.seat, "aria-label": t("presence.level") },
    levels.map((l, i) => h("option", { value: l.key, text: say(l.label), selected: i === 1 })));
  const give = h("button", { type: "button", class: "btn btn-primary", "data-presence-give": line.seat,
    text: t("presence.give", { name: line.name }) });
  give.addEventListener("click", () => onGive(line.seat, select.value));
  return [select, give];
}

// -- the host's side ---------------------------------------------------------------------------

/**
 * What the host's table does when someone comes or goes: tells every guest, redraws the
 * banner, says it to screen readers, keeps the seats for a reload, and stops announcing to
 * the relays while every guest's seat is connected (room.quiet). host: the HostClient.
 */
export class HostPresence {
  constructor(host) {
    this.host = host;
    this._said = presenceOf(host.seats);
    this._hello = null;
    host.engine.ready.then((hello) => {
      this._hello = hello;
      this.draw();
    });
  }

  /** After a join, a leave or a stand-in: everything that follows from it. */
  changed() {
    const host = this.host;
    const now = presenceOf(host.seats);
    const said = changes(this._said, now);
    this._said = now;
    if (host.started) announce(said);
    host.keep();
    for (const s of host.seats.values()) if (s.peer) host.send(s.peer, { t: "presence", seats: now });
    host.room?.quiet(now.every((p) => p.here));
    this.draw();
  }

  /** Tells one guest's page who is here (a guest just seated). */
  tell(peer) {
    this.host.send(peer, { t: "presence", seats: presenceOf(this.host.seats) });
  }

  draw() {
    const host = this.host;
    drawPresence({
      seats: presenceOf(host.seats), hostAway: false, me: null, started: host.started,
      levels: this._hello?.levels ?? null,
      onGive: (seat, level) => this.give(seat, level),
      onGiveBack: (seat) => this.give(seat, null),
    });
  }

  /** A computer player of level plays for the guest at seat (level null: the guest again). */
  async give(seat, level) {
    const host = this.host;
    const held = host.seats.get(seat);
    if (!held || (held.computer ?? null) === level) return;
    const view = await host.engine.request("stand_in", { seat, level });
    held.computer = level;
    host.tellGuests(view);
    host.standInChanged(seat);
    this.changed();
  }

  /** Gives the seats back to the computers that stood in before a reload of the page. */
  async restore() {
    for (const [seat, s] of this.host.seats) {
      if (s.computer) await this.host.engine.request("stand_in", { seat, level: s.computer });
    }
  }
}

// -- a guest's side ----------------------------------------------------------------------------

/** What a guest's page shows and says about who is here; me: this guest's seat. */
export class GuestPresence {
  constructor(me) {
    this.me = me;
    this.seats = [];
    this.hostAway = false;
    this.started = false;
  }

  /** A presence message from the host. */
  heard(seats) {
    const said = changes(this.seats, seats, this.me);
    announce(said);
    this.seats = seats;
    this.draw();
  }

  /** The host's page left (a reload, a lost connection) or came back. */
  host(away) {
    if (away === this.hostAway) return;
    this.hostAway = away;
    if (this.started) announce([t(away ? "presence.waiting_host" : "presence.host_back")]);
    this.draw();
  }

  /** The table is dealt: the banner and the announcements begin. */
  start() {
    if (this.started) return;
    this.started = true;
    this.draw();
  }

  draw() {
    drawPresence({ seats: this.seats, hostAway: this.hostAway && this.started, me: this.me,
      started: this.started, levels: null });
  }
}
