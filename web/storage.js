// Storage: the person's settings and the game in play, kept in localStorage as recipes
// (settings, seed, game records), never as pictures. Every failure is reported, not thrown.

const SETTINGS_KEY = "calypso.settings.v1";
const SAVE_KEY = "calypso.save.v1";
const SET_ASIDE_KEY = "calypso.save.unreadable";
const SCHEMA = 1;

export const DEFAULT_SETTINGS = Object.freeze({
  level: null, // null: the engine's default level
  levels: null, // or [north, east, null, west]
  rules: {},
  games: 1,
  suit: "random",
  speed: "normal",
});

function read(key) {
  try {
    const text = localStorage.getItem(key);
    return text === null ? null : JSON.parse(text);
  } catch {
    return null; // storage blocked, or not JSON: as if nothing were saved
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

/** The saved settings merged over the defaults (unknown keys dropped). */
export function loadSettings() {
  const saved = read(SETTINGS_KEY);
  const settings = { ...DEFAULT_SETTINGS };
  if (saved && typeof saved === "object") {
    for (const key of Object.keys(DEFAULT_SETTINGS)) {
      if (key in saved) settings[key] = saved[key];
    }
  }
  return settings;
}

export function saveSettings(settings) {
  const kept = {};
  for (const key of Object.keys(DEFAULT_SETTINGS)) kept[key] = settings[key];
  return write(SETTINGS_KEY, kept);
}

/** The saved game ({record, settings, history} as the engine gave it) or null. */
export function loadGame() {
  const saved = read(SAVE_KEY);
  if (!saved) return null;
  if (saved.schema !== SCHEMA || !saved.game) {
    setAside(saved);
    return null;
  }
  return saved.game;
}

export function saveGame(game) {
  return write(SAVE_KEY, { schema: SCHEMA, game });
}

export function clearGame() {
  write(SAVE_KEY, null);
}

/** Moves a save that cannot be loaded out of the way, keeping it for a bug report. */
export function setAside(game) {
  write(SET_ASIDE_KEY, game);
  write(SAVE_KEY, null);
}
