// The page's words. Everything people read comes from one catalog per language,
// messages/en.json and messages/ru.json: the engine's own files (calypso_core/messages/,
// copied by build.py), so the page and the terminal say the same things. The engine sends
// messages, {id, params}; say() renders them here exactly as calypso_core/messages/render.py
// does in Python (docs/messages.md): {name}, {name:form}, {n, plural, one {# card} other
// {# cards}}, and each parameter's kind from the last word of its name (seat, card, suit,
// rank, level; other numbers are written as the language writes numbers).
//
// The language: the person's choice (kept in the browser's storage), else ?lang=en|ru, else the
// browser's preferred languages, else English. setLanguage() switches at once: it fills
// every [data-i18n…] element of the page and tells onLanguage() listeners to redraw the rest.

import { app, setLanguageShown } from "./state.js";
import { readText, writeText } from "./storage.js";

export const LANGUAGES = ["en", "ru"];
const SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const KINDS = new Set(["seat", "card", "suit", "rank", "level"]);

// The language is the page's state (app.language). What follows is derived from it and
// replaced with it in setLanguage(): its catalog (a static file), its plural rules and number
// format, and the templates parsed so far; the listeners are wired once at start-up.
let catalog = {};
let plurals = new Intl.PluralRules("en");
let numbers = new Intl.NumberFormat("en");
const parsed = new Map(); // template -> nodes
const listeners = new Set();

/** The language the page speaks now: "en" or "ru". */
export function language() {
  return app.language;
}

/** Whether a catalog is loaded (until then the page shows the English words of its HTML). */
export function hasWords() {
  return Object.keys(catalog).length > 0;
}

/** The language to start in (a ?lang= value that is not one of LANGUAGES is passed over;
 * link.js says so). */
export function chooseLanguage(href = location.href, preferred = navigator.languages ?? []) {
  const saved = readText("language");
  const asked = new URL(href).searchParams.get("lang");
  const fromBrowser = preferred.map((tag) => String(tag).toLowerCase().split("-")[0])
    .find((code) => LANGUAGES.includes(code));
  return [saved, asked, fromBrowser].find((code) => LANGUAGES.includes(code)) ?? "en";
}

async function fetchCatalog(code) {
  const response = await fetch(new URL(`./messages/${code}.json`, import.meta.url));
  if (!response.ok) throw new Error(`messages/${code}.json: HTTP ${response.status}`);
  return response.json();
}

/**
 * Speaks a language from now on: loads its catalog, fills the page's static words, sets
 * <html lang>, the title and the manifest, and tells every onLanguage() listener. With
 * save, the choice is kept for later visits. A catalog that cannot be loaded leaves the
 * language as it was (and says so in the console).
 */
export async function setLanguage(code, { save = false } = {}) {
  if (!LANGUAGES.includes(code)) return false;
  let loaded;
  try {
    loaded = await fetchCatalog(code);
  } catch (error) {
    console.warn(`Calypso: the ${code} words could not be loaded: ${error.message}`);
    return false;
  }
  setLanguageShown(code);
  catalog = loaded;
  parsed.clear();
  plurals = new Intl.PluralRules(code);
  numbers = new Intl.NumberFormat(code);
  if (save) {
    writeText("language", code); // if the storage refuses, the choice holds for this visit
  }
  translatePage();
  listeners.forEach((listener) => listener(code));
  return true;
}

/** Calls listener(lang) whenever the language changes. */
export function onLanguage(listener) {
  listeners.add(listener);
}

// -- the page's own words ---------------------------------------------------------------------

/**
 * Fills static words from the catalog: data-i18n="key" sets the text (of an element that
 * also holds other elements, such as a label around its checkbox, only its one text), and
 * data-i18n-attr="attribute:key; attribute:key" sets attributes. The HTML keeps the English
 * words, for a page whose script has not run.
 */
/** @param {ParentNode} [root] */
export function translatePage(root = document) {
  document.documentElement.lang = app.language;
  for (const el of root.querySelectorAll("[data-i18n]")) setText(el, t(el.dataset.i18n));
  for (const el of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of el.dataset.i18nAttr.split(";")) {
      const [attribute, key] = pair.split(":").map((part) => part.trim());
      if (attribute && key) el.setAttribute(attribute, t(key));
    }
  }
  // The rules in brief are built into the page once per language (build.py): show this one.
  for (const el of root.querySelectorAll("[data-rules-from]")) el.hidden = el.lang !== app.language;
  document.title = t("app.title");
  // Words drawn by the style sheet (the tag on the hinted card: a short word, within a card).
  document.documentElement.style.setProperty("--word-hint", JSON.stringify(t("hand.hint_tag")));
  const manifest = document.querySelector("link[rel=manifest]");
  if (manifest) manifest.href = app.language === "en" ? "manifest.webmanifest" : `manifest.${app.language}.webmanifest`;
}

function setText(el, text) {
  if (!el.children.length) {
    el.textContent = text;
    return;
  }
  const node = [...el.childNodes].find((child) => child.nodeType === Node.TEXT_NODE && child.data.trim());
  if (!node) return;
  const [, before, , after] = node.data.match(/^(\s*)([\s\S]*?)(\s*)$/);
  node.data = `${before}${text}${after}`;
}

// -- rendering --------------------------------------------------------------------------------

/** A message object: {id, params}. */
export function msg(id, params = undefined) {
  return params ? { id, params } : { id };
}

/** The words of a catalog id with its parameters. */
export function t(id, params = {}) {
  const template = catalog[id];
  if (typeof template !== "string") {
    console.warn(`Calypso: no words for ${id} in ${app.language}`);
    return id;
  }
  return fill(parse(template), params, null, id);
}

/** A message ({id, params}), a list of them (one sentence after another), or text as it is. */
export function say(said) {
  if (said === null || said === undefined) return "";
  if (typeof said === "string") return said;
  if (Array.isArray(said)) return said.map(say).join(" ");
  return t(said.id, said.params ?? {});
}

/** A noun's word in a form (its first form by default): noun("seat.3", "gen"). */
export function noun(key, form = null) {
  const word = catalog[key];
  if (typeof word === "string") return word;
  if (!word || typeof word !== "object") {
    console.warn(`Calypso: no word for ${key} in ${app.language}`);
    return key;
  }
  if (form === null) return Object.values(word)[0];
  return word[form] ?? Object.values(word)[0];
}

/** A number as the language writes it: 1,250 or 1 250. */
export function number(n) {
  return numbers.format(n);
}

/** A number with a fixed count of decimals, as the language writes it: 4.1 or 4,1. */
export function decimal(n, digits) {
  return new Intl.NumberFormat(app.language, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(n);
}

/** A date and time as the language writes them, in the medium style (English dates as in
 * Britain: 1 Jan 2025, 14:05). */
export function dateTime(ms) {
  return new Date(ms).toLocaleString(app.language === "en" ? "en-GB" : app.language, { dateStyle: "medium", timeStyle: "short" });
}

/** A date ("2025-01-31") written out as the language writes it: "Friday, 31 January 2025",
 * «пятница, 31 января 2025 г.». */
export function dateLong(date) {
  return new Date(`${date}T00:00:00Z`).toLocaleDateString(app.language === "en" ? "en-GB" : app.language,
    { timeZone: "UTC", weekday: "long", day: "numeric", month: "long", year: "numeric" });
}

/** Items joined as the language joins a list: "spades and hearts", «пики и черви». */
export function list(items) {
  return new Intl.ListFormat(app.language, { type: "conjunction" }).format(items);
}

/** The plural category of a number in the language (Intl.PluralRules): "one", "few"… */
export function pluralOf(n) {
  return plurals.select(n);
}

export const seatName = (seat, form = null) => noun(`seat.${seat}`, form);
export const suitName = (key, form = null) => noun(`suit.${key}`, form);
export const rankLabel = (key) => noun(`rank.${key}`, "short");
export const cardShort = (code) => `${rankLabel(code[0])}${SYMBOLS[code[1]]}`;
export const cardName = (code) => t("card.name", { rank: code[0], suit: code[1] });

function parse(template) {
  let nodes = parsed.get(template);
  if (!nodes) {
    const [found, end] = nodesOf(template, 0, false);
    if (end !== template.length) throw new Error(`unexpected "}" in ${template}`);
    nodes = found;
    parsed.set(template, nodes);
  }
  return nodes;
}

const SIMPLE = /\s*([a-z][a-z0-9_]*)\s*(?::\s*([a-z]+)\s*)?\}/y;
const PLURAL = /\s*([a-z][a-z0-9_]*)\s*,\s*plural\s*,/y;
const SELECTOR = /\s*(=\d+|zero|one|two|few|many|other)\s*\{/y;

function nodesOf(text, start, inPlural) {
  const nodes = [];
  let plain = "";
  let i = start;
  const flush = () => {
    if (plain) nodes.push(plain);
    plain = "";
  };
  while (i < text.length) {
    const char = text[i];
    if (char === "}") {
      flush();
      return [nodes, i];
    }
    if (char === "{") {
      flush();
      const [node, next] = placeholder(text, i + 1);
      nodes.push(node);
      i = next;
      continue;
    }
    if (char === "#" && inPlural) {
      flush();
      nodes.push({ hash: true });
    } else {
      plain += char;
    }
    i += 1;
  }
  if (inPlural) throw new Error(`a plural branch is not closed in ${text}`);
  flush();
  return [nodes, i];
}

function placeholder(text, start) {
  SIMPLE.lastIndex = start;
  const simple = SIMPLE.exec(text);
  if (simple) return [{ name: simple[1], form: simple[2] ?? null }, SIMPLE.lastIndex];
  PLURAL.lastIndex = start;
  const plural = PLURAL.exec(text);
  if (!plural) throw new Error(`a bad placeholder in ${text}`);
  let i = PLURAL.lastIndex;
  const branches = {};
  for (;;) {
    while (i < text.length && /\s/.test(text[i])) i += 1;
    if (text[i] === "}") break;
    SELECTOR.lastIndex = i;
    const selector = SELECTOR.exec(text);
    if (!selector) throw new Error(`a plural branch without a selector in ${text}`);
    const [nodes, end] = nodesOf(text, SELECTOR.lastIndex, true);
    branches[selector[1]] = nodes;
    i = end + 1;
  }
  return [{ name: plural[1], branches }, i + 1];
}

function fill(nodes, params, count, where) {
  let out = "";
  for (const node of nodes) {
    if (typeof node === "string") out += node;
    else if (node.hash) out += number(count ?? 0);
    else if (!(node.name in params)) {
      console.warn(`Calypso: ${where} has no ${node.name}`);
      out += `{${node.name}}`;
    } else if (node.branches) {
      const n = params[node.name];
      const branches = node.branches;
      out += fill(branches[`=${n}`] ?? branches[plurals.select(n)] ?? branches.other, params, n, where);
    } else {
      out += word(node.name, params[node.name], node.form);
    }
  }
  return out;
}

function word(name, given, form) {
  if (given !== null && typeof given === "object") return say(given);
  const last = name.split("_").at(-1);
  const kind = KINDS.has(last) ? last : null;
  if (kind === "seat") return noun(`seat.${given}`, form);
  if (kind === "suit" && form === "symbol") return SYMBOLS[given];
  if (kind === "suit" || kind === "rank") return noun(`${kind}.${given}`, form);
  if (kind === "level") return typeof catalog[`level.${given}`] === "string" ? t(`level.${given}`) : String(given);
  if (kind === "card") return form === "name" ? cardName(given) : cardShort(given);
  if (typeof given === "number") return number(given);
  return String(given);
}
