// Who is at a remote table (docs/remote.md): which guests are connected, which are away, and
// for whom a computer player stands in, and what screen readers hear of it (joins, leaves,
// waits, stand-ins). No DOM here: the page's state says it (app.remote.seats, .said), and the
// remote panel draws it (remote/panel.js).
//
// The host keeps the seats (HostClient.seats): a guest's name and token, whether their page
// is connected, the level of a computer standing in for them. They are kept in this browser
// with the room (kept.js), so that a host who reloads or opens the table again reopens the
// same room and the guests' tokens still hold. Guests hear of every change as
//   {t: "presence", seats: [{seat, name, here, computer}]}
// and show the same banner.

import { t } from "../i18n.js";
import { remoteHostAway, remoteSay, remoteSeats, remoteStarted, requestDraw } from "../state.js";
import { MAX_NAME_UNITS } from "./wire.js";

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
    && (p.name === null || (typeof p.name === "string" && p.name.length <= MAX_NAME_UNITS))
    && typeof p.here === "boolean" && (p.computer === null || (typeof p.computer === "string" && p.computer.length <= 20)));
  return ok ? seats.map(({ seat, name, here, computer }) => ({ seat, name, here, computer })) : null;
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

// -- the host's side ---------------------------------------------------------------------------

/**
 * What the host's table does when someone comes or goes: tells every guest, says it on the
 * page and to screen readers, keeps the seats for a reload, and stops announcing to the
 * relays while every guest's seat is connected (room.quiet). host: the HostClient.
 */
export class HostPresence {
  constructor(host) {
    this.host = host;
    this._said = presenceOf(host.seats);
    remoteSeats(this._said);
  }

  /** After a join, a leave or a stand-in: everything that follows from it. */
  changed() {
    const host = this.host;
    const now = presenceOf(host.seats);
    const said = changes(this._said, now);
    this._said = now;
    if (host.started) remoteSay(said);
    host.keep();
    for (const s of host.seats.values()) if (s.peer) host.send(s.peer, { t: "presence", seats: now });
    host.room?.quiet(now.every((p) => p.here));
    remoteSeats(now);
    requestDraw();
  }

  /** Tells one guest's page who is here (a guest just seated). */
  tell(peer) {
    this.host.send(peer, { t: "presence", seats: presenceOf(this.host.seats) });
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
    remoteSay(changes(this.seats, seats, this.me));
    this.seats = seats;
    remoteSeats(seats);
    requestDraw();
  }

  /** The host's page left (a reload, a lost connection) or came back. */
  host(away) {
    if (away === this.hostAway) return;
    this.hostAway = away;
    if (this.started) remoteSay([t(away ? "presence.waiting_host" : "presence.host_back")]);
    remoteHostAway(away);
    requestDraw();
  }

  /** The table is dealt: the banner and the announcements begin. */
  start() {
    if (this.started) return;
    this.started = true;
    remoteStarted();
    requestDraw();
  }
}
