// The page around the table: loading progress, a failed start, notices, the engine's state
// on <html>, and opening and closing dialogs.

import { $, $$ } from "./dom.js";

const STAGES = {
  runtime: "Loading the Python runtime…",
  engine: "Starting the game engine…",
  ready: "Dealing the cards…",
};
const ORDER = ["runtime", "engine", "ready"];

function megabytes(bytes) {
  return (bytes / 1e6).toFixed(1);
}

/**
 * Shows loading progress: a bar, the stage in words, which steps are done, and the bytes of
 * the big files loaded so far of those expected.
 */
export function renderBoot({ stage, fraction, received, expected }) {
  $("[data-boot-progress]").value = fraction;
  $("[data-engine-status]").textContent = STAGES[stage] ?? stage;
  const at = ORDER.indexOf(stage);
  for (const li of $$("[data-boot-step]")) {
    const i = ORDER.indexOf(li.dataset.bootStep);
    li.dataset.done = i < at ? "true" : i === at ? "now" : "false";
  }
  if (expected) {
    const line = $("[data-boot-bytes]");
    line.textContent = `${megabytes(received)} of ${megabytes(expected)} MB`;
    Object.assign(line.dataset, { received, expected });
  }
}

/** Shows why the engine could not start; the page never goes blank. */
export function renderBootError(error) {
  $("[data-boot]").hidden = false;
  $("[data-table]").hidden = true;
  const box = $("[data-engine-error]");
  box.textContent = `The game engine could not start (${error.code}).\n${error.message}`;
  box.hidden = false;
  $("[data-boot-failure]").hidden = false;
  $("[data-boot-progress]").hidden = true;
  $("[data-engine-status]").textContent = "Loading failed.";
}

/** Shows a problem that does not stop the game (a refused save, a failed request). */
export function renderNotice(text) {
  const box = $("[data-notice]");
  box.textContent = text ?? "";
  box.hidden = !text;
}

/** The notice shown now ("" when none). */
export function noticeText() {
  return $("[data-notice]").textContent;
}

export function setEngineReady(hello) {
  document.documentElement.dataset.engineState = "ready";
  $("[data-engine-version]").textContent = hello.engine;
  for (const button of $$(".bar [data-action=new_game], .bar [data-action=menu]")) button.hidden = false;
}

export function setEngineFailed() {
  document.documentElement.dataset.engineState = "error";
}

export function openDialog(name) {
  const dialog = $(`[data-dialog=${name}]`);
  if (!dialog.open) dialog.showModal();
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
