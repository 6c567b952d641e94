// What the person sees of saves.js: the banner that says at once when the game could not be
// saved (and what to do), and the Saved games dialog that lists every save in this browser
// with "Play here" and "Delete". Like the table view, this only draws; the dialogs act on its buttons
// (data-action open_save / delete_save, with data-save naming the save).

import { h } from "./dom.js";

const $ = (selector) => document.querySelector(selector);

const PROBLEMS = {
  full: "Your last move could not be saved: this browser's storage for Calypso is full.",
  blocked: "Your game cannot be saved: this browser does not let Calypso use its storage.",
};
const KEPT = {
  tab: "This tab keeps the game until it is closed (a reload brings it back).",
  nowhere: "Reloading or closing this tab would lose the moves since the last save.",
};
const TODO = {
  full: "Save the game to a file, or delete saved games you no longer need; every move tries again.",
  blocked: "Save the game to a file to keep it; every move tries again.",
};

let failing = false;

/**
 * Shows or hides the banner for the outcome of a save ({ok} or {ok: false, reason, kept}).
 * Returns "failed", "recovered" (the first save that worked after a failure) or "ok".
 */
export function showSaveOutcome(outcome) {
  const banner = $("[data-save-problem]");
  if (outcome.ok) {
    const was = failing;
    failing = false;
    banner.hidden = true;
    return was ? "recovered" : "ok";
  }
  failing = true;
  banner.dataset.reason = outcome.reason;
  $("[data-save-problem-text]").textContent =
    `${PROBLEMS[outcome.reason]} ${KEPT[outcome.kept]} ${TODO[outcome.reason]}`;
  banner.hidden = false;
  return "failed";
}

function describe(row, hello) {
  if (row.problem) return `${row.problem}.`;
  const label = (key) => hello?.levels.find((l) => l.key === key)?.label ?? key;
  const computers = row.levels.filter((level) => level !== "human");
  const people = row.levels.length - computers.length;
  const opponents = computers.length && computers.every((l) => l === computers[0]) ? label(computers[0])
    : computers.length ? "Mixed levels" : "No computers";
  const parts = [`Seed ${row.seed}`, people > 1 ? `${people} people, ${opponents}` : opponents,
    row.over ? "finished" : `${row.plays ?? 0} ${row.plays === 1 ? "card" : "cards"} played`];
  if (row.games > 1) parts.splice(2, 0, `game ${row.game} of ${row.games}`);
  if (row.saved) parts.push(`saved ${new Date(row.saved).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" })}`);
  return parts.join(" · ");
}

/** Draws the list of saves (rows from saves.list()). */
export function drawSaves(el, rows, hello) {
  el.replaceChildren(rows.length ? h("ul", { class: "saves-list" }, rows.map((row) =>
    h("li", { class: "save-row", "data-save-row": row.id, "data-mine": row.mine ? "true" : null,
      "data-elsewhere": row.elsewhere ? "true" : null },
    h("span", { class: "save-what", text: describe(row, hello) }),
    row.mine ? h("span", { class: "save-tag", text: "In play in this tab" })
      : row.elsewhere ? h("span", { class: "save-tag", text: "Open in another tab" })
        : h("span", { class: "save-actions" },
          row.problem ? null : h("button", { type: "button", class: "btn", "data-action": "open_save", "data-save": row.id, text: "Play here" }),
          h("button", { type: "button", class: "btn", "data-action": "delete_save", "data-save": row.id, text: "Delete" })))))
    : h("p", { text: "No game is saved in this browser." }));
}

/** Asks for a second click before a save is deleted; true once confirmed. */
export function confirmDelete(button) {
  if (button.dataset.confirm) return true;
  button.dataset.confirm = "true";
  button.textContent = "Really delete? Click again";
  return false;
}
