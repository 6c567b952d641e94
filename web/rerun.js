// The master in your seat (docs/review.md): after each finished game of one person dealt at
// this table, the engine plays the same game again — the same deck, the same computer players
// with the same seeds — with the master in the person's seat ("rerun" starts it, or takes
// over the rerun played ahead during the game; each "rerun_next" plays on for at most 100 ms,
// a card at most), while the person looks at the score sheet.
// A new game stops it (every game the page starts bumps app.run); a review holds it (hold()),
// so that the two never share the worker. The result is counted once in the statistics and
// drawn on the score sheet: "You: 1,860 — the master in your seat: 2,140 on the same cards".
// At a friends' table (docs/remote.md#the-master-in-your-seat) the host's page and each
// guest's have one too: the master plays every person's seat (the sheet says so), a guest's
// through the host's engine (rerun for the guest's seat, via guest.js); such games are not counted.

import { testBudget } from "./dev.js";
import { h, redraw } from "./dom.js";
import { engine } from "./engine.js";
import { namesOf } from "./names.js";
import {
  app, masterCounted, masterFailed, masterFinished, masterIdle, masterProgress, masterRunning,
  requestDraw,
} from "./state.js";
import * as stats from "./stats.js";
import * as W from "./after-words.js";

const client = engine();

// The master in your seat is the page's state (app.master, changed through state.js): key is
// the game's id (stats.gameId) it is of, result {you, master (the person's partnership in
// both games), record}, problem why it could not run.

// The holds on the worker (a review's): coordination of requests in flight, not drawn.
let holds = 0;
let waiting = []; // loops waiting for the last hold to be released

/** Holds the rerun between two cards until the function returned is called. */
export function hold() {
  holds += 1;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    holds -= 1;
    if (!holds) {
      for (const go of waiting) go();
      waiting = [];
    }
  };
}

const unheld = () => (holds ? new Promise((resolve) => waiting.push(resolve)) : null);

// The seat the engine calls "You": the one person's, the host's at a friends' table or a
// guest's own; -1 with several people at this device (no rerun then).
const yourSeat = (table) => table.seats.findIndex((_, seat) => namesOf(table).isYou(seat));
const alone = (table) => namesOf(table).alone();
// The game's key: a guest is not told the seed (it would deal every hand), and its games are
// not counted: the cut tells its matches apart on this page.
const keyOf = (view, table) => (table.settings.seed !== undefined ? stats.gameId(view, table)
  : `${table.cut.cards.join(" ")}|${view.match.game + 1}|${view.plays}|${JSON.stringify(view.scores)}`);

/** Starts the master in your seat for a finished game with a "You" (view and table: the
 * engine's), unless it ran already: a counted result comes back from the statistics. */
export function start(view, table) {
  const you = yourSeat(table);
  if (view.status !== "game_over" || you < 0) return;
  const key = keyOf(view, table);
  if (app.master.key === key && (app.master.running || app.master.result)) return;
  const side = table.seats[you].side;
  const counted = alone(table) ? stats.masterOf(key) : null;
  if (counted !== null) {
    masterCounted(key, { you: view.scores[side], master: view.scores[side] - counted, record: null });
    requestDraw();
    return;
  }
  run(key, side, alone(table));
}

async function run(key, side, counts) {
  const token = masterRunning(key, performance.now());
  const game = app.run;
  const stale = () => token !== app.master.token || game !== app.run;
  requestDraw();
  try {
    const iterations = testBudget("master_iterations");
    // The engine may have played the rerun ahead while the game went on (ahead.js): it
    // goes on from there, or is over already.
    const started = await client.request("rerun", iterations ? { iterations } : {});
    if (stale()) return;
    masterProgress(started.done, started.total);
    for (;;) {
      let next = started;
      if (!started.finished) {
        await unheld();
        if (stale()) return;
        next = await client.request("rerun_next", { job: started.job });
        if (stale()) return;
      }
      masterProgress(next.done, app.master.total);
      requestDraw();
      if (next.finished) {
        const { you, master, record } = next.result;
        masterFinished({ you: you[side], master: master[side], record },
          Math.round(performance.now() - app.master.startedAt));
        if (counts) stats.countMaster(key, next.result);
        return;
      }
    }
  } catch (error) {
    if (!stale()) masterFailed(error);
  } finally {
    if (token === app.master.token) {
      masterIdle();
      requestDraw();
    }
  }
}

/** The master's game, to replay: its record, or null. */
export function masterRecord() {
  return app.master.result?.record ?? null;
}

/** Draws the master in your seat on the score sheet of a finished game with a "You", from
 * what the page's draw hands it: {view, table, master (app.master)}; with several people,
 * one sentence says who played the others' seats. */
export function drawMaster(el, ui) {
  const { view, table, master: m } = ui;
  const key = view.status === "game_over" && yourSeat(table) >= 0 ? keyOf(view, table) : null;
  const several = !alone(table);
  const everyone = () => (several ? h("p", { class: "detail master-everyone", text: W.masterEveryone() }) : null);
  const mine = key !== null && m.key === key;
  const state = !mine ? "none" : m.result ? "done" : m.running ? "running" : m.problem ? "failed" : "none";
  el.dataset.master = state;
  if (m.ms !== null && mine) el.dataset.masterMs = m.ms;
  redraw(el, JSON.stringify([state, m.done, m.total, m.result && [m.result.you, m.result.master,
    Boolean(m.result.record)], m.problem?.message, m.problem?.text, several]), () => {
    if (state === "done") {
      const { you, master, record } = m.result;
      return [
        h("p", { class: "master-line", "data-master-you": you, "data-master-score": master, text: W.masterLine(you, master) }),
        h("p", { class: "master-verdict", text: W.masterVerdict(you - master) }),
        everyone(),
        // A guest's page runs no engine to replay a record with (remote/guest.js).
        record && app.remote?.role !== "guest"
          ? h("button", { type: "button", class: "btn", "data-action": "master_replay", text: W.masterReplay() }) : null,
      ];
    }
    if (state === "running") {
      return [
        h("p", { class: "master-wait", text: W.masterPlaying() }),
        h("progress", { max: Math.max(m.total, 1), value: m.done, "aria-label": W.masterProgressLabel() }),
        h("p", { class: "detail", role: "status", text: W.masterProgress(m.done, m.total) }),
        everyone(),
      ];
    }
    if (state === "failed") return h("p", { class: "detail", text: W.masterUnavailable(m.problem) });
    return [];
  });
}
