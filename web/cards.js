// Cards as the page draws them. The engine sends cards as their codes ("QH": rank, then
// suit); the ranks and suits, their order, symbols and colours come once, in the engine's
// hello (app.hello.cards: read there, not copied), so nothing here repeats an engine fact;
// their words ("Queen of hearts", «Дама червей», "Q", «Д») come from the catalogs (i18n.js).

import { h } from "./dom.js";
import { cardName, cardShort, rankLabel, suitName, t } from "./i18n.js";
import { ledBy } from "./names.js";
import { app } from "./state.js";

// Pip positions (column 1-3, row 1-9) of the number cards, as on a printed deck.
const PIPS = {
  2: [[2, 1], [2, 9]],
  3: [[2, 1], [2, 5], [2, 9]],
  4: [[1, 1], [3, 1], [1, 9], [3, 9]],
  5: [[1, 1], [3, 1], [2, 5], [1, 9], [3, 9]],
  6: [[1, 1], [3, 1], [1, 5], [3, 5], [1, 9], [3, 9]],
  7: [[1, 1], [3, 1], [2, 3], [1, 5], [3, 5], [1, 9], [3, 9]],
  8: [[1, 1], [3, 1], [2, 3], [1, 5], [3, 5], [2, 7], [1, 9], [3, 9]],
  9: [[1, 1], [3, 1], [1, 4], [3, 4], [2, 5], [1, 6], [3, 6], [1, 9], [3, 9]],
  T: [[1, 1], [3, 1], [2, 3], [1, 4], [3, 4], [1, 6], [3, 6], [2, 7], [1, 9], [3, 9]],
};
const FACES = new Set(["J", "Q", "K"]);

// The engine's hello.cards, looked up by key: {ranks: "Q" -> {key}, suits: "H" -> {key,
// symbol, color}}, made once for each hello (a cache of the state's, not a copy to keep).
const indexes = new WeakMap();
const NONE = { ranks: [], suits: [] }; // before hello
function vocabulary() {
  const cards = app.hello?.cards ?? NONE;
  let found = indexes.get(cards);
  if (!found) {
    found = { ranks: new Map(cards.ranks.map((r) => [r.key, r])), suits: new Map(cards.suits.map((s) => [s.key, s])) };
    indexes.set(cards, found);
  }
  return found;
}

/** The ranks, ace down to two: [{key, label}] (label: "10", "Q"; in Russian «Д»). */
export function rankList() {
  return (app.hello?.cards ?? NONE).ranks.map(({ key }) => ({ key, label: rankLabel(key) }));
}

/** The suits in the engine's order (S, H, D, C): [{key, symbol, name, color}]. */
export function suitList() {
  return (app.hello?.cards ?? NONE).suits.map(({ key }) => suitOf(key));
}

/** A suit's facts and words: {key, symbol, name ("hearts"), color}. */
export function suitOf(key) {
  return { ...vocabulary().suits.get(key), name: suitName(key) };
}

/** A card from its code: {code, rank, label ("10"), suit, symbol, name, color}. */
export function cardOf(code) {
  const { ranks, suits } = vocabulary();
  const rank = ranks.get(code[0]);
  const suit = suits.get(code[1]);
  return {
    code,
    rank: rank.key,
    label: rankLabel(rank.key),
    suit: suit.key,
    symbol: suit.symbol,
    name: cardName(code),
    color: suit.color,
  };
}

/** A card's short form, as people write it: "10♦". */
export function shortName(code) {
  return cardShort(code);
}

/**
 * A card face: rank and suit symbol in two corners, pips or a face in the middle. With
 * ``named: true`` the face carries the card's name as text for assistive technology (a
 * button is then named by its content, not by an aria-label its visible "A♠" contradicts).
 * @param {string} code
 * @param {string} [tag]
 * @param {{named?: boolean, [attribute: string]: any}} [attributes]
 */
export function cardFace(code, tag = "div", { named = false, ...attrs } = {}) {
  const card = cardOf(code);
  const corner = (where) => h("span", { class: `corner corner-${where}`, "aria-hidden": "true" },
    h("span", { class: "corner-rank", text: card.label }),
    h("span", { class: "corner-suit", text: card.symbol }));
  let middle;
  if (PIPS[card.rank]) {
    middle = [
      h("span", { class: "pips", "aria-hidden": "true" },
        PIPS[card.rank].map(([col, row]) => h("span", {
          class: `pip c${col} r${row}${row > 5 ? " flip" : ""}`, text: card.symbol,
        }))),
      // Small cards show one big symbol instead of the pips (see style.css).
      h("span", { class: "mid-symbol", "aria-hidden": "true", text: card.symbol }),
    ];
  } else if (FACES.has(card.rank)) {
    middle = h("span", { class: "face", "aria-hidden": "true" },
      h("span", { class: "face-rank", text: card.label }),
      h("span", { class: "face-suit", text: card.symbol }));
  } else {
    middle = h("span", { class: "ace", "aria-hidden": "true", text: card.symbol });
  }
  return h(tag, {
    "data-card": card.code, "data-suit": card.suit, "data-color": card.color, "data-rank": card.rank,
    ...attrs,
    class: attrs.class ? `card ${attrs.class}` : "card",
  }, corner("top"), middle, corner("bottom"),
  named ? h("span", { class: "sr-only", text: card.name }) : null);
}

/** The back of a card (hands, the stock). */
export function cardBack(extra = "") {
  return h("span", { class: `card-back ${extra}`, "aria-hidden": "true" });
}

/** A small inline card ("Q♣"), coloured by suit, named for screen readers. */
export function miniCard(code, extra = {}) {
  const card = cardOf(code);
  return h("span", { class: "pip-card", "data-suit": card.suit, title: card.name,
    "aria-label": card.name, role: "img", ...extra }, `${card.label}${card.symbol}`);
}

/**
 * A trick in compass layout (N top, W left, E right, S bottom), the winner marked.
 * trick: {leader, cards (codes in playing order), winner}; labels: what to call each seat.
 */
export function compassTrick(trick, labels) {
  const named = (seat, code) => t(trick.winner === seat ? "trick.card_wins" : "trick.card",
    { who: labels[seat], card: code });
  // The card i of the trick was played i seats after its leader (one label a seat).
  const bySeat = new Map(trick.cards.map((code, i) => [(trick.leader + i) % labels.length, code]));
  // In the order played, the leader first (a screen reader reads the trick as it went):
  // style.css places each seat on the compass.
  const played = labels.map((_, i) => (trick.leader + i) % labels.length);
  return h("div", { class: "compass" }, played.map((seat) => {
    const code = bySeat.get(seat);
    const led = trick.leader === seat;
    return h("div", { class: `compass-slot compass-${seat}`, "data-seat": seat,
      "data-winner": trick.winner === seat ? "true" : null, "data-led": led ? "true" : null },
    h("span", { class: "compass-label", text: led ? ledBy(labels[seat]) : labels[seat] }),
    code ? cardFace(code, "div", { class: "card-small", role: "img", "aria-label": named(seat, code) })
      : null);
  }));
}
