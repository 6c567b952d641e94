// The page around the table: loading progress, a failed start, notices, the engine's state
// on <html>, and opening and closing dialogs.

import { $, $$ } from "./dom.js";
import { decimal, hasWords, say, t } from "./i18n.js";
import { app, setBoot, setNotice } from "./state.js";
import { focusHand } from "./table-view.js";

const ORDER = ["runtime", "engine", "ready"]; // the stages; each has words "boot.<stage>"

function megabytes(bytes) {
  return decimal(bytes / 1e6, 1);
}

/**
 * Shows loading progress: a bar, the stage in words, which steps are done, and the bytes of
 * the big files loaded so far of those expected. Progress comes while the page's words may
 * still be loading: the numbers are shown at once, the words once they are there
 * (redrawBoot).
 * @param {{stage: string, fraction: number, received?: number, expected?: number}} progress
 */
export function renderBoot({ stage, fraction, received, expected }) {
  setBoot({ stage, fraction, received, expected });
  $("[data-boot-progress]").value = fraction;
  const words = hasWords();
  // A host's table waits for its guests (to take their seats, to send their seeds) before it
  // deals: its card says so rather than "Dealing the cards…".
  const waiting = stage === "ready" ? app.remote?.waiting : null;
  if (words) $("[data-engine-status]").textContent = waiting ? t(`remote.lobby_${waiting}`) : ORDER.includes(stage) ? t(`boot.${stage}`) : stage;
  const at = ORDER.indexOf(stage);
  for (const li of $$("[data-boot-step]")) {
    const i = ORDER.indexOf(li.dataset.bootStep);
    li.dataset.done = i < at ? "true" : i === at ? "now" : "false";
  }
  if (expected) {
    const line = $("[data-boot-bytes]");
    if (words) line.textContent = t("boot.bytes", { received: megabytes(received), expected: megabytes(expected) });
    Object.assign(line.dataset, { received, expected });
  }
}

/** Shows why the engine could not start; the page never goes blank. What went wrong
 * (error.message) is shown as the engine or the browser said it, for a bug report. */
export function renderBootError(error) {
  setBoot({ failed: error });
  $("[data-boot]").hidden = false;
  $("[data-table]").hidden = true;
  const box = $("[data-engine-error]");
  box.textContent = `${t("boot.error", { code: error.code })}\n${error.message}`;
  box.hidden = false;
  $("[data-boot-failure]").hidden = false;
  $("[data-boot-progress]").hidden = true;
  $("[data-engine-status]").textContent = t("boot.failed");
}

/** Words the loading screen again (the language changed). */
export function redrawBoot() {
  if (app.boot?.failed) renderBootError(app.boot.failed);
  else if (app.boot) renderBoot(app.boot);
}

/** Shows a problem that does not stop the game (a refused save, a failed request): a
 * message, or a list of them (sentences one after another); null or [] hides it. */
export function renderNotice(said) {
  setNotice(Array.isArray(said) && !said.length ? null : said ?? null);
  const box = $("[data-notice]");
  box.textContent = say(app.notice);
  box.hidden = !app.notice;
}

/** The notice shown now, as messages (null when none), to say again with more. */
export function currentNotice() {
  return app.notice;
}

/** The first game is dealt and the page waits for its person (tests wait on it). */
export function setEngineReady() {
  document.documentElement.dataset.engineState = "ready";
}

/** The bar's Menu, New game and Log, and the engine's version in the footer: from the first
 * view drawn on (a host's page whose guest plays first has them before its own turn). */
export function showBar(hello) {
  $("[data-engine-version]").textContent = hello.engine;
  $("[data-engine-line]").hidden = false;
  for (const button of $$(".bar [data-action=new_game], .bar [data-action=menu], .bar [data-action=toggle_side]")) {
    button.hidden = false;
  }
}

/** Whether the side panel (log and memory aids) is a drawer now, rather than a column. */
function sideIsDrawer() {
  return getComputedStyle($("[data-side-panel]")).position === "fixed";
}

/** Opens or closes the side panel's drawer (where the screen has no room for a column);
 * focus goes into it, and back to the button that opened it. */
export function toggleSide(open = !document.documentElement.hasAttribute("data-side-open")) {
  const root = document.documentElement;
  const toggle = $(".bar [data-action=toggle_side]");
  const side = $("[data-side-panel]");
  if (open) root.dataset.sideOpen = "";
  else delete root.dataset.sideOpen;
  toggle.setAttribute("aria-expanded", String(open));
  if (!sideIsDrawer()) return;
  if (open) $(".side-close", side).focus();
  else if (side.contains(document.activeElement)) toggle.focus();
}

/** Whether the side panel's drawer is open. */
export function sideOpen() {
  return document.documentElement.hasAttribute("data-side-open") && sideIsDrawer();
}

export function setEngineFailed() {
  document.documentElement.dataset.engineState = "error";
}

// Where the keyboard was when the first of the dialogs open now was opened: it goes back
// there when the last one closes, or to the hand (keepFocusOnClose).
let opener = null;

export function openDialog(name) {
  const dialog = $(`[data-dialog=${name}]`);
  if (!document.querySelector("dialog[open]")) opener = document.activeElement;
  if (!dialog.open) dialog.showModal();
}

/** Once the last dialog closes, the keyboard goes back to where it was before the first one
 * opened; if that was a button of the bar (Menu, New game…), nowhere or something gone since,
 * to the hand (its card, or the hand-off's button) — else to the page itself, where the arrow
 * keys reach the hand. */
export function keepFocusOnClose() {
  document.addEventListener("close", (event) => {
    if (!(event.target instanceof HTMLDialogElement) || document.querySelector("dialog[open]")) return;
    const back = opener;
    opener = null;
    // Something took the keyboard as the dialog closed (the walkthrough it started): it keeps it.
    const now = document.activeElement;
    if (now && now !== document.body && now !== back && !now.closest(".bar")) return;
    const stays = back instanceof HTMLElement && back.isConnected && !back.closest(".bar")
      && back !== document.body && !back.matches(":disabled") && back.checkVisibility();
    if (stays) {
      back.focus({ preventScroll: true });
      return;
    }
    focusHand();
    if (document.activeElement !== document.body && !document.activeElement?.closest("[data-table]")) {
      /** @type {HTMLElement} */ (document.activeElement).blur();
    }
  }, true);
}

export function closeDialog(name) {
  const dialog = $(`[data-dialog=${name}]`);
  if (dialog.open) dialog.close();
}

export function closeAllDialogs() {
  for (const dialog of $$("dialog[open]")) dialog.close();
}

/** Opens one dialog, closing any other. */
export function openOnly(name) {
  for (const dialog of $$("dialog[open]")) {
    if (dialog.dataset.dialog !== name) dialog.close();
  }
  openDialog(name);
}
