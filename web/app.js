// The wiring: connects the input's intents to the flow, the dialogs and the replays, and
// draws the page from the app's state once per animation frame. The rules live in the engine
// (Python, in the worker); the modules wired here only sequence requests and draw.
//
// URL parameters start a given deal directly: ?seed=…&level=…&speed=… (also games=1-4,
// suit=S|H|D|C, humans=south,north); link.js checks them. Games are saved by saves.js.

import { main } from "./boot.js";
import * as challenge from "./challenge.js";
import { drawChallengeDialog, drawSheetChallenge } from "./challenge-view.js";
import * as daily from "./daily.js";
import * as dialogs from "./dialogs.js";
import { $, forgetDrawn } from "./dom.js";
import { engine } from "./engine.js";
import * as flow from "./flow.js";
import * as forms from "./forms.js";
import { chooseLanguage, onLanguage, setLanguage } from "./i18n.js";
import { bindInput } from "./input.js";
import * as page from "./page.js";
import { closeAllDialogs, closeDialog, openDialog, openOnly, toggleSide } from "./page.js";
import { namesOf } from "./names.js";
import * as panels from "./panels.js";
import * as prefsStore from "./prefs.js";
import * as replay from "./replay.js";
import * as rerun from "./rerun.js";
import { chosenLevel, drawRemote, pastedAnswer } from "./remote/panel.js";
import { fillTurnForm, saveTurnForm } from "./remote/turn.js";
import * as review from "./review.js";
import * as savedGames from "./saved-games.js";
import * as saves from "./saves.js";
import { drawScoreSheet } from "./sheet.js";
import { app, onDraw, requestDraw, takeOpenChallenge, takeOpenSheet } from "./state.js";
import { focusHand, render } from "./table-view.js";
import * as tour from "./tour.js";

// The puzzles load at their first use, no part of a first visit: a handle on their module once
// it is imported (the page's state of the puzzles is app.puzzle).
const puzzles = { module: /** @type {typeof import("./puzzles.js") | null} */ (null) };

/** Calls fn with the puzzles' module, importing it the first time. */
async function withPuzzles(fn) {
  puzzles.module ??= await import("./puzzles.js");
  return fn(puzzles.module);
}

function draw() {
  // The table with friends' panel first: its lobby and its name form come before any view.
  drawRemote(app.remote, app.hello, requestDraw);
  if (!app.view || !app.table) {
    page.redrawBoot(); // the loading card says what a host's lobby waits for
    return;
  }
  page.showBar(app.hello); // the bar and the engine's version from the first view on
  // While the puzzles are open the table shows the puzzle (table-view.js draws it as any
  // position), and the game in play waits behind it.
  const puzzle = app.puzzle.open ? puzzles.module?.tableUi(app.puzzle) ?? null : null;
  const table = puzzle?.table ?? app.table;
  const ui = {
    view: puzzle?.view ?? app.view,
    table,
    names: namesOf(table),
    hello: app.hello,
    busy: puzzle ? app.puzzle.busy : app.busy,
    dealEnd: puzzle ? null : app.dealEnd,
    animate: app.speed.move > 0,
    focusHand: app.focusHand,
    hint: puzzle ? null : app.hint,
    chosen: puzzle ? null : app.chosen,
    undoAllowed: !puzzle && app.prefs.undo,
    showCut: true,
    review: app.review,
    offer: app.offer,
    master: app.master,
    challenge: app.challenge,
  };
  // The panels first: render() ends by focusing the hand, which lays the page out, so every
  // change should be in by then.
  panels.drawLog($("[data-log]"), ui);
  panels.drawAids($("[data-aids]"), ui);
  puzzles.module?.draw(app.puzzle);
  if (!puzzle) {
    drawScoreSheet(ui);
    rerun.drawMaster($("[data-sheet-master]"), ui);
    daily.drawDaily($("[data-sheet-daily]"), ui);
    drawSheetChallenge($("[data-sheet-challenge]"), ui);
    drawChallengeDialog($("[data-challenge-dialog]"), ui);
    review.draw(ui);
  }
  render(ui);
  if (!puzzle && takeOpenSheet()) openDialog("score_sheet");
  if (!puzzle && takeOpenChallenge()) openOnly("challenge");
}

// What the table's keys do while the puzzles are open: a card answers the puzzle; a hint,
// an undo and the game's last trick are the game's, not the puzzle's.
const inPuzzles = () => app.puzzle.open;
// A game dealt, opened or continued leaves the puzzles for the table.
const leavingPuzzles = (then) => (intent) => {
  if (inPuzzles()) puzzles.module?.close();
  return then(intent);
};

// Each intent of the input (input.js) and what it does.
const INTENTS = {
  play_card: ({ card }) => (inPuzzles() ? withPuzzles((p) => p.answer(card)) : flow.playCard(card)),
  cancel_choice: () => flow.cancelChoice(),
  focus_hand: () => focusHand(),
  reveal: () => flow.reveal(),
  hint: () => inPuzzles() || flow.hint(),
  undo: () => inPuzzles() || flow.undo(),
  next_game: leavingPuzzles(() => flow.nextGame()),
  next_deal: () => inPuzzles() || flow.nextDeal(),
  new_game: () => dialogs.openNewGame(),
  deal: leavingPuzzles(() => dialogs.deal()),
  level_all: () => forms.setAllLevels(),
  seats_changed: () => forms.updateNewGameForm(),
  new_match: leavingPuzzles(() => flow.startGame(app.settings)),
  show_scores: () => openDialog("score_sheet"),
  close_scores: () => closeDialog("score_sheet"),
  last_trick: () => {
    const puzzle = inPuzzles() ? puzzles.module?.tableUi(app.puzzle) : null;
    return puzzle ? dialogs.showLastTrick(puzzle.view, puzzle.table) : inPuzzles() || dialogs.showLastTrick();
  },
  menu: () => {
    daily.drawGiveUp();
    openOnly("menu");
  },
  rules: () => dialogs.showRules(),
  stats: () => dialogs.showStats(),
  reset_stats: () => dialogs.resetStats(),
  settings: () => dialogs.showSettings(),
  prefs: () => dialogs.changePrefs(),
  language: ({ lang }) => setLanguage(lang, { save: true }),
  saves: () => dialogs.showSaves(),
  open_save: leavingPuzzles(({ save }) => dialogs.openSave(save)),
  delete_save: ({ save }) => dialogs.deleteSave(save),
  export: () => replay.exportGame(),
  import: () => $("[data-import-file]").click(),
  import_file: leavingPuzzles(({ file }) => replay.importFile(file, daily.keptOpenDates())),
  replay: () => replay.openReplay({ at: 0 }),
  replay_first: () => replay.replayStep("first"),
  replay_prev: () => replay.replayStep(-1),
  replay_next: () => replay.replayStep(1),
  replay_last: () => replay.replayStep("last"),
  toggle_side: () => toggleSide(),
  close_side: () => toggleSide(false),
  show_cut: () => flow.showCut(true),
  close_cut: () => flow.hideCut(),
  tour: () => dialogs.startTour(),
  tour_next: () => tour.next(),
  tour_back: () => tour.back(),
  tour_skip: () => tour.end(),
  tour_decline: () => dialogs.declineTour(),
  daily: leavingPuzzles(() => daily.startDaily()),
  daily_take_over: leavingPuzzles(() => daily.takeOver()),
  give_up: () => {
    const button = $("[data-dialog=menu] [data-action=give_up]");
    // Its second press deals the day's practice: the puzzles leave for it.
    if (button.dataset.confirm && inPuzzles()) puzzles.module?.close();
    return daily.giveUp(button);
  },
  share_copy: () => daily.copyShareLine(),
  review: () => review.reviewInPlay(),
  review_game: () => review.reviewInPlay(),
  review_replay: () => review.reviewReplay(),
  review_deal: () => review.reviewOffered(),
  review_offer_close: () => review.dismissOffer(),
  review_seat: ({ value }) => review.chooseSeat(value),
  review_cancel: () => review.cancel(),
  review_resume: () => review.resume(),
  review_closed: () => review.closed(),
  review_try: ({ value }) => review.tryAgain(value),
  review_pick: ({ value }) => review.pick(value),
  review_best: () => review.showBest(),
  review_back: () => review.backToList(),
  review_line: ({ value }) => review.playItOut(value),
  review_line_next: () => review.stepLine(1),
  review_line_back: () => review.stepLine(-1),
  review_show: ({ value }) => {
    const target = review.replayTarget(value);
    if (target) replay.openReplay(target);
  },
  replay_costly: () => replay.replayGoTo(review.nextCostly(app.replay?.position ?? { tricks: 0 }, app.hello, app.review)),
  master_replay: () => {
    const record = rerun.masterRecord();
    if (record) replay.openReplay({ record });
  },
  challenges: () => challenge.showList(),
  challenge_new: () => {
    const { seed, guests, ...settings } = forms.readNewGameForm();
    return challenge.makeBeforePlaying(flow.newGamePayload(settings, seed));
  },
  challenge_make: () => challenge.makeFromSheet(),
  challenge_rename: () => challenge.rename(),
  challenge_play: leavingPuzzles(() => challenge.play(daily.startDaily)),
  challenge_reply: () => challenge.makeReply(),
  challenge_open: ({ value }) => challenge.openEntry(value),
  challenge_forget: ({ value }) => challenge.forgetEntry(value),
  challenge_copy: ({ value }) => challenge.copyLink(value),
  challenge_share: ({ value }) => challenge.shareLink(value),
  puzzles: () => withPuzzles((p) => p.open({})),
  puzzle_day: () => withPuzzles((p) => p.open({ day: true })),
  puzzle_next: () => withPuzzles((p) => p.next(0)),
  puzzle_easier: () => withPuzzles((p) => p.next(-1)),
  puzzle_harder: () => withPuzzles((p) => p.next(1)),
  puzzle_try: () => withPuzzles((p) => p.tryAgain()),
  puzzle_solution: () => withPuzzles((p) => p.showSolution()),
  puzzle_play_on: () => withPuzzles((p) => p.playOn()),
  puzzle_next_card: () => withPuzzles((p) => p.nextCard()),
  puzzle_back_to: () => withPuzzles((p) => p.backToPuzzle()),
  puzzle_dashboard: () => withPuzzles((p) => p.dashboard()),
  puzzle_close: () => withPuzzles((p) => p.close()),
  puzzle_mine: ({ value }) => withPuzzles((p) => p.open({ mine: value })),
  puzzle_remove: ({ value }) => withPuzzles((p) => p.removeMine(value)),
  review_practise: async ({ value }) => {
    const key = await review.practise(value);
    if (key) withPuzzles((p) => p.open({ mine: key }));
  },
  close_dialog: () => closeAllDialogs(),
  copy_seed: () => copy(String(app.table?.settings.seed ?? "")),
  // A table with friends (web/remote/): the remote panel's buttons, to its client.
  remote_copy: ({ value }) => copy(value),
  remote_start_now: () => table()?.startNow(),
  remote_join: ({ value }) => table()?.join(value),
  pair_start: ({ value }) => table()?.startPair(Number(value)),
  pair_connect: ({ value }) => table()?.acceptAnswer(Number(value), pastedAnswer(Number(value))),
  presence_give: ({ value }) => table()?.presence.give(Number(value), chosenLevel(Number(value))),
  presence_give_back: ({ value }) => table()?.presence.give(Number(value), null),
  fair_replay: () => table()?.replayFair(),
  turn_save: () => saveTurnForm(),
  reload: () => location.reload(),
};

// The table with friends' client (web/remote/host.js or guest.js), null at a table alone.
const table = () => /** @type {any} */ (engine()).table ?? null;

// Text to the clipboard (a link, the seed): a refusal of the browser's leaves it as it was.
const copy = (text) => navigator.clipboard?.writeText(text).catch(() => {});

// A new language words everything again, from what the page holds: the game goes on.
function reword() {
  forgetDrawn();
  if (app.hello) forms.fillNewGameForm(app.hello);
  page.redrawBoot();
  page.renderNotice(page.currentNotice());
  savedGames.redrawSaveOutcome();
  flow.redrawCut();
  flow.redrawTourOffer();
  tour.redraw();
  requestDraw();
}

prefsStore.apply(app.prefs);
onDraw(draw);
// Another tab took this tab's game over (the kept attempt at the Calypso of the day, taken
// over from there): this tab plays it no more, and comes back with another game, saying why.
saves.onLost((id) => {
  if (id !== app.save?.id) return;
  saves.handOver();
  location.reload();
});
flow.onAfter({
  dealOver: (view) => review.offerDeal(view),
  gameOver: (view, table) => {
    daily.gameOver(view, table);
    rerun.start(view, table);
    challenge.gameOver(view, table);
  },
});
// Loading progress is shown from the worker's first report, while the page's words load;
// the words come before the first game (the loading screen words itself again then).
engine().onProgress(page.renderBoot);
await setLanguage(chooseLanguage());
// The loading screen's words show from now on, in the language chosen (style.css).
document.documentElement.dataset.words = "shown";
page.redrawBoot();
requestDraw(); // what was drawn while the words loaded (a table with friends' lobby), worded
onLanguage(reword);
bindInput((intent) => INTENTS[intent.type]?.(intent));
// A challenge's address opened in a page already open (only what follows its # changed).
addEventListener("hashchange", () => {
  const found = challenge.readAddress(location.href);
  if (found && app.view) challenge.openAddress(found);
});
page.keepFocusOnClose();
fillTurnForm();
main().then((link) => {
  if (link?.puzzle) withPuzzles((p) => p.open({ puzzle: link.puzzle }));
});
