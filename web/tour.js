// The first-game walkthrough: a few steps that each point at one part of the table (the
// hand, the trick, the calypsos, the score) with a short explanation. It is a non-modal
// box: the table stays usable; Escape or Skip ends it, Back and Next move through it, and
// focus returns where it was when it ends.

import { t } from "./i18n.js";
import { app, setTourEnd, setTourStep } from "./state.js";

// Each step's words are in the catalogs: tour.<step>.title and .text, then .rule_1, .rule_2…
// — sentences of the rules in brief of docs/rules.md (docs/rules.ru.md in Russian), word for
// word (tests/test_docs.py checks it), so the walkthrough never states a rule differently.
const STEPS = [
  { key: "hand", target: "[data-hand]", rules: 1 },
  { key: "trick", target: "[data-trick]", rules: 3 },
  { key: "calypso", target: "[data-seat][data-viewer='true'] .calypso", rules: 1 },
  { key: "score", target: "[data-scores]", rules: 2 },
  { key: "help", target: ".side", rules: 0 },
];

// The step shown and how the walkthrough ends are the page's state (app.tourStep, app.tourEnd).

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
  const index = app.tourStep;
  const step = STEPS[index];
  const el = box();
  clearMark();
  const target = document.querySelector(step.target) ?? document.querySelector("[data-table]");
  target.dataset.tourTarget = "true";
  target.scrollIntoView({ block: "nearest" });
  const rules = Array.from({ length: step.rules }, (_, i) => t(`tour.${step.key}.rule_${i + 1}`));
  el.querySelector("[data-tour-step]").textContent = t("tour.step", { step: index + 1, count: STEPS.length });
  el.querySelector("[data-tour-title]").textContent = t(`tour.${step.key}.title`);
  el.querySelector("[data-tour-text]").textContent = [t(`tour.${step.key}.text`), ...rules].join(" ");
  el.querySelector("[data-action=tour_back]").disabled = index === 0;
  el.querySelector("[data-action=tour_next]").textContent = t(index === STEPS.length - 1 ? "tour.done" : "tour.next");
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
  setTourEnd(document.activeElement, done);
  setTourStep(0);
  box().addEventListener("keydown", keys);
  show();
}

export function next() {
  if (app.tourStep < 0) return;
  if (app.tourStep >= STEPS.length - 1) end();
  else {
    setTourStep(app.tourStep + 1);
    show();
  }
}

export function back() {
  if (app.tourStep > 0) {
    setTourStep(app.tourStep - 1);
    show();
  }
}

/** Words the step shown again (the language changed). */
export function redraw() {
  if (app.tourStep >= 0) show();
}

export function end() {
  if (app.tourStep < 0) return;
  setTourStep(-1);
  clearMark();
  box().hidden = true;
  box().removeEventListener("keydown", keys);
  const { focus, then } = app.tourEnd;
  setTourEnd(null, null);
  if (focus?.isConnected) focus.focus({ preventScroll: true });
  then?.();
}
