// The score sheet at the end of a game: each player's and partnership's points with how they
// were counted, and the match so far. The scoring values come from the engine's hello, the
// names from its labels.

import { suitOf } from "./cards.js";
import { $, h, points, redraw } from "./dom.js";
import { alone, label, seatName, sideLabel } from "./names.js";

const ORDINALS = ["first", "second", "third", "fourth"];

/** "500 for the first, 750 for the second, 1,000 for each after" from the engine's values. */
export function calypsoLadder(values) {
  let last = values.length - 1;
  while (last > 0 && values[last - 1] === values[last]) last -= 1;
  const parts = values.slice(0, last).map((v, i) => `${points(v)} for the ${ORDINALS[i]}`);
  parts.push(last < values.length - 1 ? `${points(values[last])} for each after`
    : `${points(values[last])} for the ${ORDINALS[last]}`);
  return parts.join(", ");
}

/** Draws the sheet of a finished game into the score-sheet dialog. */
export function drawScoreSheet(ui) {
  const { view, table, hello } = ui;
  const box = $("[data-score-sheet]");
  const sheet = view.sheet;
  const scoring = hello.scoring;
  redraw(box, JSON.stringify([sheet, view.match, table.sides]), () => {
    if (!sheet) return [];
    // Each cell shows its points, with how they were counted beneath.
    const cell = (col, value, detail) => h("td", { "data-col": col, "data-points": value },
      h("span", { class: "pts", text: points(value) }), h("span", { class: "detail", text: detail }));
    const row = (line, name, extra = {}) => h("tr", extra,
      h("th", { scope: "row" }, name),
      cell("calypsos", line.calypso_points,
        `${line.completed} ${line.completed === 1 ? "calypso" : "calypsos"}`),
      cell("in-progress", line.in_progress_points, `${line.in_progress} × ${scoring.calypso_card}`),
      cell("pile", line.pile_points, `${line.pile} × ${scoring.pile_card}`),
      h("td", { "data-col": "total", "data-total": line.total }, h("b", { text: points(line.total) })));
    const body = [];
    for (const [side, line] of sheet.sides.entries()) {
      for (const seat of [side, side + 2]) {
        const fixed = table.seats[seat];
        const suit = suitOf(fixed.suit);
        const who = fixed.person ? (alone() ? " (you)" : ` (${label(seat)})`) : "";
        const name = h("span", { class: "sheet-player" },
          h("span", { class: "sheet-suit", "data-color": suit.color, text: suit.symbol }),
          ` ${seatName(seat)}`, who ? h("span", { class: "detail", text: who }) : null);
        body.push(row(sheet.players[seat], name, { "data-score-seat": seat }));
      }
      body.push(row(line, sideLabel(side), { class: "sheet-side", "data-score-side": side }));
    }
    const [ns, ew] = view.scores;
    const verdict = sheet.winner === null ? "A draw."
      : `${sideLabel(sheet.winner)} win by ${points(Math.abs(ns - ew))} points.`;
    const match = view.match;
    const parts = [
      h("h2", { id: "sheet-title", text: match.games > 1
        ? `Game ${match.game + 1} of ${match.games}: score sheet` : "Score sheet" }),
      h("p", { class: "verdict", "data-verdict": sheet.winner ?? "draw", text: verdict }),
      h("div", { class: "sheet-scroll" }, h("table", { class: "sheet" },
        h("caption", { class: "sr-only", text: "Scores by player and partnership" }),
        h("thead", {}, h("tr", {},
          h("th", { scope: "col", text: "Player" }),
          h("th", { scope: "col", text: "Calypsos" }),
          h("th", { scope: "col", text: "In progress" }),
          h("th", { scope: "col", text: "Pile" }),
          h("th", { scope: "col", text: "Total" }))),
        h("tbody", {}, body))),
      h("p", { class: "sheet-legend", text: `Calypsos score ${calypsoLadder(scoring.calypsos)}; `
        + `each card of the calypso in progress ${scoring.calypso_card}; each pile card ${scoring.pile_card}.` }),
    ];
    if (match.games > 1) {
      const games = match.finished.map((g) => g.scores);
      if (view.status === "game_over") games.push(view.scores);
      const matchVerdict = !match.is_over ? `After ${games.length} of ${match.games} games.`
        : match.winner === null ? "The match is drawn." : `${sideLabel(match.winner)} win the match!`;
      parts.push(h("h3", { text: "Match" }),
        h("table", { class: "sheet sheet-match", "data-match": true },
          h("thead", {}, h("tr", {}, h("th", { scope: "col", text: "Game" }),
            h("th", { scope: "col", text: sideLabel(0) }), h("th", { scope: "col", text: sideLabel(1) }))),
          h("tbody", {}, games.map(([a, b], i) => h("tr", {},
            h("th", { scope: "row", text: `${i + 1}` }), h("td", { text: points(a) }), h("td", { text: points(b) }))),
          h("tr", { class: "sheet-side", "data-match-total": match.totals.join(",") },
            h("th", { scope: "row", text: "Total" }), h("td", {}, h("b", { text: points(match.totals[0]) })),
            h("td", {}, h("b", { text: points(match.totals[1]) }))))),
        h("p", { class: "verdict", "data-match-verdict": match.is_over ? (match.winner ?? "draw") : "open", text: matchVerdict }));
    }
    return parts;
  });
  const dialog = $("[data-dialog=score_sheet]");
  $("[data-action=next_game]", dialog).hidden = view.status !== "game_over" || view.match.is_over;
  $("[data-action=new_match]", dialog).hidden = !view.match.is_over;
}
