// Links that start a game: ?seed=…&level=…&games=…&suit=…&humans=… deal that game (any may
// be left out: the person's usual settings fill in), and ?speed=… sets the animation speed.
// humans lists the seats people play, by the engine's seat keys (south,north; the first
// person first, whose suit "suit" sets). Every parameter is checked against what the engine
// offers (its hello: levels, match lengths, suits, seats) or, for the speed, what the page
// allows; one out of range is left out, so the usual setting applies, and a notice names it.
// The seed is the engine's to check.
//
// A link's game is dealt once: app.js replaces the address with one without the game's
// parameters (history.replaceState), so a reload resumes the game instead of dealing it
// again, and saves.js remembers the link with the game's save (`key`), so opening the same
// link later resumes it too.

import { parseSpeed, speedChoices } from "./speed.js";

const GAME_PARAMS = ["seed", "level", "games", "suit", "humans"];
const MAX_SHOWN = 40; // characters of a refused value quoted in a notice

const quoted = (text) => JSON.stringify(text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN - 1)}…` : text);

/** The game parameters of a page address, as one text that names the link's game; null
 * when it has none. */
export function linkKey(href) {
  const params = new URL(href).searchParams;
  const named = GAME_PARAMS.filter((name) => params.has(name));
  return named.length ? new URLSearchParams(named.map((name) => [name, params.get(name)])).toString() : null;
}

/**
 * Reads a page address's query against the engine's hello. Returns {deal, speed, notices,
 * url}: deal is null or {seed, settings, key} (settings: the checked level, games and suit;
 * key: the link's game parameters, to recognise it later); speed is the checked speed or
 * null; notices are sentences about refused parameters; url is the address without the
 * game's parameters and without a refused speed.
 */
export function readLink(href, hello) {
  const url = new URL(href);
  const params = url.searchParams;
  const notices = [];
  let deal = null;
  if (GAME_PARAMS.some((name) => params.has(name))) {
    const settings = {};
    const level = params.get("level");
    if (level !== null) {
      if (hello.levels.some((l) => l.key === level)) settings.level = level;
      else notices.push(`There is no level ${quoted(level)} (the levels are ${hello.levels.map((l) => l.key).join(", ")}): your usual level plays.`);
    }
    const games = params.get("games");
    if (games !== null) {
      const n = /^\d{1,2}$/.test(games) ? Number(games) : NaN;
      if (n >= hello.games.min && n <= hello.games.max) settings.games = n;
      else notices.push(`A match cannot be ${quoted(games)} games long (${hello.games.min} to ${hello.games.max}): your usual length is dealt.`);
    }
    const suits = hello.cards.suits;
    const suit = params.get("suit");
    if (suit !== null) {
      if (suit === "random" || suits.some((s) => s.key === suit)) settings.suit = suit;
      else notices.push(`There is no suit ${quoted(suit)} (${suits.map((s) => s.key).join(", ")} or random): your usual choice is dealt.`);
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
    notices.push(`The speed ${quoted(speed)} is not one the table can play at (${speedChoices()}): your usual speed is used.`);
    params.delete("speed");
    speed = null;
  }
  for (const name of GAME_PARAMS) params.delete(name);
  return { deal, speed, notices, url: url.href };
}

// The seats of ?humans=south,north: {seats} or {error} in words.
function readHumans(text, hello) {
  const keys = hello.seats.map((s) => s.key);
  const named = text.split(",").map((part) => part.trim().toLowerCase());
  const unknown = named.find((key) => !keys.includes(key));
  const usual = "your usual players are seated.";
  if (unknown !== undefined) {
    return { error: `There is no seat ${quoted(unknown)} (the seats are ${keys.join(", ")}): ${usual}` };
  }
  if (new Set(named).size !== named.length || named.length > hello.people.max) {
    return { error: `${quoted(text)} does not name 1 to ${hello.people.max} different seats: ${usual}` };
  }
  return { seats: named.map((key) => keys.indexOf(key)) };
}
