// Pairing by hand, with no relay at all (docs/remote.md#pairing-by-hand): when the relays
// cannot be reached, the host's page makes a WebRTC offer for one guest's seat and shows it
// as a link (the seat's invitation with &offer=…) and its QR code; the guest's page opens it,
// answers, and shows its answer as text to send back, with its QR code too (for a host whose
// phone can scan it); the host pastes it, and the two pages talk over one data channel, carrying the same
// messages as a room found through relays (room.js). Both blobs are the session description
// after every ICE candidate was gathered (no trickle), deflated and in base64url: a few
// hundred characters.
//
//   const rooms = joinRooms(openRoom(...));  rooms.add(room)   one room surface over several
//   const pair = offerPair(ice);  await pair.offer;  await pair.accept(answer)   (the host)
//   const pair = answerPair(offer, ice);  await pair.answer   (the guest)
// pair.room has room.js's surface: onMessage, onJoin, onLeave, send, peers, leave. What people
// see of a pairing (its link, the answer to paste or to send back) is in the page's state
// (app.remote.pairs, app.remote.answer), drawn by remote/panel.js.

import { MAX_MESSAGE_CHARS } from "./wire.js";

const MAX_BLOB_CHARS = 8_000;
const GATHER_MS = 5_000; // the candidates gathered by then are enough (a STUN server may hang)
const MAX_GATHER_MS = 30_000; // without a candidate by then, the description goes as it is
const GATHER_POLL_MS = 250;

async function deflate(text) {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

async function inflate(blob) {
  const bytes = Uint8Array.from(atob(blob.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
  return new Response(stream).text();
}

/** A session description of the given type from a blob, or null when it is not one. */
export async function readBlob(blob, type) {
  if (typeof blob !== "string" || !blob || blob.length > MAX_BLOB_CHARS || !/^[A-Za-z0-9_-]+$/.test(blob)) return null;
  try {
    const sdp = await inflate(blob);
    return sdp.length <= 4 * MAX_BLOB_CHARS && sdp.startsWith("v=0") ? { type, sdp } : null;
  } catch {
    return null; // not deflated text
  }
}

/** The offer an address holds after "#" (an invitation with &offer=…), or null. */
export function readOffer(href) {
  return new URLSearchParams(new URL(href).hash.slice(1)).get("offer");
}

// One RTCPeerConnection and its data channel as a room of one peer.
function pairRoom(connection) {
  const peer = `hand-${crypto.randomUUID()}`;
  const listeners = { message: [], join: [], leave: [] };
  let channel = null;
  let open = false;
  const use = (made) => {
    channel = made;
    channel.onopen = () => {
      open = true;
      listeners.join.forEach((fn) => fn(peer));
    };
    channel.onmessage = ({ data }) => {
      const text = typeof data === "string" && data.length <= MAX_MESSAGE_CHARS ? data : null;
      listeners.message.forEach((fn) => fn(text, peer));
    };
    channel.onclose = () => {
      if (open) listeners.leave.forEach((fn) => fn(peer));
      open = false;
    };
  };
  return {
    use,
    room: {
      onMessage: (fn) => listeners.message.push(fn),
      onJoin: (fn) => listeners.join.push(fn),
      onLeave: (fn) => listeners.leave.push(fn),
      send: (text, to) => {
        if (open && to === peer) channel.send(text);
      },
      peers: () => (open ? [peer] : []),
      leave: () => connection.close(),
    },
  };
}

// The local description once ICE gathering is complete, or once GATHER_MS has passed with a
// candidate gathered (a STUN server may hang), as a blob. One with no candidate could not
// connect (nothing else travels), so on a slow machine it waits for one, MAX_GATHER_MS at most.
async function described(connection) {
  const started = Date.now();
  const hasCandidate = () => /\na=candidate:/.test(connection.localDescription?.sdp ?? "");
  while (connection.iceGatheringState !== "complete") {
    const waited = Date.now() - started;
    if ((waited >= GATHER_MS && hasCandidate()) || waited >= MAX_GATHER_MS) break;
    await new Promise((resolve) => {
      const timer = setTimeout(resolve, GATHER_POLL_MS);
      connection.addEventListener("icegatheringstatechange", () => {
        clearTimeout(timer);
        resolve(undefined);
      }, { once: true });
    });
  }
  return deflate(connection.localDescription.sdp);
}

/** The host's side of a pairing: {room, offer: Promise<blob>, accept(answer blob)}. */
export function offerPair(ice) {
  const connection = new RTCPeerConnection({ iceServers: ice });
  const { use, room } = pairRoom(connection);
  use(connection.createDataChannel("calypso"));
  const offer = connection.createOffer().then((made) => connection.setLocalDescription(made)).then(() => described(connection));
  return {
    room,
    offer,
    /** Takes the guest's answer; false when the blob is not an answer. */
    async accept(blob) {
      const answer = await readBlob(blob.trim(), "answer");
      if (!answer || connection.signalingState !== "have-local-offer") return false;
      await connection.setRemoteDescription(answer);
      return true;
    },
  };
}

/** The guest's side: {room, answer: Promise<blob>} (rejects when the offer is not one). */
export function answerPair(blob, ice) {
  const connection = new RTCPeerConnection({ iceServers: ice });
  const { use, room } = pairRoom(connection);
  connection.ondatachannel = ({ channel }) => use(channel);
  const answer = readBlob(blob, "offer").then(async (offer) => {
    if (!offer) throw new Error("not an offer");
    await connection.setRemoteDescription(offer);
    await connection.setLocalDescription(await connection.createAnswer());
    return described(connection);
  });
  return { room, answer };
}

/** One room surface over several (the relays' room and rooms paired by hand); add() takes
 * in another. */
export function joinRooms(first) {
  const listeners = { message: [], join: [], leave: [] };
  const rooms = [];
  const joined = {
    add(room) {
      rooms.push(room);
      room.onMessage((text, peer) => listeners.message.forEach((fn) => fn(text, peer)));
      room.onJoin((peer) => listeners.join.forEach((fn) => fn(peer)));
      room.onLeave((peer) => listeners.leave.forEach((fn) => fn(peer)));
    },
    onMessage: (fn) => listeners.message.push(fn),
    onJoin: (fn) => listeners.join.push(fn),
    onLeave: (fn) => listeners.leave.push(fn),
    // A peer paired by hand is its room's only one; any other is the first room's (trystero's
    // list of peers may lag behind a peer whose message has come).
    send: (text, peer) => (rooms.slice(1).find((room) => room.peers().includes(peer)) ?? rooms[0]).send(text, peer),
    peers: () => rooms.flatMap((room) => room.peers()),
    leave: () => rooms.forEach((room) => room.leave()),
    // The relays' room goes quiet (room.js); a room paired by hand has no relay to quiet.
    quiet: (on) => first.quiet?.(on),
  };
  joined.add(first);
  return joined;
}
