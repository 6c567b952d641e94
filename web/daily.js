// The Calypso of the day (docs/review.md): one deal for each date, against three master
// players, the same for everyone and offline — the engine deals it ("daily") and names its
// date in the match's table; which day is today is the person's local date, which every
// request carries (engine-client.js) and the engine judges. Started from the menu (today's
// deal) or a ?daily=YYYY-MM-DD link (link.js, boot.js). The first attempt at a date's deal is
// kept in the statistics as soon as it is dealt (left unfinished, it still counts as played),
// and the engine plays it straight: no hints, no undo (its settings say "straight"); later
// attempts are practice. The score sheet gives a share line — the date, both sides' scores
// and the result, the master's score in your seat on the same cards, the streak, never a
// card — and a link: once the kept attempt is over, a challenge on the day's cards
// (challenge.js), so that friends who open it play the day and compare; else the day's deal.

import { dailyChallenge } from "./challenge.js";
import { h, redraw } from "./dom.js";
import { engine, localToday } from "./engine-client.js";
import { show, showCut } from "./flow.js";
import { closeAllDialogs, renderNotice } from "./page.js";
import { app } from "./state.js";
import * as stats from "./stats.js";
import * as W from "./after-words.js";

const client = engine();

/** Today's date where the person is, as the deals are dated. */
export const today = localToday;

/** Deals a date's Calypso (today's when none is given): the kept attempt if none was made at
 * that date yet, else practice. Returns false if the engine refused it. */
export async function startDaily(date = null) {
  closeAllDialogs();
  const kept = stats.dailyEntry(date ?? today());
  const payload = { ...(date ? { date } : {}), practice: Boolean(kept) };
  const dealt = await show(() => client.request("daily", payload), W.dailyFailed(date));
  const day = dealt ? app.table.daily : null;
  if (!day) return dealt;
  if (app.view.plays === 0) showCut();
  if (app.table.settings.straight) stats.startDaily(day, today());
  const entry = stats.dailyEntry(day);
  renderNotice(app.table.settings.straight ? W.dailyStart(day) : W.dailyAgain(day, entry?.you ?? null, entry?.them ?? null));
  return dealt;
}

/** At the end of a daily game: the kept attempt (played straight) gets its result. */
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
          "data-share-line": true }),
        h("button", { type: "button", class: "btn", "data-action": "share_copy", text: W.copy() })) : null,
      finished && entry.master === null ? h("p", { class: "detail", text: W.shareWaits() }) : null,
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
