// A person's own TURN server for tables with friends (docs/remote.md#your-own-turn-server):
// direct connections fail for some pairs of networks, and no free TURN server can be named in
// a static page without publishing its password. The setting (url, username, credential) is
// kept by storage.js on this device only and added to the ICE servers of every table it opens
// or joins (room.js); the Settings dialog's fieldset [data-turn-form] edits it (its button is
// the intent turn_save of app.js).

import { t } from "../i18n.js";
import { loadTurn, saveTurn } from "../storage.js";

const MAX_CHARS = 256;
// RFC 7065: turn:host[:port][?transport=udp|tcp], or turns: (TLS).
const TURN_URL = /^turns?:(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?)(:(\d{1,5}))?(\?transport=(udp|tcp))?$/;

/**
 * A TURN setting checked: {turn: {urls, username, credential} | null} (all three empty: none)
 * or {error: a message id, params}. Nothing is trimmed but the address's spaces.
 * @param {{url?: unknown, username?: unknown, credential?: unknown}} given
 * @returns {{turn: {urls: string, username: string, credential: string} | null}
 *   | {error: string, params: Record<string, number>}}
 */
export function parseTurn({ url = "", username = "", credential = "" }) {
  if ([url, username, credential].some((v) => typeof v !== "string" || v.length > MAX_CHARS)) {
    return { error: "remote.turn_too_long", params: { count: MAX_CHARS } };
  }
  const address = /** @type {string} */ (url).trim();
  if (!address && !username && !credential) return { turn: null };
  const match = TURN_URL.exec(address);
  const port = match?.[4] === undefined ? 3478 : Number(match[4]);
  if (!match || port < 1 || port > 65535) return { error: "remote.turn_bad_url", params: {} };
  if (!username || !credential) return { error: "remote.turn_needs_login", params: {} };
  return { turn: { urls: address, username: String(username), credential: String(credential) } };
}

/** The TURN server kept on this device, or null (a kept value that no longer checks out is
 * dropped). */
export function savedTurn() {
  const checked = parseTurn(loadTurn() ?? {});
  return "turn" in checked ? checked.turn : null;
}

/** Fills the Settings dialog's TURN fieldset from storage (at start-up). */
export function fillTurnForm(fieldset = document.querySelector("[data-turn-form]")) {
  if (!fieldset) return;
  const kept = savedTurn();
  field(fieldset, "turnUrl").value = kept?.urls ?? "";
  field(fieldset, "turnUsername").value = kept?.username ?? "";
  field(fieldset, "turnCredential").value = kept?.credential ?? "";
}

/** Saves the TURN fieldset's setting (its button's intent, turn_save), or says why not. */
export function saveTurnForm(fieldset = document.querySelector("[data-turn-form]")) {
  if (!fieldset) return;
  const checked = parseTurn({ url: field(fieldset, "turnUrl").value, username: field(fieldset, "turnUsername").value,
    credential: field(fieldset, "turnCredential").value });
  let state = "error";
  let words;
  if ("error" in checked) words = t(checked.error, checked.params);
  else if (!saveTurn(checked.turn && { url: checked.turn.urls, username: checked.turn.username, credential: checked.turn.credential })) {
    words = t("remote.turn_not_kept");
  } else {
    state = checked.turn ? "saved" : "cleared";
    words = t(checked.turn ? "remote.turn_saved" : "remote.turn_cleared");
  }
  fieldset.dataset.turnState = state;
  fieldset.querySelector("[data-turn-said]").textContent = words;
}

const field = (fieldset, name) => /** @type {HTMLInputElement} */ (fieldset.querySelector(`[name=${name}]`));
