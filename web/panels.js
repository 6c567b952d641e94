// The table's side panels and dialogs beyond play: the deal's log, the memory aids, the last
// trick, the cut, a replay, the rules with their worked examples, statistics and settings.
// Like view.js these only draw what the engine (or the browser's storage) gave them.

import { cardFace, h } from "./view.js";

const SEAT_NAMES = ["North", "East", "South", "West"];
const SUITS = [["S", "♠", "spades"], ["H", "♥", "hearts"], ["D", "♦", "diamonds"], ["C", "♣", "clubs"]];
const SYMBOL = Object.fromEntries(SUITS.map(([s, sym]) => [s, sym]));
const SUIT_WORD = Object.fromEntries(SUITS.map(([s, , word]) => [s, word]));

function redraw(el, key, build) {
  if (!el || el.dataset.key === key) return false;
  el.dataset.key = key;
  el.replaceChildren(...[build()].flat(2).filter((child) => child !== null && child !== undefined));
  return true;
}

/** A small inline card ("Q♣"), coloured by suit, named for screen readers. */
function miniCard(card, extra = {}) {
  return h("span", { class: "pip-card", "data-suit": card.suit, title: card.name,
    "aria-label": card.name, role: "img", ...extra }, `${card.rank_label}${card.symbol}`);
}

function who(seat, you) {
  return seat === you ? "You" : SEAT_NAMES[seat];
}

// -- the log --------------------------------------------------------------------------------

function trickItem(trick, you, { current = false } = {}) {
  return h("li", { class: "log-trick", "data-log-trick": trick.number, "data-winner": trick.winner },
    h("span", { class: "log-number", text: `${trick.number}` }),
    h("span", { class: "log-cards" },
      trick.cards.map((c) => h("span", { class: "log-play", "data-won": c.seat === trick.winner ? "true" : null },
        h("span", { class: "log-seat", text: SEAT_NAMES[c.seat][0], title: SEAT_NAMES[c.seat] }),
        miniCard(c)))),
    current ? null : h("span", { class: "log-why" },
      h("b", { text: `${who(trick.winner, you)} ${trick.winner === you ? "win" : "wins"}. ` }),
      trick.reason));
}

/** The deal's story: the cut (first deal of a match), who dealt, then every trick and why. */
export function drawLog(el, view, { showCut = true } = {}) {
  const log = view.log;
  if (!log) return;
  const key = JSON.stringify([log, view.trick, showCut, view.match.game_number]);
  const changed = redraw(el, key, () => {
    const items = [];
    if (showCut && view.cut && view.match.game_number === 1 && log.deal === 1) {
      items.push(h("li", { class: "log-note", "data-log-cut": true },
        h("span", { class: "log-cut-cards" }, view.cut.cards.map((c) => miniCard(c))),
        h("span", { text: view.cut.text })));
    }
    items.push(h("li", { class: "log-note", text: log.opening }));
    for (const trick of log.tricks) items.push(trickItem(trick, view.you));
    if (view.trick.cards.length) {
      items.push(trickItem({ number: view.trick_number, cards: view.trick.cards, winner: -1 },
        view.you, { current: true }));
    }
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

/** Renounces, unseen cards per suit, and each calypso's missing ranks with live copies. */
export function drawAids(el, view) {
  const aids = view.aids;
  if (!aids) return;
  redraw(el, JSON.stringify(aids), () => [
    h("section", { class: "aid", "data-aid": "voids" },
      h("h3", { text: "Renounces this deal" }),
      h("table", { class: "aid-voids" },
        h("thead", {}, h("tr", {}, h("td"), SUITS.map(([s, sym, word]) =>
          h("th", { scope: "col", "data-suit": s, "aria-label": word, text: sym })))),
        h("tbody", {}, aids.voids.map((v) => h("tr", { "data-void-seat": v.seat },
          h("th", { scope: "row", text: who(v.seat, view.you) }),
          SUITS.map(([s, , word]) => h("td", {
            "data-void": v.suits.includes(s) ? s : null,
            "aria-label": v.suits.includes(s) ? `${v.name} has no ${word}` : `${v.name}: ${word} not shown out`,
            text: v.suits.includes(s) ? "✕" : "·",
          }))))))),
    h("section", { class: "aid", "data-aid": "unseen" },
      h("h3", { text: "Not yet seen" }),
      h("p", { class: "aid-help", text: "Copies of each card still in other hands or the stock." }),
      aids.unseen.map((suit) => h("div", { class: "aid-suit", "data-unseen-suit": suit.suit },
        h("span", { class: "aid-suit-name", "data-suit": suit.suit, title: suit.suit_name },
          suit.symbol, h("small", { text: ` ${suit.total}` })),
        h("span", { class: "aid-ranks" }, suit.ranks.map((r) => h("span", {
          class: "aid-rank", "data-count": r.count,
          "aria-label": `${r.count} ${r.rank_label} of ${suit.suit_name} unseen`,
        }, r.rank_label, h("sub", { text: r.count }))))))),
    h("section", { class: "aid", "data-aid": "needs" },
      h("h3", { text: "Calypso needs" }),
      h("p", { class: "aid-help", text: "Missing ranks; the small number is how many copies are still live." }),
      aids.calypsos.map((c) => h("div", { class: "aid-need", "data-need-seat": c.seat,
        "data-blocked": c.can_complete ? null : "true" },
        h("span", { class: "aid-need-who" }, who(c.seat, view.you), " ",
          h("span", { "data-suit": c.suit, text: c.symbol })),
        c.missing.length
          ? h("span", { class: "aid-ranks" }, c.missing.map((m) => h("span", {
            class: "aid-rank", "data-count": m.live,
            "aria-label": `${m.rank_label}: ${m.live} live ${m.live === 1 ? "copy" : "copies"}`,
          }, m.rank_label, h("sub", { text: m.live }))))
          : h("span", { class: "aid-help", text: "complete" }),
        c.can_complete ? null : h("span", { class: "aid-blocked", text: "cannot be completed" })))),
  ]);
}

// -- tricks drawn as cards ------------------------------------------------------------------

/** A trick in compass layout (N top, W left, E right, S bottom), the winner marked. */
function compassTrick(trick, labels = SEAT_NAMES) {
  return h("div", { class: "compass" }, [0, 3, 1, 2].map((seat) => {
    const card = trick.cards.find((c) => c.seat === seat);
    return h("div", { class: `compass-slot compass-${seat}`, "data-seat": seat,
      "data-winner": trick.winner === seat ? "true" : null },
    h("span", { class: "compass-label", text: labels[seat] }),
    card ? cardFace(card, "div", { class: "card-small", role: "img",
      "aria-label": `${SEAT_NAMES[seat]}: ${card.name}${trick.winner === seat ? ", wins" : ""}` }) : null);
  }));
}

export function drawLastTrick(el, view) {
  const trick = view.last_trick;
  redraw(el, JSON.stringify(trick), () => trick
    ? [h("p", { class: "dialog-lead" }, `Deal ${trick.deal + 1}, trick ${trick.number}: `,
      h("b", { text: `${SEAT_NAMES[trick.leader]} led.` })),
    compassTrick(trick),
    h("p", { class: "reason", "data-last-trick-reason": true, text: trick.reason })]
    : [h("p", { text: "No trick has been completed yet in this game." })]);
}

export function drawCut(el, cut) {
  redraw(el, JSON.stringify(cut), () => [
    h("div", { class: "cut-cards" }, cut.order.map((seat, i) => {
      const card = cut.cards.find((c) => c.seat === seat);
      return h("figure", { class: "cut-card", "data-rank-order": i + 1 },
        cardFace(card, "div", { class: "card-small", role: "img", "aria-label": `${SEAT_NAMES[seat]} cut the ${card.name}` }),
        h("figcaption", { text: SEAT_NAMES[seat] }));
    })),
    h("p", { "data-cut-text": true, text: cut.text }),
  ]);
}

// -- replay ---------------------------------------------------------------------------------

export function drawReplay(el, pos) {
  redraw(el, JSON.stringify([pos.tricks, pos.record?.deck?.length, pos.partnership_scores, pos.seats]), () => [
    h("p", { class: "dialog-lead", "data-replay-at": pos.tricks },
      pos.tricks === 0 ? "Before the first trick" : `After trick ${pos.tricks} of ${pos.total}`,
      ` · Deal ${pos.deal} · Stock ${pos.stock} · `,
      h("b", { text: `You & North ${pos.partnership_scores[0].toLocaleString("en")}, ` +
        `East & West ${pos.partnership_scores[1].toLocaleString("en")}` })),
    h("div", { class: "replay-table" },
      pos.seats.map((s) => h("section", { class: `replay-seat replay-${s.seat}`, "data-replay-seat": s.seat },
        h("h3", {}, `${SEAT_NAMES[s.seat]} `, h("span", { "data-suit": s.suit, text: s.symbol }),
          h("small", { text: ` ${s.score.toLocaleString("en")} pts · ★${s.completed} · pile ${s.pile}` })),
        h("div", { class: "replay-hand", "aria-label": `${SEAT_NAMES[s.seat]}'s hand` },
          s.hand.length ? s.hand.map((c) => miniCard(c)) : h("span", { class: "aid-help", text: "no cards" })),
        h("div", { class: "replay-calypso", "aria-label": `${SEAT_NAMES[s.seat]}'s calypso in progress` },
          s.calypso.map((c) => miniCard(c))))),
      h("div", { class: "replay-trick" }, pos.trick ? [compassTrick(pos.trick),
        h("p", { class: "reason", text: pos.trick.reason })] : null)),
  ]);
}

// -- rules ----------------------------------------------------------------------------------

export function drawExamples(el, examples) {
  redraw(el, JSON.stringify(examples), () => examples.map((ex) => h("figure", { class: "example", "data-example": ex.number },
    h("div", { class: "example-cards" }, ex.cards.map((c) => h("div", {
      class: "example-card", "data-winner": c.seat === ex.winner ? "true" : null },
    h("span", { class: "example-seat" }, SEAT_NAMES[c.seat][0], " ", h("span", { "data-suit": c.trump, text: SYMBOL[c.trump] })),
    cardFace(c, "div", { class: "card-small", role: "img",
      "aria-label": `${SEAT_NAMES[c.seat]} (${SUIT_WORD[c.trump]}): ${c.name}${c.seat === ex.winner ? ", wins" : ""}` })))),
    h("figcaption", {}, h("b", { text: `${ex.number}. ` }), ex.reason))));
}

// -- statistics -----------------------------------------------------------------------------

export function drawStats(el, rows, levels) {
  const label = (key) => (key === "all" ? "All levels" : key === "mixed" ? "Mixed levels"
    : levels?.find((l) => l.key === key)?.label ?? key);
  redraw(el, JSON.stringify(rows), () => (rows.length
    ? h("table", { class: "stats-table" },
      h("thead", {}, h("tr", {}, ["Opponents", "Games", "Won", "Drawn", "Matches won", "Calypsos", "Average", "Best"]
        .map((t) => h("th", { scope: "col", text: t })))),
      h("tbody", {}, rows.map((r) => h("tr", { "data-stats-level": r.level },
        h("th", { scope: "row", text: label(r.level) }),
        h("td", { "data-stat": "games", text: r.games }),
        h("td", { "data-stat": "won", text: r.won }),
        h("td", { "data-stat": "drawn", text: r.drawn }),
        h("td", { "data-stat": "matches", text: `${r.matches_won} of ${r.matches}` }),
        h("td", { "data-stat": "calypsos", text: r.calypsos }),
        h("td", { "data-stat": "average", text: r.average.toLocaleString("en") }),
        h("td", { "data-stat": "best", text: (r.best ?? 0).toLocaleString("en") })))))
    : h("p", { "data-stats-empty": true, text: "No games finished yet. Statistics appear here after your first game." })));
}

// -- settings -------------------------------------------------------------------------------

/** Puts preferences into the settings form (checkboxes for booleans, selects for choices). */
export function setPrefsForm(form, prefs, speed) {
  for (const [key, value] of Object.entries(prefs)) {
    const field = form.elements[key];
    if (!field) continue;
    if (field.type === "checkbox") field.checked = value;
    else field.value = value;
  }
  if (form.elements.speed) form.elements.speed.value = speed;
}

export function readPrefsForm(form, prefs) {
  const next = { ...prefs };
  for (const key of Object.keys(prefs)) {
    const field = form.elements[key];
    if (!field) continue;
    next[key] = field.type === "checkbox" ? field.checked : field.value;
  }
  return { prefs: next, speed: form.elements.speed?.value };
}
