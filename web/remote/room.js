// The transport of a remote table: one trystero room (its Nostr strategy, dist/vendor/),
// carrying JSON text between the host and each guest. Loaded only when a table with friends
// is opened or joined (a dynamic import from host.js or guest.js).
//
//   const room = openRoom({room, secret, relays});
//   room.onMessage((text, peer) => ...);  room.onJoin(peer => ...);  room.onLeave(peer => ...)
//   room.send(text, peer);  room.leave();
//   room.quiet(true);   // closes the relay connections: no announcing, no listening
//   room.quiet(false);  // opens them again (a peer left: it or a new page must find us)
//
// Quiet is trystero's own pause, the one it takes while the browser is offline: each relay's
// socket is closed and opened again, subscriptions and all, once the pause ends.

import { getRelaySockets, joinRoom, pauseRelayReconnection, resumeRelayReconnection } from "../vendor/nostr/index.mjs";
import { iceServers } from "./relays.js";
import { MAX_MESSAGE_CHARS } from "./wire.js";
import { savedTurn } from "./turn.js";

const APP_ID = "calypso-card-game";

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
  return {
    quiet: (on) => {
      if (on === quiet) return;
      quiet = on;
      if (!on) {
        resumeRelayReconnection();
        return;
      }
      pauseRelayReconnection();
      for (const socket of Object.values(getRelaySockets())) socket.close();
    },
    onMessage: (fn) => listeners.message.push(fn),
    onJoin: (fn) => listeners.join.push(fn),
    onLeave: (fn) => listeners.leave.push(fn),
    send: (text, peer) => action.send(text, { target: peer }),
    peers: () => Object.keys(joined.getPeers()),
    leave: () => joined.leave(),
  };
}
