// Speeds of play: how long a computer move, and a completed trick, stay in view. A speed
// is a name or a number of milliseconds a move; it comes from the new-game form, the
// settings, a link (?speed=) or storage, and anything outside the names and 0 to
// MAX_MOVE_MS is refused: an unbounded one (?speed=999999999) once froze the table for days.

export const SPEEDS = Object.freeze({
  instant: { move: 0, trick: 0 },
  fast: { move: 250, trick: 900 },
  normal: { move: 550, trick: 1600 },
  slow: { move: 950, trick: 2600 },
});
export const DEFAULT_SPEED = "normal";
const MAX_MOVE_MS = 2_000;

/** {move, trick} in milliseconds for a speed name or 0 to MAX_MOVE_MS (a number or its
 * digits); null for anything else. */
export function parseSpeed(value) {
  if (typeof value === "string" && Object.hasOwn(SPEEDS, value)) return SPEEDS[value];
  const ms = typeof value === "number" ? value
    : typeof value === "string" && /^\d{1,6}(\.\d{1,3})?$/.test(value.trim()) ? Number(value) : NaN;
  return Number.isFinite(ms) && ms >= 0 && ms <= MAX_MOVE_MS ? { move: ms, trick: ms * 3 } : null;
}

/** The speeds a link may name, for a notice about one refused: {names, max} (the named
 * speeds, as a link writes them, and the most milliseconds a move). */
export function speedChoices() {
  return { names: Object.keys(SPEEDS).join(", "), max: MAX_MOVE_MS };
}
