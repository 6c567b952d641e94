// The Calypso of the day (docs/review.md): one deal for each UTC date, against three master
// players, the same for everyone and offline — the engine deals it ("daily") and names its
// date in the match's table. Started from the menu (today's deal) or a ?daily=YYYY-MM-DD link
// (link.js, boot.js). The first finished attempt at a date's deal is kept in the statistics;
// later ones are practice. The score sheet gives a share line — the date, your score and the
// master's in your seat on the same cards, never a card — and the link to the day's deal.

import { h, redraw } from "./dom.js";
import { engine } from "./engine-client.js";
import { show, showCut } from "./flow.js";
import { closeAllDialogs, renderNotice } from "./page.js";
import { app } from "./state.js";
import * as stats from "./stats.js";
import * as W from "./after-words.js";

const client = engine();

/** Today's date in UTC, as the deals are dated. */
export function todayUtc() {
  return new Date().toISOString().slice(0, 10);
}

/** Deals a date's Calypso (today's when none is given) and says whether this attempt will
 * be kept; false if the engine refused it. */
export async function startDaily(date = null) {
  closeAllDialogs();
  const dealt = await show(() => client.request("daily", date ? { date } : {}), W.dailyFailed(date));
  const day = dealt ? app.table.daily : null;
  if (!day) return dealt;
  if (app.view.plays === 0) showCut();
  const kept = stats.dailyEntry(day);
  renderNotice(kept ? W.dailyAgain(day, kept.you, kept.them) : W.dailyStart(day));
  return dealt;
}

/** At the end of a daily game: the first finished attempt at its date is kept. */
export function gameOver(view, table) {
  const date = table.daily;
  const person = table.seats.find((s) => s.person);
  if (!date || !person || view.status !== "game_over") return;
  const id = stats.gameId(view, table);
  stats.keepDaily(date, { id, you: view.scores[person.side], them: view.scores[1 - person.side] }, todayUtc());
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
  const kept = Boolean(entry) && entry.id === stats.gameId(view, table);
  el.hidden = !date;
  redraw(el, JSON.stringify([date, entry, kept]), () => {
    if (!date || !entry) return [];
    const line = W.shareLine(date, entry.you, entry.master, dailyLink(date));
    return [
      h("h3", { text: W.dailyTitle(date) }),
      h("p", { "data-daily-attempt": kept ? "kept" : "practice",
        text: kept ? W.dailyKept(entry.on === date) : W.dailyPractice(entry.you, entry.them) }),
      h("label", { class: "share-label", for: "share-line", text: W.shareLabel() }),
      h("div", { class: "share-row" },
        h("input", { id: "share-line", class: "share-line", type: "text", readonly: true, value: line,
          "data-share-line": true }),
        h("button", { type: "button", class: "btn", "data-action": "share_copy", text: W.copy() })),
      entry.master === null ? h("p", { class: "detail", text: W.shareWaits() }) : null,
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
