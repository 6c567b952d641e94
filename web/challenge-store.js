// The challenges this browser keeps (docs/challenge.md): those sent, each with every reply
// opened here, and those received, each with how it went. One entry of the storage
// (storage.js: "challenges"); everything read from it is checked here, and a link kept is
// checked again by the engine whenever it is used, so a hand-edited entry can change
// nothing but what this list shows.
//
// {name: the person's name as they last gave it,
//  sent: {[id]: {link, at, sender, terms, played, daily, lead, lost,
//         replies: {[key]: {link, name, lead, lost, at}}}},
//  received: {[id]: {link, sender, at, terms, played, lead, lost, them, reply}}}
// lead and lost are the person's partnership's lead over the match and the points lost from
// their review (null until compared); them is the sender's lead; reply the reply link made.

import { readJson, writeJson } from "./storage.js";

const MAX_CHALLENGES = 50; // of each kind: the oldest go first
const MAX_REPLIES = 50; // a challenge's replies kept
const MAX_LINK = 4_000; // characters: the engine refuses longer links anyway
const MAX_TEXT = 100;

const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
const text = (value, max = MAX_TEXT) => (typeof value === "string" && value.length <= max ? value : null);
const whole = (value) => (Number.isSafeInteger(value) ? value : null);
const link = (value) => text(value, MAX_LINK);

// Each kept record with only its known keys, each value checked; a record without its link is
// dropped.
function reply(value) {
  if (!isObject(value) || !link(value.link)) return null;
  return { link: value.link, name: text(value.name) ?? "", lead: whole(value.lead), lost: whole(value.lost),
    at: whole(value.at) ?? 0 };
}

function sent(value) {
  if (!isObject(value) || !link(value.link)) return null;
  const replies = {};
  for (const [key, item] of Object.entries(isObject(value.replies) ? value.replies : {}).slice(-MAX_REPLIES)) {
    const checked = text(key) && reply(item);
    if (checked) replies[key] = checked;
  }
  return { link: value.link, at: whole(value.at) ?? 0, sender: text(value.sender) ?? "",
    terms: isObject(value.terms) ? value.terms : null, played: value.played === true, daily: text(value.daily),
    lead: whole(value.lead), lost: whole(value.lost), replies };
}

function received(value) {
  if (!isObject(value) || !link(value.link)) return null;
  return { link: value.link, sender: text(value.sender) ?? "", at: whole(value.at) ?? 0,
    terms: isObject(value.terms) ? value.terms : null, played: value.played === true, lead: whole(value.lead),
    lost: whole(value.lost), them: whole(value.them), reply: link(value.reply) };
}

function checked(value, check) {
  const kept = {};
  const items = Object.entries(isObject(value) ? value : {}).filter(([id]) => text(id));
  for (const [id, item] of items.sort(([, a], [, b]) => (a?.at ?? 0) - (b?.at ?? 0)).slice(-MAX_CHALLENGES)) {
    const one = check(item);
    if (one) kept[id] = one;
  }
  return kept;
}

/** What is kept, checked: {name, sent, received} (empty when nothing or nothing readable). */
export function load() {
  const { value } = readJson("challenges");
  const kept = isObject(value) ? value : {};
  return { name: text(kept.name) ?? "", sent: checked(kept.sent, sent), received: checked(kept.received, received) };
}

// Changes what is kept through ``change`` (it edits the loaded value); whether it was kept.
function update(change) {
  const kept = load();
  change(kept);
  return writeJson("challenges", { name: kept.name, sent: checked(kept.sent, sent),
    received: checked(kept.received, received) });
}

/** The name the person gave last (for the next challenge or reply). */
export const lastName = () => load().name;

/** Keeps the person's name for the next time. */
export function keepName(name) {
  return update((kept) => {
    kept.name = name;
  });
}

/** A challenge sent (``summary``: the engine's, with its id and whether it carries the
 * sender's games), kept or brought up to date: a link with the sender's games replaces one
 * without, never the other way round. */
export function keepSent(summary, linkText, { daily = null } = {}) {
  return update((kept) => {
    const before = kept.sent[summary.id];
    if (before?.played && !summary.played) return;
    kept.sent[summary.id] = { replies: {}, lead: null, lost: null, ...before, link: linkText, at: Date.now(),
      sender: summary.sender, terms: summary.terms, played: summary.played, daily: daily ?? before?.daily ?? null };
  });
}

/** A reply to a challenge sent, counted once by its key, with what its comparison found; the
 * sender's own lead and points lost with it when the challenge carries them. */
export function keepReply(summary, challengeLink, key, row, sender) {
  return update((kept) => {
    if (!kept.sent[summary.id]) {
      kept.sent[summary.id] = { link: challengeLink, at: Date.now(), sender: summary.sender, terms: summary.terms,
        played: summary.played, daily: null, lead: null, lost: null, replies: {} };
    }
    const entry = kept.sent[summary.id];
    entry.replies[key] = { ...row, at: entry.replies[key]?.at ?? Date.now() };
    if (sender) Object.assign(entry, sender);
  });
}

/** A challenge received (the engine's summary of it), kept; what was found of it stays. */
export function keepReceived(summary, linkText) {
  return update((kept) => {
    const before = kept.received[summary.id];
    kept.received[summary.id] = { lead: null, lost: null, them: null, reply: null, played: false, ...before,
      link: linkText, sender: summary.sender, terms: summary.terms, at: before?.at ?? Date.now() };
  });
}

/** What the comparison of a challenge received found: {lead, lost, them, reply}. */
export function keepAnswer(id, found) {
  return update((kept) => {
    if (kept.received[id]) Object.assign(kept.received[id], { played: true, ...found });
  });
}

/** The sender's own line of a challenge sent: {lead, lost}. */
export function keepOwn(id, own) {
  return update((kept) => {
    if (kept.sent[id]) Object.assign(kept.sent[id], own);
  });
}

/** Forgets a challenge, sent or received. */
export function forget(id) {
  return update((kept) => {
    delete kept.sent[id];
    delete kept.received[id];
  });
}
