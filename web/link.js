// Links that start a game: ?seed=…&level=…&games=…&suit=…&humans=… deal that game (any may
// be left out: the person's usual settings fill in), and ?speed=… sets the animation speed.
// humans lists the seats people play, by the engine's seat keys (south,north; the first
// person first, whose suit "suit" sets). Every parameter is checked against what the engine
// offers (its hello: levels, match lengths, suits, seats) or, for the speed, what the page
// allows; one out of range is left out, so the usual setting applies, and a notice names it.
// The seed is the engine's to check.
//
// ?lang=en|ru chooses the page's language (i18n.js reads it; a wrong one is named here).
//
// ?daily=YYYY-MM-DD deals the Calypso of that day (daily.js); the engine checks the date, and
// a date it refuses is said in a notice, the usual game dealt instead. The other game
// parameters do not apply to it and are left out, with a notice.
//
// ?puzzle=ID opens that puzzle over the game (puzzles.js; the engine says if no puzzle has the
// id), once: it leaves the address like a game's parameters.
//
// A link's game is dealt once: app.js replaces the address with one without the game's
// parameters (history.replaceState), so a reload resumes the game instead of dealing it
// again, and saves.js remembers the link with the game's save (`key`), so opening the same
// link later resumes it too.

import { LANGUAGES, msg } from "./i18n.js";
import { readHosting, readInvite } from "./remote/invite.js";
import { MAX_RELAYS } from "./remote/relays.js";
import { parseSpeed, speedChoices } from "./speed.js";

const GAME_PARAMS = ["seed", "level", "games", "suit", "humans", "daily"];
const MAX_SHOWN = 40; // characters of a refused value quoted in a notice

// A refused value as a notice quotes it: cut short, control characters escaped.
const shown = (text) => JSON.stringify(text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN - 1)}…` : text).slice(1, -1);

/** The game parameters of a page address, as one text that names the link's game; null
 * when it has none. */
export function linkKey(href) {
  const params = new URL(href).searchParams;
  const named = GAME_PARAMS.filter((name) => params.has(name));
  return named.length ? new URLSearchParams(named.map((name) => [name, params.get(name)])).toString() : null;
}

/**
 * Reads a page address's query against the engine's hello. Returns {deal, speed, notices,
 * url, puzzle}: puzzle is the id of ?puzzle= (or null); deal is null or {seed, settings, key} (settings: the checked level, games and suit;
 * key: the link's game parameters, to recognise it later), or {daily: the date's text, key}
 * for the Calypso of a day; speed is the checked speed or null; notices are messages about
 * refused parameters; url is the address without the
 * game's parameters and without a refused speed.
 */
export function readLink(href, hello) {
  const url = new URL(href);
  const params = url.searchParams;
  const notices = [];
  let deal = null;
  if (params.has("daily")) {
    const ignored = GAME_PARAMS.filter((name) => name !== "daily" && params.has(name));
    if (ignored.length) notices.push(dailyOnly(ignored));
    deal = { daily: params.get("daily"), key: linkKey(href) };
  } else if (GAME_PARAMS.some((name) => params.has(name))) {
    const settings = {};
    const level = params.get("level");
    if (level !== null) {
      if (hello.levels.some((l) => l.key === level)) settings.level = level;
      else notices.push(msg("link.no_level", { value: shown(level), levels: hello.levels.map((l) => l.key).join(", ") }));
    }
    const games = params.get("games");
    if (games !== null) {
      const n = /^\d{1,2}$/.test(games) ? Number(games) : NaN;
      if (n >= hello.games.min && n <= hello.games.max) settings.games = n;
      else notices.push(msg("link.bad_games", { value: shown(games), min: hello.games.min, max: hello.games.max }));
    }
    const suits = hello.cards.suits;
    const suit = params.get("suit");
    if (suit !== null) {
      if (suit === "random" || suits.some((s) => s.key === suit)) settings.suit = suit;
      else notices.push(msg("link.no_suit", { value: shown(suit), suits: suits.map((s) => s.key).join(", ") }));
    }
    const humans = params.get("humans");
    if (humans !== null) {
      const people = readHumans(humans, hello);
      if (people.error) notices.push(people.error);
      else settings.people = people.seats.map((seat) => ({ seat, name: "" }));
    }
    deal = { seed: params.get("seed") ?? undefined, settings, key: linkKey(href) };
  }
  let speed = params.get("speed");
  if (speed !== null && !parseSpeed(speed)) {
    notices.push(msg("link.bad_speed", { value: shown(speed), ...speedChoices() }));
    params.delete("speed");
    speed = null;
  }
  // The language itself is chosen before the engine starts (i18n.js); a wrong one is said here.
  const lang = params.get("lang");
  if (lang !== null && !LANGUAGES.includes(lang)) {
    notices.push(msg("link.no_language", { value: shown(lang), languages: LANGUAGES.join(", ") }));
    params.delete("lang");
  }
  notices.push(...remoteProblems(href, hello));
  for (const name of GAME_PARAMS) params.delete(name);
  const puzzle = params.get("puzzle");
  params.delete("puzzle");
  return { deal, speed, notices, url: url.href, puzzle };
}

// The notice for game parameters beside ?daily=, which deals a game of its own.
function dailyOnly(names) {
  return msg("link.daily_only", { names: names.join(", "), count: names.length });
}

// A remote table's address that cannot be followed, each with what is wrong (a message): the
// page then plays on this device alone (remote/choose.js), so it says why.
function remoteProblems(href, hello) {
  const seats = hello.seats.map((s) => s.key).join(", ");
  const problems = [];
  if (new URL(href).hash.startsWith("#join=") && !readInvite(href)) problems.push(msg("link.bad_invite", { seats }));
  const hosting = readHosting(href);
  if (hosting?.error === "seats") {
    const value = new URL(href).searchParams.get("remote") ?? "";
    problems.push(msg("link.bad_remote", { value: shown(value), max: hello.seats.length - 1, seats }));
  } else if (hosting?.error === "relays") problems.push(msg("link.bad_relays", { max: MAX_RELAYS }));
  return problems;
}

// The seats of ?humans=south,north: {seats} or {error} (a message).
function readHumans(text, hello) {
  const keys = hello.seats.map((s) => s.key);
  const named = text.split(",").map((part) => part.trim().toLowerCase());
  const unknown = named.find((key) => !keys.includes(key));
  if (unknown !== undefined) {
    return { error: msg("link.no_seat", { value: shown(unknown), seats: keys.join(", ") }) };
  }
  if (new Set(named).size !== named.length || named.length > hello.people.max) {
    return { error: msg("link.bad_humans", { value: shown(text), max: hello.people.max }) };
  }
  return { seats: named.map((key) => keys.indexOf(key)) };
}
