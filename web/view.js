// The view: draws what the engine says and nothing else. render(view, ui) may run any number
// of times with the same arguments and leaves the page the same; it holds no game rules.
// Playable cards are exactly those the engine flagged.

const SEAT_NAMES = ["North", "East", "South", "West"];
const RED = new Set(["H", "D"]);
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
const FACES = { J: "Jack", Q: "Queen", K: "King" };

/** Builds an element: h("div", {class: "x", "data-a": 1}, child, "text", ...). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    if (key === "class") el.className = value;
    else if (key === "text") el.textContent = value;
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined && child !== false) {
      el.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
  }
  return el;
}

const $ = (selector, root = document) => root.querySelector(selector);
const $$ = (selector, root = document) => [...root.querySelectorAll(selector)];

// Replaces an element's children only when what they show changed, so repeated renders
// keep focus, animations and scroll position.
function redraw(el, key, build) {
  if (el.dataset.key === key) return false;
  el.dataset.key = key;
  el.replaceChildren(...[build()].flat(2).filter((child) => child !== null && child !== undefined));
  return true;
}

/** A card face: rank and suit symbol in two corners, pips or a face in the middle. */
export function cardFace(card, tag = "div", attrs = {}) {
  const color = RED.has(card.suit) ? "red" : "black";
  const corner = (where) => h("span", { class: `corner corner-${where}`, "aria-hidden": "true" },
    h("span", { class: "corner-rank", text: card.rank_label }),
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
  } else if (FACES[card.rank]) {
    middle = h("span", { class: "face", "aria-hidden": "true" },
      h("span", { class: "face-rank", text: card.rank }),
      h("span", { class: "face-suit", text: card.symbol }));
  } else {
    middle = h("span", { class: "ace", "aria-hidden": "true", text: card.symbol });
  }
  return h(tag, {
    "data-card": card.card, "data-suit": card.suit, "data-color": color, "data-rank": card.rank,
    ...attrs,
    class: attrs.class ? `card ${attrs.class}` : "card",
  }, corner("top"), middle, corner("bottom"));
}

function cardBack(extra = "") {
  return h("span", { class: `card-back ${extra}`, "aria-hidden": "true" });
}

// -- seats ---------------------------------------------------------------------------------

function seatLabel(seat) {
  if (seat.is_you) return "You";
  if (seat.is_partner) return "Partner";
  return "Opponent";
}

function levelLabel(level, levels) {
  return levels?.find((l) => l.key === level)?.label ?? level;
}

const SUIT_SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SUIT_WORDS = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };

function drawSeat(el, seat, view, levels) {
  el.dataset.turn = seat.to_move ? "true" : "false";
  el.dataset.dealer = seat.is_dealer ? "true" : "false";
  el.dataset.suit = seat.suit;
  const voids = view.aids?.voids?.[seat.seat]?.suits ?? [];
  const key = JSON.stringify([seat, levels?.length, voids]);
  redraw(el, key, () => {
    const who = seat.is_you ? `${seat.name} · you` : `${seat.name}`;
    const role = seat.is_you ? "" : ` · ${seatLabel(seat)}, ${levelLabel(seat.level, levels)}`;
    const color = RED.has(seat.suit) ? "red" : "black";
    const filled = seat.calypso.filter((slot) => slot.filled).length;
    return [
      h("header", { class: "seat-head" },
        h("h2", { class: "seat-name" }, who,
          h("span", { class: "seat-role", text: role })),
        h("span", { class: "suit-badge", "data-color": color,
          title: `${seat.name}'s trump suit: ${seat.suit_name}` },
          h("span", { class: "suit-badge-symbol", "aria-hidden": "true", text: seat.symbol }),
          h("span", { text: seat.suit_name }))),
      h("div", { class: "seat-tags" },
        seat.is_dealer ? h("span", { class: "tag tag-dealer", "data-dealer-marker": true, text: "Dealer" }) : null,
        seat.to_move ? h("span", { class: "tag tag-turn", "data-turn-marker": true,
          text: seat.is_you ? "Your turn" : "To play" }) : null,
        voids.length ? h("span", { class: "tag tag-void", "data-voids": voids.join(""),
          title: `Has shown out of ${voids.map((s) => SUIT_WORDS[s]).join(" and ")} this deal`,
          "aria-label": `Void in ${voids.map((s) => SUIT_WORDS[s]).join(" and ")}` },
        "Void ", voids.map((s) => h("span", { "data-suit": s, text: SUIT_SYMBOLS[s] }))) : null),
      h("div", { class: "seat-stats" },
        h("span", { class: "stat", "data-cards-left": seat.cards_left,
          title: `${seat.cards_left} cards in hand` },
          h("span", { class: "backs", "aria-hidden": "true" },
            Array.from({ length: Math.min(seat.cards_left, 5) }, () => cardBack("tiny"))),
          h("span", { class: "stat-text" }, h("b", { text: seat.cards_left }), " cards")),
        h("span", { class: "stat", "data-completed": seat.completed },
          h("span", { class: "stars", "aria-hidden": "true", text: "★".repeat(seat.completed) || "☆" }),
          h("span", { class: "stat-text" }, h("b", { text: seat.completed }),
            seat.completed === 1 ? " calypso" : " calypsos")),
        h("span", { class: "stat", "data-pile": seat.pile },
          h("span", { class: "stat-text" }, h("b", { text: seat.pile }), " in pile")),
        h("span", { class: "stat stat-score", "data-score": seat.score },
          h("span", { class: "stat-text" }, h("b", { text: seat.score.toLocaleString("en") }), " pts"))),
      h("div", { class: "calypso", "data-color": color, role: "img",
        "aria-label": `Calypso in progress: ${filled} of 13 ${seat.suit_name}` +
          (filled ? ` (${seat.calypso.filter((s) => s.filled).map((s) => s.rank_label).join(" ")})` : "") },
        seat.calypso.map((slot) => h("span", {
          class: "calypso-slot", "data-filled": slot.filled ? "true" : "false", "data-rank": slot.rank,
        }, h("span", { class: "calypso-rank", text: slot.rank_label }),
        slot.filled ? h("span", { class: "calypso-suit", text: seat.symbol }) : null))),
    ];
  });
}

// -- the trick ------------------------------------------------------------------------------

function drawTrick(view, ui) {
  const trick = view.trick.cards.length || !view.last_trick ? view.trick : view.last_trick;
  const done = trick === view.last_trick;
  const area = $("[data-trick]");
  area.dataset.complete = done ? "true" : "false";
  for (const slot of $$("[data-slot]", area)) {
    const seat = Number(slot.dataset.slot);
    const played = trick.cards.find((c) => c.seat === seat);
    const wins = done && trick.winner === seat;
    // The key names this very card of this very trick, so it animates in only once, even
    // as the trick turns from the one in play into the last completed one.
    const deal = done ? trick.deal + 1 : view.deal;
    const number = done ? trick.number : view.trick_number;
    const key = played ? `${view.match.game_number}:${deal}:${number}:${seat}:${played.card}` : "";
    const fresh = redraw(slot, key, () => (played ? cardFace(played) : []));
    slot.dataset.winner = wins ? "true" : "false";
    if (played) {
      slot.firstChild.setAttribute("aria-label",
        `${SEAT_NAMES[seat]}: ${played.name}${wins ? ", wins the trick" : ""}`);
      slot.firstChild.setAttribute("role", "img");
      if (fresh && ui.animate) slot.firstChild.classList.add("enter");
    }
  }
  const caption = $("[data-trick-caption]");
  const last = view.last_trick;
  caption.dataset.state = done ? "complete" : "previous";
  // The reason always starts with the winner's name ("West over-trumps with the 3♦.").
  caption.textContent = last ? `${done ? "" : "Last trick: "}${last.reason}` : "";
  const stock = $("[data-stock]");
  redraw(stock, String(view.stock), () => [
    h("span", { class: "stock-pile", "aria-hidden": "true" },
      Array.from({ length: Math.min(4, Math.ceil(view.stock / 52)) }, () => cardBack("stacked"))),
    h("span", { class: "stock-text", "data-stock-size": view.stock },
      view.stock ? `Stock ${view.stock}` : "Stock empty"),
  ]);
}

// -- the hand -------------------------------------------------------------------------------

function drawHand(view, ui) {
  const hand = $("[data-hand]");
  const key = JSON.stringify([view.hand, view.status, ui.busy, ui.hint]);
  const hadFocus = hand.contains(document.activeElement);
  const focusedIndex = hadFocus ? $$("[data-card]", hand).indexOf(document.activeElement) : -1;
  const changed = redraw(hand, key, () => view.hand.map((card, i) => {
    const playable = card.playable && !ui.busy;
    const newSuit = i > 0 && view.hand[i - 1].suit !== card.suit;
    return cardFace(card, "button", {
      type: "button",
      class: newSuit ? "suit-break" : null,
      "aria-label": card.name,
      "data-index": i,
      "data-playable": playable ? "true" : null,
      "data-hint": playable && ui.hint === card.card && !view.hand.slice(0, i).some((c) => c.card === card.card) ? "true" : null,
      disabled: !playable,
      tabindex: "-1",
    });
  }));
  hand.dataset.count = String(view.hand.length);
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
  title.textContent = view.status === "your_turn" && !ui.busy
    ? `Your hand — your turn: ${enabled.length} playable ${enabled.length === 1 ? "card" : "cards"}`
    : "Your hand";
  // The card to focus, focused by render() once everything is drawn: focus() lays the page
  // out, and doing it before the rest of the table changes means laying it out twice.
  return current && (hadFocus || ui.focusHand) && document.activeElement !== current &&
    !document.querySelector("dialog[open]") ? current : null;
}

// -- header and status ---------------------------------------------------------------------

function drawBar(view, hello) {
  const info = $("[data-info]");
  const game = view.match.games > 1 ? ` · Game ${view.match.game_number} of ${view.match.games}` : "";
  info.textContent = view.is_over
    ? `Game over${game}`
    : `Deal ${view.deal} of 4 · Trick ${view.trick_number} of 13${game}`;
  info.dataset.dealNumber = view.deal;
  info.dataset.trickNumber = view.trick_number;
  const [ns, ew] = view.partnership_scores;
  const scores = $("[data-scores]");
  redraw(scores, JSON.stringify([view.partnership_scores, view.match]), () => [
    h("span", { class: "score-pill", "data-side": 0, "data-side-score": ns },
      h("span", { class: "score-name", text: "You & North" }), h("b", { text: ns.toLocaleString("en") })),
    h("span", { class: "score-pill", "data-side": 1, "data-side-score": ew },
      h("span", { class: "score-name", text: "East & West" }), h("b", { text: ew.toLocaleString("en") })),
    view.match.games > 1
      ? h("span", { class: "score-match", "data-match-totals": view.match.totals.join(",") },
        `Match ${view.match.totals[0].toLocaleString("en")}–${view.match.totals[1].toLocaleString("en")}`)
      : null,
  ]);
  $("[data-seed-info]").textContent = `Seed ${view.settings.seed}`;
  $("[data-action=hint]").hidden = !hello?.hints || view.is_over;
  $("[data-action=show_scores]").hidden = !view.is_over;
}

function drawActions(view, ui) {
  const undo = $(".bar [data-action=undo]");
  undo.hidden = !ui.undoAllowed || view.is_over;
  undo.disabled = !ui.canUndo || ui.busy;
  const last = $(".bar [data-action=last_trick]");
  last.hidden = false;
  last.disabled = !view.last_trick;
  $(".bar [data-action=hint]").disabled = ui.busy || view.status !== "your_turn";
}

/** Puts focus on the hand's current card (after a panel that had it closes). */
export function focusHand() {
  const card = $("[data-hand] [data-card][tabindex='0']") ?? $("[data-hand] [data-card]:not(:disabled)");
  card?.focus({ preventScroll: true });
}

/** What the live region says now: the last trick's winner, then whose turn it is. */
function statusText(view, ui) {
  if (view.is_over) {
    const sheet = view.score_sheet;
    const [ns, ew] = view.partnership_scores;
    const result = sheet.winner === null ? "The game is a draw"
      : sheet.winner === 0 ? "You and North win" : "East and West win";
    return `Game over. ${result}, ${ns.toLocaleString("en")} to ${ew.toLocaleString("en")}.`;
  }
  const event = view.last_event;
  const parts = [];
  if (event?.trick) parts.push(`${SEAT_NAMES[event.trick.winner]} wins the trick. ${event.trick.reason}`);
  if (view.status === "your_turn" && !ui.busy) parts.push("Your turn: play a card.");
  else parts.push(`${SEAT_NAMES[view.to_move]} to play…`);
  return parts.join(" ");
}

// -- the score sheet -----------------------------------------------------------------------

function points(n) {
  return n.toLocaleString("en");
}

function drawScoreSheet(view) {
  const box = $("[data-score-sheet]");
  const sheet = view.score_sheet;
  redraw(box, JSON.stringify([sheet, view.match]), () => {
    if (!sheet) return [];
    const seatOf = (n) => view.seats[n];
    // Each cell shows its points, with how they were counted beneath.
    const cell = (col, value, detail) => h("td", { "data-col": col, "data-points": value },
      h("span", { class: "pts", text: points(value) }), h("span", { class: "detail", text: detail }));
    const row = (line, label, extra = {}) => h("tr", extra,
      h("th", { scope: "row" }, label),
      cell("calypsos", line.calypso_points,
        `${line.completed} ${line.completed === 1 ? "calypso" : "calypsos"}`),
      cell("in-progress", line.in_progress_points, `${line.in_progress} × 20`),
      cell("pile", line.pile_points, `${line.pile} × 10`),
      h("td", { "data-col": "total", "data-total": line.total }, h("b", { text: points(line.total) })));
    const body = [];
    for (const side of sheet.partnerships) {
      for (const seat of side.seats) {
        const p = sheet.players[seat];
        const s = seatOf(seat);
        const label = h("span", { class: "sheet-player" },
          h("span", { class: "sheet-suit", "data-color": RED.has(s.suit) ? "red" : "black", text: s.symbol }),
          ` ${p.name}`, s.is_you ? h("span", { class: "detail", text: " (you)" }) : null);
        body.push(row(p, label, { "data-score-seat": seat }));
      }
      body.push(row(side, side.side === 0 ? "You & North" : "East & West",
        { class: "sheet-side", "data-score-side": side.side }));
    }
    const [ns, ew] = view.partnership_scores;
    const verdict = sheet.winner === null ? "A draw."
      : sheet.winner === 0 ? `You and North win by ${points(ns - ew)} points.`
        : `East and West win by ${points(ew - ns)} points.`;
    const parts = [
      h("h2", { id: "sheet-title", text: view.match.games > 1
        ? `Game ${view.match.game_number} of ${view.match.games}: score sheet` : "Score sheet" }),
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
      h("p", { class: "sheet-legend", text: "Calypsos score 500 for the first, 750 for the second, "
        + "1,000 for each after; each card of the calypso in progress 20; each pile card 10." }),
    ];
    if (view.match.games > 1) {
      const games = [...view.match.finished.map((g) => g.scores)];
      if (view.is_over) games.push(view.partnership_scores);
      const m = view.match;
      const matchVerdict = !m.is_over ? `After ${games.length} of ${m.games} games.`
        : m.winner === null ? "The match is drawn."
          : m.winner === 0 ? "You and North win the match!" : "East and West win the match.";
      parts.push(h("h3", { text: "Match" }),
        h("table", { class: "sheet sheet-match", "data-match": true },
          h("thead", {}, h("tr", {}, h("th", { scope: "col", text: "Game" }),
            h("th", { scope: "col", text: "You & North" }), h("th", { scope: "col", text: "East & West" }))),
          h("tbody", {}, games.map(([a, b], i) => h("tr", {},
            h("th", { scope: "row", text: `${i + 1}` }), h("td", { text: points(a) }), h("td", { text: points(b) }))),
          h("tr", { class: "sheet-side", "data-match-total": m.totals.join(",") },
            h("th", { scope: "row", text: "Total" }), h("td", {}, h("b", { text: points(m.totals[0]) })),
            h("td", {}, h("b", { text: points(m.totals[1]) }))))),
        h("p", { class: "verdict", "data-match-verdict": m.is_over ? (m.winner ?? "draw") : "open", text: matchVerdict }));
    }
    return parts;
  });
  const dialog = $("[data-dialog=score_sheet]");
  $("[data-action=next_game]", dialog).hidden = !view.is_over || view.match.is_over;
  $("[data-action=new_match]", dialog).hidden = !view.match.is_over;
}

// -- entry points ----------------------------------------------------------------------------

/** Draws the whole table from the engine's view; ui = {busy, animate, focusHand, hello}. */
export function render(view, ui = {}) {
  const table = $("[data-table]");
  table.hidden = false;
  $("[data-boot]").hidden = true;
  table.dataset.state = ui.busy ? "busy" : view.is_over ? "over" : view.status === "your_turn" ? "ready" : "busy";
  table.dataset.plays = view.plays;
  table.dataset.game = view.match.game_number;
  for (const seat of view.seats) drawSeat($(`[data-seat="${seat.seat}"]`), seat, view, ui.hello?.levels);
  drawTrick(view, ui);
  const focus = drawHand(view, ui);
  drawBar(view, ui.hello);
  drawActions(view, ui);
  drawScoreSheet(view);
  const status = $("[data-status]");
  const text = statusText(view, ui);
  if (status.textContent !== text) status.textContent = text;
  focus?.focus({ preventScroll: true });
}

const STAGES = {
  runtime: "Loading the Python runtime…",
  micropip: "Loading the package installer…",
  engine: "Installing the game engine…",
  ready: "Dealing the cards…",
};
const ORDER = ["runtime", "micropip", "engine", "ready"];

/** Shows loading progress: a bar, the stage in words, and which steps are done. */
export function renderBoot({ stage, fraction }) {
  $("[data-boot-progress]").value = fraction;
  $("[data-engine-status]").textContent = STAGES[stage] ?? stage;
  const at = ORDER.indexOf(stage);
  for (const li of $$("[data-boot-step]")) {
    const i = ORDER.indexOf(li.dataset.bootStep);
    li.dataset.done = i < at ? "true" : i === at ? "now" : "false";
  }
}

/** Shows why the engine could not start; the page never goes blank. */
export function renderBootError(error) {
  $("[data-boot]").hidden = false;
  $("[data-table]").hidden = true;
  const box = $("[data-engine-error]");
  box.textContent = `The game engine could not start (${error.code}).\n${error.message}`;
  box.hidden = false;
  $("[data-boot-failure]").hidden = false;
  $("[data-boot-progress]").hidden = true;
  $("[data-engine-status]").textContent = "Loading failed.";
}

/** Shows a problem that does not stop the game (a refused save, a failed request). */
export function renderNotice(text) {
  const box = $("[data-notice]");
  box.textContent = text ?? "";
  box.hidden = !text;
}

/** Fills the new-game form's choices (levels, rule options) from the engine's hello. */
export function fillNewGameForm(hello) {
  const form = $("[data-new-game-form]");
  for (const select of $$("select[data-levels]", form)) {
    redraw(select, JSON.stringify(hello.levels), () =>
      hello.levels.map((l) => h("option", { value: l.key, text: l.label })));
  }
  redraw($("[data-rule-options]", form), JSON.stringify(hello.options), () =>
    hello.options.map((o) => h("label", { class: "check check-help" },
      h("input", { type: "checkbox", name: `rule_${o.key}`, "data-rule": o.key,
        "data-default": o.default ? "true" : "false" }),
      h("span", {}, h("b", { text: o.label }), h("span", { class: "help", text: o.help })))));
}

/** Puts settings into the new-game form. */
export function setNewGameForm(settings) {
  const form = $("[data-new-game-form]");
  form.elements.level.value = settings.level;
  form.elements.per_seat.checked = Boolean(settings.levels);
  for (const seat of [0, 1, 3]) form.elements[`level_${seat}`].value = settings.levels?.[seat] ?? settings.level;
  for (const box of $$("[data-rule]", form)) {
    box.checked = settings.rules?.[box.dataset.rule] ?? box.dataset.default === "true";
  }
  form.elements.games.value = String(settings.games ?? 1);
  form.elements.suit.value = settings.suit ?? "random";
  form.elements.speed.value = settings.speed ?? "normal";
  form.elements.seed.value = "";
  $("[data-per-seat]", form).hidden = !form.elements.per_seat.checked;
}

/** Reads the new-game form into settings. */
export function readNewGameForm() {
  const form = $("[data-new-game-form]");
  const level = form.elements.level.value;
  const perSeat = form.elements.per_seat.checked;
  const rules = {};
  for (const box of $$("[data-rule]", form)) rules[box.dataset.rule] = box.checked;
  return {
    level,
    levels: perSeat ? [0, 1, 2, 3].map((s) => (s === 2 ? null : form.elements[`level_${s}`].value)) : null,
    rules,
    games: Number(form.elements.games.value),
    suit: form.elements.suit.value,
    speed: form.elements.speed.value,
    seed: form.elements.seed.value.trim(),
  };
}

export function showPerSeat(show) {
  $("[data-per-seat]").hidden = !show;
}

export function openDialog(name) {
  const dialog = $(`[data-dialog=${name}]`);
  if (!dialog.open) dialog.showModal();
}

export function closeDialog(name) {
  const dialog = $(`[data-dialog=${name}]`);
  if (dialog.open) dialog.close();
}

export function setEngineReady(hello) {
  document.documentElement.dataset.engineState = "ready";
  $("[data-engine-version]").textContent = hello.engine;
  for (const button of $$(".bar [data-action=new_game], .bar [data-action=menu]")) button.hidden = false;
}

export function setEngineFailed() {
  document.documentElement.dataset.engineState = "error";
}
