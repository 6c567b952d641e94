// Cards as the page draws them. The engine sends cards as their codes ("QH": rank, then
// suit); the names of ranks and suits, their symbols and colours come once, in the engine's
// hello (setVocabulary), so nothing here repeats an engine fact.

import { h } from "./dom.js";

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

let ranks = new Map(); // "Q" -> {key, label, name}
let suits = new Map(); // "H" -> {key, symbol, name, color}
let rankOrder = []; // rank keys, ace to two

/** Takes the cards' vocabulary from the engine's hello (hello.cards). */
export function setVocabulary(vocabulary) {
  ranks = new Map(vocabulary.ranks.map((r) => [r.key, r]));
  suits = new Map(vocabulary.suits.map((s) => [s.key, s]));
  rankOrder = vocabulary.ranks.map((r) => r.key);
}

/** The ranks, ace down to two: [{key, label, name}]. */
export function rankList() {
  return rankOrder.map((key) => ranks.get(key));
}

/** The suits in the engine's order (S, H, D, C): [{key, symbol, name, color}]. */
export function suitList() {
  return [...suits.values()];
}

/** A suit's facts: {key, symbol, name, color}. */
export function suitOf(key) {
  return suits.get(key);
}

/** A card from its code: {code, rank, label ("10"), suit, symbol, name, color}. */
export function cardOf(code) {
  const rank = ranks.get(code[0]);
  const suit = suits.get(code[1]);
  return {
    code,
    rank: rank.key,
    label: rank.label,
    suit: suit.key,
    symbol: suit.symbol,
    name: `${rank.name} of ${suit.name}`,
    color: suit.color,
  };
}

/** A card's short form, as people write it: "10♦". */
export function shortName(code) {
  const card = cardOf(code);
  return `${card.label}${card.symbol}`;
}

/** A card face: rank and suit symbol in two corners, pips or a face in the middle. */
export function cardFace(code, tag = "div", attrs = {}) {
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
      h("span", { class: "face-rank", text: card.rank }),
      h("span", { class: "face-suit", text: card.symbol }));
  } else {
    middle = h("span", { class: "ace", "aria-hidden": "true", text: card.symbol });
  }
  return h(tag, {
    "data-card": card.code, "data-suit": card.suit, "data-color": card.color, "data-rank": card.rank,
    ...attrs,
    class: attrs.class ? `card ${attrs.class}` : "card",
  }, corner("top"), middle, corner("bottom"));
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
  const bySeat = new Map(trick.cards.map((code, i) => [(trick.leader + i) % 4, code]));
  return h("div", { class: "compass" }, [0, 3, 1, 2].map((seat) => {
    const code = bySeat.get(seat);
    return h("div", { class: `compass-slot compass-${seat}`, "data-seat": seat,
      "data-winner": trick.winner === seat ? "true" : null },
    h("span", { class: "compass-label", text: labels[seat] }),
    code ? cardFace(code, "div", { class: "card-small", role: "img",
      "aria-label": `${labels[seat]}: ${cardOf(code).name}${trick.winner === seat ? ", wins" : ""}` }) : null);
  }));
}
