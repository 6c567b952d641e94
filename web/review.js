// The review of a person's cards (docs/review.md): every card judged from what its player
// knew, by the master's search in the engine's worker, one card a request ("review" starts a
// job, each "review_next" reviews one card), so the page stays responsive, shows progress and
// can stop at any card: cancelling just asks no more. Then the points lost per deal and
// overall, each costly card with its grade, the better card's reason and its line (what the
// better card does in the search's layouts that the played one does not), "Try again": the
// position before a costly card, where the person picks another card and is told what it
// would have cost — from the values the review already has, with no new search — and "Play
// it out": the master plays on from the real cards after both cards ("review_line"), a card
// at a time for a trick or two (a guest's too: the host's engine plays its lines in slices).
//
// A review is of the game in play (a deal once it is over, or the whole game) or of a game in
// the replay (a finished or opened one). While it runs, the master in your seat waits
// (rerun.hold), so the two never share the worker. The replay marks the reviewed cards.

import { cardFace, compassTrick, rankList, shortName, suitOf } from "./cards.js";
import { barChart } from "./charts.js";
import { testBudget } from "./dev.js";
import { $, h, points, redraw } from "./dom.js";
import { engine } from "./engine.js";
import { msg, say } from "./i18n.js";
import { closeDialog, openOnly, renderNotice } from "./page.js";
import * as rerun from "./rerun.js";
import {
  app, chooseReviewSeat, lineReviewCard, newReview, pickReviewCard, requestDraw, reviewFailed,
  reviewFinished, reviewIdle, reviewLineIn, reviewMoved, reviewRunning, reviewStarted, setOffer,
  showReviewBest, stepReviewLine, stopReview, tryReviewCard,
} from "./state.js";
import * as W from "./after-words.js";

const client = engine();

// The review is the page's state (app.review, changed through state.js): its source is
// {record (null: the game in play), game (its key), seat, deal, people}; started is the
// engine's reply to "review" {job, seat, deals, total, labels, suits, ...}; moves the replies
// to "review_next" in order {move, position, summary, ...}; problem the error that stopped
// it; ms how long the whole review took; trying {index, picked, shown} while a costly card is
// tried again; lining {index, lines, problem, step} while its line is played out.

// The engine's facts (its hello): the review's grades, a trick's cards (one a seat) and a deal's.
const grades = (hello) => hello?.review?.grades ?? [];
const gradeLabel = (hello, key) => { const found = grades(hello).find((g) => g.key === key); return found ? say(found.label) : key; };
const trickCards = (hello) => hello.seats.length;
const playsPerDeal = (hello) => trickCards(hello) * hello.deals.tricks;
const rankLabel = (key) => rankList().find((r) => r.key === key)?.label ?? key;

/** The key of the game in play (its table and view), to tell its review from another game's.
 * A guest at a friends' table is not told the seed (it would deal every hand): the match's
 * cut tells its matches apart. */
function gameKey(table, view) {
  return table && view ? `${table.settings.seed ?? table.cut.cards.join(" ")}|${view.match.game}` : null;
}

// The people of the game reviewed, [{seat, label}]: the match's, or a record's players. A
// guest at a friends' table (web/remote/guest.js) reviews only its own cards ("You"): the
// host's engine reviews no other seat for it.
function peopleOf(record) {
  if (!record) {
    const mine = (s) => app.remote?.role !== "guest" || s.called === "you";
    return app.table.seats.map((s, seat) => (s.person && mine(s) ? { seat, label: s.label } : null)).filter(Boolean);
  }
  const players = Array.isArray(record.players) ? record.players : [];
  return players.map((p, seat) => (p?.person !== undefined
    ? { seat, label: p.person || msg("label.seat", { seat }) } : null)).filter(Boolean);
}

// -- the offer after a deal ---------------------------------------------------------------------

/** After a deal of the game in play: offers its review, until "Not now", another game, or the
 * next deal's first trick is over. */
export function offerDeal(view) {
  setOffer({ game: gameKey(app.table, view), deal: Math.floor(view.plays / playsPerDeal(app.hello)) - 1, plays: view.plays });
  requestDraw();
}

export function dismissOffer() {
  setOffer(null);
  requestDraw();
}

/** Reviews the deal offered. */
export function reviewOffered() {
  if (!app.offer) return;
  const { deal } = app.offer;
  setOffer(null);
  reviewInPlay(deal);
}

// The offer stands until the next deal's first trick is over.
function drawOffer({ table, view, hello }, offer) {
  const box = $("[data-review-offer]");
  const shown = offer && offer.game === gameKey(table, view) && view?.status !== "game_over"
    && view.plays < offer.plays + trickCards(hello) ? offer : null;
  box.hidden = !shown;
  if (!shown) return;
  $("[data-review-offer-text]", box).textContent = W.reviewOffer(shown.deal);
  $("[data-action=review_deal]", box).textContent = W.reviewDeal(shown.deal);
}

// -- starting and stopping -------------------------------------------------------------------

/** Opens the review of the game in play: the whole game once it is over, else the last deal
 * that is over (``deal`` names another). */
export function reviewInPlay(deal = null) {
  const view = app.view;
  if (!view) return;
  const over = view.status === "game_over";
  const complete = Math.floor(view.plays / playsPerDeal(app.hello));
  if (!over && !complete) {
    renderNotice(W.noDealOver());
    return;
  }
  open({ record: null, deal: over && deal === null ? null : deal ?? complete - 1 });
}

/** Opens the review of the game in the replay (an opened file, or the game in play). */
export function reviewReplay() {
  if (!app.replay) return;
  open({ record: app.replay.record, deal: null });
}

function open({ record, deal }) {
  const people = peopleOf(record);
  const kept = app.review;
  const same = kept.source && kept.source.record === record && kept.source.deal === deal
    && (record || kept.source.game === gameKey(app.table, app.view));
  if (!same || kept.problem) {
    stopReview();
    newReview({ record, game: record ? null : gameKey(app.table, app.view), deal, people,
      seat: people.length <= 1 ? people[0]?.seat ?? null : null });
  }
  tryReviewCard(null);
  openOnly("review");
  if (app.review.source.seat !== null || !people.length) {
    if (!app.review.running && !isFinished(app.review)) run();
  }
  requestDraw();
}

/** The person chose whose cards to review (several people at the table). */
export function chooseSeat(value) {
  const seat = Number(value);
  if (!app.review.source?.people.some((p) => p.seat === seat)) return;
  stopReview();
  chooseReviewSeat(seat);
  run();
}

function isFinished(r) {
  return Boolean(r.started) && r.moves.length === r.started.total;
}

async function run() {
  const token = reviewRunning(performance.now());
  const source = app.review.source;
  requestDraw();
  const release = rerun.hold();
  const payload = {};
  if (source.record) payload.record = source.record;
  if (source.seat !== null) payload.seat = source.seat;
  if (source.deal !== null) payload.deal = source.deal;
  const budget = testBudget("review_budget");
  if (budget) payload.budget = budget;
  try {
    const started = await client.request("review", payload);
    if (token !== app.review.token) return;
    reviewStarted(started);
    requestDraw();
    while (app.review.moves.length < started.total) {
      const next = await client.request("review_next", { job: started.job });
      if (token !== app.review.token) return;
      reviewMoved(next);
      if (next.move.grade === "blunder") practise(app.review.moves.length - 1);
      requestDraw();
    }
    reviewFinished(Math.round(performance.now() - app.review.startedAt));
  } catch (error) {
    if (token === app.review.token) reviewFailed(error);
  } finally {
    release();
    if (token === app.review.token) {
      reviewIdle();
      requestDraw();
    }
  }
}

/** Stops the review where it is: the cards reviewed so far stay; nothing is left half-done
 * in the engine (each request reviews a whole card). */
export function cancel() {
  if (!app.review.running) return;
  stopReview();
  requestDraw();
}

/** Goes on with a stopped review (the engine remembers the cards already reviewed). */
export function resume() {
  if (app.review.running || !app.review.source) return;
  run();
}

/** Puts the blunder at ``value`` (an index of the review's cards) in the person's mistakes to
 * practise (web/puzzle-store.js, loaded now): the game's record as reviewed, cut at the card;
 * returns its key there, or null when the review holds no blunder there. */
export async function practise(value) {
  const move = app.review.moves[Number(value)]?.move;
  const record = app.review.source?.record ?? client.game?.record;
  if (move?.grade !== "blunder" || !record) return null;
  const store = await import("./puzzle-store.js");
  const entry = store.blunderEntry(record, move);
  store.addToQueue([entry]);
  return entry.key;
}

// -- try again --------------------------------------------------------------------------------

export function tryAgain(value) {
  const index = Number(value);
  if (!app.review.moves[index]) return;
  tryReviewCard(index);
  requestDraw();
}

export function pick(code) {
  const trying = app.review.trying;
  if (!trying || !app.review.moves[trying.index].move.options.some((o) => o.card === code)) return;
  pickReviewCard(code);
  requestDraw();
}

export function showBest() {
  if (!app.review.trying) return;
  showReviewBest();
  requestDraw();
}

export function backToList() {
  tryReviewCard(null);
  requestDraw();
}

// -- play it out -----------------------------------------------------------------------------

/** Asks the engine how the play may go on after costly card ``value`` (an index of the
 * review's cards) and after the better card, and shows it a card at a time. */
export async function playItOut(value) {
  const index = Number(value);
  const reviewed = app.review.moves[index];
  if (!reviewed || !app.review.started) return;
  lineReviewCard(index);
  requestDraw();
  try {
    const reply = await client.request("review_line", { job: app.review.started.job, play: reviewed.move.play });
    reviewLineIn(index, reply.lines);
  } catch (error) {
    reviewLineIn(index, null, error);
  }
  requestDraw();
}

// The cards each line plays after those on the table (the card itself first).
const lineLength = (line, onTable) => line.tricks.reduce((n, t) => n + t.cards.length, 0) - onTable;

/** One card more (``by`` 1) or less (-1) of the lines played out. */
export function stepLine(by) {
  const lining = app.review.lining;
  if (!lining?.lines) return;
  const { position } = app.review.moves[lining.index];
  const longest = Math.max(...lining.lines.map((l) => lineLength(l, position.trick.cards.length)));
  stepReviewLine(Math.min(longest, Math.max(1, lining.step + by)));
  requestDraw();
}

// -- the replay -------------------------------------------------------------------------------

function reviewedInReplay(replay, { table, view, review: r }) {
  if (!r.source || !replay || !r.moves.length) return false;
  return replay.record ? replay.record === r.source.record
    : !r.source.record && r.source.game === gameKey(table, view);
}

// The costly cards (cost above nothing) of a review, in the order played: [{index, move}].
function costly(r) {
  return r.moves.map((m, index) => ({ index, move: m.move })).filter(({ move }) => move.cost > 0);
}

const trickOf = (move, hello) => move.deal * hello.deals.tricks + move.trick;

/** Where "Show in the replay" goes: the reviewed game after the trick of costly card
 * ``value`` (an index of the review's cards). */
export function replayTarget(value) {
  const move = app.review.moves[Number(value)]?.move;
  if (!move) return null;
  return { record: app.review.source.record, at: trickOf(move, app.hello) + 1 };
}

/** The first trick after the replay's position holding a costly card (for "next costly
 * card") of the review ``r`` (app.review), or null. */
export function nextCostly(position, hello, r) {
  const later = costly(r).map(({ move }) => trickOf(move, hello) + 1).filter((at) => at > position.tricks);
  return later.length ? Math.min(...later) : null;
}

/** Marks the replay's trick: the reviewed person's costly card with its grade and cost, and
 * the better card with its reason. ``game`` is the game in play and the review as they stand:
 * {table, view, hello, review (app.review)}. */
export function markReplay(el, replay, game) {
  const { hello, review: r } = game;
  const position = replay?.position;
  const shown = reviewedInReplay(replay, game) && position;
  const marks = shown ? costly(r).filter(({ move }) => trickOf(move, hello) === position.tricks - 1) : [];
  const dialog = el.closest("dialog");
  for (const slot of dialog.querySelectorAll(".compass-slot")) {
    const mark = marks.length && Number(slot.dataset.seat) === r.started.seat ? marks[0] : null;
    if (mark) slot.dataset.reviewGrade = mark.move.grade ?? "slip";
    else delete slot.dataset.reviewGrade;
  }
  const after = shown ? nextCostly(position, hello, r) : null;
  redraw(el, JSON.stringify([shown ? position.tricks : null, marks.map((m) => m.index), after, r.moves.length]), () => (shown
    ? [
      ...marks.map(({ move }) => h("p", { class: "review-mark", "data-review-mark": move.grade ?? "slip" },
        h("b", { text: W.markTitle(move.card, move.cost, move.grade && gradeLabel(hello, move.grade)) }), " ",
        W.better(move.best, move.reason))),
      h("p", { class: "review-costly-nav" },
        W.costlyCount(costly(r).length), " ",
        after === null ? null : h("button", { type: "button", class: "btn", "data-action": "replay_costly", text: W.nextCostly() })),
    ] : []));
}

// -- drawing ----------------------------------------------------------------------------------

/** Draws the offer and the review dialog (every frame something changed; each part only when
 * it did), with what the page's draw hands it: {table, view, hello, review (app.review),
 * offer (app.offer)}. */
export function draw(ui) {
  const r = ui.review;
  drawOffer(ui, ui.offer);
  const box = $("[data-review]");
  if (!box || !r.source) return;
  const people = r.source.people;
  const seat = r.source.seat;
  const who = seat !== null ? people.find((p) => p.seat === seat)?.label ?? null
    : r.started ? r.started.labels[r.started.seat] : null;
  $("[data-review-title]").textContent = W.reviewTitle(who, people.length <= 1 && !r.source.record,
    r.source.deal);
  $("[data-action=review_cancel]").hidden = !r.running;
  const dialog = $("[data-dialog=review]");
  dialog.dataset.reviewState = r.running ? "running" : r.problem ? "failed"
    : isFinished(r) ? "done" : r.started ? "stopped" : "choosing";
  if (r.ms !== null) dialog.dataset.reviewMs = r.ms;
  else delete dialog.dataset.reviewMs;
  if (seat === null && people.length > 1) {
    redraw(box, JSON.stringify(["choose", people]), () => [
      h("p", { class: "dialog-lead", text: W.chooseWhose() }),
      h("div", { class: "menu-grid" }, people.map((p) => h("button", { type: "button", class: "btn",
        "data-action": "review_seat", "data-value": p.seat, text: W.reviewWhose(p.label) }))),
    ]);
    return;
  }
  redraw(box, JSON.stringify(["review", Boolean(r.trying), Boolean(r.lining)]), () => [
    h("p", { class: "dialog-lead", text: W.reviewLead() }),
    h("div", { class: "review-progress", "data-review-progress": true }),
    h("div", { "data-review-body": true }),
  ]);
  drawProgress($("[data-review-progress]", box), r);
  const body = $("[data-review-body]", box);
  if (r.trying) drawTry(body, r, ui.hello);
  else if (r.lining) drawLine(body, r);
  else drawSummary(body, r, ui);
}

function drawProgress(el, r) {
  const total = r.started?.total ?? 0;
  const done = r.moves.length;
  const state = r.running ? "running" : r.problem ? "failed" : isFinished(r) ? "done" : "stopped";
  redraw(el, JSON.stringify([state, done, total, r.problem?.message, r.problem?.text]), () => [
    h("progress", { max: Math.max(total, 1), value: done, "aria-label": W.progressLabel() }),
    h("p", { role: "status", "data-review-done": done, "data-review-total": total,
      text: r.problem ? W.reviewFailed(r.problem)
        : !r.started ? W.reviewStarting()
          : state === "running" ? W.reviewing(done, total)
            : state === "done" ? W.reviewed(total) : W.reviewStopped(done, total) }),
    state === "stopped" || state === "failed"
      ? h("button", { type: "button", class: "btn", "data-action": "review_resume", text: W.resume() }) : null,
  ]);
}

function drawSummary(el, r, { view, hello }) {
  const last = r.moves.at(-1);
  const summary = last?.summary ?? null;
  const key = JSON.stringify([summary, r.moves.length, r.source.record === null && view?.status]);
  redraw(el, key, () => {
    if (!summary) return [];
    const rows = summary.per_deal;
    const smaller = r.moves.filter((m) => !m.move.forced && m.move.budget < r.started.budget).length;
    const counts = grades(hello).map((g) => ({ ...g, count: rows.reduce((sum, r) => sum + r[g.key], 0) }));
    const parts = [
      h("p", { class: "review-total", "data-review-total-cost": summary.total_cost },
        h("b", { text: W.pointsLost(summary.total_cost) }), " ", W.overCards(r.moves.length),
        counts.some((g) => g.count) ? ` — ${counts.filter((g) => g.count).map((g) => W.gradeCount(g.count, g.label)).join(", ")}` : ""),
      // Cards reviewed ahead on a smaller search when the game ended (table.ahead) say so.
      smaller ? h("p", { class: "detail", "data-review-smaller": smaller, text: W.smallerSearch(smaller) }) : null,
      barChart({
        id: "review-deals",
        title: W.lostPerDealTitle(),
        yLabel: W.pointsAxis(),
        xs: rows.map((r) => W.dealName(r.deal)),
        values: rows.map((r) => r.cost),
        // The deals run across, as the bars do, each column headed by its number alone (its
        // name for a screen reader), and the grades' names down the side: a deal a row, the
        // grades' columns were wider than a phone's dialog in Russian.
        table: {
          head: [W.dealColumn(), ...rows.map((r) => ({ text: points(r.deal + 1), name: W.dealName(r.deal) }))],
          rows: [
            [W.cardsColumn(), ...rows.map((r) => r.cards)],
            [W.lostColumn(), ...rows.map((r) => r.cost)],
            ...grades(hello).map((g) => [say(g.label), ...rows.map((r) => r[g.key])]),
          ],
        },
      }),
    ];
    const list = costly(r);
    const replayable = r.source.record !== null || view?.status === "game_over";
    parts.push(h("h3", { text: W.costlyTitle() }));
    parts.push(list.length
      ? h("ol", { class: "review-list", "data-review-list": true }, list.map(({ index, move }) => h("li", {
        class: "review-item", "data-review-play": move.play, "data-review-grade": move.grade ?? "slip" },
      h("p", {}, h("span", { class: "review-where", text: W.where(move.deal, move.trick) }), " ",
        h("b", { text: W.markTitle(move.card, move.cost, move.grade && gradeLabel(hello, move.grade)) })),
      h("p", { class: "review-better", text: W.better(move.best, move.reason) }),
      move.line ? h("p", { class: "review-line", "data-review-line": true, text: W.line(move.line) }) : null,
      h("div", { class: "review-actions" },
        h("button", { type: "button", class: "btn", "data-action": "review_try", "data-value": index, text: W.tryAgain() }),
        h("button", { type: "button", class: "btn", "data-action": "review_line", "data-value": index, text: W.playItOut() }),
        move.grade === "blunder" ? h("button", { type: "button", class: "btn", "data-action": "review_practise", "data-value": index, text: W.practise() }) : null,
        replayable ? h("button", { type: "button", class: "btn", "data-action": "review_show", "data-value": index, text: W.showInReplay() }) : null))))
      : h("p", { "data-review-none": true, text: W.noCostly(isFinished(r)) }));
    return parts;
  });
}

function drawTry(el, r, hello) {
  const { index, picked, shown } = r.trying;
  const { move, position } = r.moves[index];
  const labels = r.started.labels.map(say);
  const seat = r.started.seat;
  redraw(el, JSON.stringify(["try", index, picked, shown]), () => {
    const legal = new Set(move.options.map((o) => o.card));
    const suit = suitOf(r.started.suits[seat]);
    const trick = { leader: position.trick.leader, cards: position.trick.cards, winner: null };
    const option = picked ? move.options.find((o) => o.card === picked) : null;
    return [
      h("p", { class: "review-where", text: W.tryWhere(move.deal, move.trick, labels[seat], suit.symbol) }),
      h("div", { class: "review-position" },
        h("div", { class: "review-trick" },
          trick.cards.length ? compassTrick(trick, labels) : h("p", { text: W.youLead() })),
        h("ul", { class: "review-calypsos", "aria-label": W.calypsosLabel() }, position.seats.map((tally, s) => {
          const own = suitOf(r.started.suits[s]);
          return h("li", {}, `${labels[s]} `, h("span", { "data-suit": own.key, text: own.symbol }),
            `: ${W.calypsoState([...tally.calypso].map(rankLabel).join(" "), tally.completed)}`);
        }))),
      h("p", { class: "review-ask", text: W.whichCard() }),
      h("div", { class: "review-hand", role: "group", "aria-label": W.handLabel(labels[seat]), "data-try-hand": true },
        position.hand.map((code) => cardFace(code, "button", {
          type: "button", class: "card-small", "aria-label": shortName(code),
          "data-action": "review_pick", "data-value": code, disabled: !legal.has(code),
          "data-picked": code === picked ? "true" : null,
        }))),
      option ? h("p", { class: "review-answer", role: "status", "data-try-cost": option.cost,
        text: W.tryAnswer(option.card, option.cost, option.grade && gradeLabel(hello, option.grade),
          option.card === move.best, option.card === move.card) }) : null,
      shown ? h("p", { class: "review-better", "data-try-best": move.best,
        text: W.better(move.best, move.reason) }) : null,
      h("div", { class: "review-actions" },
        shown ? null : h("button", { type: "button", class: "btn", "data-action": "review_best", text: W.showBest() }),
        h("button", { type: "button", class: "btn", "data-action": "review_back", text: W.backToList() })),
    ];
  });
}

// The line after a costly card: for the played card and the better one side by side, the
// tricks as far as ``step`` cards after those on the table, the trick in play last. Each
// trick is a group headed by its number, ruled off from the one before: drawn straight under
// each other, two tricks read as one of eight cards.
function drawLine(el, r) {
  const { index, lines, problem, step } = r.lining;
  const { move, position } = r.moves[index];
  const labels = r.started.labels.map(say);
  const onTable = position.trick.cards.length;
  redraw(el, JSON.stringify(["line", index, Boolean(lines), problem?.message, step]), () => {
    const head = [
      h("p", { class: "review-where", text: W.lineTitle(move.deal, move.trick) }),
      h("p", { class: "detail", text: W.lineLead() }),
    ];
    const back = h("div", { class: "review-actions" },
      h("button", { type: "button", class: "btn", "data-action": "review_back", text: W.backToList() }));
    if (problem) return [...head, h("p", { role: "status", text: W.lineFailed(problem) }), back];
    if (!lines) return [...head, h("p", { role: "status", "data-line-loading": true, text: W.lineLoading() }), back];
    const longest = Math.max(...lines.map((l) => lineLength(l, onTable)));
    return [
      ...head,
      h("div", { class: "review-lines" }, lines.map((line, n) => {
        // The tricks as far as the step: each trick's cards up to the card shown last.
        let left = onTable + step;
        const shown = [];
        for (const trick of line.tricks) {
          if (left <= 0) break;
          const cards = trick.cards.slice(0, left);
          // The winner once the whole trick is shown (an unfinished trick has none).
          shown.push({ leader: trick.leader, cards, winner: cards.length === trick.cards.length ? trick.winner : null });
          left -= cards.length;
        }
        return h("section", { class: "review-line-play", "data-line-card": line.card,
          "data-line-played": line.card === move.card ? "true" : null },
        h("h4", { text: W.lineAfter(line.card, line.card === move.card) }),
        shown.map((trick, k) => h("div", { class: "review-line-trick", role: "group",
          "aria-labelledby": `review-line-${n}-${k}` },
        h("h5", { id: `review-line-${n}-${k}`, text: W.lineTrick(move.trick + k) }),
        compassTrick(trick, labels))));
      })),
      h("p", { role: "status", "data-line-step": step, text: W.lineShown(step, longest) }),
      h("div", { class: "review-actions" },
        h("button", { type: "button", class: "btn", "data-action": "review_line_back", disabled: step <= 1, text: W.linePrevious() }),
        h("button", { type: "button", class: "btn", "data-action": "review_line_next", disabled: step >= longest, text: W.lineNext() }),
        h("button", { type: "button", class: "btn", "data-action": "review_back", text: W.backToList() })),
    ];
  });
}

/** The review dialog was closed: the review stops where it is. */
export function closed() {
  cancel();
  tryReviewCard(null);
}

/** Closes the review for a replay of a costly card. */
export function leave() {
  closeDialog("review");
}
