// What the person sees of saves.js: the banner that says at once when the game could not be
// saved (and what to do), and the Saved games dialog that lists every save in this browser
// with "Play here" and "Delete". Like the table view, this only draws; the dialogs act on its buttons
// (data-action open_save / delete_save, with data-save naming the save).

import { h } from "./dom.js";
import { dateTime, msg, say, t } from "./i18n.js";
import { nameableSeed } from "./names.js";
import { app, setSaveFailure } from "./state.js";

const $ = (selector) => document.querySelector(selector);

/**
 * Shows or hides the banner for the outcome of a save ({ok} or {ok: false, reason, kept}).
 * Returns "failed", "recovered" (the first save that worked after a failure) or "ok".
 */
export function showSaveOutcome(outcome) {
  const banner = $("[data-save-problem]");
  if (outcome.ok) {
    const was = app.saveFailure !== null;
    setSaveFailure(null);
    banner.hidden = true;
    return was ? "recovered" : "ok";
  }
  setSaveFailure(outcome);
  banner.dataset.reason = outcome.reason;
  // Three sentences: what failed (full or blocked), where the game is kept, and what to do.
  $("[data-save-problem-text]").textContent = say([msg(`save_problem.${outcome.reason}`),
    msg(`save_problem.kept_${outcome.kept}`), msg(`save_problem.todo_${outcome.reason}`)]);
  banner.hidden = false;
  return "failed";
}

/** Words the banner again (the language changed). */
export function redrawSaveOutcome() {
  if (app.saveFailure) showSaveOutcome(app.saveFailure);
}

function describe(row, hello) {
  if (row.problem) return say(row.problem);
  const label = (key) => {
    const level = hello?.levels.find((l) => l.key === key);
    return level ? say(level.label) : key;
  };
  const computers = row.levels.filter((level) => level !== "human");
  const people = row.levels.length - computers.length;
  const opponents = computers.length && computers.every((l) => l === computers[0]) ? label(computers[0])
    : computers.length ? t("stats.mixed_levels") : t("saves.no_computers");
  const seed = nameableSeed(row.settings, row.over);
  const parts = [seed === null ? null : t("bar.seed", { seed }),
    people > 1 ? t("saves.people", { count: people, opponents }) : opponents,
    row.over ? t("saves.finished") : t("saves.played", { count: row.plays ?? 0 })];
  if (row.games > 1) parts.splice(2, 0, t("saves.game_of", { game: row.game, games: row.games }));
  if (row.saved) parts.push(t("saves.saved_at", { when: dateTime(row.saved) }));
  return parts.filter(Boolean).join(" · ");
}

/** Draws the list of saves (rows from saves.list()). */
export function drawSaves(el, rows, hello) {
  el.replaceChildren(rows.length ? h("ul", { class: "saves-list" }, rows.map((row) =>
    h("li", { class: "save-row", "data-save-row": row.id, "data-mine": row.mine ? "true" : null,
      "data-elsewhere": row.elsewhere ? "true" : null },
    h("span", { class: "save-what", text: describe(row, hello) }),
    row.mine ? h("span", { class: "save-tag", text: t("saves.in_this_tab") })
      : row.elsewhere ? h("span", { class: "save-tag", text: t("saves.in_other_tab") })
        : h("span", { class: "save-actions" },
          row.problem ? null : h("button", { type: "button", class: "btn", "data-action": "open_save", "data-save": row.id, text: t("saves.play_here") }),
          h("button", { type: "button", class: "btn", "data-action": "delete_save", "data-save": row.id, text: t("saves.delete") })))))
    : h("p", { text: t("saves.none") }));
}

/** Asks for a second click before a save is deleted; true once confirmed. */
export function confirmDelete(button) {
  if (button.dataset.confirm) return true;
  button.dataset.confirm = "true";
  button.textContent = t("saves.delete_confirm");
  return false;
}
