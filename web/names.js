// What to call the seats and partnerships, as the engine labels them: seat names from its
// hello ("North"), and for the match in play the labels of its "table" ("You", "Ana",
// "You & North", "Ana & Ben"). The page writes none of them itself.

let seats = []; // hello.seats: [{key, name}]
let table = null; // the match's table: {settings, seats: [{label, person, level, suit, side}], sides}

export function setSeats(helloSeats) {
  seats = helloSeats;
}

export function setTable(matchTable) {
  table = matchTable;
}

/** "North", "East", "South" or "West". */
export function seatName(seat) {
  return seats[seat]?.name ?? String(seat);
}

/** What the engine calls a seat in the match in play: "You", "Ana", "North". */
export function label(seat) {
  return table?.seats[seat]?.label ?? seatName(seat);
}

/** The four labels, North first. */
export function labels() {
  return [0, 1, 2, 3].map(label);
}

/** What the engine calls a partnership (0: North-South, 1: East-West). */
export function sideLabel(side) {
  return table?.sides[side] ?? `${seatName(side)} & ${seatName(side + 2)}`;
}

/** The seats people play, North first. */
export function peopleSeats() {
  return table ? [0, 1, 2, 3].filter((seat) => table.seats[seat].person) : [];
}

/** Whether one person plays (the engine then calls that seat "You"). */
export function alone() {
  return peopleSeats().length === 1;
}

/** "You win" for the one person, "Ana wins" and "North wins" otherwise. */
export function wins(seat) {
  return alone() && table.seats[seat].person ? `${label(seat)} win` : `${label(seat)} wins`;
}
