// Starting the page: while the engine loads, this tab's saved game is chosen (saves.js);
// then the first game is dealt — the saved one, else the one a link names, else a new one —
// and, if even that fails, the page says why instead of going blank.

import { openAddress, readAddress } from "./challenge.js";
import { startDaily } from "./daily.js";
import { engine } from "./engine.js";
import { offerTour, setSpeed, show, startGame } from "./flow.js";
import { msg, say as inWords } from "./i18n.js";
import * as forms from "./forms.js";
import { linkKey, readLink } from "./link.js";
import * as page from "./page.js";
import * as saves from "./saves.js";
import { app, setHello, setSettings } from "./state.js";
import * as storage from "./storage.js";

const client = engine();

/** Starts the page; returns the link it was opened with (link.js), once its game is dealt,
 * or null when no game could be. */
export async function main() {
  // Which saved game this tab plays is settled while the engine boots (see saves.js).
  const address = location.href;
  const claimed = saves.claim(linkKey(address));
  try {
    setHello(await client.ready);
    performance.mark("calypso:hello"); // for bench/timeline.py, as the worker's phases
  } catch (error) {
    page.setEngineFailed();
    page.renderBootError(error);
    return null;
  }
  page.renderBoot({ stage: "ready", fraction: 1 });
  forms.fillNewGameForm(app.hello);

  const judged = await judgeSettings();
  const link = readLink(address, app.hello);
  setSpeed(link.speed ?? app.settings.speed);
  await firstGame(link, await claimed, judged);
  performance.mark("calypso:dealt");
  // The link's game is dealt once: a reload now resumes it (saves.js) instead.
  if (link.url !== location.href) history.replaceState(history.state, "", link.url);
  // "ready" once the first game is dealt and the page waits for the person (tests wait on it).
  if (app.view) {
    page.setEngineReady();
    offerTour();
    // A challenge (or a reply to one) in the address: shown once the game in play is dealt,
    // which it leaves as it is until the person chooses to play it.
    const challenge = readAddress(address);
    if (challenge) await openAddress(challenge);
    return link;
  }
  page.setEngineFailed();
  return null;
}

// Deals the first game: this tab's saved one (for a link, the one it dealt before), else the
// one the link names, else a new one; says whatever the person should know about it. A saved
// game of several people comes back with every hand covered: the hand-off screen first. What
// the page says is a list of messages, one sentence after another.
/** @param {any} link @param {{game?: any, notice?: any, problem?: any}} found @param {any[]} judged */
async function firstGame(link, { game: saved, notice, problem: unreadable }, judged) {
  const told = [...link.notices, notice, ...judged].filter(Boolean);
  if (saved) {
    if (await show(() => client.request("load", saved), msg("problem.restore"))) {
      page.renderNotice(told);
      return undefined;
    }
    saves.setAside(saved);
    return fallBack([page.currentNotice(), msg("boot.set_aside")]);
  }
  if (link.deal) {
    saves.dealtFromLink(link.deal.key);
    // The engine's refusal of the link's game says what it refused ("That seed is the
    // Calypso of …"), in one sentence, and the usual game dealt instead shows itself.
    const dealt = link.deal.daily !== undefined ? startDaily(link.deal.daily)
      : startGame({ ...app.settings, levels: null, people: null, ...link.deal.settings }, link.deal.seed, null);
    if (await dealt) {
      page.renderNotice([...told, page.currentNotice()].filter(Boolean));
      return undefined;
    }
    saves.dealtFromLink(null);
    return fallBack([page.currentNotice()], told, !app.lastError?.text);
  }
  return fallBack(unreadable ? [unreadable, msg("boot.set_aside")] : [], told);
}

// The person's saved settings, judged by the engine (it holds the limits: the page keeps
// none): each value it refuses goes back to its default, the settings as they were are set
// aside, and the page says why (messages, [] when all were fine). Where the engine does not
// judge them (a guest's table), they stay as they are: new_game judges them when it deals.
async function judgeSettings() {
  const { speed, ...settings } = app.settings;
  let verdict;
  try {
    verdict = await client.request("check_settings", { settings });
  } catch {
    return [];
  }
  if (!verdict.refused.length) return [];
  setSettings(storage.keepJudged(app.settings, verdict.settings));
  return [msg("boot.settings_refused"), ...verdict.refused.map((r) => r.text)];
}

// Deals a game with the person's usual settings; if even that fails, says so plainly. The
// notice gives the reason, after what the person was already told, and that the usual game
// was dealt (unless sayDealt is false: the reason says all).
async function fallBack(reason, told = [], sayDealt = true) {
  const say = (more) => page.renderNotice([...told, ...more].filter(Boolean));
  let started = await startGame(app.settings);
  if (!started && app.lastError?.input) {
    // The person's saved settings are what the engine refuses: keep them aside, use defaults.
    const refused = page.currentNotice();
    setSettings(storage.resetSettings(app.settings));
    started = await startGame(app.settings);
    if (started) {
      say([...reason, refused, msg("boot.settings_set_aside")]);
      return;
    }
  }
  if (!started) {
    page.renderBootError({ code: "no_game", message: inWords(page.currentNotice()) });
  } else {
    say(reason.length && sayDealt ? [...reason, msg("boot.dealt_usual")] : reason);
  }
}
