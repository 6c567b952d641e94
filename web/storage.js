// Storage: the person's settings and the game in play, kept in localStorage as recipes
// (settings, seed, game records), never as pictures. Every failure is reported, not thrown:
// an entry that cannot be read is moved aside (kept under another key, for a bug report)
// and the caller is told why.

const SETTINGS_KEY = "calypso.settings.v1";
const SAVE_KEY = "calypso.save.v1";
const SET_ASIDE_KEY = "calypso.save.unreadable";
const SETTINGS_ASIDE_KEY = "calypso.settings.unreadable";
const SCHEMA = 1;
const APP = "calypso";

export const DEFAULT_SETTINGS = Object.freeze({
  level: null, // null: the engine's default level
  levels: null, // or [north, east, null, west]
  rules: {},
  games: 1,
  suit: "random",
  speed: "normal",
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
    return false; // storage full or blocked: the game goes on unsaved
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

// Shapes only (the engine checks the values): a wrong shape goes back to its default.
function checkSettings(settings) {
  const clean = { ...settings };
  if (clean.level !== null && typeof clean.level !== "string") clean.level = null;
  if (clean.levels !== null && !(Array.isArray(clean.levels) && clean.levels.length === 4)) clean.levels = null;
  if (!isObject(clean.rules) || !Object.values(clean.rules).every((v) => typeof v === "boolean")) clean.rules = {};
  if (![1, 2, 3, 4].includes(clean.games)) clean.games = 1;
  if (!["random", "S", "H", "D", "C"].includes(clean.suit)) clean.suit = "random";
  if (typeof clean.speed !== "string" && typeof clean.speed !== "number") clean.speed = "normal";
  return clean;
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

/**
 * The saved game: {game} ({record, settings, history} as the engine gave it), {game: null}
 * when there is none, or {game: null, problem} when the save could not be read (it is set
 * aside, and problem says why in words).
 */
export function loadGame() {
  const { value, bad } = read(SAVE_KEY);
  if (bad !== undefined) {
    setAside({ text: bad.slice(0, 100_000) });
    return { game: null, problem: "Your saved game was damaged (it is not readable data)" };
  }
  if (value === null) return { game: null };
  if (!isObject(value) || (value.app !== undefined && value.app !== APP)) {
    setAside(value);
    return { game: null, problem: "The saved game came from another application" };
  }
  if (value.schema !== SCHEMA) {
    setAside(value);
    return { game: null, problem: `The saved game is from another version of Calypso (save format ${JSON.stringify(value.schema)?.slice(0, 20)})` };
  }
  if (!isObject(value.game)) {
    setAside(value);
    return { game: null, problem: "Your saved game was incomplete" };
  }
  return { game: value.game };
}

export function saveGame(game) {
  return write(SAVE_KEY, { app: APP, schema: SCHEMA, game });
}

export function clearGame() {
  write(SAVE_KEY, null);
}

/** Moves a save that cannot be loaded out of the way, keeping it for a bug report. */
export function setAside(game) {
  write(SET_ASIDE_KEY, game);
  write(SAVE_KEY, null);
}
