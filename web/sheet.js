// The score sheet at the end of a game: each player's and partnership's points with how they
// were counted, the partnerships' scores deal by deal (a chart with its table), and the match
// so far. The scoring values come from the engine's hello, the names from its labels.

import * as W from "./after-words.js";
import { suitOf } from "./cards.js";
import { lineChart } from "./charts.js";
import { $, h, points, redraw } from "./dom.js";
import { t } from "./i18n.js";
import { seatName } from "./names.js";

/** The legend under the sheet, from the engine's values: the ladder is 1st, 2nd, then the
 * same for each calypso after (tests/test_messages.py checks that the engine's ladder has
 * that shape, so the sentence stays true). */
export function legend(scoring) {
  const [first, second, rest] = scoring.calypsos;
  return t("sheet.legend", { first, second, rest, card_points: scoring.calypso_card, pile: scoring.pile_card });
}

/** How many calypsos a line's points count ("1 calypso", "2 calypsos"); none, nothing: a
 * "0" with "0 calypsos" beneath says the same thing twice. */
function calypsosDetail(completed) {
  return completed ? t("sheet.calypsos_made", { count: completed }) : "";
}

// The partnerships' scores at the end of each deal (the engine's sheet.deals).
function dealsChart(deals, { sideLabel }) {
  const xs = deals.map((_, i) => W.dealName(i));
  return lineChart({
    id: "deals",
    title: W.dealsChartTitle(),
    yLabel: W.pointsAxis(),
    xs,
    series: [0, 1].map((side) => ({ label: sideLabel(side), values: deals.map((d) => d[side]) })),
    table: { head: [W.dealColumn(), sideLabel(0), sideLabel(1)], rows: deals.map((d, i) => [xs[i], d[0], d[1]]) },
  });
}

/** Draws the sheet of a finished game into the score-sheet dialog. */
export function drawScoreSheet(ui) {
  const { view, table, hello } = ui;
  const { isYou, label, sideLabel, sideOf } = ui.names;
  const box = $("[data-score-sheet]");
  const sheet = view.sheet;
  const scoring = hello.scoring;
  redraw(box, JSON.stringify([sheet, view.match, table.sides]), () => {
    if (!sheet) return [];
    // Each cell shows its points, with how they were counted beneath.
    const cell = (col, value, detail) => h("td", { "data-col": col, "data-points": value },
      h("span", { class: "pts", text: points(value) }),
      detail ? h("span", { class: "detail", text: detail }) : null);
    const row = (line, name, extra = {}) => h("tr", extra,
      h("th", { scope: "row" }, name),
      cell("calypsos", line.calypso_points, calypsosDetail(line.completed)),
      cell("in-progress", line.in_progress_points, `${points(line.in_progress)} × ${points(scoring.calypso_card)}`),
      cell("pile", line.pile_points, `${points(line.pile)} × ${points(scoring.pile_card)}`),
      h("td", { "data-col": "total", "data-total": line.total }, h("b", { text: points(line.total) })));
    const body = [];
    for (const [side, line] of sheet.sides.entries()) {
      for (const seat of [side, side + 2]) {
        const fixed = table.seats[seat];
        const suit = suitOf(fixed.suit);
        const who = !fixed.person ? "" : isYou(seat) ? t("sheet.you") : t("sheet.person", { name: label(seat) });
        const name = h("span", { class: "sheet-player" },
          h("span", { class: "sheet-suit", "data-color": suit.color, text: suit.symbol }),
          ` ${seatName(seat)}`, who ? h("span", { class: "detail", text: who }) : null);
        body.push(row(sheet.players[seat], name, { "data-score-seat": seat }));
      }
      body.push(row(line, sideLabel(side), { class: "sheet-side", "data-score-side": side }));
    }
    const [ns, ew] = view.scores;
    const verdict = sheet.winner === null ? t("sheet.draw")
      : t("sheet.win", { side: sideOf(sheet.winner), count: Math.abs(ns - ew) });
    const match = view.match;
    const parts = [
      // The title takes the focus when the dialog opens (autofocus), so the sheet opens at
      // its top, not scrolled down to its first button.
      h("h2", { id: "sheet-title", tabindex: "-1", autofocus: true, text: match.games > 1
        ? t("sheet.title_game", { game: match.game + 1, games: match.games }) : t("sheet.title") }),
      h("p", { class: "verdict", "data-verdict": sheet.winner ?? "draw", text: verdict }),
      h("div", { class: "sheet-scroll" }, h("table", { class: "sheet" },
        h("caption", { class: "sr-only", text: t("sheet.caption") }),
        h("thead", {}, h("tr", {},
          h("th", { scope: "col", text: t("sheet.player") }),
          h("th", { scope: "col", text: t("sheet.col_calypsos") }),
          h("th", { scope: "col", text: t("sheet.col_in_progress") }),
          h("th", { scope: "col", text: t("sheet.col_pile") }),
          h("th", { scope: "col", text: t("sheet.col_total") }))),
        h("tbody", {}, body))),
      h("p", { class: "sheet-legend", text: legend(scoring) }),
      dealsChart(sheet.deals, ui.names),
    ];
    if (match.games > 1) {
      const games = match.finished.map((g) => g.scores);
      if (view.status === "game_over") games.push(view.scores);
      const matchVerdict = !match.is_over ? t("sheet.match_after", { count: games.length, games: match.games })
        : match.winner === null ? t("sheet.match_draw") : t("sheet.match_win", { side: sideOf(match.winner) });
      parts.push(h("h3", { text: t("sheet.match") }),
        h("table", { class: "sheet sheet-match", "data-match": true },
          h("thead", {}, h("tr", {}, h("th", { scope: "col", text: t("sheet.game") }),
            h("th", { scope: "col", text: sideLabel(0) }), h("th", { scope: "col", text: sideLabel(1) }))),
          h("tbody", {}, games.map(([a, b], i) => h("tr", {},
            h("th", { scope: "row", text: points(i + 1) }), h("td", { text: points(a) }), h("td", { text: points(b) }))),
          h("tr", { class: "sheet-side", "data-match-total": match.totals.join(",") },
            h("th", { scope: "row", text: t("sheet.col_total") }), h("td", {}, h("b", { text: points(match.totals[0]) })),
            h("td", {}, h("b", { text: points(match.totals[1]) }))))),
        h("p", { class: "verdict", "data-match-verdict": match.is_over ? (match.winner ?? "draw") : "open", text: matchVerdict }));
    }
    return parts;
  });
  const dialog = $("[data-dialog=score_sheet]");
  $("[data-action=next_game]", dialog).hidden = view.status !== "game_over" || view.match.is_over;
  $("[data-action=new_match]", dialog).hidden = !view.match.is_over;
}
