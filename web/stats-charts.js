// The statistics' pictures, below the table of totals: your results over time per level, your
// difference from the master in your seat game by game with its running average, and the
// Calypso of the day's streak. Each chart has its numbers in a table beside it (charts.js).

import { barChart, lineChart } from "./charts.js";
import { h, redraw } from "./dom.js";
import { say } from "./i18n.js";
import * as stats from "./stats.js";
import * as W from "./after-words.js";

const SHOWN = 50; // the last games drawn

/** Draws the pictures from the statistics; levels: the engine's hello.levels, for names. */
export function drawProgress(el, levels, today) {
  const all = stats.load();
  const games = stats.history(all).slice(-SHOWN);
  const master = stats.masterSummary(all);
  const streak = stats.streak(today, all);
  const played = stats.dailyEntry(today);
  const open = stats.keptOpen(played);
  const levelName = (key) => { const found = levels?.find((l) => l.key === key); return found ? say(found.label) : W.mixedLevels(key); };
  redraw(el, JSON.stringify([games, master, streak, played, levels?.length]), () => {
    const first = games.length ? stats.history(all).length - games.length + 1 : 1;
    const xs = games.map((_, i) => W.gameName(first + i));
    const parts = [h("h3", { text: W.dailyStatsTitle() }),
      h("p", { "data-streak": streak.current, "data-streak-best": streak.best, text: W.streakLine(streak) }),
      h("p", {}, open ? W.todayOpen() : played ? W.todayPlayed(played.you) : W.todayNotPlayed(), " ",
        played && !open ? null
          : h("button", { type: "button", class: "btn", "data-action": "daily", text: open ? W.playOn() : W.playToday() }))];
    if (!games.length) return parts;
    const levelKeys = [...new Set(games.map((g) => g.level))];
    parts.push(lineChart({
      id: "results",
      title: W.resultsTitle(),
      yLabel: W.pointsAxis(),
      xs,
      series: levelKeys.map((key) => ({ label: levelName(key),
        values: games.map((g) => (g.level === key ? g.you : null)) })),
      table: {
        head: [W.gameColumn(), W.levelColumn(), W.youColumn(), W.themColumn(), W.masterColumn()],
        rows: games.map((g, i) => [xs[i], levelName(g.level), g.you, g.them, g.master]),
      },
    }));
    const compared = games.map((g, i) => ({ x: xs[i], master: g.master })).filter((g) => g.master !== null);
    parts.push(h("h3", { text: W.masterStatsTitle() }),
      h("p", { "data-master-average": master.average ?? "", text: W.masterAverage(master) }));
    if (compared.length) {
      parts.push(barChart({
        id: "master",
        title: W.masterChartTitle(),
        yLabel: W.pointsAxis(),
        xs: compared.map((g) => g.x),
        values: compared.map((g) => g.master),
        table: { head: [W.gameColumn(), W.masterColumn()], rows: compared.map((g) => [g.x, g.master]) },
      }));
    }
    return parts;
  });
}
