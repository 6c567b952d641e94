// Starting the page: while the engine loads, this tab's saved game is chosen (saves.js);
// then the first game is dealt — the saved one, else the one a link names, else a new one —
// and, if even that fails, the page says why instead of going blank.

import { setVocabulary } from "./cards.js";
import { engine } from "./engine-client.js";
import { setSpeed, show, startGame } from "./flow.js";
import * as forms from "./forms.js";
import { linkKey, readLink } from "./link.js";
import * as names from "./names.js";
import * as page from "./page.js";
import * as saves from "./saves.js";
import { app } from "./state.js";
import * as storage from "./storage.js";

const client = engine();

export async function main() {
  // Which saved game this tab plays is settled while the engine boots (see saves.js).
  const address = location.href;
  const claimed = saves.claim(linkKey(address));
  client.onProgress(page.renderBoot);
  try {
    app.hello = await client.ready;
  } catch (error) {
    page.setEngineFailed();
    page.renderBootError(error);
    return;
  }
  page.renderBoot({ stage: "ready", fraction: 1 });
  setVocabulary(app.hello.cards);
  names.setSeats(app.hello.seats);
  forms.fillNewGameForm(app.hello);
  if (app.hello.bots_problem) console.warn("computer players unavailable:", app.hello.bots_problem);

  const link = readLink(address, app.hello);
  setSpeed(link.speed ?? app.settings.speed);
  await firstGame(link, await claimed);
  // The link's game is dealt once: a reload now resumes it (saves.js) instead.
  if (link.url !== location.href) history.replaceState(history.state, "", link.url);
  // "ready" once the first game is dealt and the page waits for the person (tests wait on it).
  if (app.view) {
    page.setEngineReady(app.hello);
    if (!app.prefs.tourDone) document.querySelector("[data-tour-offer]").hidden = false;
  } else {
    page.setEngineFailed();
  }
}

// Deals the first game: this tab's saved one (for a link, the one it dealt before), else the
// one the link names, else a new one; says whatever the person should know about it. A saved
// game of several people comes back with every hand covered: the hand-off screen first.
async function firstGame(link, { game: saved, notice, problem: unreadable }) {
  const told = [...link.notices, notice].filter(Boolean).join(" ") || null;
  if (saved) {
    if (await show(() => client.request("load", saved), "Your saved game could not be restored")) {
      page.renderNotice(told);
      return undefined;
    }
    saves.setAside(saved);
    return fallBack(`${page.noticeText()}. It was set aside`);
  }
  if (link.deal) {
    saves.dealtFromLink(link.deal.key);
    if (await startGame({ ...app.settings, levels: null, people: null, ...link.deal.settings }, link.deal.seed)) {
      page.renderNotice(told);
      return undefined;
    }
    saves.dealtFromLink(null);
    return fallBack(page.noticeText(), told);
  }
  return fallBack(unreadable ? `${unreadable}; it was set aside` : null, told);
}

// Deals a game with the person's usual settings; if even that fails, says so plainly. The
// notice gives the reason, after what the person was already told.
async function fallBack(reason, told = null) {
  const say = (text) => page.renderNotice([told, text].filter(Boolean).join(" ") || null);
  let started = await startGame(app.settings);
  if (!started && /^bad_/.test(app.lastError?.code ?? "")) {
    // The person's saved settings are what the engine refuses: keep them aside, use defaults.
    const refused = page.noticeText();
    app.settings = storage.resetSettings(app.settings);
    started = await startGame(app.settings);
    if (started) {
      say(`${reason ? `${reason}. ` : ""}Your saved settings could not be used (${refused}); they were set aside and the defaults dealt a new game.`);
      return;
    }
  }
  if (!started) {
    page.renderBootError({ code: "no_game", message: page.noticeText() });
  } else {
    say(reason && `${reason}; a new game was dealt with your usual settings.`);
  }
}
