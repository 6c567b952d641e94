// Statistics kept in this browser: games and matches played and won, calypsos made, average
// and best scores, per computer level, for games one person played against the computers
// (pass-and-play games between several people are not counted: whose statistics would they
// be?). Each finished game is counted once, by an id made of its seed, game number and plays,
// however often the page shows it (reloads included).
//
// Besides the totals: the last games one by one (``history``: level, both scores, and the
// difference from the master in your seat once its rerun is in), the running sum of those
// differences (``master``), and the Calypso of the day (``daily``: each date's kept attempt —
// the first, counted from its deal, with the day it was dealt on, for the streak, and the
// save it is played in; its result null until it ends, or for good once it is given up).

import { readJson, writeJson } from "./storage.js";

const MAX_IDS = 50; // ids of the last games counted, so a reload does not count one twice
const MAX_HISTORY = 200; // games kept one by one, for the charts
const MAX_DAYS = 800; // dates of the Calypso of the day kept
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

function blank() {
  return { version: 1, levels: {}, counted: [], history: [], master: { games: 0, total: 0 },
    master_counted: [], daily: {} };
}

const isScore = (n) => Number.isInteger(n) && Math.abs(n) < 1e7;

function cleanGame(raw) {
  if (!raw || typeof raw !== "object" || typeof raw.id !== "string" || typeof raw.level !== "string"
      || !isScore(raw.you) || !isScore(raw.them)) return null;
  return { id: raw.id.slice(0, 200), level: raw.level.slice(0, 40), you: raw.you, them: raw.them,
    master: isScore(raw.master) ? raw.master : null,
    daily: typeof raw.daily === "string" && DATE.test(raw.daily) ? raw.daily : null };
}

function cleanDay(raw) {
  // you and them are null while the kept attempt is unfinished, and once it is given up.
  const unfinished = raw?.you === null && raw?.them === null;
  if (!raw || typeof raw !== "object" || !(unfinished || (isScore(raw.you) && isScore(raw.them)))
      || typeof raw.on !== "string" || !DATE.test(raw.on)) return null;
  const save = typeof raw.save === "string" && /^[\w-]{0,40}$/.test(raw.save) ? raw.save : null;
  return { id: typeof raw.id === "string" ? raw.id.slice(0, 200) : null, you: raw.you, them: raw.them,
    master: isScore(raw.master) ? raw.master : null, on: raw.on, save,
    // An attempt left unfinished before attempts stayed open (no given_up kept) was given up.
    given_up: unfinished && raw.given_up !== false };
}

function line() {
  return { games: 0, won: 0, drawn: 0, matches: 0, matches_won: 0, calypsos: 0,
    total: 0, best: null };
}

function isCount(n) {
  return Number.isInteger(n) && n >= 0;
}

function cleanLine(raw) {
  const clean = line();
  if (!raw || typeof raw !== "object") return clean;
  for (const key of ["games", "won", "drawn", "matches", "matches_won", "calypsos", "total"]) {
    if (isCount(raw[key])) clean[key] = raw[key];
  }
  if (Number.isInteger(raw.best)) clean.best = raw.best;
  return clean;
}

/** The statistics: {levels: {level: {games, won, drawn, matches, matches_won, calypsos, total, best}}}. */
export function load() {
  const raw = readJson("stats").value;
  const stats = blank();
  if (!raw || typeof raw !== "object" || raw.version !== 1) return stats;
  if (raw.levels && typeof raw.levels === "object") {
    for (const [level, value] of Object.entries(raw.levels)) {
      if (typeof level === "string" && level.length <= 40) stats.levels[level] = cleanLine(value);
    }
  }
  if (Array.isArray(raw.counted)) {
    stats.counted = raw.counted.filter((id) => typeof id === "string").slice(-MAX_IDS);
  }
  if (Array.isArray(raw.history)) stats.history = raw.history.map(cleanGame).filter(Boolean).slice(-MAX_HISTORY);
  if (isCount(raw.master?.games) && isScore(raw.master?.total)) {
    stats.master = { games: raw.master.games, total: raw.master.total };
  }
  if (Array.isArray(raw.master_counted)) {
    stats.master_counted = raw.master_counted.filter((id) => typeof id === "string").slice(-MAX_IDS);
  }
  if (raw.daily && typeof raw.daily === "object") {
    for (const [date, value] of Object.entries(raw.daily)) {
      const day = DATE.test(date) ? cleanDay(value) : null;
      if (day) stats.daily[date] = day;
    }
  }
  return stats;
}

function save(stats) {
  writeJson("stats", stats); // if the storage is full or blocked: statistics are a nicety
}

/** The level a game was played against: the computers' level, or "mixed". */
function levelOf(table) {
  const levels = table.seats.filter((s) => !s.person).map((s) => s.level);
  return levels.every((level) => level === levels[0]) ? levels[0] : "mixed";
}

/** The id a finished game is counted by: its seed, game number, plays and scores. */
export function gameId(view, table) {
  return `${table.settings.seed}|${view.match.game + 1}|${view.plays}|${JSON.stringify(view.scores)}`;
}

/** Counts a finished game of one person (and its match, when that is over) once; returns
 * true if counted. view and table: the engine's view and its match facts. */
export function countGame(view, table) {
  const people = table?.seats.map((s, seat) => (s.person ? seat : null)).filter((s) => s !== null) ?? [];
  if (view?.status !== "game_over" || !view.sheet || people.length !== 1) return false;
  const you = people[0];
  const side = table.seats[you].side;
  const id = gameId(view, table);
  const stats = load();
  if (stats.counted.includes(id)) return false;
  const level = levelOf(table);
  const entry = stats.levels[level] ?? line();
  const ours = view.scores[side];
  entry.games += 1;
  if (view.sheet.winner === side) entry.won += 1;
  if (view.sheet.winner === null) entry.drawn += 1;
  entry.calypsos += view.seats[you].completed;
  entry.total += ours;
  entry.best = entry.best === null ? ours : Math.max(entry.best, ours);
  if (view.match.is_over && view.match.games > 1) {
    entry.matches += 1;
    if (view.match.winner === side) entry.matches_won += 1;
  } else if (view.match.games === 1) {
    entry.matches += 1;
    if (view.sheet.winner === side) entry.matches_won += 1;
  }
  stats.levels[level] = entry;
  stats.counted = [...stats.counted, id].slice(-MAX_IDS);
  stats.history = [...stats.history, { id, level, you: ours, them: view.scores[1 - side], master: null,
    daily: table.daily ?? null }].slice(-MAX_HISTORY);
  save(stats);
  return true;
}

/** Counts the master in your seat of a counted game once: result is the rerun's
 * {you, master, side} (both games' partnership scores). Returns true if counted. */
export function countMaster(id, result) {
  const stats = load();
  if (stats.master_counted.includes(id)) return false;
  const you = result.you[result.side];
  const master = result.master[result.side];
  const game = stats.history.find((g) => g.id === id);
  if (game) game.master = you - master;
  stats.master = { games: stats.master.games + 1, total: stats.master.total + you - master };
  stats.master_counted = [...stats.master_counted, id].slice(-MAX_IDS);
  if (game?.daily && stats.daily[game.daily] && stats.daily[game.daily].master === null) {
    stats.daily[game.daily].master = master; // the same for every attempt: see daily.js
  }
  save(stats);
  return true;
}

/** The game's counted difference from the master in your seat, or null. */
export function masterOf(id) {
  return load().history.find((g) => g.id === id)?.master ?? null;
}

/** The running average of your score less the master's in your seat: {games, average}. */
export function masterSummary(stats = load()) {
  const { games, total } = stats.master;
  return { games, average: games ? Math.round(total / games) : null };
}

/** The games one by one, oldest first: [{id, level, you, them, master, daily}]. */
export function history(stats = load()) {
  return stats.history;
}

// -- the Calypso of the day ------------------------------------------------------------------

/** Counts a date's kept attempt as played once it is dealt on the day ``on`` (the person's
 * local date) into the save ``saveId``, its result unknown (null) until it is
 * finished or given up. Returns whether this was the first attempt at the date. */
export function startDaily(date, on, saveId = null) {
  const stats = load();
  if (stats.daily[date]) return false;
  stats.daily[date] = { id: null, you: null, them: null, master: null, on, save: saveId, given_up: false };
  const dates = Object.keys(stats.daily).sort();
  for (const old of dates.slice(0, Math.max(0, dates.length - MAX_DAYS))) delete stats.daily[old];
  save(stats);
  return true;
}

/** Gives a date's kept attempt its result {id (stats.gameId), you, them} when it ends; an
 * attempt started on another device has none kept here, and is kept from its end (on ``on``).
 * Returns the date's entry. */
export function finishDaily(date, result, on) {
  if (!load().daily[date]) startDaily(date, on);
  const stats = load();
  const entry = stats.daily[date];
  if (keptOpen(entry)) Object.assign(entry, { id: result.id, you: result.you, them: result.them });
  save(stats);
  return entry;
}

/** Gives up a date's kept attempt: the date stays played, with no result. */
export function giveUpDaily(date) {
  const stats = load();
  const entry = stats.daily[date];
  if (!keptOpen(entry)) return;
  entry.given_up = true;
  save(stats);
}

/** A date's kept attempt {id, you, them, master, on, save, given_up}, or null. */
export function dailyEntry(date) {
  return load().daily[date] ?? null;
}

/** Whether a date's kept attempt (its dailyEntry) is unfinished and not given up. */
export function keptOpen(entry) {
  return Boolean(entry) && entry.you === null && !entry.given_up;
}

/** The dates whose kept attempts are unfinished and not given up. */
export function keptOpenDates(stats = load()) {
  return Object.keys(stats.daily).filter((date) => keptOpen(stats.daily[date]));
}

/** The day before a date (YYYY-MM-DD, UTC). */
export function dayBefore(date) {
  return new Date(Date.parse(`${date}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10);
}

/** The streak: days in a row, up to today or yesterday, each with its own deal played that
 * very day ({current, best, days}: days is every date played). */
export function streak(today, stats = load()) {
  const onTheDay = new Set(Object.entries(stats.daily).filter(([date, e]) => e.on === date).map(([d]) => d));
  let current = 0;
  let day = onTheDay.has(today) ? today : dayBefore(today);
  while (onTheDay.has(day)) {
    current += 1;
    day = dayBefore(day);
  }
  let best = 0;
  let run = 0;
  let previous = null;
  for (const date of [...onTheDay].sort()) {
    run = previous !== null && dayBefore(date) === previous ? run + 1 : 1;
    best = Math.max(best, run);
    previous = date;
  }
  return { current, best, days: Object.keys(stats.daily).length };
}

export function reset() {
  save(blank());
}

/** Rows for drawing: one per level played, then the total. */
export function rows(stats = load()) {
  const all = line();
  const result = [];
  for (const [level, entry] of Object.entries(stats.levels).sort()) {
    if (!entry.games) continue;
    result.push({ level, ...entry, average: Math.round(entry.total / entry.games) });
    for (const key of ["games", "won", "drawn", "matches", "matches_won", "calypsos", "total"]) {
      all[key] += entry[key];
    }
    if (entry.best !== null) all.best = all.best === null ? entry.best : Math.max(all.best, entry.best);
  }
  if (result.length > 1) {
    result.push({ level: "all", ...all, average: Math.round(all.total / all.games) });
  }
  return result;
}
