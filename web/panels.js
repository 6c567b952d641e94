// The table's side panels and dialogs beyond play: the deal's log, the memory aids, the last
// trick, the cut, a replay, the rules' worked examples and statistics. Like the table view
// these only draw what the engine (or the browser's storage) gave them.

import { cardFace, cardOf, compassTrick, miniCard, rankList, suitList, suitOf } from "./cards.js";
import { h, points, redraw } from "./dom.js";
import { label, labels, seatName, wins } from "./names.js";

function seatTag(seat) {
  const name = seatName(seat);
  return h("span", { class: "log-seat", text: name[0], title: label(seat) === name ? name : `${name} (${label(seat)})` });
}

// -- the log --------------------------------------------------------------------------------

function trickItem(number, trick, { current = false } = {}) {
  return h("li", { class: "log-trick", "data-log-trick": number, "data-winner": trick.winner ?? -1 },
    h("span", { class: "log-number", text: `${number}` }),
    h("span", { class: "log-cards" },
      trick.cards.map((code, i) => {
        const seat = (trick.leader + i) % 4;
        return h("span", { class: "log-play", "data-won": seat === trick.winner ? "true" : null },
          seatTag(seat), miniCard(code));
      })),
    current ? null : h("span", { class: "log-why" }, h("b", { text: `${wins(trick.winner)}. ` }), trick.reason));
}

/**
 * The deal's story: the cut (first deal of a match), who dealt, then every trick and why,
 * and the trick in play. ui: {view, table, showCut}.
 */
export function drawLog(el, ui) {
  const { view, table } = ui;
  const log = view.log;
  const cut = ui.showCut && table.cut && view.match.game === 0 && log.deal === 0 ? table.cut : null;
  const current = log.deal === view.deal && view.trick.cards.length ? view.trick : null;
  const key = JSON.stringify([log, current, cut?.text, labels()]);
  const changed = redraw(el, key, () => {
    const items = [];
    if (cut) {
      items.push(h("li", { class: "log-note", "data-log-cut": true },
        h("span", { class: "log-cut-cards" }, cut.cards.map((code) => miniCard(code))),
        h("span", { text: cut.text })));
    }
    items.push(h("li", { class: "log-note", text: log.opening }));
    log.tricks.forEach((trick, i) => items.push(trickItem(i + 1, trick)));
    if (current) items.push(trickItem(current.index + 1, { ...current, winner: null }, { current: true }));
    return h("ol", { class: "log-list" }, items);
  });
  if (changed) scrollToEnd(el);
}

// Scrolls to the newest entry in the next frame: reading scrollHeight right after a redraw
// forces a layout in the middle of drawing the table (and a second one when the frame
// paints), which made every computer move a long main-thread task.
const scrollPending = new WeakSet();
function scrollToEnd(el) {
  if (scrollPending.has(el)) return;
  scrollPending.add(el);
  requestAnimationFrame(() => {
    scrollPending.delete(el);
    el.scrollTop = el.scrollHeight;
  });
}

// -- memory aids ----------------------------------------------------------------------------

/** Renounces, unseen cards per suit, and each calypso's missing ranks with live copies. With
 * every hand covered there are none: the panel says so and shows nothing of any hand. */
export function drawAids(el, ui) {
  const { view, table } = ui;
  const suits = suitList();
  const aids = view.aids ?? null;
  redraw(el, JSON.stringify([aids, labels()]), () => {
    if (!aids) {
      return h("p", { class: "aid-help", "data-aids-covered": true,
        text: view.viewer === null ? "The memory aids show the cards of the person whose hand is shown." : "" });
    }
    const ranks = rankList();
    return [
      h("section", { class: "aid", "data-aid": "voids" },
        h("h3", { text: "Renounces this deal" }),
        h("table", { class: "aid-voids" },
          h("thead", {}, h("tr", {}, h("td"), suits.map((s) =>
            h("th", { scope: "col", "data-suit": s.key, "aria-label": s.name, text: s.symbol })))),
          h("tbody", {}, aids.voids.map((shown, seat) => h("tr", { "data-void-seat": seat },
            h("th", { scope: "row", text: label(seat) }),
            suits.map((s) => h("td", {
              "data-void": shown.includes(s.key) ? s.key : null,
              "aria-label": shown.includes(s.key) ? `${label(seat)}: no ${s.name}` : `${label(seat)}: ${s.name} not shown out`,
              text: shown.includes(s.key) ? "✕" : "·",
            }))))))),
      h("section", { class: "aid", "data-aid": "unseen" },
        h("h3", { text: "Not yet seen" }),
        h("p", { class: "aid-help", text: "Copies of each card still in other hands or the stock." }),
        suits.map((s, i) => {
          const counts = aids.unseen[i];
          return h("div", { class: "aid-suit", "data-unseen-suit": s.key },
            h("span", { class: "aid-suit-name", "data-suit": s.key, title: s.name },
              s.symbol, h("small", { text: ` ${counts.reduce((a, b) => a + b, 0)}` })),
            h("span", { class: "aid-ranks" }, ranks.map((r, j) => h("span", {
              class: "aid-rank", "data-count": counts[j],
              "aria-label": `${counts[j]} ${r.label} of ${s.name} unseen`,
            }, r.label, h("sub", { text: counts[j] })))));
        })),
      h("section", { class: "aid", "data-aid": "needs" },
        h("h3", { text: "Calypso needs" }),
        h("p", { class: "aid-help", text: "Missing ranks; the small number is how many copies are still live." }),
        aids.needs.map((need, seat) => {
          const suit = suitOf(table.seats[seat].suit);
          return h("div", { class: "aid-need", "data-need-seat": seat, "data-blocked": need.blocked ? "true" : null },
            h("span", { class: "aid-need-who" }, label(seat), " ",
              h("span", { "data-suit": suit.key, text: suit.symbol })),
            need.missing.length
              ? h("span", { class: "aid-ranks" }, [...need.missing].map((rank, j) => {
                const shown = ranks.find((r) => r.key === rank).label;
                return h("span", {
                  class: "aid-rank", "data-count": need.live[j],
                  "aria-label": `${shown}: ${need.live[j]} live ${need.live[j] === 1 ? "copy" : "copies"}`,
                }, shown, h("sub", { text: need.live[j] }));
              }))
              : h("span", { class: "aid-help", text: "complete" }),
            need.blocked ? h("span", { class: "aid-blocked", text: "cannot be completed" }) : null);
        })),
    ];
  });
}

// -- tricks drawn as cards ------------------------------------------------------------------

/** The last trick of the deal in play (the log's last), or a line saying there is none. */
export function drawLastTrick(el, view) {
  const trick = view.log.tricks.at(-1) ?? null;
  const number = view.log.tricks.length;
  redraw(el, JSON.stringify([trick, view.log.deal, labels()]), () => trick
    ? [h("p", { class: "dialog-lead" }, `Deal ${view.log.deal + 1}, trick ${number}: `,
      h("b", { text: `${label(trick.leader)} led.` })),
    compassTrick(trick, labels()),
    h("p", { class: "reason", "data-last-trick-reason": true, text: trick.reason })]
    : [h("p", { text: "No trick has been completed yet in this deal." })]);
}

export function drawCut(el, cut) {
  redraw(el, JSON.stringify(cut), () => [
    h("div", { class: "cut-cards" }, cut.order.map((seat, i) => h("figure", { class: "cut-card", "data-rank-order": i + 1 },
      cardFace(cut.cards[seat], "div", { class: "card-small", role: "img",
        "aria-label": `${seatName(seat)} cut the ${cardOf(cut.cards[seat]).name}` }),
      h("figcaption", { text: seatName(seat) })))),
    h("p", { "data-cut-text": true, text: cut.text }),
  ]);
}

// -- replay ---------------------------------------------------------------------------------

/** A replay position (the engine's "replay" reply), every hand face up, named as it says. */
export function drawReplay(el, pos) {
  redraw(el, JSON.stringify(pos), () => [
    h("p", { class: "dialog-lead", "data-replay-at": pos.tricks },
      pos.tricks === 0 ? "Before the first trick" : `After trick ${pos.tricks} of ${pos.total}`,
      ` · Deal ${pos.deal + 1} · Stock ${pos.stock} · `,
      h("b", { text: `${pos.sides[0]} ${points(pos.scores[0])}, ${pos.sides[1]} ${points(pos.scores[1])}` })),
    h("div", { class: "replay-table" },
      pos.seats.map((s, seat) => {
        const suit = suitOf(s.suit);
        const name = pos.labels[seat] === seatName(seat) ? seatName(seat) : `${seatName(seat)} · ${pos.labels[seat]}`;
        return h("section", { class: `replay-seat replay-${seat}`, "data-replay-seat": seat },
          h("h3", {}, `${name} `, h("span", { "data-suit": suit.key, text: suit.symbol }),
            h("small", { text: ` ${points(s.score)} pts · ★${s.completed} · pile ${s.pile}` })),
          h("div", { class: "replay-hand", "aria-label": `${pos.labels[seat]}: hand` },
            s.hand.length ? s.hand.map((code) => miniCard(code)) : h("span", { class: "aid-help", text: "no cards" })),
          h("div", { class: "replay-calypso", "aria-label": `${pos.labels[seat]}: calypso in progress` },
            s.calypso.map((code) => miniCard(code))));
      }),
      h("div", { class: "replay-trick" }, pos.trick ? [compassTrick(pos.trick, pos.labels),
        h("p", { class: "reason", text: pos.trick.reason })] : null)),
  ]);
}

// -- rules ----------------------------------------------------------------------------------

export function drawExamples(el, examples) {
  redraw(el, JSON.stringify(examples), () => examples.map((ex, i) => h("figure", { class: "example", "data-example": i + 1 },
    h("div", { class: "example-cards" }, ex.cards.map((code, seat) => {
      const trump = suitOf(ex.trumps[seat]);
      return h("div", { class: "example-card", "data-winner": seat === ex.winner ? "true" : null },
        h("span", { class: "example-seat" }, seatName(seat)[0], " ", h("span", { "data-suit": trump.key, text: trump.symbol })),
        cardFace(code, "div", { class: "card-small", role: "img",
          "aria-label": `${seatName(seat)} (${trump.name}): ${cardOf(code).name}${seat === ex.winner ? ", wins" : ""}` }));
    })),
    h("figcaption", {}, h("b", { text: `${i + 1}. ` }), ex.reason))));
}

// -- statistics -----------------------------------------------------------------------------

export function drawStats(el, rows, levels) {
  const levelName = (key) => (key === "all" ? "All levels" : key === "mixed" ? "Mixed levels"
    : levels?.find((l) => l.key === key)?.label ?? key);
  redraw(el, JSON.stringify(rows), () => (rows.length
    ? h("table", { class: "stats-table" },
      h("thead", {}, h("tr", {}, ["Opponents", "Games", "Won", "Drawn", "Matches won", "Calypsos", "Average", "Best"]
        .map((t) => h("th", { scope: "col", text: t })))),
      h("tbody", {}, rows.map((r) => h("tr", { "data-stats-level": r.level },
        h("th", { scope: "row", text: levelName(r.level) }),
        h("td", { "data-stat": "games", text: r.games }),
        h("td", { "data-stat": "won", text: r.won }),
        h("td", { "data-stat": "drawn", text: r.drawn }),
        h("td", { "data-stat": "matches", text: `${r.matches_won} of ${r.matches}` }),
        h("td", { "data-stat": "calypsos", text: r.calypsos }),
        h("td", { "data-stat": "average", text: points(r.average) }),
        h("td", { "data-stat": "best", text: points(r.best ?? 0) })))))
    : h("p", { "data-stats-empty": true, text: "No games finished yet. Statistics appear here after your first game with one person at the table." })));
}
