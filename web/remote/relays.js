// Where the people of a remote table find each other: Nostr relays (signalling only, encrypted
// with the room's secret), and the STUN servers that tell each browser its public address.
// Both lists are pinned here; every relay below is named in index.html's connect-src, beside
// ws://127.0.0.1:* and ws://localhost:* (a relay on this machine: the tests', a club's own).
// ?relays=ws://…,wss://… replaces the list (docs/remote.md).

export const DEFAULT_RELAYS = [
  "wss://nos.lol",
  "wss://relay.mostr.pub",
  "wss://purplerelay.com",
  "wss://nostr.data.haus",
  "wss://relay.agorist.space",
  "wss://yabu.me/v2",
];
export const STUN_SERVERS = ["stun:stun.l.google.com:19302", "stun:stun.cloudflare.com:3478"];
export const MAX_RELAYS = 8;
const MAX_URL_CHARS = 200;

/** The relay list of a ?relays= value: {relays} or {error: why it was refused}. */
export function parseRelays(text) {
  const urls = text.split(",").map((part) => part.trim()).filter(Boolean);
  if (!urls.length || urls.length > MAX_RELAYS) return { error: `1 to ${MAX_RELAYS} relays, not ${urls.length}` };
  for (const url of urls) {
    let parsed;
    try {
      parsed = new URL(url);
    } catch {
      return { error: `${url.slice(0, 40)} is not an address` };
    }
    if (url.length > MAX_URL_CHARS || !["ws:", "wss:"].includes(parsed.protocol)) {
      return { error: `${url.slice(0, 40)} is not a ws:// or wss:// address` };
    }
  }
  return { relays: urls };
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** Whether every relay runs on this machine: then everyone at the table does too (the
 * tests), and no STUN server is asked. */
export function allLoopback(relays) {
  return relays.every((url) => LOOPBACK.has(new URL(url).hostname));
}

/** The ICE servers for a table found through these relays, with this person's own TURN
 * server when they set one (remote/turn.js). */
export function iceServers(relays, turn = null) {
  const stun = allLoopback(relays) ? [] : STUN_SERVERS.map((urls) => ({ urls }));
  return turn ? [...stun, turn] : stun;
}
