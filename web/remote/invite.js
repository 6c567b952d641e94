// The addresses of a remote table. The room and its secret travel after "#", which browsers
// never send to the page's host: #join=ROOM&key=SECRET&seat=north&ticket=TICKET
// [&relays=ws://…,…] (relays only when they are not the pinned ones). The room's key is every
// guest's (it encrypts the signalling); the ticket is the seat's own, 128 random bits the host
// draws for it: a link edited to another seat carries the wrong ticket, and is refused. The host's page is opened with
// ?remote=north,east (the guests' seats, by seat key) and optionally ?relays=….

import { DEFAULT_RELAYS, parseRelays } from "./relays.js";

export const ROOM_ID = /^[A-Za-z0-9_-]{8,64}$/; // a room's id and its secret
const TICKET = /^[0-9a-f]{32}$/; // a seat's own secret (wire.js's newToken)
// The seats' names in these addresses, by seat number. They are the engine's seat keys (its
// hello's seats; tests/test_web_sources.py holds the two equal), written here because a
// guest's page has no engine of its own: it learns the hello from the host only once seated,
// yet before that it must read which seat the link is for, word it ("Take the North seat")
// and ask the host for it by number (join). The host's page reads ?remote= with the same
// names, and writes them into the links it hands out, so both ends read one address format.
export const SEAT_KEYS = ["north", "east", "south", "west"];

function randomId(bytes = 16) {
  const data = crypto.getRandomValues(new Uint8Array(bytes));
  return btoa(String.fromCharCode(...data)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The invitation a page address holds after "#": {room, secret, seat, ticket, relays}, or
 * null (none, or one that cannot be read: link.js says so). */
export function readInvite(href) {
  const hash = new URL(href).hash.slice(1);
  if (!hash.startsWith("join=")) return null;
  const params = new URLSearchParams(hash);
  const room = params.get("join");
  const secret = params.get("key");
  const seat = SEAT_KEYS.indexOf(params.get("seat"));
  const ticket = params.get("ticket") ?? "";
  const relays = params.has("relays") ? parseRelays(params.get("relays")) : { relays: DEFAULT_RELAYS };
  if (!ROOM_ID.test(room) || !ROOM_ID.test(secret ?? "") || seat < 0 || !TICKET.test(ticket) || relays.error) return null;
  return { room, secret, seat, ticket, relays: relays.relays };
}

// The guests' seats of ?remote=north,east (numbers), or null when they are not 1 to 3
// different seats.
function guestSeats(text) {
  const keys = text.split(",").map((k) => k.trim().toLowerCase());
  const guests = keys.map((k) => SEAT_KEYS.indexOf(k));
  if (!keys.length || guests.some((s) => s < 0) || new Set(guests).size !== guests.length || guests.length >= SEAT_KEYS.length) return null;
  return guests;
}

/** A hosted table that a page address asks for (?remote=north,east): {guests: [seat
 * numbers], relays}, {error: "seats" | "relays"}, or null when it asks for none. A page whose
 * address cannot be followed plays on its own device, and link.js says why. */
export function readHosting(href) {
  const params = new URL(href).searchParams;
  if (!params.has("remote")) return null;
  const guests = guestSeats(params.get("remote"));
  if (!guests) return { error: "seats" };
  const relays = params.has("relays") ? parseRelays(params.get("relays")) : { relays: DEFAULT_RELAYS };
  if (relays.error) return { error: "relays" };
  return { guests, relays: relays.relays, room: randomId(), secret: randomId() };
}

/** The invitation address for a guest's seat at the host's table, with its ticket. */
export function inviteUrl(href, { room, secret, relays }, seat, ticket) {
  const url = new URL(href);
  url.search = "";
  const params = new URLSearchParams({ join: room, key: secret, seat: SEAT_KEYS[seat], ticket });
  const pinned = relays.length === DEFAULT_RELAYS.length && relays.every((r, i) => r === DEFAULT_RELAYS[i]);
  if (!pinned) params.set("relays", relays.join(","));
  url.hash = params.toString();
  return url.href;
}

/** The address that opens a table with these guests' seats (none: this device alone) from
 * the page at href, dealing the new-game dialog's choices: its level, match length, suit,
 * seed and this device's people (link.js reads them; names and per-seat levels stay in the
 * saved settings only). Null when the page already is that table (a new match keeps it). */
export function tableAddress(href, guests, { level, games, suit, people }, seed) {
  const url = new URL(href);
  const now = url.searchParams.has("remote") ? guestSeats(url.searchParams.get("remote")) ?? [] : [];
  if (String([...now].sort()) === String([...guests].sort())) return null;
  url.hash = "";
  const params = url.searchParams;
  if (guests.length) params.set("remote", guests.map((seat) => SEAT_KEYS[seat]).join(","));
  else params.delete("remote");
  params.set("level", level);
  params.set("games", String(games));
  params.set("suit", suit);
  params.set("humans", people.map((p) => SEAT_KEYS[p.seat]).join(","));
  if (seed) params.set("seed", seed);
  else params.delete("seed");
  return url.href;
}
