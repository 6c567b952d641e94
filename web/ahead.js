// Work ahead (docs/review.md#ready-when-the-game-ends): while the game in play needs nothing of
// the worker — the pause after the last computer move before the person's turn, a person
// thinking, the score sheet — the page asks the engine to "work" for that long, and the
// engine reviews each person's cards played so far and plays the master in the person's seat
// (calypso_core/table/ahead.py), so that both are ready when the game ends. A window ends
// before the game needs the worker again: during a pause, MARGIN_MS before its end; while a
// person thinks, in windows of THINKING_WINDOW_MS, so a card clicked waits no longer than
// that. What the engine did comes with the game's recipe (its "keep", sealed: the page
// cannot read it), which the save keeps: a reload loses none of it. The replies say how many cards are done, never what the
// review says of them: in a game of several people, none sees another's.

import { testBudget } from "./dev.js";
import { engine } from "./engine.js";
import { app } from "./state.js";

const client = engine();
const MARGIN_MS = 80;
const MIN_WINDOW_MS = 30;
const MAX_WINDOW_MS = 2_000;
const THINKING_AFTER_MS = 300; // a person who has not played for this long is thinking
const THINKING_WINDOW_MS = 120;
const AFTER_GAME_MS = 250;

/** @type {{run: number | null, failed: boolean, more: boolean, progress: any, plays: number | null, onKept: () => void}} */
const work = { run: null, failed: false, more: true, progress: null, plays: null, onKept: () => {} };

/** Calls fn() after work was added to the recipe (to save it). */
export function onKept(fn) {
  work.onKept = fn;
}

/** How far the work is: {review: {done, played}, rerun: {done, total} | null} or null. */
export function progress() {
  return work.progress;
}

/** Works ahead until ``until`` (a performance.now() time): the game needs nothing of the
 * worker before it. */
export function during(until) {
  return loop(() => until - MARGIN_MS - performance.now());
}

/** Works ahead in short windows while the person to move thinks (or the device is passed
 * on), from THINKING_AFTER_MS after their turn began. */
export async function whileThinking() {
  const run = app.run;
  const turn = app.view;
  await new Promise((resolve) => setTimeout(resolve, THINKING_AFTER_MS));
  // Only on the game the page shows: a work reply names the cards played in the game it
  // worked on, which at a person's turn are those of the view.
  const still = () => run === app.run && app.view === turn && !app.busy
    && (work.plays === null || work.plays === turn.plays);
  work.plays = null;
  if (still()) await loop(() => (still() ? THINKING_WINDOW_MS : 0));
}

/** Works ahead in short windows while the page waits for the person outside their turn (at
 * the end of a deal), as long as waiting() holds. */
export function whileWaiting(waiting) {
  return loop(() => (waiting() ? THINKING_WINDOW_MS : 0));
}

/** Works ahead after the game's end until the review is done (the rerun goes on in its own
 * requests, rerun.js, taking over what was played of it ahead). In the Calypso of the day,
 * whose share line waits for the master's score, only once the master has played. */
export async function afterGame() {
  const run = app.run;
  while (app.table?.daily && app.master.running && run === app.run) {
    await new Promise((resolve) => setTimeout(resolve, AFTER_GAME_MS));
  }
  if (run !== app.run) return undefined;
  const reviewed = () => work.progress?.review && work.progress.review.done === work.progress.review.played;
  return loop(() => (app.view?.status === "game_over" && !reviewed() ? AFTER_GAME_MS : 0));
}

// One loop at a time: a loop asked for while one runs starts when it ends (its windows are
// measured then: a pause already over, or a turn already played, gives none).
let queue = Promise.resolve();

function loop(windowMs) {
  queue = queue.then(() => runLoop(windowMs));
  return queue;
}

async function runLoop(windowMs) {
  const run = app.run;
  if (work.run !== run) Object.assign(work, { run, failed: false, progress: null });
  if (!app.hello?.review || work.failed) return;
  work.more = true; // cards played since the last loop may wait
  let kept = false;
  try {
    // Not while the puzzles are open: their requests would wait behind a window of work.
    while (work.more && run === app.run && !app.puzzle.open) {
      const ms = Math.floor(Math.min(windowMs(), MAX_WINDOW_MS));
      if (ms < MIN_WINDOW_MS) break;
      // The test budgets (dev.js) of the review and the rerun apply here too.
      const budget = testBudget("review_budget");
      const iterations = testBudget("master_iterations");
      const reply = await client.request("work", { ms, ...(budget ? { budget } : {}),
        ...(iterations ? { iterations } : {}) });
      if (run !== app.run) break;
      work.more = reply.more;
      work.plays = reply.plays;
      work.progress = { review: reply.review, rerun: reply.rerun };
      kept = keep(reply.keep) || kept;
      mark();
    }
  } catch {
    work.failed = true; // the engine refused: no work ahead in this game (the review still runs after it)
  } finally {
    if (kept) work.onKept();
  }
}

// Keeps the work done with the recipe of the game in play: the engine hands it over whole,
// sealed, whenever it changed (null otherwise); true if it changed.
function keep(done) {
  const game = client.game;
  if (!done || !game || done === game.ahead) return false;
  client.keepAhead(done);
  return true;
}

// The progress as data attributes, for tests and benchmarks to wait on.
function mark() {
  const { review, rerun } = work.progress;
  const root = document.documentElement.dataset;
  if (review) root.reviewAhead = `${review.done}/${review.played}`;
  if (rerun) root.rerunAhead = `${rerun.done}/${rerun.total}`;
}
