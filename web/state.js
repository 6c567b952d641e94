// What the page holds between events, and drawing at most once per animation frame: any
// number of requestDraw() calls in a frame lead to one draw, just before it is painted.
//
// This module owns the page's state: other modules read ``app`` (typed read-only) and change
// it only through the functions below, each named for what happened. tests/test_web_sources.py
// checks that no other module assigns into it.

import * as prefsStore from "./prefs.js";
import { SPEEDS, parseSpeed } from "./speed.js";
import * as storage from "./storage.js";

const state = {
  hello: null, // the engine's facts (its hello)
  table: null, // what stays the same through the match in play: settings, seats, sides, cut
  view: null, // the table as the engine last showed it
  busy: false, // a request of the person's is on its way, or computers are moving
  focusHand: false,
  settings: storage.loadSettings(),
  speed: SPEEDS.normal,
  speedName: "normal",
  run: 0, // bumped by every new deal: stale computer-move loops stop
  hint: null, // the card the last hint suggested, until the person plays
  chosen: null, // a card of the hand chosen ahead, while others play: played on the turn
  prefs: prefsStore.load(),
  replay: null, // {record | null, position, imported, target} while the replay dialog is open
  examples: null, // the rules' worked examples, fetched once
  lastError: null,
  openSheet: false, // the score sheet opens at the next draw (the game is over)
  // What the screen shows besides the table, to word again in another language:
  notice: null, // the notice: a message, a list of them, or null (page.js)
  boot: null, // the engine's loading as last shown: {stage, fraction, received, expected} or {failed} (page.js)
  saveFailure: null, // while saving fails, the last save's outcome {ok: false, reason, kept} (saved-games.js)
  tourStep: -1, // the walkthrough's step shown, -1 while it is closed (tour.js)
};

/** The page's state, to read: change it through this module's functions. */
export const app = /** @type {Readonly<typeof state>} */ (state);

/** The engine's facts, from its hello. */
export function setHello(hello) {
  state.hello = hello;
}

/**
 * Takes a reply of the engine as the table now: its match facts when it carries them. A card
 * chosen ahead goes with a new deal, a covered hand or another person's; the hint goes when
 * every hand is covered. Returns whether a notice about the hand shown must go too (every
 * hand has just been covered, or a hint was showing).
 */
export function takeView(view) {
  const covering = view.viewer === null && state.view !== null && state.view.viewer !== null;
  if (state.chosen && (view.viewer !== state.view?.viewer || view.deal !== state.view?.deal ||
      !view.hand?.includes(state.chosen))) state.chosen = null;
  if (view.table) state.table = view.table;
  state.view = view;
  if (view.viewer !== null) return false;
  const hinted = state.hint !== null;
  state.hint = null;
  return covering || hinted;
}

/** A new game (or a game opened) replaces the one in play: returns its run number, which
 * stale loops compare with ``app.run``; the hint and the card chosen ahead go. */
export function newRun() {
  state.run += 1;
  state.hint = null;
  state.chosen = null;
  return state.run;
}

/** Whether a request of the person's is on its way or the computers are moving. */
export function setBusy(busy) {
  state.busy = busy;
}

/** The hand takes the focus at the next draws (the person's move). */
export function focusHandNext() {
  state.focusHand = true;
}

/** The card a hint suggests (null: none). */
export function setHint(card) {
  state.hint = card;
}

/** The card of the hand chosen ahead (null: none). */
export function setChosen(card) {
  state.chosen = card;
}

/** The card chosen ahead, taken out of the state (null: none). */
export function takeChosen() {
  const chosen = state.chosen;
  state.chosen = null;
  return chosen;
}

/** The last failure of a request that replaces the game (null: it succeeded). */
export function setLastError(error) {
  state.lastError = error;
}

/** The score sheet opens at the next draw. */
export function openSheetNext() {
  state.openSheet = true;
}

/** Whether the score sheet is to open now; asked once by the draw. */
export function takeOpenSheet() {
  const open = state.openSheet;
  state.openSheet = false;
  return open;
}

/** The pace of play (a name of SPEEDS, else normal), and the closest named speed for the form. */
export function setSpeed(speed) {
  state.speed = parseSpeed(speed) ?? SPEEDS.normal;
  state.speedName = Object.keys(SPEEDS).find((name) => SPEEDS[name].move >= state.speed.move) ?? "slow";
}

/** The person's settings for new games (storage.js saves them). */
export function setSettings(settings) {
  state.settings = settings;
}

/** The person's preferences (prefs.js saves them). */
export function setPrefs(prefs) {
  state.prefs = prefs;
}

/** The rules' worked examples, fetched once. */
export function setExamples(examples) {
  state.examples = examples;
}

/** Opens a replay (of the game in play when record is null) at no position yet. */
export function openReplayState(record, imported) {
  state.replay = { record, imported, position: null, target: null };
}

/** The number of tricks the replay was last asked to show (a later step supersedes it). */
export function setReplayTarget(tricks) {
  if (state.replay) state.replay = { ...state.replay, target: tricks };
}

/** The position the replay shows. */
export function setReplayPosition(position) {
  if (state.replay) state.replay = { ...state.replay, position };
}

/** The notice shown (a message, a list of them, or null). */
export function setNotice(notice) {
  state.notice = notice;
}

/** The engine's loading as last shown, or its failure ({failed: error}). */
export function setBoot(boot) {
  state.boot = boot;
}

/** The outcome of a save that failed (null: saving works again). */
export function setSaveFailure(outcome) {
  state.saveFailure = outcome;
}

/** The walkthrough's step shown (-1: closed). */
export function setTourStep(step) {
  state.tourStep = step;
}

let drawer = null;
let pending = false;

/** Sets the function that draws the page from ``app``. */
export function onDraw(draw) {
  drawer = draw;
}

/** Draws in the next animation frame (once, however often it is asked for). */
export function requestDraw() {
  if (pending) return;
  pending = true;
  requestAnimationFrame(() => {
    pending = false;
    drawer?.();
  });
}
