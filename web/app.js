// The wiring: connects the engine client, the view, the input and the storage. The rules live
// in the engine (Python, in the worker); this file only sequences requests and drawing.
//
// URL parameters start a given deal directly: ?seed=…&level=…&speed=…  (also games=1-4,
// suit=S|H|D|C); link.js checks them. Games are saved after every move by saves.js.

import { engine } from "./engine-client.js";
import { bindInput } from "./input.js";
import { linkKey, readLink } from "./link.js";
import * as panels from "./panels.js";
import * as prefsStore from "./prefs.js";
import * as savedGames from "./saved-games.js";
import * as saves from "./saves.js";
import * as sound from "./sound.js";
import { SPEEDS, parseSpeed } from "./speed.js";
import * as stats from "./stats.js";
import * as storage from "./storage.js";
import * as tour from "./tour.js";
import * as view from "./view.js";

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
  prefs: prefsStore.load(),
  replay: null, // {record | null, position, imported} while the replay dialog is open
  imported: null, // the last imported file's summary, for "Continue playing"
  examples: null, // the rules' worked examples, fetched once
};

function draw() {
  if (!app.view) return;
  // The panels first: render() ends by focusing the hand, which lays the page out, so every
  // change should be in by then.
  panels.drawLog(document.querySelector("[data-log]"), app.view, { showCut: true });
  panels.drawAids(document.querySelector("[data-aids]"), app.view);
  view.render(app.view, {
    busy: app.busy,
    animate: app.speed.move > 0,
    focusHand: app.focusHand,
    hello: app.hello,
    hint: app.hint,
    undoAllowed: app.prefs.undo,
    canUndo: app.prefs.undo && Boolean(app.view.can_undo) && !app.view.is_over,
  });
}

// Sounds for what the last event did: a card, a trick won or lost, a calypso completed.
function soundFor(before, after) {
  const event = after.last_event;
  if (!event || !app.prefs.sound) return;
  const made = after.seats.some((s, i) => s.completed > (before?.seats[i]?.completed ?? s.completed));
  if (made) sound.play("calypso");
  else if (event.trick) sound.play(event.trick.winner % 2 === after.you % 2 ? "trick" : "lost");
  else sound.play("card");
}

function setSpeed(speed) {
  app.speed = parseSpeed(speed) ?? SPEEDS.normal;
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
  const started = await show(() => client.request("new_game", payload), "Could not deal");
  if (started && app.view.match.game_number === 1 && app.view.deal === 1 &&
      !app.view.log?.tricks.length) showCut();
  return started;
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
    app.lastError = error;
    return false;
  }
  app.lastError = null;
  persist();
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
    soundFor(app.view, next);
    app.view = next;
    persist();
    if (next.last_event?.note) console.warn(next.last_event.note);
    if (app.speed.move > 0) { // at instant speed only the end of the run is drawn
      draw();
      await sleep(next.last_event?.trick ? app.speed.trick : app.speed.move);
    }
  }
  if (run !== app.run) return;
  app.busy = false;
  draw();
  if (app.view.is_over) {
    stats.countGame(app.view);
    closeAllDialogs();
    view.openDialog("score_sheet");
  } else if (app.view.status === "your_turn" && app.prefs.sound) {
    sound.play("turn");
  }
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
  soundFor(app.view, next);
  hideCut();
  app.view = next;
  persist();
  draw();
  await sleep(next.last_event?.trick ? app.speed.trick : app.speed.move);
  await advance(run);
}

async function undo() {
  if (app.busy || !app.prefs.undo || !app.view?.can_undo || app.view.is_over) return;
  const ok = await show(() => client.request("undo"), "Could not undo");
  if (ok) view.renderNotice(null);
}

// Saves the game in play as the engine last recorded it (the client keeps that record after
// every request that changes the game); a save that fails is said at once.
function persist() {
  if (!client.game) return;
  const over = Boolean(app.view?.is_over && app.view.match?.is_over);
  const outcome = saves.save(client.game, { over });
  if (savedGames.showSaveOutcome(outcome) === "recovered") view.renderNotice("Your game is saved again.");
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

// -- the cut, dialogs and the features around play -------------------------------------------

let cutTimer = null;

function showCut(force = false) {
  if (!app.view?.cut || (!force && !app.prefs.showCut)) return;
  panels.drawCut(document.querySelector("[data-cut]"), app.view.cut);
  document.querySelector("[data-cut-banner]").hidden = false;
  clearTimeout(cutTimer);
  if (!force) cutTimer = setTimeout(hideCut, Math.max(3500, app.speed.trick * 3));
}

function hideCut() {
  clearTimeout(cutTimer);
  const banner = document.querySelector("[data-cut-banner]");
  const hadFocus = banner.contains(document.activeElement);
  banner.hidden = true;
  if (hadFocus) view.focusHand();
}

function closeAllDialogs() {
  for (const dialog of document.querySelectorAll("dialog[open]")) dialog.close();
}

function openOnly(name) {
  for (const dialog of document.querySelectorAll("dialog[open]")) {
    if (dialog.dataset.dialog !== name) dialog.close();
  }
  view.openDialog(name);
}

function showLastTrick() {
  if (!app.view) return;
  panels.drawLastTrick(document.querySelector("[data-last-trick]"), app.view);
  openOnly("last_trick");
}

async function showRules() {
  openOnly("rules");
  if (!app.examples) {
    try {
      app.examples = await client.request("examples");
    } catch (error) {
      problem("The worked examples could not be drawn", error);
      return;
    }
  }
  panels.drawExamples(document.querySelector("[data-examples]"), app.examples);
}

function showStats() {
  const button = document.querySelector("[data-action=reset_stats]");
  button.textContent = "Reset statistics";
  delete button.dataset.confirm;
  panels.drawStats(document.querySelector("[data-stats]"), stats.rows(), app.hello?.levels);
  openOnly("stats");
}

function resetStats() {
  const button = document.querySelector("[data-action=reset_stats]");
  if (!button.dataset.confirm) {
    button.dataset.confirm = "true";
    button.textContent = "Really reset? Click again";
    return;
  }
  stats.reset();
  showStats();
}

function showSettings() {
  panels.setPrefsForm(document.querySelector("[data-prefs-form]"), app.prefs, app.speedName);
  openOnly("settings");
}

function changePrefs() {
  const { prefs, speed } = panels.readPrefsForm(document.querySelector("[data-prefs-form]"), app.prefs);
  app.prefs = prefs;
  prefsStore.save(prefs);
  prefsStore.apply(prefs);
  sound.setEnabled(prefs.sound);
  if (speed && speed !== app.speedName) {
    setSpeed(speed);
    app.settings = { ...app.settings, speed };
    storage.saveSettings(app.settings);
  }
  draw();
}

async function exportGame() {
  let saved;
  try {
    saved = await client.request("record");
  } catch (error) {
    problem("Could not save the game to a file", error);
    return;
  }
  const text = `${JSON.stringify(saved.record, null, 1)}\n`;
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const link = document.createElement("a");
  const game = app.view?.match.game_number ?? 1;
  link.href = url;
  link.download = `calypso-${String(saved.settings.seed).replace(/[^\w-]+/g, "_").slice(0, 40)}-game${game}.json`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  closeAllDialogs();
  view.renderNotice(`The game was saved as ${link.download}.`);
}

const MAX_IMPORT_BYTES = 64_000;

async function importFile(file) {
  closeAllDialogs();
  if (file.size > MAX_IMPORT_BYTES) {
    view.renderNotice(`"${file.name}" is not a Calypso game record: it is ${file.size.toLocaleString("en")} bytes, and a record is at most ${MAX_IMPORT_BYTES.toLocaleString("en")}. Nothing was changed.`);
    return;
  }
  let summary;
  try {
    summary = await client.request("import", { text: await file.text() });
  } catch (error) {
    view.renderNotice(`"${file.name}" could not be opened: ${error.message}. Nothing was changed.`);
    return;
  }
  app.imported = summary;
  await openReplay({ record: summary.record, imported: true, at: summary.tricks });
  view.renderNotice(`Opened "${file.name}": ${summary.is_over ? "a finished game" : `a game after ${summary.plays} cards`}.`);
}

async function openReplay({ record = null, imported = false, at = 0 } = {}) {
  app.replay = { record, imported, position: null };
  document.querySelector("[data-action=replay_continue]").hidden = !(imported && app.imported && !app.imported.is_over);
  await replayTo(at);
  if (app.replay?.position) openOnly("replay");
}

async function replayTo(tricks) {
  if (!app.replay) return;
  app.replay.target = tricks; // steps taken while a reply is on its way count from here
  const payload = { tricks };
  if (app.replay.record) payload.record = app.replay.record;
  let position;
  try {
    position = await client.request("replay", payload);
  } catch (error) {
    problem("The game could not be replayed", error);
    return;
  }
  if (!app.replay || app.replay.target !== tricks) return; // a later step supersedes this one
  app.replay.position = position;
  panels.drawReplay(document.querySelector("[data-replay]"), position);
  document.querySelector("[data-replay-status]").textContent = position.trick
    ? `After trick ${position.tricks} of ${position.total}: ${position.trick.reason}`
    : "Before the first trick: every hand as dealt.";
  const controls = document.querySelector(".replay-controls");
  controls.querySelector("[data-action=replay_first]").disabled = position.tricks === 0;
  controls.querySelector("[data-action=replay_prev]").disabled = position.tricks === 0;
  controls.querySelector("[data-action=replay_next]").disabled = position.tricks >= position.total;
  controls.querySelector("[data-action=replay_last]").disabled = position.tricks >= position.total;
}

function replayStep(step) {
  const at = app.replay?.position;
  if (!at) return undefined;
  const from = app.replay.target ?? at.tricks;
  const target = step === "first" ? 0 : step === "last" ? at.total : from + step;
  if (target < 0 || target > at.total || target === from) return undefined;
  return replayTo(target);
}

async function continueImported() {
  const summary = app.imported;
  if (!summary || summary.is_over) return;
  closeAllDialogs();
  const ok = await show(() => client.request("load", { record: summary.record, settings: summary.settings }),
    "The imported game could not be continued");
  if (ok) view.renderNotice("The imported game goes on from where it was saved.");
}

// -- saved games (saves.js: one save per game, one game per tab) ---------------------------

async function showSaves() {
  savedGames.drawSaves(document.querySelector("[data-saves]"), await saves.list(), app.hello);
  openOnly("saves");
}

// Plays another saved game in this tab; the game in play stays saved as it stands.
async function openSave(id) {
  const opening = await saves.open(id);
  if (!opening.game) {
    view.renderNotice(opening.problem);
    return showSaves();
  }
  closeAllDialogs();
  app.run += 1; // the game in play stops here, once the engine has answered what it was asked
  await client.request("record").catch(() => null);
  persist();
  let loaded;
  try {
    loaded = await client.request("load", opening.game);
  } catch (error) {
    opening.cancel();
    await show(() => client.request("view"), "Could not go back to the game in play");
    problem("That saved game could not be opened", error);
    return undefined;
  }
  opening.commit(); // from here on, this tab's moves are saved into the game opened
  return show(async () => loaded, "That saved game could not be opened");
}

async function deleteSave(id) {
  const button = document.querySelector(`[data-action=delete_save][data-save="${CSS.escape(id)}"]`);
  if (button && !savedGames.confirmDelete(button)) return;
  const refused = await saves.remove(id);
  if (refused) view.renderNotice(refused);
  else persist(); // the space freed may be what a failed save needed
  await showSaves();
}

function startTour() {
  closeAllDialogs();
  document.querySelector("[data-tour-offer]").hidden = true;
  tour.start(() => {
    app.prefs = { ...app.prefs, tourDone: true };
    prefsStore.save(app.prefs);
  });
}

function declineTour() {
  document.querySelector("[data-tour-offer]").hidden = true;
  app.prefs = { ...app.prefs, tourDone: true };
  prefsStore.save(app.prefs);
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
    case "undo":
      return undo();
    case "last_trick":
      return showLastTrick();
    case "menu":
      return openOnly("menu");
    case "rules":
      return showRules();
    case "stats":
      return showStats();
    case "reset_stats":
      return resetStats();
    case "settings":
      return showSettings();
    case "prefs":
      return changePrefs();
    case "export":
      return exportGame();
    case "saves":
      return showSaves();
    case "open_save":
      return openSave(intent.save);
    case "delete_save":
      return deleteSave(intent.save);
    case "import":
      return document.querySelector("[data-import-file]").click();
    case "import_file":
      return importFile(intent.file);
    case "replay":
      return openReplay({ at: 0 });
    case "replay_first":
      return replayStep("first");
    case "replay_prev":
      return replayStep(-1);
    case "replay_next":
      return replayStep(1);
    case "replay_last":
      return replayStep("last");
    case "replay_continue":
      return continueImported();
    case "show_cut":
      closeAllDialogs();
      return showCut(true);
    case "close_cut":
      return hideCut();
    case "tour":
      return startTour();
    case "tour_next":
      return tour.next();
    case "tour_back":
      return tour.back();
    case "tour_skip":
      return tour.end();
    case "tour_decline":
      return declineTour();
    case "close_dialog":
      return closeAllDialogs();
    case "reload":
      return location.reload();
    default:
      return undefined;
  }
}

// -- boot -----------------------------------------------------------------------------------

async function main() {
  // Which saved game this tab plays is settled while the engine boots (see saves.js).
  const address = location.href;
  const claimed = saves.claim(linkKey(address));
  prefsStore.apply(app.prefs);
  sound.setEnabled(app.prefs.sound);
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

  const link = readLink(address, app.hello);
  setSpeed(link.speed ?? app.settings.speed);
  await firstGame(link, await claimed);
  // The link's game is dealt once: a reload now resumes it (saves.js) instead.
  if (link.url !== location.href) history.replaceState(history.state, "", link.url);
  // "ready" once the first game is dealt and the page waits for the person (tests wait on it).
  if (app.view) {
    view.setEngineReady(app.hello);
    if (!app.prefs.tourDone) document.querySelector("[data-tour-offer]").hidden = false;
  } else {
    view.setEngineFailed();
  }
}

// Deals the first game: this tab's saved one (for a link, the one it dealt before), else the
// one the link names, else a new one; says whatever the person should know about it.
async function firstGame(link, { game: saved, notice, problem: unreadable }) {
  const told = [...link.notices, notice].filter(Boolean).join(" ") || null;
  if (saved) {
    if (await show(() => client.request("load", saved), "Your saved game could not be restored")) {
      view.renderNotice(told);
      return undefined;
    }
    saves.setAside(saved);
    return fallBack(`${noticeText()}. It was set aside`);
  }
  if (link.deal) {
    saves.dealtFromLink(link.deal.key);
    if (await startGame({ ...app.settings, levels: null, ...link.deal.settings }, link.deal.seed)) {
      view.renderNotice(told);
      return undefined;
    }
    saves.dealtFromLink(null);
    return fallBack(noticeText(), told);
  }
  return fallBack(unreadable ? `${unreadable}; it was set aside` : null, told);
}

function noticeText() {
  return document.querySelector("[data-notice]").textContent;
}

// Deals a game with the person's usual settings; if even that fails, says so plainly. The
// notice gives the reason, after what the person was already told.
async function fallBack(reason, told = null) {
  const say = (text) => view.renderNotice([told, text].filter(Boolean).join(" ") || null);
  let started = await startGame(app.settings);
  if (!started && /^bad_/.test(app.lastError?.code ?? "")) {
    // The person's saved settings are what the engine refuses: keep them aside, use defaults.
    const refused = noticeText();
    app.settings = storage.resetSettings(app.settings);
    started = await startGame(app.settings);
    if (started) {
      say(`${reason ? `${reason}. ` : ""}Your saved settings could not be used (${refused}); they were set aside and the defaults dealt a new game.`);
      return;
    }
  }
  if (!started) {
    view.renderBootError({ code: "no_game", message: noticeText() });
  } else {
    say(reason && `${reason}; a new game was dealt with your usual settings.`);
  }
}

main();
