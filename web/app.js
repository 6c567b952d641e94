// The wiring: connects the engine client, the view, the input and the storage. The rules live
// in the engine (Python, in the worker); this file only sequences requests and drawing.
//
// URL parameters start a given deal directly: ?seed=…&level=…&speed=…  (also games=1-4,
// suit=S|H|D|C). speed is instant|fast|normal|slow or milliseconds per computer move.

import { engine } from "./engine-client.js";
import { bindInput } from "./input.js";
import * as storage from "./storage.js";
import * as view from "./view.js";

// Milliseconds per computer move, and how long a completed trick stays in view.
const SPEEDS = {
  instant: { move: 0, trick: 0 },
  fast: { move: 250, trick: 900 },
  normal: { move: 550, trick: 1600 },
  slow: { move: 950, trick: 2600 },
};

const client = engine();
const app = {
  hello: null,
  view: null,
  busy: false,
  focusHand: false,
  settings: storage.loadSettings(),
  speed: SPEEDS.normal,
  run: 0, // bumped by every new deal: stale computer-move loops stop
  hint: null, // the card the last hint suggested, until the person plays
};

function draw() {
  if (!app.view) return;
  view.render(app.view, {
    busy: app.busy,
    animate: app.speed.move > 0,
    focusHand: app.focusHand,
    hello: app.hello,
    hint: app.hint,
  });
}

function setSpeed(speed) {
  const ms = Number(speed);
  app.speed = SPEEDS[speed] ?? (Number.isFinite(ms) && ms >= 0
    ? { move: ms, trick: ms * 3 }
    : SPEEDS.normal);
  // The closest named speed, for the new-game form.
  app.speedName = Object.keys(SPEEDS).find((name) => SPEEDS[name].move >= app.speed.move) ?? "slow";
  document.documentElement.style.setProperty("--move-ms", `${app.speed.move}ms`);
}

const sleep = (ms) => (ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : null);

function problem(what, error) {
  view.renderNotice(`${what}: ${error.message}${error.code ? ` (${error.code})` : ""}`);
}

// -- game flow ----------------------------------------------------------------------------

function levelPayload(settings) {
  const known = new Set(app.hello.levels.map((l) => l.key));
  const level = known.has(settings.level) ? settings.level : app.hello.default_level;
  if (Array.isArray(settings.levels) && settings.levels.every((l, s) => s === 2 || known.has(l))) {
    return { levels: settings.levels };
  }
  return { level };
}

async function startGame(settings, seed) {
  const payload = {
    ...levelPayload(settings),
    rules: settings.rules ?? {},
    games: settings.games ?? 1,
    suit: settings.suit ?? "random",
  };
  if (seed !== undefined && seed !== null && seed !== "") payload.seed = seed;
  return show(() => client.request("new_game", payload), "Could not deal");
}

// Replaces the game in play with the one a request returns, then lets the computer play.
async function show(requestView, failure) {
  const run = ++app.run;
  app.hint = null;
  view.closeDialog("score_sheet");
  try {
    app.view = await requestView();
  } catch (error) {
    problem(failure, error);
    return false;
  }
  if (run !== app.run) return true;
  view.renderNotice(null);
  app.busy = false;
  draw();
  await advance(run);
  return true;
}

// Asks the engine for computer moves one at a time, drawing each, until it is the person's
// turn or the game ends. The bots think in the worker, so the page stays responsive.
async function advance(run) {
  app.busy = true;
  draw();
  while (run === app.run && app.view.status === "waiting") {
    let next;
    try {
      next = await client.request("step");
    } catch (error) {
      problem("A computer player could not move", error);
      break;
    }
    if (run !== app.run) return;
    app.view = next;
    if (next.last_event?.note) console.warn(next.last_event.note);
    if (app.speed.move > 0) { // at instant speed only the end of the run is drawn
      draw();
      await sleep(next.last_event?.trick ? app.speed.trick : app.speed.move);
    }
  }
  if (run !== app.run) return;
  app.busy = false;
  draw();
  if (app.view.is_over) view.openDialog("score_sheet");
  await persist();
}

async function playCard(card) {
  if (app.busy || app.view?.status !== "your_turn") return;
  const run = app.run;
  if (app.hint) {
    app.hint = null;
    view.renderNotice(null);
  }
  app.busy = true;
  app.focusHand = true;
  draw(); // at once: the hand is disabled and data-state says busy before the reply
  let next;
  try {
    next = await client.request("play", { card });
  } catch (error) {
    app.busy = false;
    draw();
    problem(`Could not play ${card}`, error);
    return;
  }
  if (run !== app.run) return;
  app.view = next;
  draw();
  await sleep(next.last_event?.trick ? app.speed.trick : app.speed.move);
  await advance(run);
}

async function persist() {
  try {
    storage.saveGame(await client.request("record"));
  } catch (error) {
    console.warn("the game could not be saved:", error.message);
  }
}

async function hint() {
  if (app.busy || app.view?.status !== "your_turn") return;
  try {
    const { card, reason } = await client.request("hint");
    app.hint = card.card;
    draw();
    view.renderNotice(`Hint (${card.pretty}): ${reason}`);
  } catch (error) {
    problem("No hint", error);
  }
}

// The new-game form starts from the game in play (else the saved settings).
function formSettings() {
  const settings = { ...app.settings, speed: app.speedName };
  const current = app.view?.settings;
  if (current) {
    const [north, east, , west] = current.levels;
    settings.level = north;
    settings.levels = north === east && east === west ? null : current.levels;
    settings.rules = current.rules;
    settings.games = current.games;
    settings.suit = current.suit ?? "random";
  }
  if (!app.hello.levels.some((l) => l.key === settings.level)) {
    settings.level = app.hello.default_level;
  }
  return settings;
}

// -- intents --------------------------------------------------------------------------------

function dispatch(intent) {
  switch (intent.type) {
    case "play_card":
      return playCard(intent.card);
    case "new_game":
      view.closeDialog("score_sheet");
      view.setNewGameForm(formSettings());
      return view.openDialog("new_game");
    case "deal": {
      const chosen = view.readNewGameForm();
      const { seed, ...settings } = chosen;
      app.settings = settings;
      storage.saveSettings(settings);
      setSpeed(settings.speed);
      return startGame(settings, seed);
    }
    case "per_seat":
      return view.showPerSeat(intent.show);
    case "next_game":
      return show(() => client.request("next_game"), "Could not start the next game");
    case "new_match":
      return startGame(app.settings);
    case "show_scores":
      return view.openDialog("score_sheet");
    case "close_scores":
      return view.closeDialog("score_sheet");
    case "hint":
      return hint();
    case "reload":
      return location.reload();
    default:
      return undefined;
  }
}

// -- boot -----------------------------------------------------------------------------------

async function main() {
  bindInput(dispatch);
  client.onProgress(view.renderBoot);
  try {
    app.hello = await client.ready;
  } catch (error) {
    view.setEngineFailed();
    view.renderBootError(error);
    return;
  }
  view.renderBoot({ stage: "ready", fraction: 1 });
  view.fillNewGameForm(app.hello);
  if (app.hello.bots_problem) console.warn("computer players unavailable:", app.hello.bots_problem);

  const params = new URLSearchParams(location.search);
  setSpeed(params.get("speed") ?? app.settings.speed);
  await firstGame(params);
  // "ready" once the first game is dealt and the page waits for the person (tests wait on it).
  if (app.view) view.setEngineReady(app.hello);
  else view.setEngineFailed();
}

// Deals the first game: the one the URL names, else the saved one, else a new one.
async function firstGame(params) {
  const fromUrl = ["seed", "level", "games", "suit"].some((key) => params.has(key));
  const saved = fromUrl ? null : storage.loadGame();
  if (fromUrl) {
    const settings = { ...app.settings, levels: null };
    if (params.has("level")) settings.level = params.get("level");
    if (params.has("games")) settings.games = Number(params.get("games"));
    if (params.has("suit")) settings.suit = params.get("suit");
    if (params.has("level") && !app.hello.levels.some((l) => l.key === settings.level)) {
      return fallBack(`There is no level "${settings.level}"`);
    }
    if (await startGame(settings, params.get("seed"))) return undefined;
    return fallBack(noticeText());
  }
  if (saved) {
    if (await show(() => client.request("load", saved), "Your saved game could not be restored")) {
      return undefined;
    }
    storage.setAside(saved);
    return fallBack(`${noticeText()}. It was set aside`);
  }
  return fallBack(null);
}

function noticeText() {
  return document.querySelector("[data-notice]").textContent;
}

// Deals a game with the person's usual settings; if even that fails, says so plainly.
async function fallBack(reason) {
  const started = await startGame(app.settings);
  if (!started) {
    view.renderBootError({ code: "no_game", message: noticeText() });
  } else if (reason) {
    view.renderNotice(`${reason}; a new game was dealt with your usual settings.`);
  }
}

main();
