// Statistics kept in this browser: games and matches played and won, calypsos made, average
// and best scores, per computer level, for games one person played against the computers
// (pass-and-play games between several people are not counted: whose statistics would they
// be?). Each finished game is counted once, by an id made of its seed, game number and plays,
// however often the page shows it (reloads included).

const KEY = "calypso.stats.v1";
const MAX_IDS = 50; // ids of the last games counted, so a reload does not count one twice

function blank() {
  return { version: 1, levels: {}, counted: [] };
}

function line() {
  return { games: 0, won: 0, drawn: 0, matches: 0, matches_won: 0, calypsos: 0,
    total: 0, best: null };
}

function isCount(n) {
  return Number.isInteger(n) && n >= 0;
}

function cleanLine(raw) {
  const clean = line();
  if (!raw || typeof raw !== "object") return clean;
  for (const key of ["games", "won", "drawn", "matches", "matches_won", "calypsos", "total"]) {
    if (isCount(raw[key])) clean[key] = raw[key];
  }
  if (Number.isInteger(raw.best)) clean.best = raw.best;
  return clean;
}

/** The statistics: {levels: {level: {games, won, drawn, matches, matches_won, calypsos, total, best}}}. */
export function load() {
  let raw = null;
  try {
    raw = JSON.parse(localStorage.getItem(KEY) ?? "null");
  } catch {
    raw = null;
  }
  const stats = blank();
  if (!raw || typeof raw !== "object" || raw.version !== 1) return stats;
  if (raw.levels && typeof raw.levels === "object") {
    for (const [level, value] of Object.entries(raw.levels)) {
      if (typeof level === "string" && level.length <= 40) stats.levels[level] = cleanLine(value);
    }
  }
  if (Array.isArray(raw.counted)) {
    stats.counted = raw.counted.filter((id) => typeof id === "string").slice(-MAX_IDS);
  }
  return stats;
}

function save(stats) {
  try {
    localStorage.setItem(KEY, JSON.stringify(stats));
  } catch {
    // storage full or blocked: statistics are a nicety
  }
}

/** The level a game was played against: the computers' level, or "mixed". */
function levelOf(table) {
  const levels = table.seats.filter((s) => !s.person).map((s) => s.level);
  return levels.every((level) => level === levels[0]) ? levels[0] : "mixed";
}

/** Counts a finished game of one person (and its match, when that is over) once; returns
 * true if counted. view and table: the engine's view and its match facts. */
export function countGame(view, table) {
  const people = table?.seats.map((s, seat) => (s.person ? seat : null)).filter((s) => s !== null) ?? [];
  if (view?.status !== "game_over" || !view.sheet || people.length !== 1) return false;
  const you = people[0];
  const side = table.seats[you].side;
  const id = `${table.settings.seed}|${view.match.game + 1}|${view.plays}|${JSON.stringify(view.scores)}`;
  const stats = load();
  if (stats.counted.includes(id)) return false;
  const level = levelOf(table);
  const entry = stats.levels[level] ?? line();
  const ours = view.scores[side];
  entry.games += 1;
  if (view.sheet.winner === side) entry.won += 1;
  if (view.sheet.winner === null) entry.drawn += 1;
  entry.calypsos += view.seats[you].completed;
  entry.total += ours;
  entry.best = entry.best === null ? ours : Math.max(entry.best, ours);
  if (view.match.is_over && view.match.games > 1) {
    entry.matches += 1;
    if (view.match.winner === side) entry.matches_won += 1;
  } else if (view.match.games === 1) {
    entry.matches += 1;
    if (view.sheet.winner === side) entry.matches_won += 1;
  }
  stats.levels[level] = entry;
  stats.counted = [...stats.counted, id].slice(-MAX_IDS);
  save(stats);
  return true;
}

export function reset() {
  save(blank());
}

/** Rows for drawing: one per level played, then the total. */
export function rows(stats = load()) {
  const all = line();
  const result = [];
  for (const [level, entry] of Object.entries(stats.levels).sort()) {
    if (!entry.games) continue;
    result.push({ level, ...entry, average: Math.round(entry.total / entry.games) });
    for (const key of ["games", "won", "drawn", "matches", "matches_won", "calypsos", "total"]) {
      all[key] += entry[key];
    }
    if (entry.best !== null) all.best = all.best === null ? entry.best : Math.max(all.best, entry.best);
  }
  if (result.length > 1) {
    result.push({ level: "all", ...all, average: Math.round(all.total / all.games) });
  }
  return result;
}
