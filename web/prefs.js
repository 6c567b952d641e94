// Preferences: how the table looks and sounds and which aids it shows, remembered in
// the browser's storage. apply() turns them into data-* attributes on <html> that style.css reads;
// nothing here knows a game rule. A stored entry that is not what it should be is replaced
// by the default, key by key, so one bad value never costs the others.

import { readJson, writeJson } from "./storage.js";

// Each preference: its default and the values it may take (a boolean, or one of a list).
const PREFS = Object.freeze({
  cardSize: { default: "medium", values: ["small", "medium", "large"] },
  colors: { default: "two", values: ["two", "four"] },
  felt: { default: "green", values: ["green", "blue", "red", "grey"] },
  sound: { default: false },
  undo: { default: true },
  showCut: { default: true },
  forcedCards: { default: false }, // the only legal card plays itself (the last one always)
  aidVoids: { default: true },
  aidUnseen: { default: true },
  aidNeeds: { default: true },
  tourDone: { default: false },
});

function defaults() {
  return Object.fromEntries(Object.entries(PREFS).map(([key, p]) => [key, p.default]));
}

function valid(key, value) {
  const spec = PREFS[key];
  if (!spec) return false;
  return spec.values ? spec.values.includes(value) : typeof value === "boolean";
}

/** The stored preferences over the defaults; unknown keys and bad values are dropped. */
export function load() {
  const prefs = defaults();
  const saved = readJson("prefs").value;
  if (saved && typeof saved === "object" && !Array.isArray(saved)) {
    for (const key of Object.keys(PREFS)) {
      if (valid(key, saved[key])) prefs[key] = saved[key];
    }
  }
  return prefs;
}

export function save(prefs) {
  const kept = {};
  for (const key of Object.keys(PREFS)) if (valid(key, prefs[key])) kept[key] = prefs[key];
  return writeJson("prefs", kept);
}

/** Sets the preferences as data-* attributes on <html> (style.css draws from them). */
export function apply(prefs, root = document.documentElement) {
  root.dataset.cardSize = prefs.cardSize;
  root.dataset.colors = prefs.colors;
  root.dataset.felt = prefs.felt;
  root.dataset.aidVoids = String(prefs.aidVoids);
  root.dataset.aidUnseen = String(prefs.aidUnseen);
  root.dataset.aidNeeds = String(prefs.aidNeeds);
}
