// The first-game walkthrough: a few steps that each point at one part of the table (the
// hand, the trick, the calypsos, the score) with a short explanation. It is a non-modal
// box: the table stays usable; Escape or Skip ends it, Back and Next move through it, and
// focus returns where it was when it ends.

// Each step's `rules` are sentences of the rules in brief in docs/rules.md, word for word
// (tests/test_docs.py checks it), so the walkthrough never states a rule differently.
const STEPS = [
  { target: "[data-hand]", title: "Your hand",
    text: "These are your 13 cards. The bright ones are the cards you may play now: click one, or pick it with the arrow keys and press Enter.",
    rules: ["Follow the suit led if you can."] },
  { target: "[data-trick]", title: "The trick",
    text: "Each player puts one card here, clockwise.",
    rules: ["If you cannot follow suit, you may play any card; a card of your own suit then trumps in.",
      "A lead of the leader's own suit is a trump lead.",
      "The highest trump-in takes the trick; if nobody trumps in, a trump lead wins; otherwise the highest card of the suit led wins."] },
  { target: "[data-seat][data-viewer='true'] .calypso", title: "Your calypso",
    text: "Your goal is to complete calypsos. These slots show yours in progress; tricks your side wins fill them, and your partner's too.",
    rules: ["A calypso is one card of each of the thirteen ranks, ace to two, of your own suit."] },
  { target: "[data-scores]", title: "The score",
    text: "Your side's points against theirs, counted as the game goes.",
    rules: ["At the end of the game each player scores 500 for a first calypso, 750 for a second and 1,000 for each after that; 20 for each card of an unfinished calypso; and 10 for each card in their side's pile that came from a trick they won.",
      "The partnership with more points wins."] },
  { target: ".side", title: "Help at the table",
    text: "The log explains who won each trick and why; the memory aids count the cards still unseen. Hint (H) suggests a card, Undo (U) takes one back, and the Menu has the rules, statistics and settings.",
    rules: [] },
];

let index = -1;
let returnFocus = null;
let onEnd = null;

const box = () => document.querySelector("[data-tour]");

function clearMark() {
  for (const el of document.querySelectorAll("[data-tour-target]")) delete el.dataset.tourTarget;
}

function place(target) {
  const el = box();
  const rect = target.getBoundingClientRect();
  const width = Math.min(340, window.innerWidth - 16);
  el.style.width = `${width}px`;
  const below = rect.bottom + 12 + el.offsetHeight < window.innerHeight;
  const top = below ? rect.bottom + 12 : Math.max(8, rect.top - el.offsetHeight - 12);
  const left = Math.min(Math.max(8, rect.left + rect.width / 2 - width / 2), window.innerWidth - width - 8);
  el.style.top = `${Math.max(8, top) + window.scrollY}px`;
  el.style.left = `${left + window.scrollX}px`;
}

function show() {
  const step = STEPS[index];
  const el = box();
  clearMark();
  const target = document.querySelector(step.target) ?? document.querySelector("[data-table]");
  target.dataset.tourTarget = "true";
  target.scrollIntoView({ block: "nearest" });
  el.querySelector("[data-tour-step]").textContent = `Step ${index + 1} of ${STEPS.length}`;
  el.querySelector("[data-tour-title]").textContent = step.title;
  el.querySelector("[data-tour-text]").textContent = [step.text, ...step.rules].join(" ");
  el.querySelector("[data-action=tour_back]").disabled = index === 0;
  el.querySelector("[data-action=tour_next]").textContent = index === STEPS.length - 1 ? "Done" : "Next";
  el.hidden = false;
  place(target);
  el.focus();
}

function keys(event) {
  if (event.key === "Escape") {
    event.preventDefault();
    end();
  }
}

/** Starts the walkthrough from its first step; calls done() when it ends either way. */
export function start(done = null) {
  returnFocus = document.activeElement;
  onEnd = done;
  index = 0;
  box().addEventListener("keydown", keys);
  show();
}

export function next() {
  if (index < 0) return;
  if (index >= STEPS.length - 1) end();
  else {
    index += 1;
    show();
  }
}

export function back() {
  if (index > 0) {
    index -= 1;
    show();
  }
}

export function end() {
  if (index < 0) return;
  index = -1;
  clearMark();
  box().hidden = true;
  box().removeEventListener("keydown", keys);
  if (returnFocus?.isConnected) returnFocus.focus({ preventScroll: true });
  onEnd?.();
}
