// Storage of the person's settings (level, people, rules, match length, suit, speed) in
// localStorage. Every failure is reported, not thrown: an entry that cannot be read is moved
// aside (kept under another key, for a bug report) and every value is checked, a bad one
// put back to its default. The games themselves are saved by saves.js.

import { DEFAULT_SPEED, parseSpeed } from "./speed.js";

const SETTINGS_KEY = "calypso.settings.v1";
const SETTINGS_ASIDE_KEY = "calypso.settings.unreadable";

const DEFAULT_SETTINGS = Object.freeze({
  level: null, // null: the engine's default level
  levels: null, // or [north, east, south, west], null where a person plays
  people: null, // or [{seat, name}]: the people at the table, the first first; null: South
  rules: {},
  games: 1,
  suit: "random",
  speed: DEFAULT_SPEED,
});

// Reads a key: {value} when absent (null) or JSON, {bad: raw text} when it is not JSON.
function read(key) {
  let text = null;
  try {
    text = localStorage.getItem(key);
  } catch {
    return { value: null }; // storage blocked: as if nothing were saved
  }
  if (text === null) return { value: null };
  try {
    return { value: JSON.parse(text) };
  } catch {
    return { bad: text };
  }
}

function write(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(value));
    return true;
  } catch {
    return false; // storage full or blocked: the settings hold for this visit only
  }
}

function isObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The saved settings merged over the defaults (unknown keys dropped, bad values reset). */
export function loadSettings() {
  const { value, bad } = read(SETTINGS_KEY);
  if (bad !== undefined) write(SETTINGS_ASIDE_KEY, { text: bad.slice(0, 10_000) });
  const settings = { ...DEFAULT_SETTINGS };
  if (isObject(value)) {
    for (const key of Object.keys(DEFAULT_SETTINGS)) {
      if (key in value) settings[key] = value[key];
    }
  }
  return checkSettings(settings);
}

// Shapes, and the speed's range (the engine checks the other values, and the page checks the
// level against the engine's list): a wrong one goes back to its default.
function checkSettings(settings) {
  const clean = { ...settings };
  if (clean.level !== null && typeof clean.level !== "string") clean.level = null;
  if (clean.levels !== null && !(Array.isArray(clean.levels) && clean.levels.length === 4)) clean.levels = null;
  if (clean.people !== null && !isPeople(clean.people)) clean.people = null;
  if (!isObject(clean.rules) || !Object.values(clean.rules).every((v) => typeof v === "boolean")) clean.rules = {};
  if (![1, 2, 3, 4].includes(clean.games)) clean.games = 1;
  if (!["random", "S", "H", "D", "C"].includes(clean.suit)) clean.suit = "random";
  if (!parseSpeed(clean.speed)) clean.speed = DEFAULT_SPEED;
  return clean;
}

function isPeople(people) {
  return Array.isArray(people) && people.length >= 1 && people.length <= 4 &&
    people.every((p) => isObject(p) && [0, 1, 2, 3].includes(p.seat) &&
      typeof (p.name ?? "") === "string" && (p.name ?? "").length <= 40) &&
    new Set(people.map((p) => p.seat)).size === people.length;
}

const TURN_KEY = "calypso.turn.v1"; // a person's own TURN server (remote/turn.js checks it)

/** The TURN setting kept on this device: {url, username, credential}, or null. */
export function loadTurn() {
  const { value } = read(TURN_KEY);
  return isObject(value) ? value : null;
}

/** Keeps the TURN setting (null forgets it); false when storage refused it. */
export function saveTurn(turn) {
  return write(TURN_KEY, turn);
}

/** Forgets the settings kept aside for a bug report (to make room for a save). */
export function dropSettingsAside() {
  write(SETTINGS_ASIDE_KEY, null);
}

export function saveSettings(settings) {
  const kept = {};
  for (const key of Object.keys(DEFAULT_SETTINGS)) kept[key] = settings[key];
  return write(SETTINGS_KEY, kept);
}

/**
 * Settings the engine refused (a bad_* code): kept aside, and the defaults, with the
 * person's speed, put in their place. Returns the settings to use now.
 */
export function resetSettings(settings) {
  write(SETTINGS_ASIDE_KEY, { settings });
  const fresh = { ...DEFAULT_SETTINGS, speed: settings?.speed ?? DEFAULT_SETTINGS.speed };
  saveSettings(fresh);
  return fresh;
}
