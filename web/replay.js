// Game files and replays: saving the game in play to a file (its deck sealed while it is in
// play), opening one (checked by the engine: a finished game opens in a trick-by-trick replay
// with every hand face up, a game in play continues at the table), and the replay itself.

import { $ } from "./dom.js";
import { localToday } from "./engine-client.js";
import { engine } from "./engine.js";
import { errorMessage, problem, show } from "./flow.js";
import { msg, t } from "./i18n.js";
import { nameableSeed } from "./names.js";
import { closeAllDialogs, openOnly, renderNotice } from "./page.js";
import * as panels from "./panels.js";
import { markReplay } from "./review.js";
import { app, openReplayState, setReplayPosition, setReplayTarget } from "./state.js";

const client = engine();

// A game file's name: a finished game's seed (calypso-<seed>-game1.json) where the page may
// name it (names.js); a game in play's, whose seed would deal its hidden cards, only when it
// was saved (calypso-2025-06-01-1405-game1.json).
function fileName(saved, view) {
  const game = (view?.match.game ?? 0) + 1;
  const over = view?.status === "game_over";
  const seed = over ? nameableSeed(saved.settings, view.match.is_over) : null;
  if (seed !== null) return `calypso-${seed.replace(/[^\w-]+/g, "_").slice(0, 40)}-game${game}.json`;
  const now = new Date();
  const pad = (n) => String(n).padStart(2, "0");
  const when = `${localToday(now)}-${pad(now.getHours())}${pad(now.getMinutes())}`;
  return `calypso-${when}-game${game}.json`;
}

export async function exportGame() {
  let saved;
  try {
    saved = await client.request("record");
  } catch (error) {
    problem(msg("problem.export"), error);
    return;
  }
  const text = `${JSON.stringify(saved.record, null, 1)}\n`;
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName(saved, app.view);
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  closeAllDialogs();
  renderNotice(msg("files.saved", { name: link.download }));
}

// A file's bytes in base64: the engine reads them by the byte-order mark they begin with
// (UTF-8, UTF-16, UTF-32), where file.text() would read any file as UTF-8.
async function base64Of(file) {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = "";
  for (let at = 0; at < bytes.length; at += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  }
  return btoa(binary);
}

/** Opens a game file; keptOpen: the dates whose kept attempts at the Calypso of the day are
 * unfinished (the engine opens no file holding one of their deals). */
export async function importFile(file, keptOpen = []) {
  closeAllDialogs();
  const limit = app.hello.limits.file_bytes;
  if (file.size > limit) {
    renderNotice(msg("files.too_big", { name: file.name, size: file.size, limit }));
    return;
  }
  let summary;
  try {
    summary = await client.request("import", { base64: await base64Of(file), kept_open: keptOpen });
  } catch (error) {
    renderNotice(msg("files.not_opened", { name: file.name, error: errorMessage(error) }));
    return;
  }
  if (!summary.is_over) {
    // A game in play continues at the table, as a load does: its hidden cards stay hidden
    // (with several people, the hand-off screen comes first).
    const { record, settings } = summary;
    if (await show(() => client.request("load", { record, settings }), msg("problem.continue"))) {
      renderNotice([msg("files.opened", { name: file.name, count: summary.plays }), msg("files.continued")]);
    }
    return;
  }
  await openReplay({ record: summary.record, imported: true, at: summary.tricks });
  renderNotice(msg("files.opened_finished", { name: file.name }));
}

export async function openReplay({ record = null, imported = false, at = 0 } = {}) {
  openReplayState(record, imported);
  await replayTo(at);
  if (app.replay?.position) openOnly("replay");
}

async function replayTo(tricks) {
  if (!app.replay) return;
  setReplayTarget(tricks); // steps taken while a reply is on its way count from here
  const payload = { tricks };
  if (app.replay.record) payload.record = app.replay.record;
  let position;
  try {
    position = await client.request("replay", payload);
  } catch (error) {
    problem(msg("problem.replay"), error);
    return;
  }
  if (!app.replay || app.replay.target !== tricks) return; // a later step supersedes this one
  setReplayPosition(position);
  panels.drawReplay($("[data-replay]"), position);
  markReplay($("[data-replay-review]"), app.replay, app);
  $("[data-replay-status]").textContent = position.trick
    ? t("replay.status", { count: position.tricks, total: position.total, reason: position.trick.reason })
    : t("replay.status_start");
  const controls = $(".replay-controls");
  controls.querySelector("[data-action=replay_first]").disabled = position.tricks === 0;
  controls.querySelector("[data-action=replay_prev]").disabled = position.tricks === 0;
  controls.querySelector("[data-action=replay_next]").disabled = position.tricks >= position.total;
  controls.querySelector("[data-action=replay_last]").disabled = position.tricks >= position.total;
}

/** Moves the replay to the position after ``tricks`` tricks (null: stays). */
export function replayGoTo(tricks) {
  const at = app.replay?.position;
  if (!at || tricks === null || tricks < 0 || tricks > at.total) return undefined;
  return replayTo(tricks);
}

/** Moves the replay: "first", "last", or a number of tricks forward (negative: back). */
export function replayStep(step) {
  const at = app.replay?.position;
  if (!at) return undefined;
  const from = app.replay.target ?? at.tricks;
  const target = step === "first" ? 0 : step === "last" ? at.total : from + step;
  if (target < 0 || target > at.total || target === from) return undefined;
  return replayTo(target);
}
