// The game's flow: dealing, the computer players' moves, the person's cards, hand-offs
// between people, undo and hints. It sequences requests and asks for drawing; the engine
// decides everything.
//
// A computer's move costs one round trip, and its thinking overlaps the animation of the
// move before: the next "step" is asked for as soon as a reply is in, and its reply is drawn
// once it has arrived and the previous move's pause is over.

import * as ahead from "./ahead.js";
import { $ } from "./dom.js";
import { engine } from "./engine.js";
import { list, msg, say, t } from "./i18n.js";
import { namesOf } from "./names.js";
import { closeAllDialogs, closeDialog, currentNotice, renderNotice } from "./page.js";
import * as panels from "./panels.js";
import * as prefsStore from "./prefs.js";
import * as savedGames from "./saved-games.js";
import * as saves from "./saves.js";
import * as sound from "./sound.js";
import * as state from "./state.js";
import { app, requestDraw } from "./state.js";
import * as stats from "./stats.js";
import { focusHand, showBusy } from "./table-view.js";

const client = engine();

// What follows the end of a deal and of a game (the review's offer, the master in your seat,
// the Calypso of the day), each called with the view and the match's table; app.js sets them.
/** @type {{dealOver: (view: any, table: any) => void, gameOver: (view: any, table: any) => void}} */
const after = { dealOver: () => {}, gameOver: () => {} };

export function onAfter(hooks) {
  Object.assign(after, hooks);
}

function afterMove(view) {
  if (view.event?.deal_over && !view.event.game_over) after.dealOver(view, app.table);
}

export function setSpeed(speed) {
  state.setSpeed(speed);
  document.documentElement.style.setProperty("--move-ms", `${app.speed.move}ms`);
}

const sleep = (ms) => (ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve());

/** What people read of an engine's refusal: its message ({id, params}), else the words of
 * its code, else (an error of the browser's) its message as it came. */
export function errorMessage(error) {
  return error.text ?? (error.code ? msg(`error.${error.code}`) : error.message);
}

/**
 * What people read when something failed: what (a message) and why, each its own sentence
 * (notice.problem); before the engine's refusal, ``refused`` instead (null: the refusal says
 * what it refused, and stands alone: "The Calypso of 2999-01-01 is not dealt before its
 * day."). The error's code stays in the error for a bug report, never in the words.
 */
export function problemNotice(what, error, refused = what) {
  const before = error.text ? refused : what;
  return before ? msg("notice.problem", { what: before, error: errorMessage(error) }) : errorMessage(error);
}

/** Says that something failed, and why (problemNotice). */
export function problem(what, error, refused = what) {
  renderNotice(problemNotice(what, error, refused));
}

// Takes a reply of the engine as the table now, and whatever would show a covered hand
// dropped when every hand is covered: a hint, or a notice naming a card of the hand that was
// shown ("Could not play the Q♥"), must not stay for the next person.
function take(view) {
  if (state.takeView(view)) renderNotice(null);
  requestDraw();
}

// Sounds for what a move did: a card, a trick won or lost, a calypso completed.
function soundFor(before, after) {
  const event = after.event;
  if (!event || !app.prefs.sound || app.puzzle.open) return; // the game moves on behind a puzzle
  const made = after.seats.some((s, i) => s.completed > (before?.seats[i]?.completed ?? s.completed));
  const last = after.log.tricks.at(-1);
  const mine = after.viewer ?? namesOf(app.table).peopleSeats()[0];
  if (made) sound.play("calypso");
  else if (event.trick_over && last) {
    sound.play(app.table.seats[last.winner].side === app.table.seats[mine].side ? "trick" : "lost");
  } else sound.play("card");
}

// The end of a deal stays in view longer than a trick's: its summary is under the trick.
const DEAL_PAUSE_TRICKS = 2;

function pauseAfter(view) {
  if (view.event?.deal_over && !view.event.game_over) return app.speed.trick * DEAL_PAUSE_TRICKS;
  return view.event?.trick_over ? app.speed.trick : app.speed.move;
}

// -- the end of a deal ----------------------------------------------------------------------

// At every speed the end of a deal waits for the person: its summary stays under the trick,
// with "Next deal", until they press it (the next deal's first computer card is thought of,
// and the worker works ahead, meanwhile). Where a person is to move next, their turn is the
// wait. At a table with friends on other devices it is a pause (pauseAfter): nobody at one
// device holds up the others.
let dealEndGo = null; // ends the wait for "Next deal"

// The pause after a move (ms long), or the wait for "Next deal" after a deal's last card.
function pauseFor(run, view, ms) {
  const waits = view.event?.deal_over && !view.event.game_over && view.status === "waiting"
    && !namesOf(app.table).elsewhere();
  if (!waits) return sleep(ms);
  state.setDealEnd(true);
  ahead.whileWaiting(() => run === app.run && app.dealEnd);
  return new Promise((resolve) => {
    dealEndGo = resolve;
  });
}

/** The person has seen the deal's end: the next deal begins (or the wait ends, for a game
 * replaced meanwhile). */
export function nextDeal() {
  const go = dealEndGo;
  dealEndGo = null;
  state.setDealEnd(false);
  requestDraw();
  go?.();
}

// -- the cut ----------------------------------------------------------------------------------

/** Shows the cut before the match (when the settings say so, or when asked for), above the
 * table: it never covers a card, so the computers play on while it is read. It stays until
 * closed or until the person plays a card; the deal's log keeps it too. */
export function showCut(force = false) {
  const cut = app.table?.cut;
  if (!cut || (!force && !app.prefs.showCut)) return;
  if (force) closeAllDialogs();
  panels.drawCut($("[data-cut]"), cut);
  $("[data-cut-banner]").hidden = false;
}

/** Words the cut again where it is shown (the language changed). */
export function redrawCut() {
  const banner = $("[data-cut-banner]");
  if (!banner.hidden && app.table?.cut) panels.drawCut($("[data-cut]"), app.table.cut);
}

export function hideCut() {
  const banner = $("[data-cut-banner]");
  const hadFocus = banner.contains(document.activeElement);
  banner.hidden = true;
  if (hadFocus) focusHand();
}

// -- dealing and loading ------------------------------------------------------------------

function seatsPayload(settings) {
  const known = new Set(app.hello.levels.map((l) => l.key));
  const level = known.has(settings.level) ? settings.level : app.hello.default_level;
  const people = Array.isArray(settings.people) && settings.people.length ? settings.people : null;
  const payload = people ? { people } : {};
  const seats = people ? people.map((p) => p.seat) : app.hello.people.default;
  const personSeat = (seat) => seats.includes(seat);
  if (Array.isArray(settings.levels) && settings.levels.every((l, s) => personSeat(s) || known.has(l))) {
    return { ...payload, levels: settings.levels.map((l, s) => (personSeat(s) ? null : l)) };
  }
  return { ...payload, level };
}

/** What new_game is sent for these settings (and seed, when given). */
export function newGamePayload(settings, seed) {
  /** @type {Record<string, any>} */
  const payload = {
    ...seatsPayload(settings),
    rules: settings.rules ?? {},
    games: settings.games ?? 1,
    suit: settings.suit ?? "random",
  };
  if (seed !== undefined && seed !== null && seed !== "") payload.seed = seed;
  return payload;
}

/** Deals a new match with these settings (and seed, when given); refused: what to say
 * before the engine's refusal (problemNotice). */
export async function startGame(settings, seed, refused = msg("problem.deal")) {
  const payload = newGamePayload(settings, seed);
  const started = await show(() => client.request("new_game", payload), msg("problem.deal"), refused);
  if (started && app.view.match.game === 0 && app.view.plays === 0) showCut();
  return started;
}

// Replaces the game in play with the one a request returns, then lets the computers play.
// failure: what to say if it fails; refused: before the engine's refusal (problemNotice).
export async function show(requestView, failure, refused = failure) {
  nextDeal(); // a wait for "Next deal" ends with the game
  const run = state.newRun();
  closeDialog("score_sheet");
  if (app.view) {
    state.setBusy(true);
    showBusy();
  }
  let view;
  try {
    view = await requestView();
  } catch (error) {
    if (run === app.run) {
      state.setBusy(false);
      requestDraw();
    }
    problem(failure, error, refused);
    state.setLastError(error);
    return false;
  }
  state.setLastError(null);
  take(view);
  persist();
  if (run !== app.run) return true;
  renderNotice(null);
  await advance(run);
  return true;
}

export function nextGame() {
  return show(() => client.request("next_game"), msg("problem.next_game"));
}

// A table that changed while the page asked for nothing (at a friend's table: the host dealt,
// undid, or its page reloaded, while this page waited for its person): drawn as any game
// shown, and the computers play on from it. A view in hand cannot fail.
client.onChange((view) => show(async () => view, null));

// -- computer moves -------------------------------------------------------------------------

// Asks the engine for computer moves until a person is to move or the game ends, drawing
// each. The next move is asked for as soon as a reply is in, so the worker thinks while the
// page shows the move before; a move is drawn once its reply is in and the pause of the move
// before is over. ``pending`` is a step already asked for, ``pause`` the pause running now.
async function advance(run, pending = null, pause = Promise.resolve(), pauseEnd = 0) {
  if (!pending && app.view.status === "waiting") pending = client.request("step");
  workAfter(run, pending, pauseEnd);
  state.setBusy(true);
  showBusy();
  requestDraw();
  while (pending) {
    let next;
    try {
      [next] = await Promise.all([pending.then(held), pause]);
    } catch (error) {
      if (run === app.run) problem(msg("problem.computer"), error);
      break;
    }
    if (run !== app.run) return;
    pending = next.status === "waiting" ? client.request("step") : null;
    const ms = pauseAfter(next);
    pauseEnd = performance.now() + ms;
    workAfter(run, pending, pauseEnd);
    soundFor(app.view, next);
    if (next.event?.note) console.warn("Calypso:", next.event.note.params?.problem ?? next.event.note);
    take(next);
    persist();
    afterMove(next);
    pause = pauseFor(run, next, ms);
    // Nothing more to ask of the worker until this pause is over: it may work ahead.
    if (!pending) ahead.during(pauseEnd);
  }
  await pause; // the last move stays in view for its pause, as every move before it
  if (run !== app.run) return;
  state.setBusy(false);
  requestDraw();
  const status = app.view.status;
  if (status === "game_over") {
    if (namesOf(app.table).alone()) stats.countGame(app.view, app.table);
    closeAllDialogs();
    state.openSheetNext();
    after.gameOver(app.view, app.table);
    ahead.afterGame();
  } else if (status === "your_turn" && !playAhead(run)) {
    if (app.prefs.sound && !app.puzzle.open) sound.play("turn");
    ahead.whileThinking();
  } else if (status === "handoff") {
    ahead.whileThinking();
  }
}

// A computer's card is held as long as its reply says (event.hold_ms: to its level's clock
// cap, less the time it thought), so that it shows after the same time whether it had one legal
// card or several: a card that came at once told a void. A person's card is never held.
function held(reply) {
  const ms = reply?.event?.hold_ms ?? 0;
  return ms > 0 ? sleep(ms).then(() => reply) : reply;
}

// The worker thinks of the next computer move while the page shows the one before; once it
// has, it is idle until that pause ends and the card's hold is over (against quick players,
// most of every pause): it may work ahead until then.
function workAfter(run, pending, pauseEnd) {
  pending?.then((reply) => {
    if (run === app.run) ahead.during(Math.max(pauseEnd, performance.now() + (reply?.event?.hold_ms ?? 0)));
  }, () => {});
}

// -- cards played ahead -------------------------------------------------------------------------

/** Chooses a card of the hand shown while the computers play (or takes the choice back when
 * it is chosen again): it is played as the person's turn comes, if the engine lists it. Not
 * among several people, where the next person's turn covers the hand. */
export function choose(card) {
  const view = app.view;
  if (!view || !namesOf(app.table).alone() || view.viewer === null || view.status === "game_over" ||
      !view.hand?.includes(card)) return;
  state.setChosen(app.chosen === card ? null : card);
  requestDraw();
}

/** Takes back a card chosen ahead; whether there was one. */
export function cancelChoice() {
  if (!app.chosen) return false;
  state.setChosen(null);
  requestDraw();
  return true;
}

// On the person's turn, the card to play without asking: the one chosen ahead when the
// engine lists it as legal (else the choice is dropped, saying why); else the only legal
// card, when the hand holds nothing else (the last trick of a deal) or the settings say so.
// A forced card waits a card's pause, so that it is seen coming.
function cardAhead() {
  const legal = app.view.legal ?? [];
  const chosen = state.takeChosen();
  if (chosen && legal.includes(chosen)) return { card: chosen, pause: 0 };
  if (chosen) renderNotice(msg("notice.choice_dropped", { card: chosen }));
  const forced = legal.length === 1 && (app.prefs.forcedCards || app.view.hand.length === 1);
  return forced ? { card: legal[0], pause: app.speed.move } : null;
}

// Plays the card ahead, if any; whether one is on its way.
function playAhead(run) {
  const next = cardAhead();
  if (!next) {
    requestDraw();
    return false;
  }
  const { card, pause } = next;
  const plays = app.view.plays;
  sleep(pause).then(() => {
    if (run === app.run && app.view.plays === plays && app.view.status === "your_turn") playCard(card);
  });
  return true;
}

// -- the person's moves ----------------------------------------------------------------------

export async function playCard(card) {
  if (app.busy || app.view?.status !== "your_turn") {
    choose(card);
    return;
  }
  const run = app.run;
  if (app.hint || currentNotice()?.id === "notice.choice_dropped") {
    state.setHint(null);
    renderNotice(null);
  }
  state.setBusy(true);
  state.focusHandNext();
  showBusy(); // at once: data-state says busy before the reply, and the frame disables the hand
  requestDraw();
  let next;
  try {
    next = await client.request("play", { card });
  } catch (error) {
    state.setBusy(false);
    requestDraw();
    problem(msg("problem.play", { card }), error);
    return;
  }
  if (run !== app.run) return;
  soundFor(app.view, next);
  hideCut();
  hideTourOffer();
  take(next);
  persist();
  afterMove(next);
  // The computers think while this card is shown.
  const pending = next.status === "waiting" ? client.request("step") : null;
  const ms = pauseAfter(next);
  await advance(run, pending, pauseFor(run, next, ms), performance.now() + ms);
}

/** Shows the hand of the person to move, once the device has been passed to them. */
export async function reveal() {
  if (app.busy || app.view?.status !== "handoff") return;
  const seat = app.view.handoff.seat;
  const run = app.run;
  state.setBusy(true);
  showBusy();
  requestDraw();
  let next;
  try {
    next = await client.request("reveal", { seat });
  } catch (error) {
    state.setBusy(false);
    requestDraw();
    problem(msg("problem.reveal"), error);
    return;
  }
  if (run !== app.run) return;
  state.setBusy(false);
  state.focusHandNext();
  take(next);
  if (next.status === "your_turn" && app.prefs.sound) sound.play("turn");
}

export async function undo() {
  if (app.busy || !app.prefs.undo || !app.view?.can_undo) return;
  const ok = await show(() => client.request("undo"), msg("problem.undo"));
  if (ok) renderNotice(null);
}

export async function hint() {
  // The kept attempt at the Calypso of the day is played straight (the engine refuses too).
  if (app.busy || app.view?.status !== "your_turn" || app.table?.settings.straight) return;
  const shown = app.view.viewer;
  const run = app.run;
  try {
    const { card, reason } = await client.request("hint");
    // Passed on since, or another game shown (a friend's table changes unasked: onChange).
    if (run !== app.run || app.view?.viewer !== shown || app.view.status !== "your_turn") return;
    state.setHint(card);
    requestDraw();
    renderNotice(msg("notice.hint", { card, reason }));
  } catch (error) {
    problem(msg("problem.hint"), error);
  }
}

// -- the walkthrough's offer ------------------------------------------------------------------

/** Offers the walkthrough once, on the first visit, above the table, saying which level the
 * computer players of the first game play at; it goes once the person plays a card. */
export function offerTour() {
  if (app.prefs.tourDone) return;
  const offer = $("[data-tour-offer]");
  $("[data-first-level]", offer).textContent = levelsDealt();
  offer.hidden = false;
  hideCut(); // the deal's log keeps the cut: one message above the table at a time
  state.setPrefs({ ...app.prefs, tourDone: true }); // offered once, taken or not
  prefsStore.save(app.prefs);
}

export function hideTourOffer() {
  const offer = $("[data-tour-offer]");
  if (offer.hidden) return;
  const hadFocus = offer.contains(document.activeElement);
  offer.hidden = true;
  if (hadFocus) focusHand();
}

// "The computer players play at the Novice level." — from the match's settings and hello.
function levelsDealt() {
  const table = app.table;
  if (!table) return "";
  const levels = [...new Set(table.seats.filter((s) => !s.person).map((s) => s.level))];
  if (!levels.length) return "";
  return levels.length === 1 ? t("table.level_dealt", { level: levels[0] })
    : t("table.levels_dealt", { levels: list(levels.map((key) => say(app.hello.levels.find((l) => l.key === key)?.label ?? key))) });
}

/** Words the walkthrough's offer again (the language changed). */
export function redrawTourOffer() {
  const offer = $("[data-tour-offer]");
  if (!offer.hidden) $("[data-first-level]", offer).textContent = levelsDealt();
}

// -- saving -----------------------------------------------------------------------------------

/** Saves the game in play as the client keeps its recipe; a save that fails is said at once. */
ahead.onKept(() => persist());

export function persist() {
  if (!client.game) return;
  const over = Boolean(app.view?.status === "game_over" && app.view.match?.is_over);
  const outcome = saves.save(client.game, { over });
  if (savedGames.showSaveOutcome(outcome) === "recovered") renderNotice(msg("notice.saved_again"));
}
