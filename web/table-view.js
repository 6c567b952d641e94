// The table: seats, the trick, the hand (or the hand-off screen while every hand is
// covered), the bar and the status line. render(ui) may run any number of times with the
// same data and leaves the page the same; it holds no game rules: playable cards are exactly
// those the engine listed, and every label is the engine's.

import { cardBack, cardFace, rankList, suitOf } from "./cards.js";
import { $, $$, h, points, redraw } from "./dom.js";
import { list, say, t } from "./i18n.js";
import { summaryTable } from "./panels.js";
import { ledBy, nameableSeed, seatName } from "./names.js";

function levelLabel(level, hello) {
  const found = hello.levels.find((l) => l.key === level);
  return found ? say(found.label) : level;
}

// -- where each seat sits -------------------------------------------------------------------

// Places round the table from the seat at the bottom, in playing order (clockwise): the next
// player sits on the left, the partner at the top.
const PLACES = ["bottom", "left", "top", "right"];

/** The seat drawn at the bottom: the hand shown, else the person the device goes to next,
 * else the first person (else the engine's default person). */
function bottomSeat(view, { peopleSeats }, hello) {
  return view.viewer ?? (view.status === "handoff" ? view.handoff.seat : null) ?? peopleSeats()[0]
    ?? hello.people.default[0];
}

/** Where a seat sits: ``by`` places round from the bottom seat (names.after). */
function placeOf(seat, bottom, { seats, after }) {
  return PLACES[seats().find((by) => after(bottom, by) === seat)];
}

// -- seats ---------------------------------------------------------------------------------

function seatTitle(seat, table, hello, { alone, label, peopleSeats, unnamedPerson }) {
  const fixed = table.seats[seat];
  const name = seatName(seat);
  if (fixed.person && alone()) return { who: t("seat.title_you", { seat }), role: "" };
  // A person who gave no name is called by the seat's name: say it is a person's seat.
  if (fixed.person) {
    return unnamedPerson(seat) ? { who: name, role: t("seat.role_person") }
      : { who: t("seat.title_person", { seat, name: label(seat) }), role: "" };
  }
  const level = levelLabel(fixed.level, hello);
  if (!alone()) return { who: name, role: t("seat.role_level", { name: level }) };
  const person = peopleSeats()[0];
  const role = fixed.side === table.seats[person].side ? "seat.role_partner" : "seat.role_opponent";
  return { who: name, role: t(role, { name: level }) };
}

function drawSeat(el, seat, ui) {
  const { view, table, hello, names } = ui;
  const fixed = table.seats[seat];
  const tally = view.seats[seat];
  const toMove = view.to_move === seat;
  el.dataset.place = placeOf(seat, bottomSeat(view, names, hello), names);
  el.dataset.turn = toMove ? "true" : "false";
  el.dataset.dealer = view.dealer === seat ? "true" : "false";
  el.dataset.suit = fixed.suit;
  el.dataset.person = fixed.person ? "true" : "false";
  el.dataset.viewer = view.viewer === seat ? "true" : "false";
  el.setAttribute("aria-label", fixed.person ? t("seat.aria_person", { seat, name: names.label(seat) }) : seatName(seat));
  const voids = view.aids?.voids[seat] ?? "";
  const yourTurn = toMove && view.status === "your_turn";
  const key = JSON.stringify([fixed, tally, toMove, yourTurn, view.dealer === seat, voids, hello.levels.length]);
  redraw(el, key, () => {
    const { who, role } = seatTitle(seat, table, hello, names);
    const suit = suitOf(fixed.suit);
    const filled = new Set(tally.calypso);
    const slots = rankList().slice().reverse(); // two to ace, as a calypso is built
    const voidNames = list([...voids].map((s) => suitOf(s).name));
    // Each count in bold, then its word in the number's plural form ("5 cards", «5 карт»).
    const stat = (count, shown, word) => h("span", { class: "stat-text" },
      h("b", { text: shown }), " ", h("span", { class: "stat-word", text: t(word, { count }) }));
    const made = slots.filter((r) => filled.has(r.key)).map((r) => r.label).join(" ");
    return [
      h("header", { class: "seat-head" },
        h("h2", { class: "seat-name" }, who, h("span", { class: "seat-role", text: role })),
        h("span", { class: "suit-badge", "data-color": suit.color,
          title: t("seat.trump_suit", { seat, suit: fixed.suit }) },
        h("span", { class: "suit-badge-symbol", "aria-hidden": "true", text: suit.symbol }),
        h("span", { text: suit.name }))),
      h("div", { class: "seat-tags" },
        view.dealer === seat ? h("span", { class: "tag tag-dealer", "data-dealer-marker": true, text: t("seat.dealer") }) : null,
        toMove ? h("span", { class: "tag tag-turn", "data-turn-marker": true,
          text: t(yourTurn ? "seat.your_turn" : "seat.to_play") }) : null,
        voids ? h("span", { class: "tag tag-void", "data-voids": voids,
          title: t("seat.voids_title", { suits: voidNames }),
          role: "img", "aria-label": t("seat.voids_label", { suits: voidNames }) },
        t("seat.void"), " ", [...voids].map((s) => h("span", { "data-suit": s, text: suitOf(s).symbol }))) : null),
      h("div", { class: "seat-stats" },
        h("span", { class: "stat", "data-cards-left": tally.cards, title: t("seat.cards_in_hand", { count: tally.cards }) },
          h("span", { class: "backs", "aria-hidden": "true" },
            Array.from({ length: Math.min(tally.cards, 5) }, () => cardBack("tiny"))),
          stat(tally.cards, points(tally.cards), "seat.cards")),
        h("span", { class: "stat", "data-completed": tally.completed },
          h("span", { class: "stars", "aria-hidden": "true", "data-none": tally.completed ? null : "true" },
            Array.from({ length: Math.max(tally.completed, 1) }, () => h("span", { class: "star" }))),
          stat(tally.completed, points(tally.completed), "seat.calypsos")),
        h("span", { class: "stat", "data-pile": tally.pile }, stat(tally.pile, points(tally.pile), "seat.in_pile")),
        h("span", { class: "stat stat-score", "data-score": tally.score },
          stat(tally.score, points(tally.score), "seat.points"))),
      h("div", { class: "calypso", "data-color": suit.color, role: "img",
        "aria-label": made ? t("seat.calypso_ranks", { count: filled.size, total: slots.length, suit: fixed.suit, ranks: made })
          : t("seat.calypso", { count: filled.size, total: slots.length, suit: fixed.suit }) },
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

/** A trick slot's label: the seat, whether it led, whether it won. */
function slotLabel(seat, { isYou, label, labelOf }, { led, won }) {
  const text = won ? t(isYou(seat) ? "trick.you_win" : "trick.seat_wins", { who: labelOf(seat) }) : label(seat);
  return led ? ledBy(text) : text;
}

function drawTrick(ui) {
  const { view } = ui;
  const trick = shownTrick(view);
  const area = $("[data-trick]");
  const bottom = bottomSeat(view, ui.names, ui.hello);
  area.dataset.complete = trick.done ? "true" : "false";
  const bySeat = new Map(trick.cards.map((code, i) => [ui.names.after(trick.leader, i), code]));
  const started = trick.cards.length > 0;
  for (const slot of $$("[data-slot]", area)) {
    const seat = Number(slot.dataset.slot);
    const code = bySeat.get(seat);
    const won = trick.done && trick.winner === seat;
    const led = started && trick.leader === seat;
    slot.dataset.place = placeOf(seat, bottom, ui.names);
    slot.dataset.winner = won ? "true" : "false";
    slot.dataset.led = led ? "true" : "false";
    slot.dataset.turn = !trick.done && !code && view.to_move === seat ? "true" : "false";
    const holder = $("[data-slot-card]", slot);
    // The key names this very card of this very trick, so it animates in only once, even
    // as the trick turns from the one in play into the last completed one.
    const key = code ? `${view.match.game}:${trick.deal}:${trick.index}:${seat}:${code}` : "";
    const fresh = redraw(holder, key, () => (code ? cardFace(code) : []));
    if (code) {
      holder.firstChild.setAttribute("aria-label", t(won ? "trick.slot_wins" : "trick.slot", { seat, card: code }));
      holder.firstChild.setAttribute("role", "img");
      if (fresh && ui.animate) holder.firstChild.classList.add("enter");
    }
    const text = slotLabel(seat, ui.names, { led, won });
    const tag = $("[data-slot-label]", slot);
    if (tag.textContent !== text) tag.textContent = text;
  }
  const caption = $("[data-trick-caption]");
  const last = view.log.tricks.at(-1);
  // While the first trick of a new deal is played, the log still holds the deal before:
  // its last trick is no "last trick" of this deal, so the caption leaves it to the summary.
  const sameDeal = view.log.deal === view.deal || view.status === "game_over";
  caption.dataset.state = trick.done ? "complete" : "previous";
  // The reason always names the winner ("West over-trumps with the 3♦.").
  caption.textContent = !last || !(trick.done || sameDeal) ? ""
    : trick.done ? say(last.reason) : t("trick.caption_last", { reason: last.reason });
  drawDealSummary($("[data-deal-summary]"), view.log, ui);
  // One card back for each deal the stock still holds (hello: a deal is a card a seat a trick).
  const { deals, seats } = ui.hello;
  const stock = $("[data-stock]");
  redraw(stock, String(view.stock), () => [
    h("span", { class: "stock-pile", "aria-hidden": "true" },
      Array.from({ length: Math.min(deals.count, Math.ceil(view.stock / (seats.length * deals.tricks))) },
        () => cardBack("stacked"))),
    h("span", { class: "stock-text", "data-stock-size": view.stock },
      view.stock ? t("table.stock", { count: view.stock }) : t("table.stock_empty")),
  ]);
}

/** What a finished deal brought each partnership (the engine's log.summary), shown from its
 * last trick until the next deal's first card; while the page waits for the person to go on
 * (ui.dealEnd), with "Next deal". */
function drawDealSummary(el, log, ui) {
  const { sideLabel } = ui.names;
  el.hidden = !log.summary;
  redraw(el, JSON.stringify([log.deal, log.summary, [sideLabel(0), sideLabel(1)], ui.dealEnd]),
    () => (log.summary ? [summaryTable(log, ui.names), ui.dealEnd
      ? h("button", { type: "button", class: "btn btn-primary next-deal", "data-action": "next_deal",
        text: t("table.next_deal") }) : null] : []));
}

// -- the hand, or the hand-off --------------------------------------------------------------

function drawHand(ui) {
  const { view } = ui;
  const { isYou, label } = ui.names;
  const hand = $("[data-hand]");
  const cards = view.hand ?? [];
  const legal = new Set(view.legal ?? []);
  const choosing = canChoose(ui);
  const chosen = choosing ? ui.chosen : null;
  const key = JSON.stringify([cards, view.legal ?? null, ui.busy, ui.hint, choosing, chosen]);
  const hadFocus = hand.contains(document.activeElement);
  const focusedIndex = hadFocus ? $$("[data-card]", hand).indexOf(document.activeElement) : -1;
  const changed = redraw(hand, key, () => cards.map((code, i) => {
    const playable = legal.has(code) && !ui.busy;
    const newSuit = i > 0 && cards[i - 1][1] !== code[1];
    const isChosen = chosen === code && cards.indexOf(code) === i;
    // Named by its text ("Ace of spades", for assistive technology only): the corners'
    // "A♠" is drawn for the eye and hidden from it, so no name contradicts what is seen.
    return cardFace(code, "button", {
      type: "button",
      class: newSuit ? "suit-break" : null,
      named: true,
      "data-index": i,
      "data-playable": playable ? "true" : null,
      "data-hint": playable && ui.hint === code && cards.indexOf(code) === i ? "true" : null,
      // While others play, each card is a toggle: chosen ahead, or not.
      "aria-pressed": choosing ? String(isChosen) : null,
      "data-chosen": isChosen ? "true" : null,
      disabled: !playable && !choosing,
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
  const whose = view.viewer === null ? null
    : isYou(view.viewer) ? t("hand.yours") : t("hand.persons", { name: label(view.viewer) });
  // While covered the hand-off says whose turn it is; before anyone's turn, that all are hidden.
  title.textContent = !whose ? (view.status === "handoff" ? "" : t("hand.covered"))
    : view.status === "your_turn" && !ui.busy ? t("hand.your_turn", { whose, count: enabled.length })
      : chosen ? t("hand.chosen", { whose, card: chosen }) : whose;
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

// What to focus once drawn: "Next deal" while it shows, instead of the hand (handFocus: the
// card drawHand would focus) or where the keyboard was at the table, so that Enter goes on.
function nextDealFocus(ui, handFocus) {
  const button = ui.dealEnd ? $("[data-deal-summary] [data-action=next_deal]") : null;
  if (!button) return handFocus;
  const active = document.activeElement;
  const atTable = handFocus !== null || ui.focusHand || active === document.body
    || Boolean(active?.closest("[data-hand]"));
  return atTable && active !== button && !document.querySelector("dialog[open]") ? button : null;
}

/** Whether a card may be chosen ahead: one person plays the computers, their hand is shown
 * and it is not yet their turn (the computers play, or the person's card is on its way).
 * Among several people the next person's turn covers the hand: nothing is offered. */
function canChoose(ui) {
  const { view } = ui;
  const { alone } = ui.names;
  return alone() && view.viewer !== null && view.status !== "game_over" &&
    (ui.busy || view.status !== "your_turn");
}

// While every hand is covered: whom to pass the device to, and one button to show their hand.
function drawHandoff(ui) {
  const { view } = ui;
  const box = $("[data-handoff]");
  const handoff = view.status === "handoff" ? view.handoff : null;
  box.hidden = !handoff;
  if (!handoff) return null;
  $("[data-handoff-text]", box).textContent = say(handoff.text);
  const button = $("[data-action=reveal]", box);
  button.textContent = say(handoff.button);
  button.disabled = ui.busy;
  return ui.busy ? null : button;
}

// -- the bar and the status line -----------------------------------------------------------

// A seed the footer shows whole (a typed one, a link's), and how much of a longer one it shows.
const SEED_WHOLE = 32;
const SEED_SHOWN = 20;

function drawBar(ui) {
  const { view, table, hello } = ui;
  const { sideOf } = ui.names;
  const info = $("[data-info]");
  const match = view.match;
  const where = { deal: view.deal + 1, deals: hello.deals.count, trick: view.trick.index + 1,
    tricks: hello.deals.tricks, game: match.game + 1, games: match.games };
  const several = match.games > 1;
  info.textContent = view.status === "game_over"
    ? t(several ? "bar.over_game" : "bar.over", where)
    : t(several ? "bar.deal_game" : "bar.deal", where);
  info.dataset.dealNumber = view.deal + 1;
  info.dataset.trickNumber = view.trick.index + 1;
  const [ns, ew] = view.scores;
  redraw($("[data-scores]"), JSON.stringify([view.scores, match, table.sides]), () => [
    h("span", { class: "score-pill", "data-side": 0, "data-side-score": ns },
      h("span", { class: "score-name", text: say(sideOf(0)) }), h("b", { text: points(ns) })),
    h("span", { class: "score-pill", "data-side": 1, "data-side-score": ew },
      h("span", { class: "score-name", text: say(sideOf(1)) }), h("b", { text: points(ew) })),
    match.games > 1
      ? h("span", { class: "score-match", "data-match-totals": match.totals.join(",") },
        t("bar.match", { ns: match.totals[0], ew: match.totals[1] }))
      : null,
  ]);
  // A seed deals every hand: not named while one is covered here, nor to a guest (names.js).
  // A long one (a fair deal's is 69 characters) is shortened, with a button that copies it
  // whole: written out, it made a phone's page scroll sideways.
  const seed = nameableSeed(table.settings, view.match.is_over);
  const shown = seed !== null && seed.length > SEED_WHOLE ? `${seed.slice(0, SEED_SHOWN)}…` : seed;
  $("[data-seed-info]").textContent = seed === null ? "" : t("bar.seed", { seed: shown });
  $("[data-action=copy_seed]").hidden = shown === seed;
  $("[data-action=hint]").hidden = view.status === "game_over" || table.settings.straight;
  $("[data-action=show_scores]").hidden = view.status !== "game_over";
}

// The keys line names only the keys that work: H and U where the bar offers a hint and undo
// (not in the kept attempt at the Calypso of the day, nor undo among several people or with
// undo off), the cards' keys while the game goes on.
function drawKeys(view) {
  const keys = $("[data-foot-keys]");
  const offered = (action) => !$(`.bar [data-action=${action}]`).hidden;
  const keysId = view.status === "game_over" ? "foot.keys_over"
    : !offered("hint") ? "foot.keys_straight" : offered("undo") ? "foot.keys" : "foot.keys_no_undo";
  if (keys.dataset.i18n !== keysId) {
    keys.dataset.i18n = keysId;
    keys.textContent = t(keysId);
  }
}

function drawActions(ui) {
  const { view } = ui;
  const { alone } = ui.names;
  const undo = $(".bar [data-action=undo]");
  undo.hidden = !ui.undoAllowed || view.status === "game_over" || !alone() || ui.table.settings.straight;
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
  const { isYou, label, labelOf, peopleSeats, sideOf, unnamedPerson } = ui.names;
  if (view.status === "game_over") {
    const winner = view.sheet.winner;
    const [ns, ew] = view.scores;
    return winner === null ? t("status.over_draw", { ns, ew })
      : t("status.over_win", { side: sideOf(winner), ns, ew });
  }
  const parts = [];
  const last = view.log.tricks.at(-1);
  if (view.event?.trick_over && last) {
    parts.push(isYou(last.winner) ? t("status.you_win_trick", { reason: last.reason })
      : t("status.wins_trick", { who: labelOf(last.winner), reason: last.reason }));
  }
  if (ui.dealEnd) {
    parts.push(t("status.deal_over", { deal: view.log.deal + 1 }));
  } else if (view.status === "your_turn" && !ui.busy) {
    parts.push(isYou(view.viewer) ? t("status.your_turn") : t("status.persons_turn", { name: label(view.viewer) }));
  } else if (view.status === "handoff") {
    parts.push(say(view.handoff.text));
  } else {
    // A person elsewhere (a guest at a friend's table) is named: whose turn it is, said.
    const person = peopleSeats().includes(view.to_move) && !unnamedPerson(view.to_move);
    parts.push(person ? t("status.person_to_play", { name: label(view.to_move), seat: view.to_move })
      : t("status.to_play", { seat: view.to_move }));
    if (ui.chosen && canChoose(ui)) parts.push(t("status.chosen", { card: ui.chosen }));
  }
  return parts.join(" ");
}

// -- the whole table -------------------------------------------------------------------------

/**
 * Draws the table. ui: {view, table, names (namesOf the table), hello, busy, animate, focusHand,
 * hint, chosen, undoAllowed}.
 */
export function render(ui) {
  const { view } = ui;
  const table = $("[data-table]");
  table.hidden = false;
  $("[data-boot]").hidden = true;
  table.dataset.state = ui.dealEnd ? "next_deal" : ui.busy ? "busy"
    : view.status === "game_over" ? "over"
      : view.status === "your_turn" ? "ready"
        : view.status === "handoff" ? "handoff" : "busy";
  table.dataset.plays = view.plays;
  table.dataset.game = view.match.game + 1;
  table.dataset.covered = view.viewer === null ? "true" : "false";
  for (const seat of ui.names.seats()) drawSeat($(`[data-seat="${seat}"]`), seat, ui);
  drawTrick(ui);
  const focus = nextDealFocus(ui, drawHand(ui));
  drawBar(ui);
  drawActions(ui);
  drawKeys(view);
  const status = $("[data-status]");
  const text = statusText(ui);
  if (status.textContent !== text) status.textContent = text;
  focus?.focus({ preventScroll: true });
}
