// The table: seats, the trick, the hand (or the hand-off screen while every hand is
// covered), the bar and the status line. render(ui) may run any number of times with the
// same data and leaves the page the same; it holds no game rules: playable cards are exactly
// those the engine listed, and every label is the engine's.

import { cardBack, cardFace, cardOf, rankList, suitOf } from "./cards.js";
import { $, $$, h, points, redraw } from "./dom.js";
import { alone, label, peopleSeats, seatName, sideLabel, wins } from "./names.js";

function levelLabel(level, hello) {
  return hello.levels.find((l) => l.key === level)?.label ?? level;
}

// -- seats ---------------------------------------------------------------------------------

function seatTitle(seat, table, hello) {
  const fixed = table.seats[seat];
  const name = seatName(seat);
  if (fixed.person && alone()) return { who: `${name} · you`, role: "" };
  // A person who gave no name is called by the seat's name: say it is a person's seat.
  if (fixed.person) return fixed.label === name ? { who: name, role: " · Person" } : { who: `${name} · ${fixed.label}`, role: "" };
  if (!alone()) return { who: name, role: ` · ${levelLabel(fixed.level, hello)}` };
  const person = peopleSeats()[0];
  const role = fixed.side === table.seats[person].side ? "Partner" : "Opponent";
  return { who: name, role: ` · ${role}, ${levelLabel(fixed.level, hello)}` };
}

function drawSeat(el, seat, ui) {
  const { view, table, hello } = ui;
  const fixed = table.seats[seat];
  const tally = view.seats[seat];
  const toMove = view.to_move === seat;
  el.dataset.turn = toMove ? "true" : "false";
  el.dataset.dealer = view.dealer === seat ? "true" : "false";
  el.dataset.suit = fixed.suit;
  el.dataset.person = fixed.person ? "true" : "false";
  el.dataset.viewer = view.viewer === seat ? "true" : "false";
  el.setAttribute("aria-label", fixed.person ? `${seatName(seat)} (${fixed.label})` : seatName(seat));
  const voids = view.aids?.voids[seat] ?? "";
  const yourTurn = toMove && view.status === "your_turn";
  const key = JSON.stringify([fixed, tally, toMove, yourTurn, view.dealer === seat, voids, hello.levels.length]);
  redraw(el, key, () => {
    const { who, role } = seatTitle(seat, table, hello);
    const suit = suitOf(fixed.suit);
    const filled = new Set(tally.calypso);
    const slots = rankList().slice().reverse(); // two to ace, as a calypso is built
    const voidNames = [...voids].map((s) => suitOf(s).name);
    return [
      h("header", { class: "seat-head" },
        h("h2", { class: "seat-name" }, who, h("span", { class: "seat-role", text: role })),
        h("span", { class: "suit-badge", "data-color": suit.color,
          title: `${seatName(seat)}'s trump suit: ${suit.name}` },
        h("span", { class: "suit-badge-symbol", "aria-hidden": "true", text: suit.symbol }),
        h("span", { text: suit.name }))),
      h("div", { class: "seat-tags" },
        view.dealer === seat ? h("span", { class: "tag tag-dealer", "data-dealer-marker": true, text: "Dealer" }) : null,
        toMove ? h("span", { class: "tag tag-turn", "data-turn-marker": true,
          text: yourTurn ? "Your turn" : "To play" }) : null,
        voids ? h("span", { class: "tag tag-void", "data-voids": voids,
          title: `Has shown out of ${voidNames.join(" and ")} this deal`,
          "aria-label": `Void in ${voidNames.join(" and ")}` },
        "Void ", [...voids].map((s) => h("span", { "data-suit": s, text: suitOf(s).symbol }))) : null),
      h("div", { class: "seat-stats" },
        h("span", { class: "stat", "data-cards-left": tally.cards, title: `${tally.cards} cards in hand` },
          h("span", { class: "backs", "aria-hidden": "true" },
            Array.from({ length: Math.min(tally.cards, 5) }, () => cardBack("tiny"))),
          h("span", { class: "stat-text" }, h("b", { text: tally.cards }), " cards")),
        h("span", { class: "stat", "data-completed": tally.completed },
          h("span", { class: "stars", "aria-hidden": "true", text: "★".repeat(tally.completed) || "☆" }),
          h("span", { class: "stat-text" }, h("b", { text: tally.completed }),
            tally.completed === 1 ? " calypso" : " calypsos")),
        h("span", { class: "stat", "data-pile": tally.pile },
          h("span", { class: "stat-text" }, h("b", { text: tally.pile }), " in pile")),
        h("span", { class: "stat stat-score", "data-score": tally.score },
          h("span", { class: "stat-text" }, h("b", { text: points(tally.score) }), " pts"))),
      h("div", { class: "calypso", "data-color": suit.color, role: "img",
        "aria-label": `Calypso in progress: ${filled.size} of ${slots.length} ${suit.name}` +
          (filled.size ? ` (${slots.filter((r) => filled.has(r.key)).map((r) => r.label).join(" ")})` : "") },
      slots.map((rank) => h("span", {
        class: "calypso-slot", "data-filled": filled.has(rank.key) ? "true" : "false", "data-rank": rank.key,
      }, h("span", { class: "calypso-rank", text: rank.label }),
      filled.has(rank.key) ? h("span", { class: "calypso-suit", text: suit.symbol }) : null))),
    ];
  });
}

// -- the trick ------------------------------------------------------------------------------

/** The trick to show: the one in play, else the last one completed (until the next card). */
function shownTrick(view) {
  const last = view.log.tricks.at(-1);
  if (view.trick.cards.length || !last) {
    return { ...view.trick, deal: view.deal, winner: null, done: false };
  }
  return { ...last, deal: view.log.deal, index: view.log.tricks.length - 1, done: true };
}

function drawTrick(ui) {
  const { view } = ui;
  const trick = shownTrick(view);
  const area = $("[data-trick]");
  area.dataset.complete = trick.done ? "true" : "false";
  const bySeat = new Map(trick.cards.map((code, i) => [(trick.leader + i) % 4, code]));
  for (const slot of $$("[data-slot]", area)) {
    const seat = Number(slot.dataset.slot);
    const code = bySeat.get(seat);
    const wins_ = trick.done && trick.winner === seat;
    // The key names this very card of this very trick, so it animates in only once, even
    // as the trick turns from the one in play into the last completed one.
    const key = code ? `${view.match.game}:${trick.deal}:${trick.index}:${seat}:${code}` : "";
    const fresh = redraw(slot, key, () => (code ? cardFace(code) : []));
    slot.dataset.winner = wins_ ? "true" : "false";
    if (code) {
      slot.firstChild.setAttribute("aria-label",
        `${seatName(seat)}: ${cardOf(code).name}${wins_ ? ", wins the trick" : ""}`);
      slot.firstChild.setAttribute("role", "img");
      if (fresh && ui.animate) slot.firstChild.classList.add("enter");
    }
  }
  const caption = $("[data-trick-caption]");
  const last = view.log.tricks.at(-1);
  caption.dataset.state = trick.done ? "complete" : "previous";
  // The reason always starts with the winner's name ("West over-trumps with the 3♦.").
  caption.textContent = last ? `${trick.done ? "" : "Last trick: "}${last.reason}` : "";
  const stock = $("[data-stock]");
  redraw(stock, String(view.stock), () => [
    h("span", { class: "stock-pile", "aria-hidden": "true" },
      Array.from({ length: Math.min(4, Math.ceil(view.stock / 52)) }, () => cardBack("stacked"))),
    h("span", { class: "stock-text", "data-stock-size": view.stock },
      view.stock ? `Stock ${view.stock}` : "Stock empty"),
  ]);
}

// -- the hand, or the hand-off --------------------------------------------------------------

function drawHand(ui) {
  const { view } = ui;
  const hand = $("[data-hand]");
  const cards = view.hand ?? [];
  const legal = new Set(view.legal ?? []);
  const key = JSON.stringify([cards, view.legal ?? null, ui.busy, ui.hint]);
  const hadFocus = hand.contains(document.activeElement);
  const focusedIndex = hadFocus ? $$("[data-card]", hand).indexOf(document.activeElement) : -1;
  const changed = redraw(hand, key, () => cards.map((code, i) => {
    const playable = legal.has(code) && !ui.busy;
    const newSuit = i > 0 && cards[i - 1][1] !== code[1];
    return cardFace(code, "button", {
      type: "button",
      class: newSuit ? "suit-break" : null,
      "aria-label": cardOf(code).name,
      "data-index": i,
      "data-playable": playable ? "true" : null,
      "data-hint": playable && ui.hint === code && cards.indexOf(code) === i ? "true" : null,
      disabled: !playable,
      tabindex: "-1",
    });
  }));
  hand.dataset.count = String(cards.length);
  const reveal = drawHandoff(ui);
  const buttons = $$("[data-card]", hand);
  const enabled = buttons.filter((b) => !b.disabled);
  // Roving tabindex: one card is in the tab order; the arrow keys move between the others.
  let current = enabled.find((b) => b.tabIndex === 0);
  if (changed || !current) {
    current = enabled.find((b) => Number(b.dataset.index) >= focusedIndex) ?? enabled.at(-1)
      ?? enabled[0];
    buttons.forEach((b) => { b.tabIndex = b === current ? 0 : -1; });
  }
  const title = $("[data-hand-title]");
  const whose = view.viewer === null ? null : alone() ? "Your hand" : `${label(view.viewer)}'s hand`;
  // While covered the hand-off says whose turn it is; before anyone's turn, that all are hidden.
  title.textContent = !whose ? (view.status === "handoff" ? "" : "Every hand is covered")
    : view.status === "your_turn" && !ui.busy
      ? `${whose} — your turn: ${enabled.length} playable ${enabled.length === 1 ? "card" : "cards"}`
      : whose;
  title.hidden = !title.textContent;
  // The card to focus (or, while covered, the hand-off's button), focused by render() once
  // everything is drawn: focus() lays the page out, and doing it before the rest of the table
  // changes means laying it out twice.
  const wanted = current ? hadFocus || ui.focusHand
    : reveal && (hadFocus || ui.focusHand || document.activeElement === document.body);
  const target = current ?? reveal;
  return wanted && document.activeElement !== target && !document.querySelector("dialog[open]")
    ? target : null;
}

// While every hand is covered: whom to pass the device to, and one button to show their hand.
function drawHandoff(ui) {
  const { view } = ui;
  const box = $("[data-handoff]");
  const handoff = view.status === "handoff" ? view.handoff : null;
  box.hidden = !handoff;
  if (!handoff) return null;
  $("[data-handoff-text]", box).textContent = handoff.text;
  const button = $("[data-action=reveal]", box);
  button.textContent = handoff.button;
  button.disabled = ui.busy;
  return ui.busy ? null : button;
}

// -- the bar and the status line -----------------------------------------------------------

function drawBar(ui) {
  const { view, table, hello } = ui;
  const info = $("[data-info]");
  const match = view.match;
  const game = match.games > 1 ? ` · Game ${match.game + 1} of ${match.games}` : "";
  info.textContent = view.status === "game_over"
    ? `Game over${game}`
    : `Deal ${view.deal + 1} of ${hello.deals.count} · Trick ${view.trick.index + 1} of ${hello.deals.tricks}${game}`;
  info.dataset.dealNumber = view.deal + 1;
  info.dataset.trickNumber = view.trick.index + 1;
  const [ns, ew] = view.scores;
  redraw($("[data-scores]"), JSON.stringify([view.scores, match, table.sides]), () => [
    h("span", { class: "score-pill", "data-side": 0, "data-side-score": ns },
      h("span", { class: "score-name", text: sideLabel(0) }), h("b", { text: points(ns) })),
    h("span", { class: "score-pill", "data-side": 1, "data-side-score": ew },
      h("span", { class: "score-name", text: sideLabel(1) }), h("b", { text: points(ew) })),
    match.games > 1
      ? h("span", { class: "score-match", "data-match-totals": match.totals.join(",") },
        `Match ${points(match.totals[0])}–${points(match.totals[1])}`)
      : null,
  ]);
  $("[data-seed-info]").textContent = `Seed ${table.settings.seed}`;
  $("[data-action=hint]").hidden = !hello.hints || view.status === "game_over";
  $("[data-action=show_scores]").hidden = view.status !== "game_over";
}

function drawActions(ui) {
  const { view } = ui;
  const undo = $(".bar [data-action=undo]");
  undo.hidden = !ui.undoAllowed || view.status === "game_over" || !alone();
  undo.disabled = !ui.undoAllowed || !view.can_undo || ui.busy;
  const last = $(".bar [data-action=last_trick]");
  last.hidden = false;
  last.disabled = !view.log.tricks.length;
  $(".bar [data-action=hint]").disabled = ui.busy || view.status !== "your_turn";
}

/** Says at once, before the next frame draws the table, that the page is busy: a card
 * clicked is on its way (tests and assistive technology read data-state). */
export function showBusy() {
  $("[data-table]").dataset.state = "busy";
}

/** Puts focus on the hand's current card, or on the hand-off's button. */
export function focusHand() {
  const target = $("[data-hand] [data-card][tabindex='0']") ?? $("[data-hand] [data-card]:not(:disabled)")
    ?? $("[data-handoff]:not([hidden]) [data-action=reveal]");
  target?.focus({ preventScroll: true });
}

/** What the live region says now: the last trick's winner, then whose turn it is. */
export function statusText(ui) {
  const { view } = ui;
  if (view.status === "game_over") {
    const winner = view.sheet.winner;
    const [ns, ew] = view.scores;
    const result = winner === null ? "The game is a draw" : `${sideLabel(winner)} win`;
    return `Game over. ${result}, ${points(ns)} to ${points(ew)}.`;
  }
  const parts = [];
  const last = view.log.tricks.at(-1);
  if (view.event?.trick_over && last) parts.push(`${wins(last.winner)} the trick. ${last.reason}`);
  if (view.status === "your_turn" && !ui.busy) {
    parts.push(alone() ? "Your turn: play a card." : `${label(view.viewer)}, your turn: play a card.`);
  } else if (view.status === "handoff") {
    parts.push(view.handoff.text);
  } else {
    parts.push(`${seatName(view.to_move)} to play…`);
  }
  return parts.join(" ");
}

// -- the whole table -------------------------------------------------------------------------

/**
 * Draws the table. ui: {view, table, hello, busy, animate, focusHand, hint, undoAllowed}.
 */
export function render(ui) {
  const { view } = ui;
  const table = $("[data-table]");
  table.hidden = false;
  $("[data-boot]").hidden = true;
  table.dataset.state = ui.busy ? "busy"
    : view.status === "game_over" ? "over"
      : view.status === "your_turn" ? "ready"
        : view.status === "handoff" ? "handoff" : "busy";
  table.dataset.plays = view.plays;
  table.dataset.game = view.match.game + 1;
  table.dataset.covered = view.viewer === null ? "true" : "false";
  for (const seat of [0, 1, 2, 3]) drawSeat($(`[data-seat="${seat}"]`), seat, ui);
  drawTrick(ui);
  const focus = drawHand(ui);
  drawBar(ui);
  drawActions(ui);
  const status = $("[data-status]");
  const text = statusText(ui);
  if (status.textContent !== text) status.textContent = text;
  focus?.focus({ preventScroll: true });
}
