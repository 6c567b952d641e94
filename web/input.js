// Input: turns clicks and keys into named intents for app.js; it knows no game rules.
// Intents: {type: "play_card", card}, {type: <a [data-action] name>}, {type: "deal"},
// {type: "per_seat", show}.

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

/** Calls dispatch(intent) for every user action on the page. */
export function bindInput(dispatch) {
  document.addEventListener("click", (event) => {
    const card = event.target.closest(`${HAND} [data-card]`);
    if (card) {
      if (!card.disabled) dispatch({ type: "play_card", card: card.dataset.card });
      return;
    }
    const action = event.target.closest("[data-action]");
    if (action && !action.disabled) dispatch({ type: action.dataset.action });
  });

  document.addEventListener("keydown", (event) => {
    const step = KEY_STEPS[event.key];
    if (step === undefined || event.altKey || event.ctrlKey || event.metaKey) return;
    const inHand = event.target.closest?.(HAND);
    // From the hand, or from nowhere in particular (the page itself), arrows pick a card.
    if (inHand || event.target === document.body) {
      event.preventDefault();
      moveFocus(inHand ? event.target : null, inHand ? step : "first");
    }
  });

  const form = document.querySelector("[data-new-game-form]");
  form.elements.per_seat.addEventListener("change", (event) =>
    dispatch({ type: "per_seat", show: event.target.checked }));
  const dialog = document.querySelector("[data-dialog=new_game]");
  dialog.addEventListener("close", () => {
    if (dialog.returnValue === "deal") dispatch({ type: "deal" });
    dialog.returnValue = "";
  });
}
