// The dialogs and panels around play: the new-game dialog, the last trick, the cut, the
// rules' examples, statistics (with their charts), settings, saved games and the walkthrough.

import { $ } from "./dom.js";
import { localToday } from "./engine-client.js";
import { engine } from "./engine.js";
import { hideTourOffer, problem, persist, setSpeed, show, startGame } from "./flow.js";
import * as forms from "./forms.js";
import { language, msg, t } from "./i18n.js";
import { namesOf } from "./names.js";
import * as panels from "./panels.js";
import { closeAllDialogs, closeDialog, openDialog, openOnly, renderNotice } from "./page.js";
import * as prefsStore from "./prefs.js";
import { tableAddress } from "./remote/invite.js";
import * as savedGames from "./saved-games.js";
import * as saves from "./saves.js";
import * as state from "./state.js";
import { app, requestDraw } from "./state.js";
import * as stats from "./stats.js";
import { drawProgress } from "./stats-charts.js";
import * as storage from "./storage.js";
import * as tour from "./tour.js";

const client = engine();

// -- a new game -----------------------------------------------------------------------------

// The new-game form starts from the match in play (else the saved settings).
function formSettings() {
  const settings = { ...app.settings, speed: app.speedName };
  const current = app.table?.settings;
  if (current) {
    const people = new Set(current.people.map((p) => p.seat));
    const computers = current.levels.filter((_, seat) => !people.has(seat));
    settings.level = computers[0] ?? settings.level;
    settings.levels = computers.every((l) => l === computers[0]) ? null : current.levels;
    settings.people = current.people;
    settings.rules = current.rules;
    settings.games = current.games;
    settings.suit = current.suit ?? "random";
  }
  if (!app.hello.levels.some((l) => l.key === settings.level)) settings.level = app.hello.default_level;
  return settings;
}

export function openNewGame() {
  closeDialog("score_sheet");
  forms.setNewGameForm(formSettings());
  openDialog("new_game");
}

export function deal() {
  const { seed, guests, ...settings } = forms.readNewGameForm();
  state.setSettings(settings);
  storage.saveSettings(settings);
  setSpeed(settings.speed);
  // Other guests than this page's: the page opens that table (or, with none, a game alone).
  const table = tableAddress(location.href, guests, settings, seed);
  if (table) {
    location.assign(table);
    return Promise.resolve(false);
  }
  return startGame(settings, seed);
}

// -- around play ----------------------------------------------------------------------------

/** The last trick of the table shown: the game in play's, or a puzzle's (its view and table). */
export function showLastTrick(view = app.view, table = app.table) {
  if (!view) return;
  panels.drawLastTrick($("[data-last-trick]"), view, namesOf(table));
  openOnly("last_trick");
}

export async function showRules() {
  openOnly("rules");
  if (!app.examples) {
    try {
      state.setExamples(await client.request("examples"));
    } catch (error) {
      problem(msg("problem.examples"), error);
      return;
    }
  }
  panels.drawExamples($("[data-examples]"), app.examples);
}

export function showStats() {
  const button = $("[data-action=reset_stats]");
  button.textContent = t("stats.reset");
  delete button.dataset.confirm;
  panels.drawStats($("[data-stats]"), stats.rows(), app.hello?.levels);
  drawProgress($("[data-stats-progress]"), app.hello?.levels, localToday());
  openOnly("stats");
}

export function resetStats() {
  const button = $("[data-action=reset_stats]");
  if (!button.dataset.confirm) {
    button.dataset.confirm = "true";
    button.textContent = t("stats.reset_confirm");
    return;
  }
  stats.reset();
  showStats();
}

export function showSettings() {
  forms.setPrefsForm($("[data-prefs-form]"), app.prefs, app.speedName);
  $("[data-prefs-form] [data-language]").value = language();
  openOnly("settings");
}

export function changePrefs() {
  const { prefs, speed } = forms.readPrefsForm($("[data-prefs-form]"), app.prefs);
  state.setPrefs(prefs);
  prefsStore.save(prefs);
  prefsStore.apply(prefs);
  if (speed && speed !== app.speedName) {
    setSpeed(speed);
    state.setSettings({ ...app.settings, speed });
    storage.saveSettings(app.settings);
  }
  requestDraw();
}

// -- saved games (saves.js: one save per game, one game per tab) ---------------------------

export async function showSaves() {
  savedGames.drawSaves($("[data-saves]"), await saves.list(), app.hello);
  openOnly("saves");
}

// Plays another saved game in this tab; the game in play stays saved as it stands.
export async function openSave(id) {
  const problem = await playSave(id);
  if (problem) {
    renderNotice(problem);
    return showSaves();
  }
  return undefined;
}

/** Plays a saved game in this tab (with steal, taken over from the tab that plays it); the
 * game in play stays saved as it stands. Returns why it could not be opened (a message), or
 * null. */
export async function playSave(id, { steal = false } = {}) {
  const opening = await saves.open(id, { steal });
  if (!opening.game) return opening.problem;
  closeAllDialogs();
  state.newRun(); // the game in play stops here, once the engine has answered what it was asked
  await client.request("record").catch(() => null);
  persist();
  let loaded;
  try {
    loaded = await client.request("load", opening.game);
  } catch (error) {
    opening.cancel();
    await show(() => client.request("view"), msg("problem.back"));
    problem(msg("problem.open_save"), error);
    return null;
  }
  opening.commit(); // from here on, this tab's moves are saved into the game opened
  await show(async () => loaded, msg("problem.open_save"));
  return null;
}

export async function deleteSave(id) {
  const button = document.querySelector(`[data-action=delete_save][data-save="${CSS.escape(id)}"]`);
  if (button && !savedGames.confirmDelete(button)) return;
  const refused = await saves.remove(id);
  if (refused) renderNotice(refused);
  else persist(); // the space freed may be what a failed save needed
  await showSaves();
}

// -- the walkthrough ------------------------------------------------------------------------

function tourDone() {
  state.setPrefs({ ...app.prefs, tourDone: true });
  prefsStore.save(app.prefs);
}

export function startTour() {
  closeAllDialogs();
  hideTourOffer();
  tour.start(tourDone);
}

export function declineTour() {
  hideTourOffer();
  tourDone();
}
