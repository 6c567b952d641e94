// The remote panel: everything a table with friends shows besides the table itself, drawn from
// the page's state (app.remote) inside the page's one draw (app.js), as many times as asked:
// the host's lobby (an invitation per guest's seat with its QR code, a pairing by hand, what
// the deal waits for, Start now), a guest's way to its seat (the name form, the host's words
// when it refused, the answer of a pairing to send back), who is away and who a computer plays
// for (on every screen, with the host's buttons), the fair deal's check on a guest's page, and
// what screen readers are told. Its buttons are intents of app.js (data-action); it keeps no
// state of its own but the QR module once loaded.

import { $, h, redraw } from "../dom.js";
import { hasWords, say, t } from "../i18n.js";
import { SEAT_KEYS } from "./invite.js";

let qrModule = null; // the QR encoder (./qr.js), loaded at the first code to draw
let qrLoading = null;

/** Draws the table with friends from ``remote`` (app.remote; null: this device alone) and the
 * engine's hello (its levels, for the host's stand-ins). ``drawn`` asks for another draw once
 * something it waits for has come (the QR module). */
export function drawRemote(remote, hello, drawn) {
  if (!remote || !hasWords()) return; // the page's words are loading: they draw it once in
  document.documentElement.dataset.remote = remote.role; // style.css: a guest loads no engine
  if (remote.role === "host") drawLobby(remote, drawn);
  else drawGuest(remote, drawn);
  drawPresence(remote, hello);
  drawLive(remote);
}

/** The level chosen beside an away guest's seat, for "Let a computer play". */
export function chosenLevel(seat) {
  return /** @type {HTMLSelectElement | null} */ ($(`[data-presence-level="${seat}"]`))?.value ?? null;
}

/** The answer pasted under a seat's pairing link. */
export function pastedAnswer(seat) {
  return /** @type {HTMLTextAreaElement | null} */ ($(`[data-pair="${SEAT_KEYS[seat]}"] [data-pair-answer]`))?.value ?? "";
}

// A part of the panel: made once in its place, then drawn into.
function part(selector, make, place) {
  let el = $(selector);
  if (!el) {
    el = make();
    place(el);
  }
  return el;
}

function bootCard(el) {
  $(".boot-card")?.append(el);
}

// An SVG QR code of text, once its module is in (asked for at the first code: drawn then).
function qr(text, label, drawn) {
  if (!qrModule) {
    qrLoading ??= import("./qr.js").then((module) => {
      qrModule = module;
      drawn();
    });
    return null;
  }
  return qrModule.qrCode(text, label);
}

const copyButton = (text) => h("button", { type: "button", class: "btn", "data-action": "remote_copy", "data-value": text, text: t("remote.copy") });

// -- the host's lobby ---------------------------------------------------------------------------

function drawLobby(remote, drawn) {
  const lobby = part("[data-remote-panel=host]", () => h("section", { class: "remote-panel", "data-remote-panel": "host", "aria-live": "polite" }), bootCard);
  lobby.hidden = remote.started;
  // What the deal waits for: the loading card's status line says it (page.js).
  lobby.dataset.remoteWaiting = remote.waiting ?? "";
  if (remote.started) return;
  const seats = Object.keys(remote.invites).map(Number);
  const key = JSON.stringify([remote.invites, remote.joined, remote.seats, remote.pairs, Boolean(qrModule)]);
  redraw(lobby, key, () => [
    h("p", { text: t("remote.host_lead") }),
    h("ul", {}, seats.map((seat) => invitation(remote, seat, drawn))),
    h("p", { class: "remote-note", text: t("remote.who_sees") }),
    remote.joined.length < seats.length
      ? h("button", { type: "button", class: "btn", "data-remote-start": "", "data-action": "remote_start_now", text: t("remote.start_now") })
      : null,
  ]);
}

// One guest's seat in the lobby: its invitation (a link, Copy, its QR code), whether the guest
// has joined, and its pairing by hand.
function invitation(remote, seat, drawn) {
  const href = remote.invites[seat];
  const joined = remote.joined.includes(seat);
  const name = remote.seats.find((s) => s.seat === seat)?.name;
  return h("li", { "data-seat": SEAT_KEYS[seat], "data-joined": String(joined) },
    h("a", { href, "data-invite": SEAT_KEYS[seat], text: t("remote.invite_for", { seat }) }), " ", copyButton(href), " ",
    h("span", { "data-remote-seat-state": "", text: joined ? t("remote.joined", { name, seat }) : t("remote.waiting_for", { seat }) }),
    qr(href, t("remote.qr_for", { seat }), drawn),
    pairing(remote.pairs[seat], seat, drawn));
}

// "Pair by hand" for a seat, or the pairing in progress: its link (Copy, QR code), a field for
// the guest's answer, and what happened.
function pairing(pair, seat, drawn) {
  const key = SEAT_KEYS[seat];
  if (!pair) {
    return h("button", { type: "button", class: "btn", "data-pair-start": key, "data-action": "pair_start", "data-value": seat, text: t("remote.pair_start") });
  }
  const said = { connecting: "remote.pair_connecting", bad_answer: "remote.pair_bad_answer", connected: "remote.pair_connected" }[pair.state];
  return h("div", { class: "pair", "data-pair": key, "data-pair-state": pair.state },
    h("p", { text: t("remote.pair_offer_lead") }),
    pair.link ? [h("a", { "data-pair-offer": "", href: pair.link, text: t("remote.pair_offer_for", { seat }) }), copyButton(pair.link),
      qr(pair.link, t("remote.pair_qr_for", { seat }), drawn)] : null,
    h("label", {}, h("span", { text: t("remote.pair_answer") }), h("textarea", { rows: 3, "data-pair-answer": "", spellcheck: "false" })),
    h("button", { type: "button", class: "btn btn-primary", "data-pair-connect": "", "data-action": "pair_connect", "data-value": seat, text: t("remote.pair_connect") }),
    h("p", { "data-pair-said": "", role: "status", text: said ? t(said, { seat }) : "" }));
}

// -- a guest's way to its seat ---------------------------------------------------------------

function drawGuest(remote, drawn) {
  const panel = part("[data-remote-panel=guest]", () => {
    const form = h("form", { class: "remote-panel", "data-remote-panel": "guest", "data-action": "remote_join" },
      h("p", { "data-remote-words": "" }),
      h("p", { class: "remote-refusal", "data-remote-refusal": "", role: "alert" }),
      h("label", {}, h("span", { "data-remote-name-label": "" }),
        h("input", { name: "name", required: true, autocomplete: "nickname", "data-remote-name": "" })),
      h("button", { type: "submit", class: "btn btn-primary", "data-remote-join": "" }),
      h("div", { "data-remote-answer": "" }));
    /** @type {HTMLInputElement} */ ($("[data-remote-name]", form)).value = remote.name;
    return form;
  }, bootCard);
  const { seat, stage } = remote;
  panel.dataset.remoteState = stage;
  // Seated, before the game: who else has joined (the panel goes with the loading card).
  const joined = stage === "seated" ? remote.lobby.map((s) => t("remote.joined", { name: s.name, seat: s.seat })) : [];
  $("[data-remote-words]", panel).textContent = [t(`remote.guest_${stage}`, { seat }), ...joined].join(" ");
  const refusal = $("[data-remote-refusal]", panel);
  refusal.textContent = remote.refusal ? say(remote.refusal) : "";
  refusal.hidden = !remote.refusal;
  $("[data-remote-name-label]", panel).textContent = t("remote.your_name");
  const name = /** @type {HTMLInputElement} */ ($("[data-remote-name]", panel));
  name.disabled = stage !== "name";
  name.closest("label").hidden = stage !== "name" && stage !== "joining";
  const join = $("[data-remote-join]", panel);
  join.textContent = t("remote.take_seat", { seat });
  join.hidden = stage !== "name";
  redraw($("[data-remote-answer]", panel), JSON.stringify([remote.answer, Boolean(qrModule)]), () => (remote.answer ? [
    h("div", { class: "pair", "data-pair": "answer" },
      h("p", { text: t("remote.pair_answer_lead") }),
      h("textarea", { rows: 3, readonly: true, "data-pair-answer": "", spellcheck: "false", text: remote.answer }),
      copyButton(remote.answer), qr(remote.answer, t("remote.pair_answer_qr"), drawn)),
  ] : []));
  drawFair(remote);
}

// The fair deal's check, with the offer to replay the match with the engine: on the loading
// card before the game, then at the top of the side panel.
function drawFair(remote) {
  const fair = part("[data-fair]", () => h("section", { class: "remote-panel", "data-fair": "", "aria-live": "polite" },
    h("p", { "data-fair-words": "" }), h("p", { "data-fair-who": "" }),
    h("button", { type: "button", class: "btn", "data-fair-replay": "", "data-action": "fair_replay" })), bootCard);
  const side = $("[data-side-panel]");
  if (remote.started && side && fair.parentElement !== side) side.prepend(fair);
  fair.dataset.fair = remote.fair.state;
  $("[data-fair-words]", fair).textContent = remote.fair.said ? say(remote.fair.said) : "";
  $("[data-fair-who]", fair).textContent = t("remote.who_sees");
  const replay = /** @type {HTMLButtonElement} */ ($("[data-fair-replay]", fair));
  replay.textContent = t("remote.fair_replay");
  replay.hidden = !["ok", "left_out"].includes(remote.fair.state);
}

// -- who is here, on every screen ----------------------------------------------------------------

// "Waiting for Ben (North)…", or who a computer plays for; on the host's screen, with the
// buttons that give an away guest's seat to a computer player of a level and back.
function drawPresence(remote, hello) {
  const banner = part("[data-presence]", () => h("div", { class: "remote-presence", "data-presence": "" }), (el) => {
    const notice = $("[data-notice]");
    if (notice) notice.before(el);
    else document.body.append(el);
  });
  const host = remote.role === "host";
  const me = host ? null : remote.seat;
  const lines = [];
  if (!host && remote.hostAway && remote.started) lines.push({ text: t("presence.waiting_host"), away: true });
  for (const p of remote.started ? remote.seats : []) {
    const who = { name: p.name, seat: p.seat };
    if (p.computer) {
      lines.push({ seat: p.seat, text: p.seat === me ? t("presence.stand_in_you", { level: p.computer })
        : t("presence.stand_in", { ...who, level: p.computer }), computer: true, name: p.name });
    } else if (!p.here && p.seat !== me) {
      lines.push({ seat: p.seat, text: t("presence.waiting", who), away: true, name: p.name });
    }
  }
  banner.hidden = lines.length === 0;
  banner.dataset.away = String(lines.some((l) => l.away));
  const levels = host ? hello?.levels ?? null : null;
  redraw(banner, JSON.stringify([lines, levels?.length ?? 0]), () => lines.map((line) => h("p",
    { "data-presence-seat": line.seat ?? "host", "data-presence-state": line.away ? "away" : "computer" },
    h("span", { text: line.text }), levels && line.seat !== undefined ? controls(line, levels) : null)));
}

// The host's buttons for one seat: a level and "let a computer play", or "give the seat back".
function controls(line, levels) {
  if (line.computer) {
    return h("button", { type: "button", class: "btn btn-primary", "data-presence-give-back": line.seat,
      "data-action": "presence_give_back", "data-value": line.seat, text: t("presence.give_back", { name: line.name }) });
  }
  return [
    h("select", { "data-presence-level": line.seat, "aria-label": t("presence.level") },
      levels.map((l, i) => h("option", { value: l.key, text: say(l.label), selected: i === 1 }))),
    h("button", { type: "button", class: "btn btn-primary", "data-presence-give": line.seat,
      "data-action": "presence_give", "data-value": line.seat, text: t("presence.give", { name: line.name }) }),
  ];
}

// What screen readers are told (joins, leaves, stand-ins, the host's absence): the latest
// sentences, in a polite live region of their own.
function drawLive(remote) {
  const live = part("[data-presence-live]", () => h("p", { class: "sr-only", "data-presence-live": "", "aria-live": "polite", role: "status" }),
    (el) => document.body.append(el));
  const told = String(remote.said.length);
  if (live.dataset.told === told) return;
  live.dataset.told = told;
  live.textContent = remote.said.slice(Number(live.dataset.shown ?? 0)).join(" ");
  live.dataset.shown = told;
}
