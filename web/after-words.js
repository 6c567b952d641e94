// Every sentence and label of the pages after the game — the review, the master in your seat,
// the Calypso of the day and the charts — in one place, each kind made by one function from
// its parameters only (numbers, card names, labels the engine gave), so that each can become
// one translated message with the same parameters. Grade names come from the engine's hello.

import { points } from "./dom.js";

const plural = (n, one, many) => `${points(n)} ${n === 1 ? one : many}`;
const dateName = (date) => new Date(`${date}T00:00:00Z`).toLocaleDateString("en-GB",
  { timeZone: "UTC", weekday: "long", day: "numeric", month: "long", year: "numeric" });

// -- the review -------------------------------------------------------------------------------

export const reviewTitle = (who, you, deal) => {
  const whose = you ? "Your cards" : who === null ? null : `${who}'s cards`;
  if (whose === null) return "Review";
  return deal === null ? `Review: ${whose}` : `Review: ${whose}, deal ${deal + 1}`;
};
export const reviewLead = () => "Each card is judged from what its player knew when it was played: the master's "
  + "search values every card that could have been played, on layouts of the hidden cards that fit what was seen.";
export const chooseWhose = () => "Whose cards shall be reviewed? Each person reviews their own.";
export const reviewWhose = (label) => `${label}'s cards`;
export const noDealOver = () => "No deal is over yet: a deal can be reviewed once its last card is played.";
export const reviewOffer = (deal) => `Deal ${deal + 1} is over. See what each of your cards cost?`;
export const reviewDeal = (deal) => `Review deal ${deal + 1}`;
export const progressLabel = () => "Review progress";
export const reviewStarting = () => "Starting the review…";
export const reviewing = (done, total) => `Reviewing: ${points(done)} of ${plural(total, "card", "cards")}…`;
export const reviewed = (total) => `Reviewed: ${plural(total, "card", "cards")}.`;
export const reviewStopped = (done, total) => `Stopped after ${points(done)} of ${plural(total, "card", "cards")}.`;
export const reviewFailed = (message) => `The review stopped: ${message}`;
export const resume = () => "Go on";
export const pointsLost = (cost) => `${plural(cost, "point", "points")} lost`;
export const overCards = (cards) => `over ${plural(cards, "card", "cards")}`;
export const gradeCount = (count, label) => `${points(count)} × ${label.toLowerCase()}`;
export const lostPerDealTitle = () => "Points lost per deal";
export const costlyTitle = () => "Cards that cost points";
export const where = (deal, trick) => `Deal ${deal + 1}, trick ${trick + 1}:`;
export const markTitle = (card, cost, grade) => `${card} cost ${plural(cost, "point", "points")}${grade ? ` (${grade.toLowerCase()})` : ""}.`;
export const better = (best, reason) => `Better: ${best}${reason ? ` — ${reason}` : ""}.`;
export const noCostly = (finished) => (finished ? "No card cost points: each was as good as the best, within what the search can tell."
  : "No card has cost points so far.");
export const tryAgain = () => "Try again";
export const showInReplay = () => "Show in the replay";
export const costlyCount = (n) => (n ? `${plural(n, "card", "cards")} of this game cost points.` : "");
export const nextCostly = () => "Next costly card ▶";
export const tryWhere = (deal, trick, label, symbol) => `Deal ${deal + 1}, trick ${trick + 1}. ${label} (${symbol}) to play.`;
export const youLead = () => "You lead to this trick.";
export const calypsosLabel = () => "Calypsos in progress";
export const calypsoState = (ranks, completed) => `${completed ? `${"★".repeat(completed)} ` : ""}${ranks || "none yet"}`;
export const whichCard = () => "Which card would you play now?";
export const handLabel = (label) => `${label}'s hand then`;
export const tryAnswer = (card, cost, grade, best, played) => {
  if (played) return `${card} is the card played: it cost ${plural(cost, "point", "points")}${grade ? ` (${grade.toLowerCase()})` : ""}.`;
  if (best) return `${card} is the best card here.`;
  if (!cost) return `${card} costs nothing: as good as the best card, within what the search can tell.`;
  return `${card} would have cost ${plural(cost, "point", "points")}${grade ? ` (${grade.toLowerCase()})` : ""}.`;
};
export const showBest = () => "Show the best card";
export const backToList = () => "Back to the list";

// -- charts' words ------------------------------------------------------------------------------

export const pointsAxis = () => "points";
export const dealName = (deal) => `Deal ${deal + 1}`;
export const dealColumn = () => "Deal";
export const cardsColumn = () => "Cards";
export const lostColumn = () => "Points lost";
export const dealsChartTitle = () => "The scores deal by deal";
export const gameName = (n) => `Game ${points(n)}`;
export const gameColumn = () => "Game";
export const levelColumn = () => "Opponents";
export const youColumn = () => "You";
export const themColumn = () => "They";
export const masterColumn = () => "You less the master";
export const mixedLevels = (key) => (key === "mixed" ? "Mixed levels" : key);
export const resultsTitle = () => "Your results, game by game, per level";

// -- the master in your seat --------------------------------------------------------------------

export const masterLine = (you, master) => `You: ${points(you)} — the master in your seat: ${points(master)} on the same cards`;
export const masterVerdict = (difference) => (difference === 0 ? "Exactly the master's score."
  : difference > 0 ? `${plural(difference, "point", "points")} more than the master.`
    : `${plural(-difference, "point", "points")} fewer than the master.`);
export const masterReplay = () => "Replay the master's game";
export const masterPlaying = () => "The master is playing your seat on the same cards, against the same players…";
export const masterProgressLabel = () => "The master's game";
export const masterProgress = (done, total) => `${points(done)} of ${points(total)} cards played`;
export const masterUnavailable = (problem) => (problem?.code === "unavailable"
  ? "The master in your seat plays only games dealt at this table." : `The master in your seat could not play: ${problem?.message ?? ""}`);
export const masterStatsTitle = () => "The master in your seat";
export const masterAverage = ({ games, average }) => (!games
  ? "After each game you play alone, the master plays your seat on the same cards: your difference appears here."
  : `Over ${plural(games, "game", "games")}, you scored ${average === 0 ? "as much as"
    : average > 0 ? `${plural(average, "point", "points")} more than` : `${plural(-average, "point", "points")} fewer than`} the master in your seat, on average.`);
export const masterChartTitle = () => "Your score less the master's in your seat, game by game";

// -- the Calypso of the day -------------------------------------------------------------------

export const dailyFailed = (date) => (date ? `The Calypso of the day for ${JSON.stringify(String(date).slice(0, 40))} could not be dealt`
  : "The Calypso of the day could not be dealt");
export const dailyTitle = (date) => `The Calypso of the day: ${dateName(date)}`;
export const dailyStart = (date) => `The Calypso of the day, ${dateName(date)}, against three masters: `
  + "your first finished attempt is kept.";
export const dailyAgain = (date, you, them) => `The Calypso of the day, ${dateName(date)}, again: practice `
  + `(your kept result is ${points(you)} to ${points(them)}).`;
export const dailyKept = (onTheDay) => (onTheDay ? "Your first attempt at this deal: it is kept, and counts for your streak."
  : "Your first attempt at this deal: it is kept (a streak counts only deals played on their day).");
export const dailyPractice = (you, them) => `Practice: your kept result for this deal is ${points(you)} to ${points(them)}.`;
export const shareLabel = () => "Share your result (no cards are given away)";
export const shareLine = (date, you, master, link) => `Calypso of the day ${date}: I scored ${points(you)}`
  + `${master === null ? "" : `; the master in my seat scored ${points(master)} on the same cards`}. ${link}`;
export const shareWaits = () => "The master's score joins the line once the master has played your seat.";
export const copy = () => "Copy";
export const copied = () => "The share line is copied.";
export const copyYourself = () => "The share line is selected: copy it with your keyboard or menu.";
export const dailyLinkText = (date) => `Link to the deal of ${date}`;
export const dailyStatsTitle = () => "The Calypso of the day";
export const streakLine = ({ current, best, days }) => (!days ? "No deal of the day played yet."
  : `Streak: ${plural(current, "day", "days")} in a row (best ${plural(best, "day", "days")}); `
    + `${plural(days, "deal", "deals")} played.`);
export const todayPlayed = (you) => `Today's deal is played: ${points(you)}.`;
export const todayNotPlayed = () => "Today's deal is waiting.";
export const playToday = () => "Play it";
