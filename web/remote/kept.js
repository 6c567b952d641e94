// The host's room kept in this browser (docs/remote.md#drops-reloads-and-waiting): its id and
// secret, each seat's ticket, the guests' names and tokens, the computers standing in for them
// and the fair deal's secret and seeds, by room (storage.js's "remote_host", in localStorage). A host who
// reloads the tab, or closes it and opens the table's address again, reopens the same room:
// every invitation and every guest's token still holds.
//
// Which tab hosts which room, as saves.js does for saved games: a tab holds its room with a
// Web Lock of the same name for as long as it is open, and the tab's own storage
// ("remote_tab") names it, so a reload takes the same room again; a new tab takes the newest
// room for the same guests' seats and relays whose match is not over and that no other tab
// holds (two tabs never host one room), else opens a new one; the first of these is waited
// for a moment, since the page that had it may let go of it late. Without Web Locks (a page not
// served over HTTPS or from localhost) every room counts as free.

import { idsOf, keyName, readJson, readText, writeJson, writeText } from "../storage.js";
import { ROOM_ID } from "./invite.js";
import { newToken } from "./wire.js";

const RELOAD_GRACE_MS = 2_000; // how long a reloaded tab waits for its old page's lock
const KEEP_ROOMS = 4; // rooms no tab holds that are kept, the newest; older ones are forgotten

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const lockName = (room) => keyName("remote_host", room);

// Takes a room's Web Lock until this page goes: at once if free (waitMs 0), else within
// waitMs. Whether it was taken.
function lock(room, waitMs = 0) {
  if (!navigator.locks) return Promise.resolve(true);
  return new Promise((resolve) => {
    const options = waitMs ? { signal: AbortSignal.timeout(waitMs) } : { ifAvailable: true };
    navigator.locks.request(lockName(room), options, (granted) => {
      resolve(Boolean(granted));
      return granted ? new Promise(() => {}) : undefined; // held as long as the page lives
    }).catch(() => resolve(false)); // the wait timed out
  });
}

// A kept room that can open the table asked for (the same guests' seats and relays), checked
// for shape; else null.
function fitting(kept, room, asked) {
  const ok = kept && kept.room === room && ROOM_ID.test(room) && typeof kept.secret === "string"
    && ROOM_ID.test(kept.secret) && Array.isArray(kept.seats)
    && same(kept.guests, asked.guests) && same(kept.relays, asked.relays);
  return ok ? kept : null;
}

/**
 * The room a host's page opens: this tab's own (a reload), else the newest kept room of the
 * same table still in play that no other tab holds (the tab was closed and the address
 * opened again), with its seats' tickets, names, tokens and stand-ins; else the new one the
 * address asked for, each seat with a new ticket. Returns {hosting, seats: [[seat, {ticket,
 * name, token, computer}]], resumed, fair: the fair deal kept, or null}.
 */
export async function hosting(asked) {
  const mine = readText("remote_tab");
  const kept = idsOf("remote_host").map((id) => fitting(readJson("remote_host", id).value, id, asked))
    .filter(Boolean).sort((a, b) => (Number(b.saved) || 0) - (Number(a.saved) || 0));
  const order = [...kept.filter((k) => k.room === mine), ...kept.filter((k) => k.room !== mine && !k.over)];
  const fresh = (seat) => [seat, { ticket: newToken(), name: null, token: null, computer: null }];
  const ticket = (kept) => (typeof kept.ticket === "string" && /^[0-9a-f]{32}$/.test(kept.ticket) ? kept.ticket : newToken());
  for (const [i, room] of order.entries()) {
    // The first room may be held a moment late by the page that had it (reloaded, or closed
    // just before this one opened).
    if (!await lock(room.room, i === 0 ? RELOAD_GRACE_MS : 0)) continue;
    writeText("remote_tab", room.room);
    forgetOld();
    const seats = asked.guests.map((seat) => {
      const s = room.seats.find((k) => k?.seat === seat);
      return s ? [seat, { ticket: ticket(s), name: s.name ?? null, token: s.token ?? null, computer: s.computer ?? null }] : fresh(seat);
    });
    return { hosting: { ...asked, room: room.room, secret: room.secret }, seats, resumed: true, fair: room.fair ?? null };
  }
  await lock(asked.room);
  writeText("remote_tab", asked.room); // storage blocked: a reload opens a new room
  forgetOld();
  return { hosting: asked, seats: asked.guests.map(fresh), resumed: false, fair: null };
}

/** Keeps the host's room, seats and fair deal ({secret, seeds}: fair.js) for a reload of
 * this tab or a new one; over: its match is over (a new tab then opens a new room). */
export function keep(hostingNow, seats, fair, over) {
  const { guests, relays, room, secret } = hostingNow;
  const kept = [...seats].map(([seat, s]) => ({ seat, ticket: s.ticket, name: s.name, token: s.token, computer: s.computer }));
  // storage blocked or full: a reload opens a new room (the guests need new links)
  writeJson("remote_host", { guests, relays, room, secret, seats: kept, fair, over, saved: Date.now() }, room);
}

// Forgets the rooms no tab holds beyond the KEEP_ROOMS newest.
async function forgetOld() {
  const held = navigator.locks ? new Set((await navigator.locks.query()).held.map((l) => l.name)) : new Set();
  const free = idsOf("remote_host").filter((id) => !held.has(lockName(id)))
    .map((id) => ({ id, saved: Number(readJson("remote_host", id).value?.saved) || 0 }))
    .sort((a, b) => b.saved - a.saved);
  for (const { id } of free.slice(KEEP_ROOMS)) writeText("remote_host", null, id);
}
