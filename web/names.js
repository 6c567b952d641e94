// What to call the seats and partnerships, as the engine labels them: the match in play's
// labels from its "table" (messages: "You", "Ana", "You & North", "Ana & Ben"), rendered in
// the page's language. The page makes up no label itself.

import { msg, say, seatName as nameOfSeat, t } from "./i18n.js";

let table = null; // the match's table: {settings, seats: [{label, called, person, level, suit, side}], sides}

export function setTable(matchTable) {
  table = matchTable;
}

/** "North", "East", "South" or "West", in the page's language (a form: "gen"…). */
export function seatName(seat, form = null) {
  return nameOfSeat(seat, form);
}

/** The engine's label of a seat in the match in play, as a message. */
export function labelOf(seat) {
  return table?.seats[seat]?.label ?? msg("label.seat", { seat });
}

/** What the engine calls a seat in the match in play: "You", "Ana", "North". */
export function label(seat) {
  return say(labelOf(seat));
}

/** The four labels, North first. */
export function labels() {
  return [0, 1, 2, 3].map(label);
}

/** The engine's label of a partnership (0: North-South, 1: East-West), as a message. */
export function sideOf(side) {
  return table?.sides[side]
    ?? msg("label.side", { first: msg("label.seat", { seat: side }), second: msg("label.seat", { seat: side + 2 }) });
}

/** What the engine calls a partnership. */
export function sideLabel(side) {
  return say(sideOf(side));
}

/** The seats people play, North first. */
export function peopleSeats() {
  return table ? [0, 1, 2, 3].filter((seat) => table.seats[seat].person) : [];
}

/** Whether one person plays (the engine then calls that seat "You"). */
export function alone() {
  return peopleSeats().length === 1;
}

/** Whether the engine calls this seat "You" (the one person at the table). */
export function isYou(seat) {
  return table?.seats[seat]?.called === "you";
}

/** Whether a person sits in this seat without a name (the seat's name is their label). */
export function unnamedPerson(seat) {
  return Boolean(table?.seats[seat]?.person) && table.seats[seat].called === "seat";
}

/** A label marked as the trick's leader: "West · led". */
export function ledBy(text) {
  return t("trick.led_by", { who: text });
}
