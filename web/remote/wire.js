// The messages of a remote table, as JSON text (docs/remote.md). A guest sends intents:
//   {t: "join", seat, name, token, ticket}  take (or take back) a seat; token: the guest's
//                                    secret; ticket: the seat's own, from its invitation
//   {t: "play", card, n}             play a card on one's turn; n counts the guest's intents
//   {t: "ask", what, n, ...fields}   a question for the host's engine about one's own seat
//                                    (ASK_FIELDS: what may be asked, the engine's request of
//                                    that name made for the guest's seat, and what fields it
//                                    may carry, checked for shape)
//   {t: "seed", seed}                the guest's part of a fair deal, once the host committed
// and the host answers with:
//   {t: "seated", seat, hello, commit, proof}  the seat is the guest's; hello: the engine's
//                                    facts; commit: SHA-256 of the host's secret seed (fair.js);
//                                    proof: that the sender holds the seat's ticket (proofOf)
//   {t: "lobby", seats}              who has joined: [{seat, name}] of the guests' seats
//   {t: "view", view}                the table as this seat sees it (after every change)
//   {t: "answer", n, result}         the engine's answer to ask n
//   {t: "refused", code, message, n, text, retype?}  an intent refused (n null: a join);
//                                    nothing changed; text: the words to show (a message);
//                                    retype: the join's name is refused, ask for another
//   {t: "presence", seats}           who is connected, who is away, who a computer plays
//                                    for: [{seat, name, here, computer}] (presence.js)
//   {t: "commit", commit}           a new match at the same table: a new commitment, for a
//                                    new seed of the guest's
//   {t: "reveal", recipe, host, guests}  once the match is over: its recipe and every seed
// Anything else — malformed, oversized, for another seat, out of turn, repeated, from a peer
// holding no seat — is refused and counted, never acted on.

// The longest name text a join may carry (UTF-16 units): room for the engine's longest name
// (hello.people.name_chars characters, emoji of two units and their joiners); the engine's
// check_name judges it.
export const MAX_NAME_UNITS = 80;
const whole = (low) => (value) => Number.isSafeInteger(value) && value >= low;
/** What a guest may ask — the engine's request of that name made for the guest's seat
 * (``guest``), which answers from that seat's observation only (docs/protocol.md) — and the
 * fields each ask may carry (none other), each with its check of shape; the engine checks
 * their ranges. No ask names a seat: the host gives the engine the seat the guest holds. */
export const ASK_FIELDS = {
  hint: {},
  review: { deal: (value) => value === null || whole(0)(value), budget: whole(1) },
  review_next: { job: whole(1) },
  review_line: { job: whole(1), play: whole(0) },
  rerun: { iterations: whole(1) },
  rerun_next: { job: whole(1) },
};
/** The work each ask starts or steps, a search that costs the host's worker its time — a
 * hint, a review, the master's line after a reviewed card ("Play it out"), or the master in
 * the guest's seat: a guest has one ask of each work at a time (host.js refuses another as
 * busy, and serves the guests' asks in turn, a slice each). They are kept apart so that a
 * review asked for while a rerun's ask is in flight is not refused (the guest's page holds
 * its rerun while it reviews: rerun.hold), nor a line played out while the review goes on. */
export const ONE_AT_A_TIME = {
  hint: "hint", review: "review", review_next: "review", review_line: "line", rerun: "rerun", rerun_next: "rerun",
};
/** A peer's messages beyond this are dropped by the host, unanswered: a guest's page paces
 * the asks it makes without a person (a review's cards) well under it. */
export const RATE = { messages: 20, perMs: 1000 };
export const MAX_MESSAGE_CHARS = 64_000; // a view is a few KB; anything bigger is refused
const TOKEN = /^[0-9a-f]{32}$/;
const CARD = /^[2-9TJQKA][SHDC]$/;

/** A message's object when it is one of the kinds a side accepts, else null. */
export function readMessage(text, kinds) {
  if (typeof text !== "string") return null;
  let message;
  try {
    message = JSON.parse(text);
  } catch {
    return null;
  }
  if (!message || typeof message !== "object" || Array.isArray(message) || !kinds.includes(message.t)) return null;
  return message;
}

/**
 * A guest's intent checked for shape (the engine checks the rest), else null.
 * @param {string} text
 * @returns {{t: "join", seat: number, name: string, token: string, ticket: string}
 *   | {t: "play", card: string, n: number}
 *   | {t: "ask", what: string, n: number, fields: Record<string, unknown>}
 *   | {t: "seed", seed: string} | null}
 */
export function readIntent(text) {
  const message = readMessage(text, ["join", "play", "ask", "seed"]);
  if (!message) return null;
  if (message.t === "seed") return typeof message.seed === "string" && TOKEN.test(message.seed) ? { t: "seed", seed: message.seed } : null;
  if (message.t === "join") {
    const { seat, name, token, ticket } = message;
    // A seat of the table's is the host's to know (a seat no guest holds: "no_seat").
    if (!Number.isInteger(seat)) return null;
    if (typeof name !== "string" || name.length > MAX_NAME_UNITS) return null;
    if (typeof token !== "string" || !TOKEN.test(token)) return null;
    if (typeof ticket !== "string" || !TOKEN.test(ticket)) return null;
    return { t: "join", seat, name, token, ticket };
  }
  const { card, what, n } = message;
  if (message.t === "ask") {
    if (!Object.hasOwn(ASK_FIELDS, what) || !Number.isSafeInteger(n) || n < 1) return null;
    const fields = Object.fromEntries(Object.entries(message).filter(([key]) => !["t", "what", "n"].includes(key)));
    const checks = ASK_FIELDS[what];
    if (!Object.entries(fields).every(([key, value]) => Object.hasOwn(checks, key) && checks[key](value))) return null;
    return { t: "ask", what, n, fields };
  }
  if (typeof card !== "string" || !CARD.test(card) || !Number.isSafeInteger(n) || n < 1) return null;
  return { t: "play", card, n };
}

/** What proves a "seated" message comes from the host: the HMAC-SHA256, keyed by the seat's
 * ticket (which only the host and that seat's invitation hold), of the seat and the guest's
 * token. Another guest of the same room, who holds the room's key but not this ticket, cannot
 * make it: it cannot pass itself off as the host to this guest. */
export async function proofOf(ticket, seat, token) {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(ticket), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const signed = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`seated:${seat}:${token}`));
  return Array.from(new Uint8Array(signed), (b) => b.toString(16).padStart(2, "0")).join("");
}

export function newToken() {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}
