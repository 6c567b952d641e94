// The master in your seat (docs/review.md): after each finished game of one person dealt at
// this table, the engine plays the same game again — the same deck, the same computer players
// with the same seeds — with the master in the person's seat ("rerun" starts it, or takes
// over the rerun played ahead during the game; each "rerun_next" plays on for at most 100 ms,
// a card at most), while the person looks at the score sheet.
// A new game stops it (every game the page starts bumps app.run); a review holds it (hold()),
// so that the two never share the worker. The result is counted once in the statistics and
// drawn on the score sheet: "You: 1,860 — the master in your seat: 2,140 on the same cards".

import { testBudget } from "./dev.js";
import { h, redraw } from "./dom.js";
import { engine } from "./engine-client.js";
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

/** Starts the master in your seat for a finished game of one person (view and table: the
 * engine's), unless it ran already: a counted result comes back from the statistics. */
export function start(view, table) {
  const people = table.seats.filter((s) => s.person);
  if (view.status !== "game_over" || people.length !== 1) return;
  const key = stats.gameId(view, table);
  if (app.master.key === key && (app.master.running || app.master.result)) return;
  const side = people[0].side;
  const counted = stats.masterOf(key);
  if (counted !== null) {
    masterCounted(key, { you: view.scores[side], master: view.scores[side] - counted, record: null });
    requestDraw();
    return;
  }
  run(key, side);
}

async function run(key, side) {
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
        stats.countMaster(key, next.result);
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

/** Draws the master in your seat on the score sheet of a finished game of one person, from
 * what the page's draw hands it: {view, table, master (app.master)}. */
export function drawMaster(el, ui) {
  const { view, table, master: m } = ui;
  const alone = table.seats.filter((s) => s.person).length === 1;
  const key = view.status === "game_over" && alone ? stats.gameId(view, table) : null;
  const mine = key !== null && m.key === key;
  const state = !mine ? "none" : m.result ? "done" : m.running ? "running" : m.problem ? "failed" : "none";
  el.dataset.master = state;
  if (m.ms !== null && mine) el.dataset.masterMs = m.ms;
  redraw(el, JSON.stringify([state, m.done, m.total, m.result && [m.result.you, m.result.master,
    Boolean(m.result.record)], m.problem?.message, m.problem?.text]), () => {
    if (state === "done") {
      const { you, master, record } = m.result;
      return [
        h("p", { class: "master-line", "data-master-you": you, "data-master-score": master, text: W.masterLine(you, master) }),
        h("p", { class: "master-verdict", text: W.masterVerdict(you - master) }),
        record ? h("button", { type: "button", class: "btn", "data-action": "master_replay", text: W.masterReplay() }) : null,
      ];
    }
    if (state === "running") {
      return [
        h("p", { class: "master-wait", text: W.masterPlaying() }),
        h("progress", { max: Math.max(m.total, 1), value: m.done, "aria-label": W.masterProgressLabel() }),
        h("p", { class: "detail", role: "status", text: W.masterProgress(m.done, m.total) }),
      ];
    }
    if (state === "failed") return h("p", { class: "detail", text: W.masterUnavailable(m.problem) });
    return [];
  });
}
