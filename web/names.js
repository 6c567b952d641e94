// What to call the seats and partnerships, as the engine labels them: the match in play's
// labels from its "table" (messages: "You", "Ana", "You & North", "Ana & Ben"), rendered in
// the page's language. The page makes up no label itself, and keeps no table of its own:
// namesOf(table) names by the table it is handed (the view's ui.names).

import { msg, say, seatName as nameOfSeat, t } from "./i18n.js";

/** "North", "East", "South" or "West", in the page's language (a form: "gen"…). */
export function seatName(seat, form = null) {
  return nameOfSeat(seat, form);
}

/**
 * The seed of a match as the page may name it, or null. A seed deals every hand again: while
 * a hand is covered from someone at this device (more than one person plays here, as the
 * match's settings seat them) it is named nowhere until the match is over. A guest's table
 * has no seed to name.
 */
export function nameableSeed(settings, over) {
  const here = (settings?.people ?? []).filter((person) => !person.remote);
  return settings?.seed === undefined || (here.length > 1 && !over) ? null : String(settings.seed);
}

/** A label marked as the trick's leader: "West · led". */
export function ledBy(text) {
  return t("trick.led_by", { who: text });
}

/**
 * The names of a match's table ({settings, seats: [{label, called, person, level, suit,
 * side}], sides}, or null before any match): what the engine calls each seat and side.
 */
export function namesOf(table) {
  /** The engine's label of a seat in the match, as a message. */
  const labelOf = (seat) => table?.seats[seat]?.label ?? msg("label.seat", { seat });
  /** What the engine calls a seat in the match: "You", "Ana", "North". */
  const label = (seat) => say(labelOf(seat));
  /** The engine's label of a partnership (0: North-South, 1: East-West), as a message. */
  const sideOf = (side) => table?.sides[side]
    ?? msg("label.side", { first: msg("label.seat", { seat: side }), second: msg("label.seat", { seat: side + 2 }) });
  /** The table's seats (numbers), North first: as many as the engine seats. */
  const seats = () => (table ? table.seats.map((_, seat) => seat) : []);
  /** The seats people play, North first. */
  const peopleSeats = () => seats().filter((seat) => table.seats[seat].person);
  return {
    labelOf,
    label,
    seats,
    /** The seat ``by`` places after ``seat`` in playing order (clockwise): who played the
     * card ``by`` of a trick ``seat`` led. */
    after: (seat, by) => (seat + by) % seats().length,
    /** Every seat's label, North first. */
    labels: () => seats().map(label),
    sideOf,
    /** What the engine calls a partnership. */
    sideLabel: (side) => say(sideOf(side)),
    peopleSeats,
    /** Whether someone at the table plays on another device (a friends' table). */
    elsewhere: () => (table?.settings.people ?? []).some((person) => person.remote),
    /** Whether one person plays (the engine then calls that seat "You"). */
    alone: () => peopleSeats().length === 1,
    /** Whether the engine calls this seat "You" (the one person at the table). */
    isYou: (seat) => table?.seats[seat]?.called === "you",
    /** Whether the engine calls this seat by its seat's name ("North"). */
    calledBySeat: (seat) => (table?.seats[seat]?.called ?? "seat") === "seat",
    /** Whether a person sits in this seat without a name (the seat's name is their label). */
    unnamedPerson: (seat) => Boolean(table?.seats[seat]?.person) && table.seats[seat].called === "seat",
  };
}
