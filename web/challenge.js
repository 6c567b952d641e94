// A challenge among friends (docs/challenge.md): the same cards, played apart, compared deal
// by deal. The engine makes and reads the links, deals the challenge and compares the games
// (challenge_* requests); this module sequences those requests, keeps what they found
// (challenge-store.js) and asks for drawing (challenge-view.js draws).
//
// - Made from the score sheet of a finished match against computer players ("Challenge a
//   friend": the sender's result goes in the link), or from New game before playing.
// - Opened from an address #challenge=…: who sent it and its terms, then "Play"; the
//   sender's result is shown only once the friend's match is over. A match that answers a
//   challenge kept here (the same terms) is compared at its end, and its reply link made.
// - Opened from #challenge=…&reply=…: the friend's games are played again by the engine,
//   which computes the score itself; the reply is kept once by its key, and the standings of
//   every reply to that challenge are shown.
// A link the engine refuses is said (its sentence, in the person's language) and changes
// nothing: neither what is kept nor the game in play.

import * as store from "./challenge-store.js";
import { testBudget } from "./dev.js";
import { $ } from "./dom.js";
import { engine } from "./engine.js";
import { msg } from "./i18n.js";
import { errorMessage, show } from "./flow.js";
import { namesOf } from "./names.js";
import { closeAllDialogs, renderNotice } from "./page.js";
import * as state from "./state.js";
import { app, requestDraw } from "./state.js";

const client = engine();

// -- addresses -------------------------------------------------------------------------------

/** The challenge (and reply) an address carries after its #: {challenge, reply}, or null. */
export function readAddress(href) {
  const hash = new URL(href).hash.slice(1);
  if (!hash.startsWith("challenge=")) return null;
  const params = new URLSearchParams(hash);
  return { challenge: params.get("challenge") ?? "", reply: params.get("reply") };
}

/** The page's address for a challenge link's text, and a reply's after it. */
export function addressOf(challenge, reply = null) {
  const url = new URL(location.href);
  url.search = "";
  url.hash = `challenge=${challenge}${reply ? `&reply=${reply}` : ""}`;
  return url.href;
}

/** Follows an address's challenge once the first game is dealt, and takes it out of the
 * address (a reload then plays on, and the challenge is in Menu → Challenges). */
export async function openAddress(found) {
  const url = new URL(location.href);
  url.hash = "";
  history.replaceState(history.state, "", url.href);
  if (found.reply !== null) await openReply(found.challenge, found.reply);
  else await offer(found.challenge);
}

// The engine's summary of a challenge link, or null when it refuses it (said in a notice).
async function summaryOf(link) {
  try {
    return await client.request("challenge_read", { challenge: link });
  } catch (error) {
    refused(error);
    return null;
  }
}

function refused(error) {
  renderNotice(errorMessage(error));
  state.setChallengeShown(app.challenge.shown ? { ...app.challenge.shown, problem: error } : null);
  requestDraw();
}

// -- a friend receives a challenge ------------------------------------------------------------

/** Shows a challenge received: who sent it and its terms, with "Play". */
export async function offer(link) {
  const summary = await summaryOf(link);
  if (!summary) return;
  store.keepReceived(summary, link);
  const { reply } = store.load().received[summary.id] ?? {};
  state.setChallengeShown({ kind: "offer", id: summary.id, link, summary, reply: reply ?? null }, { open: true });
  requestDraw();
}

/** Deals the challenge shown (the Calypso of a day as the day is dealt: daily.js). */
export async function play(startDaily) {
  const shown = app.challenge.shown;
  if (!shown?.link) return;
  closeAllDialogs();
  const day = shown.summary.terms.daily;
  if (day) {
    await startDaily(day);
    return;
  }
  const name = store.lastName();
  await show(() => client.request("challenge_start", { challenge: shown.link, ...(name ? { name } : {}) }),
    msg("challenge.failed_start"));
}

// -- making a challenge --------------------------------------------------------------------------

/** Makes the challenge of the finished match in play, under the name in the sheet's field. */
export async function makeFromSheet() {
  const name = nameIn("[data-challenge-name]");
  try {
    const made = await client.request("challenge_make", { name });
    store.keepName(name);
    store.keepSent(made, made.link);
    state.setChallengeMade({ key: gameKey(app.view, app.table), link: made.link, summary: made });
    focusAfterDraw("[data-challenge-link=challenge-link]");
  } catch (error) {
    refused(error);
  }
  requestDraw();
}

/** Makes a challenge nobody has played yet from the New game form's settings. */
export async function makeBeforePlaying(settings) {
  const name = store.lastName();
  try {
    const made = await client.request("challenge_make", { name, settings });
    store.keepSent(made, made.link);
    state.setChallengeShown({ kind: "made", id: made.id, link: made.link, summary: made }, { open: true });
  } catch (error) {
    refused(error);
  }
  requestDraw();
}

/** The element ``selector`` takes the focus once the next draw has drawn it (the button that
 * made it is drawn anew). */
function focusAfterDraw(selector) {
  requestDraw();
  requestAnimationFrame(() => /** @type {HTMLElement | null} */ ($(selector))?.focus());
}

/** The name typed in a field, else the last one given. */
function nameIn(selector) {
  const field = $(selector);
  return field ? field.value.trim() : store.lastName();
}

/** Gives the challenge made before playing a new name: the same terms, a new link. */
export async function rename() {
  const shown = app.challenge.shown;
  if (shown?.kind !== "made" || shown.summary.played) return;
  const name = nameIn("[data-challenge-dialog-name]");
  store.keepName(name);
  const terms = shown.summary.terms;
  await makeBeforePlaying({ seed: terms.seed, rules: terms.rules, levels: terms.levels.map((l) => (l === "human" ? null : l)),
    people: [{ seat: terms.seat }], games: terms.games, suit: terms.suit ?? "random" });
}

// -- the end of a match -------------------------------------------------------------------------

/** The finished game the score sheet shows (the engine's view and table), to tell its
 * challenge links from another's. */
export const gameKey = (view, table) => (view && table
  ? `${table.settings.seed}|${view.match.game}|${view.plays}|${view.scores.join(",")}` : null);

/** At the end of a match against computer players without the clock: the challenge kept here
 * that it answers (the same terms), compared; the sender who played their own challenge gets
 * its link with their result. */
export async function gameOver(view, table) {
  if (!view.match.is_over || !namesOf(table).alone() || table.settings.clock !== false) return;
  if (table.daily && table.settings.straight) await makeDaily(table.daily);
  const kept = store.load();
  const same = (terms) => terms?.seed === table.settings.seed && terms.games === table.settings.games;
  const received = Object.entries(kept.received).filter(([, c]) => same(c.terms)).sort(([, a], [, b]) => b.at - a.at);
  const mine = Object.entries(kept.sent).filter(([, c]) => same(c.terms) && !c.played);
  const key = gameKey(view, table);
  if (received.length) {
    const [id, entry] = received[0];
    state.setChallengeAnswer({ key, id, link: entry.link, sender: entry.sender, reply: null });
    const result = await compare({ challenge: entry.link, ...(kept.name ? { name: kept.name } : {}) }, `${id}|here`);
    if (result) {
      const you = result.lines[result.you];
      const them = result.lines.find((line) => line.sender);
      store.keepAnswer(id, { lead: you.lead, lost: you.lost?.total ?? null, them: them?.lead ?? null });
      if (kept.name) await makeReply(kept.name);
    }
  } else if (mine.length) {
    const [id, entry] = mine[0];
    const summary = await summaryOf(entry.link);
    if (!summary) return;
    try {
      const made = await client.request("challenge_make", { name: summary.sender });
      store.keepSent(made, made.link);
      const side = table.seats.find((seat) => seat.person).side;
      store.keepOwn(id, { lead: view.match.totals[side] - view.match.totals[1 - side] });
      state.setChallengeMade({ key, link: made.link, summary: made });
    } catch (error) {
      refused(error);
    }
  }
  requestDraw();
}

/** The kept attempt at a day's deal is over: its challenge, which the share line carries. */
async function makeDaily(date) {
  try {
    const made = await client.request("challenge_make", { name: store.lastName() });
    store.keepSent(made, made.link, { daily: date });
  } catch (error) {
    refused(error);
  }
}

/** The address of the challenge made of a day's kept attempt, or null. */
export function dailyChallenge(date) {
  const entry = Object.values(store.load().sent).find((sent) => sent.daily === date && sent.played);
  return entry ? addressOf(entry.link) : null;
}

/** Makes the reply link of the challenge the finished match answers, under ``name`` (else the
 * name in the sheet's field). */
export async function makeReply(name = null) {
  const answer = app.challenge.answer;
  if (!answer) return;
  const given = name ?? nameIn("[data-reply-name]");
  try {
    const made = await client.request("challenge_reply", { challenge: answer.link, name: given });
    store.keepName(given);
    store.keepAnswer(answer.id, { reply: addressOf(answer.link, made.link) });
    state.setChallengeAnswer({ ...answer, reply: addressOf(answer.link, made.link), name: given });
    if (name === null) focusAfterDraw("[data-challenge-link=reply-link]");
  } catch (error) {
    refused(error);
  }
  requestDraw();
}

// -- the sender opens a reply ---------------------------------------------------------------------

/** Compares a reply with its challenge: the engine plays the friend's games again and
 * computes their score; once it holds, the reply is kept (once) and the standings shown. */
export async function openReply(challengeLink, replyLink) {
  const summary = await summaryOf(challengeLink);
  if (!summary) return;
  state.setChallengeShown({ kind: "compare", id: summary.id, link: challengeLink, summary, reply: replyLink },
    { open: true });
  const result = await compare({ challenge: challengeLink, reply: replyLink }, `${summary.id}|${replyLink}`);
  if (!result) return;
  const friend = result.lines.find((line) => !line.sender);
  const sender = result.lines.find((line) => line.sender);
  const key = app.challenge.compare.reply?.key;
  const known = Boolean(store.load().sent[summary.id]?.replies[key]);
  store.keepReply(summary, challengeLink, key, { link: replyLink, name: friend.name, lead: friend.lead,
    lost: friend.lost?.total ?? null }, sender ? { lead: sender.lead, lost: sender.lost?.total ?? null } : null);
  renderNotice(friend.name ? msg(known ? "challenge.reply_known" : "challenge.reply_kept", { name: friend.name })
    : msg(known ? "challenge.reply_known_anon" : "challenge.reply_kept_anon"));
  requestDraw();
}

// -- the comparison's loop ---------------------------------------------------------------------------

/** Runs a comparison to its end (the engine works 100 ms a request), drawing its progress;
 * its result, or null when it failed or another began. */
async function compare(payload, key) {
  const token = state.compareRunning(key);
  const stale = () => token !== app.challenge.compare.token;
  requestDraw();
  try {
    const budget = testBudget("review_budget");
    const iterations = testBudget("master_iterations");
    let progress = await client.request("challenge_compare", { ...payload, ...(budget ? { budget } : {}),
      ...(iterations ? { iterations } : {}) });
    if (stale()) return null;
    state.compareProgress(progress);
    requestDraw();
    while (!progress.finished) {
      progress = await client.request("challenge_compare_next", { job: progress.job });
      if (stale()) return null;
      state.compareProgress(progress);
      requestDraw();
    }
    return progress.result;
  } catch (error) {
    if (!stale()) {
      state.compareFailed(error);
      renderNotice(errorMessage(error));
    }
    return null;
  } finally {
    if (!stale()) state.compareIdle();
    requestDraw();
  }
}

// -- Menu → Challenges ------------------------------------------------------------------------------

/** Opens the list of the challenges sent and received. */
export function showList() {
  state.setChallengeShown({ kind: "list" }, { open: true });
  requestDraw();
}

/** Opens one challenge of the list: a received one not yet played is offered again; a sent
 * one shows its link and standings. */
export async function openEntry(id) {
  const kept = store.load();
  const sent = kept.sent[id];
  if (sent) {
    const summary = await summaryOf(sent.link);
    if (summary) state.setChallengeShown({ kind: "made", id, link: sent.link, summary });
  } else if (kept.received[id]) {
    await offer(kept.received[id].link);
    return;
  }
  requestDraw();
}

/** Forgets a challenge of the list. */
export function forgetEntry(id) {
  store.forget(id);
  requestDraw();
}

// -- passing a link on -----------------------------------------------------------------------------

/** Copies the link in the field ``selector``; where the clipboard is closed, selects it. */
export async function copyLink(selector) {
  const field = $(selector);
  if (!field) return;
  try {
    await navigator.clipboard.writeText(field.value);
    renderNotice(msg("challenge.copied"));
  } catch {
    field.select();
    renderNotice(msg("challenge.copy_yourself"));
  }
}

/** Opens the system's share sheet with the link in the field ``selector``, where there is one. */
export async function shareLink(selector) {
  const field = $(selector);
  if (!field || !navigator.share) return;
  try {
    await navigator.share({ url: field.value });
  } catch {
    // dismissed, or refused: the link stays in its field to copy
  }
}
