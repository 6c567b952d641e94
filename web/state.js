// What the page holds between events, and drawing at most once per animation frame: any
// number of requestDraw() calls in a frame lead to one draw, just before it is painted.

import * as prefsStore from "./prefs.js";
import { SPEEDS } from "./speed.js";
import * as storage from "./storage.js";

export const app = {
  hello: null, // the engine's facts (its hello)
  table: null, // what stays the same through the match in play: settings, seats, sides, cut
  view: null, // the table as the engine last showed it
  busy: false, // a request of the person's is on its way, or computers are moving
  focusHand: false,
  settings: storage.loadSettings(),
  speed: SPEEDS.normal,
  speedName: "normal",
  run: 0, // bumped by every new deal: stale computer-move loops stop
  hint: null, // the card the last hint suggested, until the person plays
  chosen: null, // a card of the hand chosen ahead, while others play: played on the turn
  prefs: prefsStore.load(),
  replay: null, // {record | null, position, imported} while the replay dialog is open
  examples: null, // the rules' worked examples, fetched once
  lastError: null,
};

let drawer = null;
let pending = false;

/** Sets the function that draws the page from ``app``. */
export function onDraw(draw) {
  drawer = draw;
}

/** Draws in the next animation frame (once, however often it is asked for). */
export function requestDraw() {
  if (pending) return;
  pending = true;
  requestAnimationFrame(() => {
    pending = false;
    drawer?.();
  });
}
