// The Calypso of the day (docs/review.md): one deal for each date, against three master
// players, the same for everyone and offline — the engine deals it ("daily") and names its
// date in the match's table; which day is today is the person's local date, which every
// request carries (engine-client.js) and the engine judges. Started from the menu (today's
// deal) or a ?daily=YYYY-MM-DD link (link.js, boot.js).
//
// The first attempt at a date's deal is kept: counted in the statistics as soon as it is
// dealt, with the save it is played in, and played straight by the engine (no hints, no
// undo: its settings say "straight"). One attempt at a time: while it is unfinished no
// practice of that date is dealt in any tab (nor a game file of its cards opened: the engine
// refuses one, told the dates by kept_open). Asking for the date again resumes it, here or —
// when another tab plays it — by taking it over from that tab (a Web Lock, saves.js). The
// person may give it up (the Menu): the date stays played, with no result, and practice
// with hints and undo is dealt. The score sheet gives a share line — the date, both sides'
// scores and the result, your side's lead with the master in your seat on the same cards,
// the streak, never a card — and a link: once the kept attempt is over, a challenge on the
// day's cards (challenge.js), so that friends who open it play the day and compare; else the
// day's deal.

import { dailyChallenge } from "./challenge.js";
import { $, h, redraw } from "./dom.js";
import { playSave } from "./dialogs.js";
import { localToday } from "./engine-client.js";
import { engine } from "./engine.js";
import { show, showCut } from "./flow.js";
import { closeAllDialogs, openOnly, renderNotice } from "./page.js";
import * as saves from "./saves.js";
import { app } from "./state.js";
import * as stats from "./stats.js";
import * as W from "./after-words.js";

const client = engine();

/** Today's date where the person is, as the deals are dated. */
export const today = localToday;

/** Deals a date's Calypso (today's when none is given): the kept attempt if none was made at
 * that date yet; the kept attempt itself while it is unfinished (resumed here, or offered to
 * be taken over from the tab that plays it); else practice. Returns whether a game of that
 * date is at the table now (false: the engine refused it, or it is played in another tab). */
export async function startDaily(date = null) {
  closeAllDialogs();
  const key = date ?? today();
  // One tab at a time deals a date's attempt: two tabs opening the day's link at once deal
  // one kept attempt, and the second is offered to take it over.
  return navigator.locks ? navigator.locks.request(`calypso-daily-${key}`, () => dealDaily(date, key))
    : dealDaily(date, key);
}

async function dealDaily(date, key) {
  const lost = keptLost(key);
  if (stats.keptOpen(stats.dailyEntry(key))) return resumeKept(key);
  const kept = stats.dailyEntry(key);
  const payload = { ...(date ? { date } : {}), practice: Boolean(kept) };
  // The engine's refusal names the date and why ("…is not dealt before its day."): alone.
  const dealt = await show(() => client.request("daily", payload), W.dailyFailed(date), null);
  const day = dealt ? app.table.daily : null;
  if (!day) return dealt;
  if (app.view.plays === 0) showCut();
  if (app.table.settings.straight) stats.startDaily(day, today(), app.save?.id ?? null);
  const entry = stats.dailyEntry(day);
  renderNotice([lost ? W.keptGone(day) : null, app.table.settings.straight ? W.dailyStart(day)
    : W.dailyAgain(day, entry?.you ?? null, entry?.them ?? null)].filter(Boolean));
  return dealt;
}

// A kept attempt left open whose save holds it no more (deleted in Saved games, or the
// browser's storage cleared) is given up: true if that date's was.
function keptLost(date) {
  const entry = stats.dailyEntry(date);
  if (!stats.keptOpen(entry) || saves.holdsKept(entry.save)) return false;
  stats.giveUpDaily(date);
  return true;
}

/** The dates whose kept attempts are unfinished (a game file of their cards is not opened:
 * replay.js). */
export function keptOpenDates() {
  return stats.keptOpenDates().filter((date) => !keptLost(date));
}

// The kept attempt at ``date``, unfinished: where it is played, it goes on.
async function resumeKept(date) {
  const { save } = stats.dailyEntry(date);
  const where = await saves.whereKept(save);
  if (where === "here") {
    renderNotice(W.keptHere(date));
    return true;
  }
  if (where === "elsewhere") {
    offerTakeOver(date);
    return false;
  }
  const problem = await playSave(save);
  renderNotice(problem ?? W.keptResumed(date));
  return !problem;
}

// -- one attempt at a time ---------------------------------------------------------------------

/** Offers to take over the kept attempt at ``date`` from the tab that plays it. */
function offerTakeOver(date) {
  const dialog = $("[data-dialog=daily_elsewhere]");
  dialog.dataset.date = date;
  $("[data-daily-elsewhere-text]", dialog).textContent = W.keptElsewhere(date);
  openOnly("daily_elsewhere");
  renderNotice(W.keptElsewhereNotice(date));
}

/** Takes the kept attempt offered over from the tab that plays it, and plays it here. */
export async function takeOver() {
  const date = $("[data-dialog=daily_elsewhere]").dataset.date;
  const entry = date ? stats.dailyEntry(date) : null;
  if (!stats.keptOpen(entry)) return false;
  const problem = await playSave(entry.save, { steal: true });
  renderNotice(problem ?? W.keptTakenOver(date));
  return !problem;
}

/** Whether the game at the table is an unfinished kept attempt (the Menu offers to give it up). */
export function keptInPlay() {
  const date = app.table?.daily;
  return Boolean(date && app.table.settings.straight && app.view?.status !== "game_over"
    && stats.keptOpen(stats.dailyEntry(date)));
}

/** Shows "Give up today's attempt" in the Menu while the game at the table is a kept
 * attempt, unconfirmed. */
export function drawGiveUp() {
  const button = $("[data-dialog=menu] [data-action=give_up]");
  button.hidden = !keptInPlay();
  delete button.dataset.confirm;
  if (!button.hidden) button.textContent = W.giveUpLabel(app.table.daily, today());
}

/** Gives up the kept attempt at the table (asked twice: the button confirms): the date stays
 * played, with no result, and its practice is dealt here, with hints and undo. */
export async function giveUp(button) {
  if (!keptInPlay()) return false;
  if (!button.dataset.confirm) {
    button.dataset.confirm = "true";
    button.textContent = W.giveUpConfirm();
    return false;
  }
  const date = app.table.daily;
  stats.giveUpDaily(date);
  saves.forget(); // the practice is saved in its place
  return startDaily(date);
}

/** At the end of a daily game: the kept attempt (played straight, not given up) gets its
 * result. */
export function gameOver(view, table) {
  const date = table.daily;
  const person = table.seats.find((s) => s.person);
  if (!date || !person || view.status !== "game_over" || !table.settings.straight) return;
  const id = stats.gameId(view, table);
  stats.finishDaily(date, { id, you: view.scores[person.side], them: view.scores[1 - person.side] }, today());
}

/** The address of a date's deal: this page with ?daily=DATE. */
export function dailyLink(date) {
  const url = new URL(location.href);
  url.search = new URLSearchParams({ daily: date }).toString();
  url.hash = "";
  return url.href;
}

/** Draws the Calypso of the day on the score sheet: kept or practice, the share line, the link. */
export function drawDaily(el, ui) {
  const { view, table } = ui;
  const date = view.status === "game_over" ? table.daily : null;
  const entry = date ? stats.dailyEntry(date) : null;
  const kept = Boolean(table.settings.straight);
  const streak = stats.streak(today()).current;
  // Once the kept attempt is over, the line carries a challenge on the day's cards.
  const challenge = date ? dailyChallenge(date) : null;
  el.hidden = !date;
  redraw(el, JSON.stringify([date, entry, kept, streak, challenge]), () => {
    if (!date || !entry) return [];
    const finished = entry.you !== null;
    const line = finished ? W.shareLine({ date, ...entry, streak, link: challenge ?? dailyLink(date) }) : null;
    return [
      h("h3", { text: W.dailyTitle(date) }),
      h("p", { "data-daily-attempt": kept ? "kept" : "practice",
        text: kept ? W.dailyKept(entry.on === date) : W.dailyPractice(entry.you, entry.them) }),
      finished ? h("label", { class: "share-label", for: "share-line", text: W.shareLabel() }) : null,
      finished ? h("div", { class: "share-row" },
        h("input", { id: "share-line", class: "share-line", type: "text", readonly: true, value: line,
          "data-share-line": true, "data-share-master": String(entry.master_lead !== null) }),
        h("button", { type: "button", class: "btn", "data-action": "share_copy", text: W.copy() })) : null,
      finished && entry.master_lead === null ? h("p", { class: "detail", text: W.shareWaits() }) : null,
      h("p", {}, h("a", { href: dailyLink(date), "data-daily-link": true, text: W.dailyLinkText(date) })),
    ];
  });
}

/** Copies the share line; where the clipboard is closed to the page, selects it to copy. */
export async function copyShareLine() {
  const field = document.querySelector("[data-share-line]");
  if (!field) return;
  try {
    await navigator.clipboard.writeText(field.value);
    renderNotice(W.copied());
  } catch {
    field.select();
    renderNotice(W.copyYourself());
  }
}
