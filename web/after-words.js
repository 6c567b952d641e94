// Every sentence and label of the pages after the game — the review, the master in your seat,
// the Calypso of the day and the charts — in one place, each kind made by one function from
// its parameters only (numbers, card names, labels the engine gave), as one message of the
// catalogs (calypso_core/messages/, rendered by i18n.js) with the same parameters. Grade
// names come from the engine's hello (messages). Words shown in a notice are returned as
// messages, so a change of language words them again; the rest as text.

import { dateLong, msg, say, t } from "./i18n.js";

// A grade's name inside a sentence: "mistake", «ошибка».
const lower = (grade) => (grade ? say(grade).toLowerCase() : null);
// What people read of a refusal: the engine's message, else the words of its code, else the
// browser's own message as it came.
const reasonOf = (problem) => problem?.text ?? (problem?.code ? msg(`error.${problem.code}`) : problem?.message ?? "");

// -- the review -------------------------------------------------------------------------------

export const reviewTitle = (who, you, deal) => {
  const whose = you || who === null ? t("review.your_cards") : t("review.whose", { who });
  return deal === null ? t("review.title", { whose }) : t("review.title_deal", { whose, deal: deal + 1 });
};
export const reviewLead = () => t("review.lead");
export const chooseWhose = () => t("review.choose_whose");
export const reviewWhose = (label) => t("review.whose", { who: label });
export const noDealOver = () => msg("review.no_deal_over");
export const reviewOffer = (deal) => t("review.offer", { deal: deal + 1 });
export const reviewDeal = (deal) => t("review.deal", { deal: deal + 1 });
export const progressLabel = () => t("review.progress");
export const reviewStarting = () => t("review.starting");
export const reviewing = (done, total) => t("review.reviewing", { done, total });
export const reviewed = (total) => t("review.reviewed", { total });
export const reviewStopped = (done, total) => t("review.stopped", { done, total });
export const reviewFailed = (problem) => t("review.failed", { reason: reasonOf(problem) });
export const resume = () => t("review.resume");
export const pointsLost = (cost) => t("review.points_lost", { count: cost });
export const overCards = (cards) => t("review.over_cards", { count: cards });
export const smallerSearch = (cards) => t("review.smaller_search", { count: cards });
export const gradeCount = (count, label) => t("review.grade_count", { count, grade: lower(label) });
export const lostPerDealTitle = () => t("review.lost_per_deal");
export const costlyTitle = () => t("review.costly_title");
export const where = (deal, trick) => t("review.where", { deal: deal + 1, trick: trick + 1 });
export const markTitle = (card, cost, grade) => (grade
  ? t("review.mark_graded", { card, count: cost, grade: lower(grade) }) : t("review.mark", { card, count: cost }));
export const better = (best, reason) => (reason?.length
  ? t("review.better_because", { card: best, reason }) : t("review.better", { card: best }));
export const noCostly = (finished) => t(finished ? "review.none_costly" : "review.none_costly_yet");
export const tryAgain = () => t("review.try_again");
export const practise = () => t("puzzles.practise_position");
export const showInReplay = () => t("review.show_in_replay");
export const costlyCount = (n) => (n ? t("review.costly_count", { count: n }) : "");
export const nextCostly = () => t("review.next_costly");
export const tryWhere = (deal, trick, label, symbol) => t("review.try_where", { deal: deal + 1, trick: trick + 1, who: label, symbol });
export const youLead = () => t("review.you_lead");
export const calypsosLabel = () => t("review.calypsos");
export const calypsoState = (ranks, completed) =>
  `${completed ? `${completed} ${t("seat.calypsos", { count: completed })}; ` : ""}${ranks || t("review.none_yet")}`;
export const whichCard = () => t("review.which_card");
export const handLabel = (label) => t("review.hand_then", { who: label });
export const tryAnswer = (card, cost, grade, best, played) => {
  if (played) {
    return grade ? t("review.answer_played_graded", { card, count: cost, grade: lower(grade) })
      : t("review.answer_played", { card, count: cost });
  }
  if (best) return t("review.answer_best", { card });
  if (!cost) return t("review.answer_free", { card });
  return grade ? t("review.answer_cost_graded", { card, count: cost, grade: lower(grade) })
    : t("review.answer_cost", { card, count: cost });
};
export const showBest = () => t("review.show_best");
export const line = (said) => say(said);
export const playItOut = () => t("review.play_it_out");
export const lineTitle = (deal, trick) => t("review.line_title", { deal: deal + 1, trick: trick + 1 });
export const lineLead = () => t("review.line_lead");
export const lineAfter = (card, played) => t(played ? "review.line_after_yours" : "review.line_after_best", { card });
export const lineTrick = (trick) => t("review.line_trick", { trick: trick + 1 });
export const lineLoading = () => t("review.line_loading");
export const lineFailed = (problem) => t("review.line_failed", { reason: reasonOf(problem) });
export const lineShown = (shown, total) => t("review.line_shown", { shown, total });
export const lineNext = () => t("review.line_next");
export const linePrevious = () => t("review.line_previous");
export const backToList = () => t("review.back_to_list");

// -- charts' words ------------------------------------------------------------------------------

export const pointsAxis = () => t("charts.points_axis");
export const dealName = (deal) => t("charts.deal", { deal: deal + 1 });
export const dealColumn = () => t("charts.deal_column");
export const cardsColumn = () => t("charts.cards_column");
export const lostColumn = () => t("charts.lost_column");
export const dealsChartTitle = () => t("charts.deals_title");
export const gameName = (n) => t("charts.game", { game: n });
export const gameColumn = () => t("charts.game_column");
export const levelColumn = () => t("charts.level_column");
export const youColumn = () => t("charts.you_column");
export const themColumn = () => t("charts.them_column");
export const masterColumn = () => t("charts.master_column");
export const mixedLevels = (key) => (key === "mixed" ? t("charts.mixed_levels") : key);
export const resultsTitle = () => t("charts.results_title");

// -- the master in your seat --------------------------------------------------------------------

export const masterLine = (you, master) => t("master.line", { you_lead: you, master_lead: master });
export const masterVerdict = (difference) => (difference === 0 ? t("master.same")
  : difference > 0 ? t("master.more", { count: difference }) : t("master.fewer", { count: -difference }));
export const masterReviewRelation = () => t("master.review_relation");
export const masterReplay = () => t("master.replay");
export const masterPlaying = () => t("master.playing");
export const masterEveryone = () => t("master.everyone");
export const masterProgressLabel = () => t("master.progress_label");
export const masterProgress = (done, total) => t("master.progress", { done, total });
// The engine's refusal is its own sentence ("The master in your seat plays only games dealt
// at this table."); a failure of the worker is said as the master's.
export const masterUnavailable = (problem) => (problem?.text
  ? say(problem.text) : t("master.failed", { reason: reasonOf(problem) }));
export const masterStatsTitle = () => t("master.stats_title");
export const masterAverage = ({ games, average }) => (!games ? t("master.average_none")
  : average === 0 ? t("master.average_same", { games })
    : average > 0 ? t("master.average_more", { games, count: average })
      : t("master.average_fewer", { games, count: -average }));
export const masterChartTitle = () => t("master.chart_title");

// -- the Calypso of the day -------------------------------------------------------------------

export const dailyFailed = (date) => (date
  ? msg("daily.failed_date", { date: JSON.stringify(String(date).slice(0, 40)) }) : msg("daily.failed"));
export const dailyTitle = (date) => t("daily.title", { date: dateLong(date) });
export const dailyStart = (date) => msg("daily.start", { date: dateLong(date) });
export const dailyAgain = (date, you, them) => (you === null
  ? msg("daily.again_abandoned", { date: dateLong(date) }) : msg("daily.again", { date: dateLong(date), you, them }));
export const dailyKept = (onTheDay) => t(onTheDay ? "daily.kept_streak" : "daily.kept");
export const dailyPractice = (you, them) => (you === null
  ? t("daily.practice_abandoned") : t("daily.practice", { you, them }));
export const keptGone = (date) => msg("daily.kept_gone", { date: dateLong(date) });
export const keptHere = (date) => msg("daily.kept_here", { date: dateLong(date) });
export const keptResumed = (date) => msg("daily.kept_resumed", { date: dateLong(date) });
export const keptElsewhere = (date) => t("daily.kept_elsewhere", { date: dateLong(date) });
export const keptElsewhereNotice = (date) => msg("daily.kept_elsewhere_short", { date: dateLong(date) });
export const keptTakenOver = (date) => msg("daily.kept_taken_over", { date: dateLong(date) });
export const giveUpLabel = (date, today) => (date === today ? t("daily.give_up_today")
  : t("daily.give_up", { date: dateLong(date) }));
export const giveUpConfirm = () => t("daily.give_up_confirm");
export const shareLabel = () => t("daily.share_label");
/** The share line of a kept result: the date, both sides' scores and the outcome, your
 * side's lead with the master in your seat once it has played, the streak and the link;
 * never a card. */
export const shareLine = ({ date, you, them, master_lead: masterLead, streak, link }) => {
  const outcome = t(you > them ? "daily.won" : you < them ? "daily.lost" : "daily.drawn");
  const params = { date, you, them, outcome, streak, link };
  return masterLead === null ? t("daily.share", params)
    : t("daily.share_master", { ...params, master_lead: masterLead });
};
export const shareWaits = () => t("daily.share_waits");
export const copy = () => t("daily.copy");
export const copied = () => msg("daily.copied");
export const copyYourself = () => msg("daily.copy_yourself");
export const dailyLinkText = (date) => t("daily.link", { date });
export const dailyStatsTitle = () => t("daily.stats_title");
export const streakLine = ({ current, best, days }) => (!days ? t("daily.streak_none")
  : t("daily.streak", { current, best, days }));
export const todayPlayed = (you) => (you === null
  ? t("daily.today_abandoned") : t("daily.today_played", { you }));
export const todayNotPlayed = () => t("daily.today_waiting");
export const todayOpen = () => t("daily.today_open");
export const playOn = () => t("daily.play_on");
export const playToday = () => t("daily.play_today");
