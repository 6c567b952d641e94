// What the puzzles keep on this device (docs/puzzles.md#on-the-device), through storage.js:
//
//   puzzles       the person's Glicko-2 rating (null until the first puzzle; the engine does
//                 the arithmetic and judges the numbers), the difficulty asked for (Easier and
//                 Harder move it), and the puzzles tried, latest last: the dashboard counts
//                 them by theme, and the next puzzle is none of the recent ones.
//   puzzles_mine  the person's own mistakes to practise: every blunder of a game they reviewed,
//                 as the position's game record (the deck sealed while that game was in play),
//                 the play and what each legal card cost there.
//
// An entry that cannot be read is set aside (kept under another key, for a bug report), as
// saves are, and the page says so; nothing else is touched. Loaded only once puzzles are
// opened or a review finds a blunder: no part of a first visit.

import { msg } from "./i18n.js";
import * as storage from "./storage.js";

const VERSION = 1;
const MAX_HISTORY = 500;
const MAX_QUEUE = 60;
/** The difficulties, as points above or below the person's rating, easiest first. */
export const OFFSETS = [-600, -300, 0, 300, 600];
const ID = /^[a-z0-9]{6,24}$/;

const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);

function blankRecord() {
  return { version: VERSION, rating: null, offset: 0, history: [] };
}

function isTried(item) {
  return isObject(item) && typeof item.id === "string" && ID.test(item.id)
    && typeof item.right === "boolean" && Array.isArray(item.themes)
    && item.themes.every((theme) => typeof theme === "string" && theme.length < 40)
    && Number.isFinite(item.at) && (item.kind === "set" || item.kind === "mine");
}

function isRecord(value) {
  return isObject(value) && value.version === VERSION && OFFSETS.includes(value.offset)
    && (value.rating === null || isObject(value.rating)) && Array.isArray(value.history)
    && value.history.length <= MAX_HISTORY && value.history.every(isTried);
}

function isEntry(entry) {
  return isObject(entry) && typeof entry.key === "string" && ID.test(entry.key)
    && isObject(entry.record) && Number.isInteger(entry.play) && Array.isArray(entry.costs)
    && typeof entry.card === "string"
    && Number.isFinite(entry.added) && Number.isInteger(entry.cost);
}

function isQueue(value) {
  return isObject(value) && value.version === VERSION && Array.isArray(value.entries)
    && value.entries.length <= MAX_QUEUE && value.entries.every(isEntry);
}

// An entry as kept, or a fresh one; one that cannot be read is set aside with a notice.
function load(entry, aside, check, fresh, notice) {
  const { value, bad } = storage.readJson(entry);
  if (value === null && bad === undefined) return { value: fresh(), notice: null };
  if (bad === undefined && check(value)) return { value, notice: null };
  storage.writeJson(aside, { text: bad ?? JSON.stringify(value) });
  storage.writeJson(entry, null);
  return { value: fresh(), notice: msg(notice) };
}

/** The person's puzzle record: {value, notice} (notice: why it was set aside, or null). */
export function loadRecord() {
  return load("puzzles", "puzzles_aside", isRecord, blankRecord, "puzzles.set_aside");
}

/** The person's own mistakes to practise: {value: {version, entries}, notice}. */
export function loadQueue() {
  return load("puzzles_mine", "puzzles_mine_aside", isQueue, () => ({ version: VERSION, entries: [] }),
    "puzzles.queue_set_aside");
}

/** Keeps the record; whether storage took it. */
export function saveRecord(record) {
  return storage.writeJson("puzzles", record);
}

/** Keeps the queue; whether storage took it. */
export function saveQueue(queue) {
  return storage.writeJson("puzzles_mine", queue);
}

/** The record after a puzzle tried: its first answer, the rating after it (null: unchanged). */
export function withTried(record, { id, kind, right, themes }, rating) {
  const history = [...record.history, { id, kind, right, themes, at: Date.now() }].slice(-MAX_HISTORY);
  return { ...record, history, rating: rating ?? record.rating };
}

// A short, stable key of a blunder: the game's suits and first dealer, the plays before it, the
// card and what each card cost (not the deck, which is sealed while the game is in play and
// plain once it is over: the same blunder reviewed before and after has one key).
function keyOf(record, move) {
  const text = JSON.stringify([record.suits, record.first_dealer, record.plays.slice(0, move.play), move.card,
    move.options.map((o) => [o.card, o.cost])]);
  let a = 0x9e3779b9;
  let b = 0x85ebca6b;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 2654435761);
    b = Math.imul(b ^ c, 1597334677);
  }
  return `m${(a >>> 0).toString(36)}${(b >>> 0).toString(36)}`;
}

/** A blunder of a reviewed game as a puzzle to practise: the game's record cut at the card,
 * the play, each legal card's cost there (the review's ``move``). */
export function blunderEntry(record, move) {
  const cut = { ...record, plays: record.plays.slice(0, move.play) };
  return { key: keyOf(record, move), record: cut, play: move.play, cost: move.cost,
    card: move.card, costs: move.options.map((o) => [o.card, o.cost]), added: Date.now() };
}

/** Adds blunders to the queue (a position already in it is not added twice; the oldest go
 * past MAX_QUEUE); returns how many were new. */
export function addToQueue(entries) {
  const { value: queue } = loadQueue();
  const known = new Set(queue.entries.map((e) => e.key));
  const fresh = entries.filter((e) => !known.has(e.key));
  if (!fresh.length) return 0;
  saveQueue({ ...queue, entries: [...queue.entries, ...fresh].slice(-MAX_QUEUE) });
  return fresh.length;
}

/** Takes a position out of the queue (practised, or removed by the person). */
export function removeFromQueue(key) {
  const { value: queue } = loadQueue();
  saveQueue({ ...queue, entries: queue.entries.filter((e) => e.key !== key) });
}
