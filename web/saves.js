// Saved games: each game in play has its own save, and each tab plays one of them, so two
// tabs never overwrite each other's game and nothing played is lost without a word.
//
// A save is the engine's recipe ({record, settings, history}, what its "record" request
// gives) in an envelope {app, schema, game, saved, over, link}, under its own id of the
// storage's "save" entries (storage.js: the id "" is where earlier versions kept their one
// save, still read). The page writes it after every move.
//
// Which tab plays which save:
// - A tab holds its save with a Web Lock of the same name for as long as it is open, and
//   the tab's own storage ("tab") remembers the save's id: a reload of the tab (or the "new version…
//   Reload" prompt) takes the same save again, even if the old page lets go of the lock a
//   moment late. A duplicated tab finds the lock taken and plays another save.
// - A tab with no save of its own resumes the most recently played save no other tab
//   holds (unfinished games first); if every save is held, it deals a new game into a new
//   save and says why. Every save is listed in the Saved games dialog, to switch to or
//   delete; a save held by another tab is played there.
// - A link that deals a game (?seed=…) is remembered with its save: opening the link again
//   resumes that game where it was instead of dealing it again (app.js also takes the
//   game's parameters out of the address once they are used, so a reload resumes too).
// - A game played straight (the kept attempt at the Calypso of the day) is never
//   overwritten by another game while it is unfinished: the tab then plays the other game in
//   a new save, and the attempt waits in its own. Another tab may take a save over (open it
//   with steal): the tab that held it is told (onLost) and plays it no more.
//
// Saving can fail (storage full, or blocked by the browser). Then the last good save stays
// as it was, the newest one is kept in this tab's own storage (a reload of the tab
// still brings it back), every later move tries again, and save() says what happened so
// that the page can tell the person at once. Without Web Locks (a page not served over
// HTTPS or from localhost) every save counts as free: two tabs may then share one.

import { msg } from "./i18n.js";
import { app, setSave, setSaveLink } from "./state.js";
import { dropSettingsAside, idsOf, keyName, readText, writeText } from "./storage.js";

const SCHEMA = 1;
const APP = "calypso";
const RELOAD_GRACE_MS = 2_000; // how long a reloaded tab waits for its old page's lock
const MAX_READ_CHARS = 1_000_000; // far above a real save (a few KB): larger is damage

// The save this tab plays is the page's state (app.save: {id, link: {key, seed} | null} once
// claim() has run). The locks are the browser's Web Locks this tab holds: handles to release,
// not drawn.
const locks = new Map(); // lock name -> function that releases it
// Called with a save's id when another tab took its lock over (set once, app.js).
let lost = (id) => console.warn(`Calypso: save ${id} was taken over by another tab`);

function isObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

// -- reading ----------------------------------------------------------------------------

/** The ids of every save in this browser (readable or not). */
function allIds() {
  return idsOf("save");
}

// An envelope from its text: {envelope} or {problem} (a message for the person), or {} if none.
function parse(text) {
  if (text === null || text === undefined) return {};
  if (text.length > MAX_READ_CHARS) return { problem: msg("saves.too_large") };
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: msg("saves.unreadable") };
  }
  if (!isObject(value) || (value.app !== undefined && value.app !== APP)) {
    return { problem: msg("saves.other_app"), value };
  }
  if (value.schema !== SCHEMA) {
    return { problem: msg("saves.other_version", { format: String(JSON.stringify(value.schema)).slice(0, 20) }), value };
  }
  if (!isObject(value.game)) return { problem: msg("saves.incomplete"), value };
  return { envelope: value };
}

/** @returns {{envelope?: any, problem?: any, value?: any, text?: string | null}} */
function readSave(id) {
  const text = readText("save", id);
  return { ...parse(text), text };
}

function readTab() {
  try {
    const tab = JSON.parse(readText("tab") ?? "null");
    if (isObject(tab) && typeof tab.id === "string" && /^[\w-]{0,40}$/.test(tab.id)) {
      return { id: tab.id, pending: isObject(tab.pending) ? parse(JSON.stringify(tab.pending)).envelope ?? null : null,
        moved: tab.moved === true };
    }
  } catch {
    // unreadable: this tab has no save of its own yet
  }
  return null;
}

function writeTab(tab) {
  return writeText("tab", JSON.stringify(tab)) === null;
}

// -- locks ------------------------------------------------------------------------------

// A save's Web Lock is named as its key is.
const lockOf = (id) => keyName("save", id);

// Takes the lock of a save: at once if free (wait 0), else within waitMs; with steal, from
// whichever tab holds it. True if taken. A lock taken over by another tab later is said to
// lost().
function lock(id, waitMs = 0, { steal = false } = {}) {
  const name = lockOf(id);
  if (locks.has(name)) return Promise.resolve(true);
  if (!navigator.locks) return Promise.resolve(true);
  return new Promise((resolve) => {
    const options = steal ? { steal: true }
      : waitMs ? { signal: AbortSignal.timeout(waitMs) } : { ifAvailable: true };
    let held = false;
    navigator.locks.request(name, options, (granted) => {
      if (!granted) {
        resolve(false);
        return undefined;
      }
      held = true;
      resolve(true);
      return new Promise((release) => locks.set(name, release)); // held until released
    }).catch(() => {
      if (!held) {
        resolve(false); // the wait timed out
      } else if (locks.has(name)) {
        locks.delete(name); // another tab took it over (steal)
        lost(id);
      }
    });
  });
}

/** Calls fn(id) when another tab takes over a save this tab holds. */
export function onLost(fn) {
  lost = fn;
}

function unlock(id) {
  const name = lockOf(id);
  locks.get(name)?.();
  locks.delete(name);
}

/** Names of the saves other tabs hold. */
async function heldElsewhere() {
  if (!navigator.locks) return new Set();
  const { held } = await navigator.locks.query();
  return new Set(held.map((l) => l.name).filter((name) => name.startsWith(keyName("save")) && !locks.has(name)));
}

// -- choosing this tab's save ------------------------------------------------------------

function become(id, envelope = null) {
  if (app.save && app.save.id !== id) unlock(app.save.id);
  setSave({ id, link: envelope?.link ? { key: envelope.link, seed: envelope.game.settings?.seed } : null });
  writeTab({ id });
}

// A new save for a new game: the old single key when nobody uses it, else a fresh id.
async function claimNew() {
  if (!allIds().includes("") && await lock("")) return become("");
  const id = crypto.randomUUID().slice(0, 8);
  await lock(id);
  return become(id);
}

// The saves no other tab holds, most worth resuming first: unfinished, then most recent;
// unreadable ones last (each is set aside when its turn comes).
async function freeSaves() {
  const held = await heldElsewhere();
  const saves = allIds().filter((id) => !held.has(lockOf(id))).map((id) => ({ id, ...readSave(id) }));
  const rank = (s) => (s.envelope ? [s.envelope.over ? 1 : 0, -(Number(s.envelope.saved) || 0)] : [2, 0]);
  return saves.sort((a, b) => {
    const [x, y] = [rank(a), rank(b)];
    return x[0] - y[0] || x[1] - y[1];
  });
}

// Takes a save found at boot: {game} to load, or {problem} if it cannot be read (it is then
// set aside and this tab keeps the key for its new game).
function take(id, read) {
  if (read.envelope) {
    become(id, read.envelope);
    return { game: read.envelope.game };
  }
  become(id);
  setAside(read.value ?? { text: read.text?.slice(0, 100_000) });
  return { game: null, problem: read.problem };
}

/**
 * Chooses this tab's save at boot and holds it. link is the key of the game a link asks for
 * (null without one). Returns {game, notice, problem}: game ({record, settings, history})
 * to load, or null to deal a new game (the link's, if any) into this tab's new save;
 * notice says what the person should know; problem says why a save could not be read.
 */
export async function claim(link = null) {
  const tab = readTab();
  // A tab whose save was taken over (handOver) plays another: it waits for none.
  if (tab?.moved) {
    writeText("tab", null);
    const claimed = await claim(link);
    return { ...claimed, notice: [msg("saves.moved"), claimed.notice].filter(Boolean) };
  }
  if (tab && await lock(tab.id, RELOAD_GRACE_MS)) {
    const read = tab.pending ? { envelope: tab.pending } : readSave(tab.id);
    if (read.envelope && (!link || read.envelope.link === link)) {
      const taken = take(tab.id, read);
      if (tab.pending) save(tab.pending.game, { over: tab.pending.over }); // try the storage again
      return taken;
    }
    if (!link && (read.problem || read.value)) return take(tab.id, read);
    unlock(tab.id);
  }
  const free = await freeSaves();
  if (link) {
    const same = free.find((s) => s.envelope?.link === link && !s.envelope.over);
    if (same && await lock(same.id)) {
      const plays = same.envelope.game.record?.plays?.length ?? 0;
      return { ...take(same.id, same), notice: msg("saves.link_resumed", { count: plays }) };
    }
    await claimNew();
    return { game: null };
  }
  for (const candidate of free) {
    if (await lock(candidate.id)) return take(candidate.id, candidate);
  }
  const others = allIds().length;
  await claimNew();
  return {
    game: null,
    notice: others ? msg("saves.tab_dealt_new") : null,
  };
}

/** Remembers that the game being dealt comes from a link (key; null: it does not after all),
 * until another game is dealt. */
export function dealtFromLink(key) {
  setSaveLink(key ? { key, seed: null } : null);
}

// -- writing ----------------------------------------------------------------------------

/**
 * Saves the game in play ({record, settings, history}); over: the match is finished.
 * Returns {ok: true} or {ok: false, reason: "full" | "blocked", kept: "tab" | "nowhere"}.
 */
export function save(game, { over = false } = {}) {
  if (!app.save || !isObject(game)) return { ok: true };
  if (keepsOther(readSave(app.save.id).envelope, game)) moveToNew();
  // A link's game is known by its seed once dealt: a game with another seed is not the link's.
  const seed = game.settings?.seed;
  const link = app.save.link;
  if (link) setSaveLink(link.seed === null || link.seed === seed ? { key: link.key, seed } : null);
  const { id } = app.save;
  const envelope = { app: APP, schema: SCHEMA, game, saved: Date.now(), over: Boolean(over), link: app.save.link?.key ?? null };
  const text = JSON.stringify(envelope);
  let failure = writeText("save", text, id);
  if (failure?.name === "QuotaExceededError") {
    // Copies kept for a bug report are worth less than the game in play.
    writeText("save_aside", null);
    dropSettingsAside();
    failure = writeText("save", text, id);
  }
  if (!failure) {
    writeTab({ id });
    return { ok: true };
  }
  return {
    ok: false,
    reason: failure.name === "QuotaExceededError" ? "full" : "blocked",
    kept: writeTab({ id, pending: envelope }) ? "tab" : "nowhere",
  };
}

// Whether a save holds an unfinished game played straight (the kept attempt at the Calypso of
// the day) other than ``game``: it is not to be overwritten.
function keepsOther(envelope, game) {
  const kept = envelope?.game?.settings;
  return Boolean(kept?.straight) && !envelope.over
    && JSON.stringify(kept) !== JSON.stringify(game.settings);
}

// This tab plays its game in a new save from now on; the one it played stays as it is.
function moveToNew() {
  const id = crypto.randomUUID().slice(0, 8);
  lock(id); // nobody else has this id: taken at once
  become(id);
}

/** Whether a save holds an unfinished game played straight (a kept attempt). */
export function holdsKept(id) {
  const { envelope } = typeof id === "string" ? readSave(id) : {};
  return Boolean(envelope?.game?.settings?.straight) && !envelope.over;
}

/** Where a save is: "here" (this tab plays it), "elsewhere" (another tab holds it), "free",
 * or "gone" (it no longer holds an unfinished game played straight: deleted, or over). */
export async function whereKept(id) {
  if (!holdsKept(id)) return "gone";
  if (id === app.save?.id) return "here";
  return (await heldElsewhere()).has(lockOf(id)) ? "elsewhere" : "free";
}

/** Empties this tab's save (a kept attempt given up): the next game is saved in its place. */
export function forget() {
  if (app.save) writeText("save", null, app.save.id);
}

/** This tab's save was taken over by another tab: it is saved here no more, and a reload of
 * the tab plays another (claim says why). */
export function handOver() {
  setSave(null);
  writeTab({ id: "", moved: true });
}

/** Moves this tab's save out of the way when it cannot be loaded (kept for a bug report). */
export function setAside(game) {
  writeText("save_aside", JSON.stringify(game));
  if (app.save) writeText("save", null, app.save.id);
  writeTab({ id: app.save?.id ?? "" });
}

// -- the Saved games dialog --------------------------------------------------------------

/**
 * Every save, this tab's first: {id, mine, elsewhere (held by another tab), settings, plays,
 * game, games, levels, over, saved (ms), problem}.
 */
export async function list() {
  const held = await heldElsewhere();
  const rows = allIds().map((id) => {
    const { envelope, problem } = readSave(id);
    const game = envelope?.game;
    return {
      id,
      mine: id === app.save?.id,
      elsewhere: held.has(lockOf(id)),
      settings: isObject(game?.settings) ? game.settings : null,
      plays: Array.isArray(game?.record?.plays) ? game.record.plays.length : null,
      game: Array.isArray(game?.history) ? game.history.length + 1 : 1,
      games: game?.settings?.games ?? 1,
      levels: Array.isArray(game?.settings?.levels) ? game.settings.levels : [],
      over: Boolean(envelope?.over),
      saved: Number(envelope?.saved) || 0,
      problem: problem ?? null,
    };
  });
  return rows.sort((a, b) => Number(b.mine) - Number(a.mine) || b.saved - a.saved);
}

/**
 * Prepares to play another save in this tab: {game, commit(), cancel()} once its lock is
 * taken (commit after the engine loaded it: this tab then lets go of its old save, which
 * stays saved), or {problem} if it is open in another tab or cannot be read. With steal, it
 * is taken from the tab that holds it.
 */
export async function open(id, { steal = false } = {}) {
  if (id === app.save?.id) return { problem: msg("saves.in_play_here") };
  if (!await lock(id, 0, { steal })) return { problem: msg("saves.open_elsewhere") };
  const { envelope, problem } = readSave(id);
  if (!envelope) {
    unlock(id);
    return { problem: problem ?? msg("saves.gone") };
  }
  return {
    game: envelope.game,
    commit: () => become(id, envelope),
    cancel: () => unlock(id),
  };
}

/** Deletes a save that no tab holds; returns a problem (a message), or null. */
export async function remove(id) {
  if (id === app.save?.id) return msg("saves.no_delete_here");
  if (!await lock(id)) return msg("saves.open_elsewhere_short");
  writeText("save", null, id);
  unlock(id);
  return null;
}
