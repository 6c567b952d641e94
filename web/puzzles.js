// Puzzles (docs/puzzles.md): positions of real games where one card is clearly best, shown on
// the table itself, drawn by table-view.js from the puzzle's own view (the trick so far, the
// calypsos, piles and scores, the log and the memory aids as the person has them set), while
// the game in play waits, untouched, behind them. The engine holds the set (fetched only now:
// no part of a first visit), rebuilds each position, judges an answer from the costs the
// puzzle holds and does the rating's arithmetic; this module sequences the requests, keeps
// the person's record on the device (puzzle-store.js) and draws the panel above the table.
//
// Opened from the menu (Puzzles; the puzzle of the day), a ?puzzle=ID link, the review's
// "Practise this position", or the dashboard's list of the person's own mistakes.

import { localToday } from "./engine-client.js";
import { engine } from "./engine.js";
import { $, h, points, redraw } from "./dom.js";
import { list, msg, say, t } from "./i18n.js";
import { closeAllDialogs, openOnly } from "./page.js";
import * as store from "./puzzle-store.js";
import {
  app, closePuzzles, openPuzzles, puzzleAnswered, puzzleBusy, puzzleIdle, puzzleKept, puzzleLine,
  puzzleSetLoaded, puzzleShown, puzzleSolutionShown, requestDraw,
} from "./state.js";
import { focusHand } from "./table-view.js";

const client = engine();
const SET_URL = "puzzles.json";
const RECENT = 300; // the puzzles tried last, none of which comes again while others are left

// The set as fetched, and the worker it was handed to (a restarted worker has lost it): a cache
// of a static file.
const loaded = { text: null, restarts: -1 };

// -- requests ---------------------------------------------------------------------------------

/** Fetches the set (once a visit; the service worker keeps it for offline use once fetched)
 * and hands it to the engine's worker if that worker has not had it. */
async function ensureSet() {
  if (loaded.text === null) {
    // A failure says what people read (text), as the engine's refusals do.
    const offline = () => Object.assign(new Error(`${SET_URL} could not be fetched`), { text: msg("puzzles.offline") });
    let response;
    try {
      response = await fetch(new URL(SET_URL, document.baseURI));
    } catch {
      throw offline();
    }
    if (!response.ok) throw offline();
    loaded.text = await response.text();
  }
  if (loaded.restarts !== client.restarts) {
    puzzleSetLoaded(await client.request("puzzles", { text: loaded.text }));
    loaded.restarts = client.restarts;
  }
}

// Runs one step of the puzzles: the panel is busy meanwhile (drawn so at once unless ``quiet``:
// an answer comes back within a frame or two, and drawing the busy hand first would only
// delay it), and a failure is said in it (what: the message of the step that failed) with
// nothing else touched.
async function busy(what, work, quiet = false) {
  const token = puzzleBusy();
  if (!quiet) requestDraw();
  try {
    await work(() => token === app.puzzle.token);
    if (token === app.puzzle.token) puzzleIdle();
  } catch (error) {
    const said = error.text ?? (error.code ? msg(`error.${error.code}`) : error.message);
    if (token === app.puzzle.token) puzzleIdle(msg("puzzles.problem", { what, error: said }));
  }
  requestDraw();
}

/** Opens the puzzles over the table: ``how`` is {puzzle: id}, {day: true}, {mine: key}, or
 * {} for the next puzzle near the person's rating. */
export async function open(how = {}) {
  if (!app.puzzle.open) {
    const record = store.loadRecord();
    const queue = store.loadQueue();
    const notice = [record.notice, queue.notice].filter(Boolean);
    openPuzzles(record.value, queue.value, notice.length ? notice : null);
  }
  closeAllDialogs();
  document.documentElement.dataset.puzzles = "open";
  if (how.mine) return showMine(how.mine);
  await busy(msg("puzzles.opening"), async (current) => {
    await ensureSet();
    const record = app.puzzle.record;
    const payload = how.puzzle ? { puzzle: how.puzzle } : how.day ? { day: localToday() } : {
      near: { ...(record.rating ? { rating: record.rating } : {}), offset: record.offset,
        // The puzzle on screen is not the next one either, answered or not.
        recent: [...record.history.slice(-RECENT).map((p) => p.id), app.puzzle.info?.id].filter(Boolean),
        salt: String(record.history.length) },
    };
    const shown = await client.request("puzzle", payload);
    if (current()) show(shown, how.day ? "day" : null);
  });
  return undefined;
}

function show(reply, label) {
  puzzleShown({ ...reply, puzzle: { ...reply.puzzle, label } });
  focusHandSoon();
}

async function showMine(key) {
  const entry = app.puzzle.queue.entries.find((e) => e.key === key);
  if (!entry) return;
  await busy(msg("puzzles.opening"), async (current) => {
    const shown = await client.request("puzzle", { mine: { record: entry.record, play: entry.play, costs: entry.costs } });
    if (current()) show({ ...shown, puzzle: { ...shown.puzzle, key, played: entry.card, cost: entry.cost } }, "mine");
  });
}

/** The person chose a card of the puzzle's position. The first answer to a puzzle of the set
 * moves the rating; later ones (another try) only say what the card costs. */
export async function answer(card) {
  const p = app.puzzle;
  if (!p.info || p.busy || p.line) return;
  const first = !p.answers.length;
  const rated = first && p.info.kind === "set";
  await busy(msg("puzzles.judging"), async (current) => {
    let reply;
    try {
      reply = await client.request("puzzle_answer", { card, ...(rated ? { rate: true, rating: p.record.rating } : {}) });
    } catch (error) {
      if (!error.input || !rated) throw error;
      // The rating kept on the device is not one the engine gave: it starts again.
      reply = await client.request("puzzle_answer", { card, rate: true });
    }
    if (!current()) return;
    let record = p.record;
    if (first) {
      record = store.withTried(record, { id: p.info.id, kind: p.info.kind, right: reply.right, themes: reply.themes },
        reply.rating ?? null);
      store.saveRecord(record);
      if (p.info.kind === "mine" && reply.right) store.removeFromQueue(p.info.key);
    }
    puzzleAnswered(reply, record, rated ? p.record.rating ?? null : null);
    if (first && p.info.kind === "mine" && reply.right) puzzleKept({ queue: store.loadQueue().value });
  }, true);
}

/** Another try: the hand again, the wrong card's cost said. */
export function tryAgain() {
  focusHand();
}

export function showSolution() {
  if (!app.puzzle.answers.length) return;
  puzzleSolutionShown();
  requestDraw();
}

/** Plays the chosen card (the last answer, or the solution once shown or found) and lets the
 * person step through what follows, the master playing every seat. */
export async function playOn() {
  const p = app.puzzle;
  const last = p.answers.at(-1);
  if (!last) return;
  const card = last.right || !p.solution ? last.card : last.solutions[0];
  await busy(msg("puzzles.playing"), async (current) => {
    const line = await client.request("puzzle_play", { card });
    if (current()) puzzleLine(line);
  });
}

export async function nextCard() {
  if (!app.puzzle.line || app.puzzle.line.over) return;
  await busy(msg("puzzles.playing"), async (current) => {
    const line = await client.request("puzzle_step");
    if (current()) puzzleLine(line);
  });
}

export function backToPuzzle() {
  puzzleLine(null);
  requestDraw();
  focusHandSoon();
}

/** The next puzzle near the rating, at the difficulty asked for (``step``: -1 easier, 1 harder). */
export function next(step = 0) {
  const record = app.puzzle.record;
  const at = store.OFFSETS.indexOf(record.offset) + step;
  if (at < 0 || at >= store.OFFSETS.length) return;
  const changed = { ...record, offset: store.OFFSETS[at] };
  store.saveRecord(changed);
  puzzleKept({ record: changed });
  open({});
}

export function close() {
  closePuzzles();
  delete document.documentElement.dataset.puzzles;
  closeAllDialogs();
  requestDraw();
  focusHandSoon();
}

/** The dashboard: the rating, the results by theme, and the person's own mistakes. */
export function dashboard() {
  drawDashboard($("[data-puzzle-dashboard]"), app.puzzle);
  openOnly("puzzles");
}

export function removeMine(key) {
  store.removeFromQueue(key);
  puzzleKept({ queue: store.loadQueue().value });
  drawDashboard($("[data-puzzle-dashboard]"), app.puzzle);
}

function focusHandSoon() {
  requestAnimationFrame(() => requestAnimationFrame(() => focusHand()));
}

// -- drawing ----------------------------------------------------------------------------------

const ratingText = (rating) => (rating ? t("puzzles.rating", { rating: Math.round(rating.rating), deviation: Math.round(rating.deviation) })
  : t("puzzles.unrated"));

function title(info) {
  if (info.label === "day") return t("puzzles.title_day", { id: info.id });
  if (info.kind === "mine") return t("puzzles.title_mine");
  return t("puzzles.title", { id: info.id });
}

function prompt(info) {
  return info.kind === "mine" ? t("puzzles.prompt_mine", { card: info.played, cost: info.cost })
    : t("puzzles.prompt", { seat: info.seat });
}

const costLine = (costs) => list(costs.filter((c) => c.cost > 0).map((c) => t("puzzles.cost_item", { card: c.card, cost: c.cost })));

function result(p) {
  const last = p.answers.at(-1);
  if (!last) return [];
  const first = p.answers[0];
  const parts = [];
  if (last.right) {
    parts.push(h("p", { class: "puzzle-verdict", "data-puzzle-verdict": "right" },
      h("b", { text: t("puzzles.right", { card: last.card }) }), " ", say(last.reason)));
  } else {
    parts.push(h("p", { class: "puzzle-verdict", "data-puzzle-verdict": "wrong", "data-puzzle-cost": last.cost },
      h("b", { text: t("puzzles.wrong", { card: last.card, cost: last.cost }) })));
  }
  if (p.solution && !last.right) {
    parts.push(h("p", { "data-puzzle-solution": last.solutions[0] },
      h("b", { text: t("puzzles.solution", { card: last.solutions[0] }) }), " ", say(last.reason)));
  }
  if (last.right || p.solution) {
    parts.push(h("p", { class: "puzzle-costs", text: t("puzzles.costs", { costs: costLine(last.costs) }) }));
    if (last.themes.length) {
      parts.push(h("p", { class: "puzzle-themes", text: t("puzzles.themes", { themes: list(last.themes.map((k) => t(`puzzles.theme.${k}`))) }) }));
    }
  }
  if (first.rating && p.before !== undefined) {
    const before = p.before ? Math.round(p.before.rating) : null;
    const after = Math.round(first.rating.rating);
    parts.push(h("p", { class: "puzzle-change", "data-puzzle-rating-after": after },
      before === null ? t("puzzles.rating_first", { after }) : t("puzzles.rating_change", { before, after, delta: `${after >= before ? "+" : "−"}${points(Math.abs(after - before))}` })));
  }
  return parts;
}

function actions(p) {
  const last = p.answers.at(-1);
  const button = (action, key, extra = {}) => h("button", { type: "button", class: "btn", "data-action": action, text: t(key), ...extra });
  const line = p.line;
  const row = [];
  if (line) {
    row.push(button("puzzle_next_card", "puzzles.next_card", { disabled: line.over || p.busy, class: "btn btn-primary" }));
    row.push(button("puzzle_back_to", "puzzles.back_to_puzzle"));
  } else if (last) {
    if (!last.right && !p.solution) {
      row.push(button("puzzle_try", "puzzles.try_again"));
      row.push(button("puzzle_solution", "puzzles.show_solution"));
    }
    row.push(button("puzzle_play_on", last.right || p.solution ? "puzzles.play_on" : "puzzles.play_on_mine"));
  }
  if (p.info?.kind !== "mine" || !line) {
    row.push(button("puzzle_next", "puzzles.next", last && !line ? { class: "btn btn-primary" } : {}));
  }
  const at = store.OFFSETS.indexOf(p.record.offset);
  row.push(button("puzzle_easier", "puzzles.easier", { disabled: at === 0 }));
  row.push(button("puzzle_harder", "puzzles.harder", { disabled: at === store.OFFSETS.length - 1 }));
  row.push(button("puzzle_dashboard", "puzzles.dashboard"));
  row.push(button("puzzle_close", "puzzles.back"));
  return row;
}

/** Draws the panel above the table: the puzzle, the answer and what to do next. */
export function draw(p) {
  const panel = $("[data-puzzle-panel]");
  panel.hidden = !p.open;
  if (!p.open) return;
  panel.dataset.state = p.busy ? "busy" : p.line ? "line" : p.answers.at(-1)?.right ? "solved"
    : p.answers.length ? "missed" : p.info ? "asking" : "loading";
  if (p.info) panel.dataset.puzzleId = p.info.id;
  else delete panel.dataset.puzzleId;
  const key = JSON.stringify([p.info, p.answers.length, p.solution, p.line?.over ?? null, Boolean(p.line), p.busy,
    p.problem, p.notice, p.record.offset, p.record.rating, app.language]);
  redraw(panel, key, () => [
    h("div", { class: "puzzle-head" },
      h("h2", { text: p.info ? title(p.info) : t("menu.puzzles") }),
      h("span", { class: "puzzle-rating", "data-puzzle-rating": p.record.rating ? Math.round(p.record.rating.rating) : "" },
        ratingText(p.record.rating)),
      h("span", { class: "puzzle-difficulty", text: t(`puzzles.difficulty_${store.OFFSETS.indexOf(p.record.offset)}`) })),
    p.notice ? h("p", { class: "puzzle-notice", role: "alert", "data-puzzle-notice": true, text: say(p.notice) }) : null,
    h("p", { class: "puzzle-prompt", role: "status",
      text: p.problem ? say(p.problem) : !p.info ? t("puzzles.loading")
        : p.line ? (p.line.over ? t("puzzles.line_over") : t("puzzles.line")) : prompt(p.info) }),
    h("div", { class: "puzzle-result", "aria-live": "polite" }, p.line ? [] : result(p)),
    h("div", { class: "puzzle-actions" }, actions(p)),
  ]);
}

/** The table as the puzzle shows it: its position, or the line played on from it. */
export function tableUi(p) {
  const view = p.line?.view ?? p.view;
  return view ? { view, table: p.table } : null;
}

function drawDashboard(el, p) {
  const tried = p.record.history;
  const themes = new Map();
  for (const item of tried) {
    for (const theme of item.themes) {
      const row = themes.get(theme) ?? { tried: 0, right: 0 };
      row.tried += 1;
      if (item.right) row.right += 1;
      themes.set(theme, row);
    }
  }
  const order = p.set?.themes ?? [...themes.keys()];
  const right = tried.filter((item) => item.right).length;
  const day = localToday();
  el.replaceChildren(
    h("p", { class: "dialog-lead", text: ratingText(p.record.rating) }),
    h("p", { "data-puzzle-tried": tried.length, text: t("puzzles.summary", { tried: tried.length, right }) }),
    h("table", { class: "stats-table", "data-puzzle-themes": true },
      h("caption", { text: t("puzzles.by_theme") }),
      h("thead", {}, h("tr", {}, ["puzzles.theme_column", "puzzles.tried_column", "puzzles.solved_column"].map((k) => h("th", { scope: "col", text: t(k) })))),
      h("tbody", {}, order.filter((k) => themes.has(k)).map((k) => h("tr", { "data-theme": k },
        h("th", { scope: "row", text: t(`puzzles.theme.${k}`) }), h("td", { text: points(themes.get(k).tried) }),
        h("td", { text: t("puzzles.share", { right: themes.get(k).right, percent: Math.round((100 * themes.get(k).right) / themes.get(k).tried) }) }))))),
    h("div", { class: "form-actions" },
      h("button", { type: "button", class: "btn", "data-action": "puzzle_day", text: t("puzzles.day", { date: day }) })),
    h("h3", { text: t("puzzles.mine_title", { count: p.queue.entries.length }) }),
    p.queue.entries.length
      ? h("ol", { class: "puzzle-mine", "data-puzzle-mine": p.queue.entries.length }, p.queue.entries.map((e) => h("li", { "data-puzzle-key": e.key },
        h("span", { text: t("puzzles.mine_item", { card: e.card, cost: e.cost }) }), " ",
        h("button", { type: "button", class: "btn", "data-action": "puzzle_mine", "data-value": e.key, text: t("puzzles.practise") }),
        h("button", { type: "button", class: "btn", "data-action": "puzzle_remove", "data-value": e.key, text: t("puzzles.remove") }))))
      : h("p", { "data-puzzle-mine": 0, text: t("puzzles.no_mistakes") }),
  );
}
