// The table's side panels and dialogs beyond play: the deal's log, the memory aids, the last
// trick, the cut, a replay, the rules' worked examples and statistics. Like the table view
// these only draw what the engine (or the browser's storage) gave them.

import { cardFace, compassTrick, miniCard, rankList, suitList, suitOf } from "./cards.js";
import { h, points, redraw } from "./dom.js";
import { noun, say, t } from "./i18n.js";
import { seatName } from "./names.js";

function seatTag(seat, { label, calledBySeat }) {
  const name = seatName(seat);
  return h("span", { class: "log-seat", text: noun(`seat_letter.${seat}`),
    title: calledBySeat(seat) ? name : t("seat.aria_person", { seat, name: label(seat) }) });
}

/** "You win." or "Ana wins.": who took a trick, as the log says it. */
function winsText(seat, { isYou, labelOf }) {
  return isYou(seat) ? t("log.you_win") : t("log.wins", { who: labelOf(seat) });
}

// -- the log --------------------------------------------------------------------------------

function trickItem(number, trick, names, { current = false } = {}) {
  return h("li", { class: "log-trick", "data-log-trick": number, "data-winner": trick.winner ?? -1 },
    h("span", { class: "log-number", text: `${number}` }),
    h("span", { class: "log-cards" },
      trick.cards.map((code, i) => {
        const seat = names.after(trick.leader, i);
        return h("span", { class: "log-play", "data-won": seat === trick.winner ? "true" : null },
          seatTag(seat, names), miniCard(code));
      })),
    current ? null : h("span", { class: "log-why" }, h("b", { text: winsText(trick.winner, names) }), " ", say(trick.reason)));
}

/**
 * The deal's story: the cut (first deal of a match), who dealt, then every trick and why,
 * and the trick in play. ui: {view, table, names, showCut}.
 */
export function drawLog(el, ui) {
  const { view, table, names } = ui;
  const { labels, sideLabel } = names;
  const log = view.log;
  const cut = ui.showCut && table.cut && view.match.game === 0 && log.deal === 0 ? table.cut : null;
  const current = log.deal === view.deal && view.trick.cards.length ? view.trick : null;
  const key = JSON.stringify([log, current, cut, labels(), [sideLabel(0), sideLabel(1)]]);
  const changed = redraw(el, key, () => {
    const items = [];
    if (cut) {
      items.push(h("li", { class: "log-note", "data-log-cut": true },
        h("span", { class: "log-cut-cards" }, cut.cards.map((code) => miniCard(code))),
        h("span", { text: say(cut.text) })));
    }
    items.push(h("li", { class: "log-note", text: say(log.opening) }));
    log.tricks.forEach((trick, i) => items.push(trickItem(i + 1, trick, names)));
    if (current) items.push(trickItem(current.index + 1, { ...current, winner: null }, names, { current: true }));
    if (log.summary) items.push(h("li", { class: "log-note log-summary" }, summaryTable(log, names)));
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

/** A finished deal's summary (the engine's log.summary): each partnership's tricks,
 * calypsos and points in that deal, as a small table (names: namesOf the match's table). */
export function summaryTable(log, { sideLabel }) {
  const summary = log.summary;
  return h("table", { class: "summary-table", "data-summary-deal": log.deal + 1 },
    h("caption", { text: t("summary.title", { deal: log.deal + 1 }) }),
    h("thead", {}, h("tr", {}, h("td"),
      ["summary.tricks", "summary.calypsos", "summary.points"].map((key) => h("th", { scope: "col", text: t(key) })))),
    h("tbody", {}, [0, 1].map((side) => h("tr", { "data-summary-side": side },
      h("th", { scope: "row", text: sideLabel(side) }),
      h("td", { "data-summary": "tricks", text: points(summary.tricks[side]) }),
      h("td", { "data-summary": "calypsos", text: points(summary.calypsos[side]) }),
      h("td", { "data-summary": "points", text: points(summary.points[side]) })))));
}

// -- memory aids ----------------------------------------------------------------------------

/** Renounces, unseen cards per suit, and each calypso's missing ranks with live copies. With
 * every hand covered there are none: the panel says so and shows nothing of any hand. */
export function drawAids(el, ui) {
  const { view, table } = ui;
  const { label, labels } = ui.names;
  const suits = suitList();
  const aids = view.aids ?? null;
  redraw(el, JSON.stringify([aids, labels()]), () => {
    if (!aids) {
      return h("p", { class: "aid-help", "data-aids-covered": true,
        text: view.viewer === null ? t("aids.covered") : "" });
    }
    const ranks = rankList();
    return [
      h("section", { class: "aid", "data-aid": "voids" },
        h("h3", { text: t("aids.voids") }),
        h("table", { class: "aid-voids" },
          h("thead", {}, h("tr", {}, h("td"), suits.map((s) =>
            h("th", { scope: "col", "data-suit": s.key, "aria-label": s.name, text: s.symbol })))),
          h("tbody", {}, aids.voids.map((shown, seat) => h("tr", { "data-void-seat": seat },
            h("th", { scope: "row", text: label(seat) }),
            suits.map((s) => h("td", {
              "data-void": shown.includes(s.key) ? s.key : null,
              "aria-label": t(shown.includes(s.key) ? "aids.void" : "aids.not_void", { who: label(seat), suit: s.key }),
              text: shown.includes(s.key) ? "×" : "·",
            }))))))),
      h("section", { class: "aid", "data-aid": "unseen" },
        h("h3", { text: t("aids.unseen") }),
        h("p", { class: "aid-help", text: t("aids.unseen_help") }),
        suits.map((s, i) => {
          const counts = aids.unseen[i];
          return h("div", { class: "aid-suit", "data-unseen-suit": s.key },
            h("span", { class: "aid-suit-name", "data-suit": s.key, title: s.name },
              s.symbol, h("small", { text: ` ${points(counts.reduce((a, b) => a + b, 0))}` })),
            h("span", { class: "aid-ranks" }, ranks.map((r, j) => h("span", {
              class: "aid-rank", "data-count": counts[j], role: "img",
              "aria-label": t("aids.unseen_card", { count: counts[j], card: `${r.key}${s.key}` }),
            }, r.label, h("sub", { text: counts[j] })))));
        })),
      h("section", { class: "aid", "data-aid": "needs" },
        h("h3", { text: t("aids.needs") }),
        h("p", { class: "aid-help", text: t("aids.needs_help") }),
        aids.needs.map((need, seat) => {
          const suit = suitOf(table.seats[seat].suit);
          return h("div", { class: "aid-need", "data-need-seat": seat, "data-blocked": need.blocked ? "true" : null },
            h("span", { class: "aid-need-who" }, label(seat), " ",
              h("span", { "data-suit": suit.key, text: suit.symbol })),
            need.missing.length
              ? h("span", { class: "aid-ranks" }, [...need.missing].map((rank, j) => {
                const shown = ranks.find((r) => r.key === rank).label;
                return h("span", {
                  class: "aid-rank", "data-count": need.live[j], role: "img",
                  "aria-label": t("aids.live", { rank, count: need.live[j] }),
                }, shown, h("sub", { text: need.live[j] }));
              }))
              : h("span", { class: "aid-help", text: t("aids.complete") }),
            need.blocked ? h("span", { class: "aid-blocked", text: t("aids.blocked") }) : null);
        })),
    ];
  });
}

// -- tricks drawn as cards ------------------------------------------------------------------

/** The last trick of the deal in play (the log's last), or a line saying there is none;
 * names: namesOf the match's table. */
export function drawLastTrick(el, view, { isYou, labelOf, labels }) {
  const trick = view.log.tricks.at(-1) ?? null;
  const number = view.log.tricks.length;
  redraw(el, JSON.stringify([trick, view.log.deal, labels()]), () => trick
    ? [h("p", { class: "dialog-lead" }, t("last_trick.where", { deal: view.log.deal + 1, trick: number }), " ",
      h("b", { text: isYou(trick.leader) ? t("last_trick.you_led") : t("last_trick.led", { who: labelOf(trick.leader) }) })),
    compassTrick(trick, labels()),
    h("p", { class: "reason", "data-last-trick-reason": true, text: say(trick.reason) })]
    : [h("p", { text: t("last_trick.none") })]);
}

export function drawCut(el, cut) {
  redraw(el, JSON.stringify(cut), () => [
    h("div", { class: "cut-cards" }, cut.order.map((seat, i) => h("figure", { class: "cut-card", "data-rank-order": i + 1 },
      cardFace(cut.cards[seat], "div", { class: "card-small", role: "img",
        "aria-label": t("cut.card", { seat, card: cut.cards[seat] }) }),
      h("figcaption", { text: seatName(seat) })))),
    h("p", { "data-cut-text": true, text: say(cut.text) }),
  ]);
}

// -- replay ---------------------------------------------------------------------------------

/** A replay position (the engine's "replay" reply), every hand face up, named as it says. */
export function drawReplay(el, pos) {
  const names = pos.labels.map(say);
  redraw(el, JSON.stringify(pos), () => [
    h("p", { class: "dialog-lead", "data-replay-at": pos.tricks },
      pos.tricks === 0 ? t("replay.before", { deal: pos.deal + 1, stock: pos.stock })
        : t("replay.after", { count: pos.tricks, total: pos.total, deal: pos.deal + 1, stock: pos.stock }),
      " ", h("b", { text: t("replay.scores", { first: pos.sides[0], ns: pos.scores[0], second: pos.sides[1], ew: pos.scores[1] }) })),
    h("div", { class: "replay-table" },
      pos.seats.map((s, seat) => {
        const suit = suitOf(s.suit);
        const name = pos.called[seat] === "seat" ? seatName(seat) : t("seat.title_person", { seat, name: names[seat] });
        return h("section", { class: `replay-seat replay-${seat}`, "data-replay-seat": seat },
          h("h3", {}, `${name} `, h("span", { "data-suit": suit.key, text: suit.symbol }),
            h("small", { text: ` ${t("replay.tally", { score: s.score, completed: s.completed, pile: s.pile })}` })),
          h("div", { class: "replay-hand", role: "group", "aria-label": t("replay.hand", { name: names[seat] }) },
            s.hand.length ? s.hand.map((code) => miniCard(code)) : h("span", { class: "aid-help", text: t("replay.no_cards") })),
          h("div", { class: "replay-calypso", role: "group", "aria-label": t("replay.calypso", { name: names[seat] }) },
            s.calypso.map((code) => miniCard(code))));
      }),
      h("div", { class: "replay-trick" }, pos.trick ? [compassTrick(pos.trick, names),
        h("p", { class: "reason", text: say(pos.trick.reason) })] : null)),
  ]);
}

// -- rules ----------------------------------------------------------------------------------

export function drawExamples(el, examples) {
  redraw(el, JSON.stringify(examples), () => examples.map((ex, i) => h("figure", { class: "example", "data-example": i + 1 },
    h("div", { class: "example-cards" }, ex.cards.map((code, seat) => {
      const trump = suitOf(ex.trumps[seat]);
      return h("div", { class: "example-card", "data-winner": seat === ex.winner ? "true" : null },
        h("span", { class: "example-seat" }, noun(`seat_letter.${seat}`), " ", h("span", { "data-suit": trump.key, text: trump.symbol })),
        cardFace(code, "div", { class: "card-small", role: "img",
          "aria-label": t(seat === ex.winner ? "example.card_wins" : "example.card", { seat, suit: trump.key, card: code }) }));
    })),
    h("figcaption", {}, h("b", { text: `${points(i + 1)}. ` }), say(ex.reason)))));
}

// -- statistics -----------------------------------------------------------------------------

export function drawStats(el, rows, levels) {
  const levelName = (key) => {
    if (key === "all") return t("stats.all_levels");
    if (key === "mixed") return t("stats.mixed_levels");
    const level = levels?.find((l) => l.key === key);
    return level ? say(level.label) : key;
  };
  const columns = ["stats.opponents", "stats.games", "stats.won", "stats.drawn", "stats.matches_won",
    "stats.calypsos", "stats.average", "stats.best"];
  redraw(el, JSON.stringify(rows), () => (rows.length
    ? h("table", { class: "stats-table" },
      h("thead", {}, h("tr", {}, columns.map((key) => h("th", { scope: "col", text: t(key) })))),
      h("tbody", {}, rows.map((r) => h("tr", { "data-stats-level": r.level },
        h("th", { scope: "row", text: levelName(r.level) }),
        h("td", { "data-stat": "games", text: points(r.games) }),
        h("td", { "data-stat": "won", text: points(r.won) }),
        h("td", { "data-stat": "drawn", text: points(r.drawn) }),
        h("td", { "data-stat": "matches", text: t("stats.of", { count: r.matches_won, total: r.matches }) }),
        h("td", { "data-stat": "calypsos", text: points(r.calypsos) }),
        h("td", { "data-stat": "average", text: points(r.average) }),
        h("td", { "data-stat": "best", text: points(r.best ?? 0) })))))
    : h("p", { "data-stats-empty": true, text: t("stats.none") })));
}
