// Everything the page keeps in the browser's storage goes through this module: it names every
// key (ENTRIES) and is the only module that touches localStorage or sessionStorage
// (tests/test_web_sources.py checks it). Every failure is reported, not thrown: storage that
// is blocked reads as empty, and a write says whether (or why not) it was kept.
//
// It also keeps the person's settings (level, people, rules, match length, suit, speed): an
// entry that cannot be read is moved aside (kept under another key, for a bug report); the
// engine judges the values (boot.js), and a refused one goes back to its default. The games themselves are saved
// by saves.js, the preferences by prefs.js, the statistics by stats.js.

import { DEFAULT_SPEED, parseSpeed } from "./speed.js";

// Every entry: its key, and whether it lives in this tab's sessionStorage. An entry with ids
// (a family) keeps one value per id under "<key>.<id>" (the id "" is the key itself).
const entry = (key, { family = false, session = false } = {}) => ({ key, family, session });
const ENTRIES = Object.freeze({
  settings: entry("calypso.settings.v1"),
  settings_aside: entry("calypso.settings.unreadable"),
  language: entry("calypso.lang.v1"),
  prefs: entry("calypso.prefs.v1"),
  stats: entry("calypso.stats.v1"),
  dev: entry("calypso.dev.v1"), // settings for tests only (dev.js)
  save: entry("calypso.save.v1", { family: true }), // one per saved game, by id (saves.js)
  save_aside: entry("calypso.save.unreadable"),
  tab: entry("calypso.tab.v1", { session: true }), // {id, pending?}: this tab's save
  remote_name: entry("calypso.remote-name.v1"), // the name a guest gave at a friend's table
  remote_seat: entry("calypso.remote-seat.v1", { family: true }), // a guest's seat token, by room
  remote_host: entry("calypso.remote-host.v1", { family: true }), // a host's room and seats, by room (remote/kept.js)
  remote_tab: entry("calypso.remote-tab.v1", { session: true }), // the room this tab hosts
  turn: entry("calypso.turn.v1"), // a person's own TURN server (remote/turn.js)
  remote_seed: entry("calypso.remote-seed.v1", { family: true }), // a guest's seed of a fair deal, by room
  challenges: entry("calypso.challenges.v1"), // the challenges sent and received (challenge-store.js)
  puzzles: entry("calypso.puzzles.v1"), // the puzzles' rating, difficulty and history (puzzle-store.js)
  puzzles_aside: entry("calypso.puzzles.unreadable"),
  puzzles_mine: entry("calypso.puzzles-mine.v1"), // the person's own mistakes to practise
  puzzles_mine_aside: entry("calypso.puzzles-mine.unreadable"),
});

/** @typedef {keyof typeof ENTRIES} Entry */

/** The key of an entry (id: one of a family), also a name for what holds it (a save's Web
 * Lock: "calypso.save.v1.<id>"). @param {Entry} entry */
export function keyName(entry, id = "") {
  const { key, family } = ENTRIES[entry];
  if (!family && id) throw new Error(`storage: ${entry} has no ids`);
  return id ? `${key}.${id}` : key;
}

function area(entry) {
  return ENTRIES[entry].session ? sessionStorage : localStorage;
}

/** The text kept under an entry (id: one of a family), or null when there is none or the
 * storage is blocked. @param {Entry} entry */
export function readText(entry, id = "") {
  try {
    return area(entry).getItem(keyName(entry, id));
  } catch {
    return null; // storage blocked: as if nothing were kept
  }
}

/** Keeps a text under an entry (null: forgets it); returns null when it is kept, else the
 * browser's error (a full storage: name "QuotaExceededError"). @param {Entry} entry */
export function writeText(entry, text, id = "") {
  try {
    const store = area(entry);
    if (text === null) store.removeItem(keyName(entry, id));
    else store.setItem(keyName(entry, id), text);
    return null;
  } catch (error) {
    return error;
  }
}

/** The ids kept of a family (readable or not; none when the storage is blocked).
 * @param {Entry} entry */
export function idsOf(entry) {
  const { key } = ENTRIES[entry];
  const ids = [];
  try {
    const store = area(entry);
    for (let i = 0; i < store.length; i += 1) {
      const found = store.key(i);
      if (found === key) ids.push("");
      else if (found?.startsWith(`${key}.`)) ids.push(found.slice(key.length + 1));
    }
  } catch {
    // storage blocked: as if nothing were kept
  }
  return ids;
}

/** An entry as JSON: {value} (null when absent), or {bad: its text} when it is not JSON.
 * @param {Entry} entry */
export function readJson(entry, id = "") {
  const text = readText(entry, id);
  if (text === null) return { value: null };
  try {
    return { value: JSON.parse(text) };
  } catch {
    return { bad: text };
  }
}

/** Keeps a value as JSON (null: forgets it); whether it was kept. @param {Entry} entry */
export function writeJson(entry, value, id = "") {
  return writeText(entry, value === null ? null : JSON.stringify(value), id) === null;
}

const DEFAULT_SETTINGS = Object.freeze({
  level: null, // null: the engine's default level
  levels: null, // or [north, east, south, west], null where a person plays
  people: null, // or [{seat, name}]: the people at the table, the first first; null: South
  rules: {},
  games: 1,
  suit: "random",
  speed: DEFAULT_SPEED,
});

function isObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The saved settings merged over the defaults (unknown keys dropped, a bad speed reset). The
 * other values are the engine's to judge (boot.js asks it with "check_settings" as soon as it
 * is ready, and keepJudged keeps its verdict): the page keeps no limit of its own. */
export function loadSettings() {
  const { value, bad } = readJson("settings");
  if (bad !== undefined) writeJson("settings_aside", { text: bad.slice(0, 10_000) });
  const settings = { ...DEFAULT_SETTINGS };
  if (isObject(value)) {
    for (const key of Object.keys(DEFAULT_SETTINGS)) {
      if (key in value) settings[key] = value[key];
    }
  }
  if (!parseSpeed(settings.speed)) settings.speed = DEFAULT_SPEED; // the page's own pace
  return settings;
}

/** The settings the engine judged (each value it refused put back to its default), with the
 * person's speed: the settings as they were are kept aside (for a bug report) and the judged
 * ones saved. Returns the settings to use now. */
export function keepJudged(settings, judged) {
  writeJson("settings_aside", { settings });
  const kept = { ...DEFAULT_SETTINGS, ...judged, speed: settings.speed };
  saveSettings(kept);
  return kept;
}

/** The TURN setting kept on this device: {url, username, credential}, or null
 * (remote/turn.js checks it). */
export function loadTurn() {
  const { value } = readJson("turn");
  return isObject(value) ? value : null;
}

/** Keeps the TURN setting (null forgets it); false when storage refused it. */
export function saveTurn(turn) {
  return writeJson("turn", turn);
}

/** Forgets the settings kept aside for a bug report (to make room for a save). */
export function dropSettingsAside() {
  writeJson("settings_aside", null);
}

export function saveSettings(settings) {
  const kept = {};
  for (const key of Object.keys(DEFAULT_SETTINGS)) kept[key] = settings[key];
  return writeJson("settings", kept); // else the settings hold for this visit only
}

/**
 * Settings the engine refused (a bad_* code): kept aside, and the defaults, with the
 * person's speed, put in their place. Returns the settings to use now.
 */
export function resetSettings(settings) {
  writeJson("settings_aside", { settings });
  const fresh = { ...DEFAULT_SETTINGS, speed: settings?.speed ?? DEFAULT_SETTINGS.speed };
  saveSettings(fresh);
  return fresh;
}
