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
  dealEnd: false, // a deal is over and the page waits for the person's "Next deal" (flow.js)
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
  // The walkthrough's ending while it is open: the element that had the focus when it began
  // (it gets the focus back) and what to call when it ends (tour.js).
  tourEnd: { focus: null, then: null },
  language: "en", // the language the page speaks (i18n.js keeps its catalog)
  save: null, // the save this tab plays, {id, link: {key, seed} | null}, once saves.claim() has run
  // The review of a person's cards (review.js): what it is of (source), the engine's replies
  // (started, moves), the loop's token (a stop bumps it), the costly card tried again, and
  // the costly card whose line of play is shown (lining).
  review: { source: null, started: null, moves: [], token: 0, running: false, problem: null,
    startedAt: 0, ms: null, trying: null, lining: null },
  offer: null, // the review offered after a deal, {game, deal, plays}, while it stands (review.js)
  // The master in your seat (rerun.js): the game it is of (key), its progress and result.
  master: { key: null, token: 0, running: false, done: 0, total: 0, result: null, problem: null,
    startedAt: 0, ms: null },
  // A challenge among friends (challenge.js): what its dialog shows, the link made of the
  // finished match (made) or the reply to the challenge it answers (answer), each with the
  // game it is of (key), and the comparison in progress or done.
  challenge: { shown: null, openNext: false, made: null, answer: null,
    compare: { key: null, token: 0, running: false, done: 0, total: 0, result: null, reply: null, problem: null } },
  // The puzzles (puzzles.js), while open: the set's size and themes, the device's record and
  // queue (puzzle-store.js), the puzzle shown (the engine's info, view and table), the
  // answers tried (the first one rated), whether the solution is shown, and the line played on
  // from the position ({view, over}) while the person steps through it.
  puzzle: { open: false, busy: false, token: 0, problem: null, notice: null, set: null, record: null,
    queue: null, info: null, view: null, table: null, answers: [], solution: false, line: null,
    before: null },
  // A table with friends (web/remote/), what its panel draws (remote/panel.js); null at a
  // table of this device alone. See remoteOpened below.
  remote: null,
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

/** Whether the page waits for the person's "Next deal" at the end of a deal. */
export function setDealEnd(waiting) {
  state.dealEnd = waiting;
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

/** The walkthrough began: who gets the focus back, and what to call, when it ends. */
export function setTourEnd(focus, then) {
  state.tourEnd = { focus, then };
}

/** The language the page speaks from now on (i18n.js has loaded its catalog). */
export function setLanguageShown(code) {
  state.language = code;
}

/** The save this tab plays: {id, link} (link: {key, seed} of the link its game was dealt by,
 * or null). */
export function setSave(save) {
  state.save = save;
}

/** The link the save in play was dealt by ({key, seed}, or null: none). */
export function setSaveLink(link) {
  if (state.save) state.save = { ...state.save, link };
}

// -- the review (review.js) -- each changer replaces the review, so a draw compares by value.

const reviewWith = (changes) => {
  state.review = { ...state.review, ...changes };
};

/** A review of ``source`` ({record, game, deal, people, seat}) replaces the one kept. */
export function newReview(source) {
  reviewWith({ source, started: null, moves: [], problem: null, trying: null, lining: null });
}

/** The person chose whose cards to review: the review starts over for that seat. */
export function chooseReviewSeat(seat) {
  reviewWith({ source: { ...state.review.source, seat }, started: null, moves: [], problem: null,
    trying: null });
}

/** The review's loop stops where it is (the cards reviewed so far stay). */
export function stopReview() {
  reviewWith({ token: state.review.token + 1, running: false });
}

/** A loop of the review begins at ``startedAt`` (ms): returns its token, which a later stop or
 * loop supersedes. */
export function reviewRunning(startedAt) {
  reviewWith({ token: state.review.token + 1, running: true, problem: null, startedAt, ms: null });
  return state.review.token;
}

/** The engine's reply to "review": no card is reviewed yet. */
export function reviewStarted(started) {
  reviewWith({ started, moves: [] });
}

/** The engine reviewed one more card (its reply to "review_next"). */
export function reviewMoved(next) {
  reviewWith({ moves: [...state.review.moves, next] });
}

/** Every card is reviewed, in ``ms`` milliseconds. */
export function reviewFinished(ms) {
  reviewWith({ ms });
}

/** The review stopped on an error. */
export function reviewFailed(problem) {
  reviewWith({ problem });
}

/** The review's loop has ended (finished, stopped or failed). */
export function reviewIdle() {
  reviewWith({ running: false });
}

/** A costly card (``index`` of the review's cards) is tried again; null: back to the list. */
export function tryReviewCard(index) {
  reviewWith({ trying: index === null ? null : { index, picked: null, shown: false }, lining: null });
}

/** The card picked where a costly card is tried again. */
export function pickReviewCard(code) {
  if (state.review.trying) reviewWith({ trying: { ...state.review.trying, picked: code } });
}

/** The better card is shown where a costly card is tried again. */
export function showReviewBest() {
  if (state.review.trying) reviewWith({ trying: { ...state.review.trying, shown: true } });
}

/** The line of play after costly card ``index`` (of the review's cards) is asked for: the
 * engine's "review_line" reply comes later (lines), the first card shown; null: back to the
 * list. */
export function lineReviewCard(index) {
  reviewWith({ lining: index === null ? null : { index, lines: null, problem: null, step: 1 }, trying: null });
}

/** The engine's lines after costly card ``index`` (its "review_line" reply's), or why not. */
export function reviewLineIn(index, lines, problem = null) {
  if (state.review.lining?.index === index) reviewWith({ lining: { ...state.review.lining, lines, problem } });
}

/** How many cards of the line are shown after those on the table (1: the card itself). */
export function stepReviewLine(step) {
  if (state.review.lining) reviewWith({ lining: { ...state.review.lining, step } });
}

/** The review offered after a deal ({game, deal, plays}), or null: none. */
export function setOffer(offer) {
  state.offer = offer;
}

// -- the master in your seat (rerun.js) --

const masterWith = (changes) => {
  state.master = { ...state.master, ...changes };
};

/** The master's result of game ``key`` came from the statistics: a loop in progress stops. */
export function masterCounted(key, result) {
  masterWith({ key, token: state.master.token + 1, running: false, problem: null, ms: null, result });
}

/** The master starts playing game ``key`` at ``startedAt`` (ms): returns the loop's token. */
export function masterRunning(key, startedAt) {
  masterWith({ key, token: state.master.token + 1, running: true, done: 0, total: 0, result: null,
    problem: null, startedAt, ms: null });
  return state.master.token;
}

/** The master has played ``done`` of ``total`` cards. */
export function masterProgress(done, total) {
  masterWith({ done, total });
}

/** The master's game is over: {you, master, record}, in ``ms`` milliseconds. */
export function masterFinished(result, ms) {
  masterWith({ result, ms });
}

/** The master could not play (the engine's error). */
export function masterFailed(problem) {
  masterWith({ problem });
}

/** The master's loop has ended. */
export function masterIdle() {
  masterWith({ running: false });
}

// -- a challenge among friends (challenge.js) --

const challengeWith = (changes) => {
  state.challenge = { ...state.challenge, ...changes };
};
const compareWith = (changes) => challengeWith({ compare: { ...state.challenge.compare, ...changes } });

/** What the challenge dialog shows ({kind: offer | made | compare | list, ...}), or null;
 * ``open``: the dialog opens at the next draw, once it shows it (its title takes the focus). */
export function setChallengeShown(shown, { open = false } = {}) {
  challengeWith({ shown, openNext: open || state.challenge.openNext });
}

/** Whether the challenge dialog is to open now; asked once by the draw. */
export function takeOpenChallenge() {
  const open = state.challenge.openNext;
  if (open) challengeWith({ openNext: false });
  return open;
}

/** The challenge link made of a finished match: {key (the game), link, summary}. */
export function setChallengeMade(made) {
  challengeWith({ made });
}

/** The challenge a finished match answers, and its reply once made: {key, id, link, sender,
 * reply, name}. */
export function setChallengeAnswer(answer) {
  challengeWith({ answer });
}

/** A comparison of ``key`` begins: returns its loop's token, which a later one supersedes. */
export function compareRunning(key) {
  compareWith({ key, token: state.challenge.compare.token + 1, running: true, done: 0, total: 0, result: null,
    reply: null, problem: null });
  return state.challenge.compare.token;
}

/** The engine's reply about the comparison: how far it is, and what it found so far. */
export function compareProgress({ done, total, result, reply }) {
  compareWith({ done, total, result, ...(reply !== undefined ? { reply } : {}) });
}

/** The comparison stopped on the engine's refusal. */
export function compareFailed(problem) {
  compareWith({ problem });
}

/** The comparison's loop has ended. */
export function compareIdle() {
  compareWith({ running: false });
}

// -- the puzzles (puzzles.js) --

const puzzleWith = (changes) => {
  state.puzzle = { ...state.puzzle, ...changes };
};

/** The puzzles open over the table, with the device's record and queue, and what to say of
 * them (``notice``: messages, when one of them could not be read and was set aside). */
export function openPuzzles(record, queue, notice) {
  puzzleWith({ open: true, problem: null, notice, record, queue });
}

/** Back to the game in play: the puzzle shown goes. */
export function closePuzzles() {
  puzzleWith({ open: false, busy: false, token: state.puzzle.token + 1, notice: null, info: null, view: null,
    table: null, answers: [], solution: false, line: null, before: null });
}

/** A request of the puzzles is on its way: returns its token (a later one supersedes it). */
export function puzzleBusy() {
  puzzleWith({ busy: true, token: state.puzzle.token + 1 });
  return state.puzzle.token;
}

/** The request is answered (or failed: ``problem``, a message, or null). */
export function puzzleIdle(problem = null) {
  puzzleWith({ busy: false, problem });
}

/** The set is loaded: {count, themes}. */
export function puzzleSetLoaded(set) {
  puzzleWith({ set });
}

/** A puzzle is shown: the engine's reply {puzzle, view} to "puzzle". */
export function puzzleShown({ puzzle, view }) {
  puzzleWith({ info: puzzle, view, table: view.table, answers: [], solution: false, line: null,
    before: null });
}

/** An answer judged (the engine's reply to "puzzle_answer"), with the record after it and the
 * rating before it (null: not rated). */
export function puzzleAnswered(answer, record, before) {
  puzzleWith({ answers: [...state.puzzle.answers, answer], record,
    before: state.puzzle.answers.length ? state.puzzle.before : before });
}

/** The solution is shown. */
export function puzzleSolutionShown() {
  puzzleWith({ solution: true });
}

/** The line played on from the position: {view, over}, or null: back at the position. */
export function puzzleLine(line) {
  puzzleWith({ line });
}

/** The device's record (the difficulty changed) or queue. */
export function puzzleKept({ record = state.puzzle.record, queue = state.puzzle.queue }) {
  puzzleWith({ record, queue });
}

// -- a table with friends (web/remote/: the host's and the guests' clients change it, the
// remote panel draws it) -- each changer replaces app.remote, so a draw compares by value.
//
// Both sides: role ("host" or "guest"), started (the table is dealt), seats (who is at the
// table: [{seat, name, here, computer}], the presence every screen shows), hostAway (a guest's:
// the host's page is gone), said (every sentence told to screen readers, in order).
// The host's: invites ({seat: the invitation's address}), joined ([seats taken]), waiting (what
// the lobby waits for: "guests", "seeds" or null), pairs ({seat: {link, state}} of pairings by
// hand). A guest's: seat, name (the one remembered), stage (of joining: "name", "joining",
// "seated", "host_left", "unreachable", "pairing", "bad_offer", "refused"), refusal (the host's
// words when it refused the join), lobby (who else has joined), answer (the pairing answer to
// send back), fair ({state, said: a message}: the fair deal's check).

const remoteWith = (changes) => {
  state.remote = { ...state.remote, ...changes };
};

/** A table with friends opens: role "host" or "guest", and what that side starts with. */
export function remoteOpened(role, start) {
  state.remote = { role, started: false, seats: [], hostAway: false, said: [], invites: {},
    joined: [], waiting: null, pairs: {}, seat: null, name: "", stage: null, refusal: null,
    lobby: [], answer: null, fair: { state: "waiting", said: null }, ...start };
}

/** Who is at the table now (the presence every screen shows). */
export function remoteSeats(seats) {
  remoteWith({ seats });
}

/** The table is dealt: the lobby goes, the banner and the announcements begin. */
export function remoteStarted() {
  remoteWith({ started: true, waiting: null });
}

/** The host's lobby: the seats taken, and what it waits for ("guests", "seeds" or null). */
export function remoteLobby(joined, waiting) {
  remoteWith({ joined, waiting });
}

/** The host gave the empty seats to computer players: the lobby lists these seats only. */
export function remoteInvites(invites) {
  remoteWith({ invites });
}

/** A pairing by hand of a guest's seat ({link, state}: the offer's address, once made). */
export function remotePair(seat, pair) {
  remoteWith({ pairs: { ...state.remote.pairs, [seat]: { ...state.remote.pairs[seat], ...pair } } });
}

/** A guest's way to its seat: its stage, and the host's words when the host refused it. */
export function remoteStage(stage, refusal = null) {
  remoteWith({ stage, refusal });
}

/** The name a guest gave (remembered in its browser). */
export function remoteName(name) {
  remoteWith({ name });
}

/** Who else has joined, as the host told a guest before the deal. */
export function remoteJoined(lobby) {
  remoteWith({ lobby });
}

/** The host's page left (a reload, a lost connection) or came back. */
export function remoteHostAway(away) {
  remoteWith({ hostAway: away });
}

/** A guest's answer to a pairing link, to send back to the host. */
export function remoteAnswer(answer) {
  remoteWith({ answer });
}

/** The fair deal's check on a guest's page: its state and what it says (a message). */
export function remoteFair(fairState, said) {
  remoteWith({ fair: { state: fairState, said } });
}

/** Sentences told to screen readers (drawn into the table's live region). */
export function remoteSay(sentences) {
  if (sentences.length) remoteWith({ said: [...state.remote.said, ...sentences] });
}

// How the page draws: set once at start-up (app.js), not state of the game or the screen.
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
