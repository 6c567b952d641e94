// Input: turns clicks and keys into named intents for app.js; it knows no game rules.
// Intents: {type: "play_card", card}, {type: <a [data-action] name>, save: its data-save,
// value: its data-value},
// {type: "deal"}, {type: "level_all"} (the new game's level changed),
// {type: "seats_changed"} (a seat became a person or a computer), {type: "prefs"} (the
// settings form changed), {type: "language", lang} (another language chosen),
// {type: "cancel_choice"} (Escape outside dialogs: a card chosen ahead is taken back),
// {type: "import_file", file}, {type: "close_side"} (Escape while the side drawer is
// open), {type: "review_closed"} (the review dialog was closed), {type: <a form's
// data-action>, value: its field's text} (a form submitted); the keys H, U and L ask for a
// hint, an undo and the last trick.

const HAND = "[data-hand]";

function handButtons() {
  return [...document.querySelectorAll(`${HAND} [data-card]`)].filter((b) => !b.disabled);
}

// Moves the roving tabindex (and focus) to another playable card.
function moveFocus(from, step) {
  const buttons = handButtons();
  if (!buttons.length) return;
  let i = buttons.indexOf(from);
  if (step === "first") i = 0;
  else if (step === "last") i = buttons.length - 1;
  else i = i < 0 ? 0 : (i + step + buttons.length) % buttons.length;
  for (const b of buttons) b.tabIndex = b === buttons[i] ? 0 : -1;
  buttons[i].focus();
}

const KEY_STEPS = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1, Home: "first", End: "last" };
// The keys by the letters they type: H, U and L, and the Cyrillic letters on the same keys of
// a Russian (ЙЦУКЕН) keyboard, Р, Г and Д, which the Russian page names.
const LETTER_KEYS = { h: "hint", u: "undo", l: "last_trick", "р": "hint", "г": "undo", "д": "last_trick" };
// The same keys by their place on the keyboard, for other layouts where they type other
// letters.
const KEY_CODES = { KeyH: "hint", KeyU: "undo", KeyL: "last_trick" };

function typing(target) {
  return target?.closest?.("input, select, textarea, [contenteditable]");
}

/** Calls dispatch(intent) for every user action on the page. */
export function bindInput(dispatch) {
  document.addEventListener("click", (event) => {
    const target = /** @type {Element} */ (event.target);
    const card = target.closest(`${HAND} [data-card]`);
    if (card) {
      if (!card.disabled) dispatch({ type: "play_card", card: card.dataset.card });
      return;
    }
    const action = target.closest("[data-action]");
    if (action && !action.disabled) {
      dispatch({ type: action.dataset.action, save: action.dataset.save, value: action.dataset.value });
    }
  });

  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && document.documentElement.hasAttribute("data-side-open") &&
        !document.querySelector("dialog[open]")) {
      dispatch({ type: "close_side" });
      return;
    }
    // Outside dialogs and the drawer, Escape takes back a card chosen ahead, if any.
    if (event.key === "Escape" && !document.querySelector("dialog[open]")) {
      dispatch({ type: "cancel_choice" });
      return;
    }
    const replay = document.querySelector("[data-dialog=replay][open]");
    if (replay && (event.key === "ArrowLeft" || event.key === "ArrowRight") && !typing(event.target)) {
      event.preventDefault();
      dispatch({ type: event.key === "ArrowLeft" ? "replay_prev" : "replay_next" });
      return;
    }
    const typed = (event.key ?? "").length === 1 ? event.key.toLowerCase() : "";
    const letter = /^[a-z]$/.test(typed) ? LETTER_KEYS[typed] : LETTER_KEYS[typed] ?? KEY_CODES[event.code];
    if (letter && !event.altKey && !event.ctrlKey && !event.metaKey && !typing(event.target) &&
        !document.querySelector("dialog[open]")) {
      const button = document.querySelector(`.bar [data-action=${letter}]`);
      if (button && !button.hidden && !button.disabled) {
        event.preventDefault();
        dispatch({ type: letter });
      }
      return;
    }
    const step = KEY_STEPS[event.key];
    if (step === undefined || event.altKey || event.ctrlKey || event.metaKey) return;
    const inHand = /** @type {Node & Partial<Element>} */ (event.target).closest?.(HAND);
    // From the hand, or from nowhere in particular (the page itself), arrows pick a card.
    if (inHand || event.target === document.body) {
      event.preventDefault();
      moveFocus(inHand ? event.target : null, inHand ? step : "first");
    }
  });

  // A form that is an intent (a guest's name at a table with friends): submitted, by its button
  // or Enter, with the text of its field.
  document.addEventListener("submit", (event) => {
    const intent = /** @type {HTMLFormElement} */ (event.target).closest?.("form[data-action]");
    if (!intent) return;
    event.preventDefault();
    dispatch({ type: intent.dataset.action, value: intent.querySelector("input")?.value ?? "" });
  });

  const form = document.querySelector("[data-new-game-form]");
  form.addEventListener("change", (event) => {
    if (event.target.name === "level") dispatch({ type: "level_all" });
    else if (event.target.matches("[data-seat-select]")) dispatch({ type: "seats_changed" });
  });
  const prefsForm = document.querySelector("[data-prefs-form]");
  prefsForm.addEventListener("change", (event) => {
    if (event.target.closest("[data-turn-form]")) return; // not a preference: saved by its button
    if (event.target.name === "lang") dispatch({ type: "language", lang: event.target.value });
    else dispatch({ type: "prefs" });
  });
  prefsForm.addEventListener("submit", (event) => event.preventDefault());
  const file = document.querySelector("[data-import-file]");
  file.addEventListener("change", () => {
    if (file.files?.[0]) dispatch({ type: "import_file", file: file.files[0] });
    file.value = "";
  });
  document.querySelector("[data-dialog=review]").addEventListener("close", () => dispatch({ type: "review_closed" }));
  const dialog = document.querySelector("[data-dialog=new_game]");
  dialog.addEventListener("close", () => {
    if (dialog.returnValue === "deal") dispatch({ type: "deal" });
    dialog.returnValue = "";
  });
}
