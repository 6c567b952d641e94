// The transport of a remote table: one trystero room (its Nostr strategy, dist/vendor/),
// carrying JSON text between the host and each guest. Loaded only when a table with friends
// is opened or joined (a dynamic import from host.js or guest.js).
//
//   const room = openRoom({room, secret, relays});
//   room.onMessage((text, peer) => ...);  room.onJoin(peer => ...);  room.onLeave(peer => ...)
//   room.send(text, peer);  room.leave();
//   room.quiet(true);   // closes the relay connections: no announcing, no listening
//   room.quiet(false);  // opens them again and announces at once (a peer left: it, or a new
//                       // page of it, must find us)
//
// Quiet is trystero's own pause, the one it takes while the browser is offline: each relay's
// socket is closed and opened again, subscriptions and all, once the pause ends. trystero's
// own announcements back off while the sockets are closed (a minute, doubling up to 15), so
// the end of a pause announces by itself, once on each relay as soon as its socket is open:
// the same announcement trystero makes ({peerId} on the room's topic, signed by this page).

import { libName, sha1 } from "../vendor/core/index.mjs";
import { createEvent, getRelaySockets, joinRoom, pauseRelayReconnection, resumeRelayReconnection, selfId } from "../vendor/nostr/index.mjs";
import { iceServers } from "./relays.js";
import { MAX_MESSAGE_CHARS } from "./wire.js";
import { savedTurn } from "./turn.js";

const APP_ID = "calypso-card-game";
const ANNOUNCE_POLL_MS = 100; // how often a page that ended its pause looks for open sockets
const ANNOUNCE_FOR_MS = 60_000; // trystero's own announcements (one a minute) take over by then

export function openRoom({ room, secret, relays }) {
  const joined = joinRoom({
    appId: APP_ID,
    password: secret,
    relayConfig: { urls: relays, redundancy: relays.length },
    rtcConfig: { iceServers: iceServers(relays, savedTurn()) },
  }, room);
  const action = joined.makeAction("calypso");
  const listeners = { message: [], join: [], leave: [] };
  action.onMessage = (payload, meta) => {
    const peer = meta?.peerId;
    if (typeof payload !== "string" || payload.length > MAX_MESSAGE_CHARS) {
      listeners.message.forEach((fn) => fn(null, peer)); // never read: refused and counted
      return;
    }
    listeners.message.forEach((fn) => fn(payload, peer));
  };
  joined.onPeerJoin = (peer) => listeners.join.forEach((fn) => fn(peer));
  joined.onPeerLeave = (peer) => listeners.leave.forEach((fn) => fn(peer));
  let quiet = false;
  const hush = () => {
    pauseRelayReconnection();
    for (const socket of Object.values(getRelaySockets())) socket.close();
  };
  // Announces once on each relay whose socket is (or comes) open, until quiet again.
  let announcing = 0;
  const announce = async () => {
    const round = ++announcing;
    const event = await createEvent(await sha1(`${libName}@${APP_ID}@${room}`), JSON.stringify({ peerId: selfId }));
    const done = new Set();
    const started = Date.now();
    while (!quiet && round === announcing && Date.now() - started < ANNOUNCE_FOR_MS) {
      for (const [url, socket] of Object.entries(getRelaySockets())) {
        if (done.has(url) || socket.readyState !== WebSocket.OPEN) continue;
        socket.send(event);
        done.add(url);
      }
      if (done.size === relays.length) return;
      await new Promise((resolve) => setTimeout(resolve, ANNOUNCE_POLL_MS));
    }
  };
  // trystero opens the sockets again when the browser comes back online, quiet or not.
  addEventListener("online", () => setTimeout(() => (quiet ? hush() : announce()), 0));
  return {
    quiet: (on) => {
      if (on === quiet) return;
      quiet = on;
      if (on) {
        hush();
        return;
      }
      // Offline, trystero keeps its own pause and ends it when the browser is back online.
      if (navigator.onLine !== false) resumeRelayReconnection();
      announce();
    },
    onMessage: (fn) => listeners.message.push(fn),
    onJoin: (fn) => listeners.join.push(fn),
    onLeave: (fn) => listeners.leave.push(fn),
    send: (text, peer) => action.send(text, { target: peer }),
    peers: () => Object.keys(joined.getPeers()),
    leave: () => joined.leave(),
  };
}
