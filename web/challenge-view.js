// Drawing a challenge among friends (challenge.js acts): its section of the score sheet, its
// dialog (a challenge received, a link made, a reply compared, Menu → Challenges), the
// comparison of two matches deal by deal with the master's line, and the standings. It only
// draws what the engine and the kept list say: every figure is the engine's, in a
// partnership's lead.

import { addressOf, gameKey } from "./challenge.js";
import * as store from "./challenge-store.js";
import { h, points, redraw } from "./dom.js";
import { errorMessage } from "./flow.js";
import { dateTime, list, say, t } from "./i18n.js";
import { dealName, gameName } from "./after-words.js";

// What a line is called: "You" for this device's person, else their name ("A friend" when
// they gave none).
const named = (name) => name || t("challenge.anon");
/** A sentence about a friend: with their name, or the words for one who gave none (``anon``,
 * the same sentence with "your friend": a label such as "A friend" reads as a name). */
const aboutFriend = (name, id, anon, params = {}) => (name ? t(id, { ...params, name }) : t(anon, params));
const lineName = (result, i) => (i === result.you ? t("challenge.you") : named(result.lines[i].name));
const signed = (n) => (n > 0 ? `+${points(n)}` : points(n));

/** The terms of a challenge as a list of sentences (the engine's summary, hello's labels). */
export function termsOf(terms, hello) {
  const level = (key) => say(hello.levels.find((l) => l.key === key)?.label ?? key);
  const rules = hello.options.filter((o) => terms.rules[o.key] !== o.default).map((o) => say(o.label));
  const computers = terms.levels.map((key, seat) => (key === "human" ? null
    : t("challenge.term_level_seat", { seat, level: level(key) }))).filter(Boolean);
  const lines = terms.daily ? [t("challenge.term_daily", { date: terms.daily })] : [
    t("challenge.term_games", { count: terms.games }),
    t("challenge.term_levels", { levels: list(computers) }),
    rules.length ? t("challenge.term_rules", { rules: list(rules) }) : t("challenge.term_standard"),
  ];
  lines.push(t("challenge.term_seat", { seat: terms.seat }),
    terms.suit ? t("challenge.term_suit", { suit: terms.suit }) : t("challenge.term_suit_random"));
  return h("ul", { class: "challenge-terms", "data-challenge-terms": true }, lines.map((line) => h("li", { text: line })));
}

/** A link with its Copy and Share buttons and its QR code (drawn once the QR module loads). */
function linkBox(id, label, href, qrLabel) {
  const box = h("div", { class: "challenge-link" },
    h("label", { class: "share-label", for: id, text: label }),
    h("div", { class: "share-row" },
      h("input", { id, class: "share-line", type: "text", readonly: true, value: href, "data-challenge-link": id }),
      h("button", { type: "button", class: "btn", "data-action": "challenge_copy", "data-value": `#${id}`,
        text: t("challenge.copy") }),
      "share" in navigator ? h("button", { type: "button", class: "btn", "data-action": "challenge_share",
        "data-value": `#${id}`, text: t("challenge.share") }) : null));
  const qr = h("div", { class: "challenge-qr", "data-challenge-qr": true });
  import("./remote/qr.js").then(({ qrCode }) => qr.append(qrCode(href, qrLabel)), () => {});
  box.append(qr);
  return box;
}

// A name's field, as long as the engine lets a name be (hello.people.name_chars).
function nameField(id, label, value, hello) {
  return h("div", { class: "field" }, h("label", { for: id, text: label }),
    h("input", { id, type: "text", maxlength: hello.people.name_chars, autocomplete: "nickname", value,
      [`data-${id}`]: true }));
}

const honest = () => h("p", { class: "detail challenge-honest", text: t("challenge.honest") });

// -- the comparison ----------------------------------------------------------------------------

function cell(value, attrs = {}) {
  return h("td", attrs, value === null || value === undefined ? t("challenge.waiting") : points(value));
}

/** One game's table: the lead after each deal of each line and of the master, the difference,
 * and each line's points lost. */
function gameTable(result, game) {
  const lines = result.lines;
  const both = lines.length === 2 && result.you !== null;
  const master = result.master?.games[game] ?? null;
  const head = h("tr", {}, h("th", { scope: "col", text: t("charts.deal_column") }),
    lines.map((_, i) => h("th", { scope: "col", text: lineName(result, i) })),
    h("th", { scope: "col", text: t("challenge.col_master") }),
    both ? h("th", { scope: "col", text: t("challenge.col_difference") }) : null);
  const rows = lines[0].games[game].deals.map((_, deal) => h("tr", { "data-deal": deal },
    h("th", { scope: "row", text: dealName(deal) }),
    lines.map((line) => cell(line.games[game].deals[deal])),
    cell(master?.deals[deal]),
    both ? h("td", { text: signed(lines[result.you].games[game].deals[deal] - lines[1 - result.you].games[game].deals[deal]) }) : null));
  const lost = h("tr", { class: "challenge-lost", "data-challenge-lost": true },
    h("th", { scope: "row", text: t("challenge.row_lost") }),
    lines.map((line) => cell(line.lost?.games[game].total)), h("td", { text: "" }), both ? h("td", { text: "" }) : null);
  return h("table", { class: "sheet challenge-table", "data-challenge-game": game },
    h("caption", { text: result.lines[0].games.length > 1 ? gameName(game + 1) : t("challenge.deal_by_deal") }),
    h("thead", {}, head), h("tbody", {}, rows, lost));
}

/** Where two games of the challenge first parted, in one sentence each: this device's
 * person's card first (two lines have a "you": the sender's and a friend's). */
function partedLines(result) {
  if (!result.parted || result.you === null) return [];
  const you = result.you;
  const other = result.lines[1 - you].name;
  return result.parted.map((p, game) => h("p", { class: "challenge-parted", "data-parted": p ? `${p.deal},${p.trick}` : "alike" },
    !p ? t("challenge.alike", { game: game + 1 }) : aboutFriend(other, "challenge.parted", "challenge.parted_anon", { game: game + 1,
      deal: p.deal + 1, trick: p.trick + 1, seat: p.seat, your_card: p.cards[you], other_card: p.cards[1 - you] })));
}

/** The comparison as far as it is known: the verdict, where the games parted, the tables. */
export function comparison(compare) {
  const result = compare.result;
  if (!result) {
    if (!compare.running) return [];
    return [h("progress", { max: Math.max(compare.total, 1), value: compare.done, "aria-label": t("challenge.progress_label") }),
      h("p", { class: "detail", role: "status", text: t("challenge.comparing", { done: compare.done, total: compare.total }) })];
  }
  const other = result.you === null ? null : result.lines[1 - result.you];
  const verdict = result.difference === null ? null : h("p", { class: "verdict", "data-challenge-difference": result.difference,
    text: result.difference === 0 ? aboutFriend(other.name, "challenge.level", "challenge.level_anon")
      : result.difference > 0 ? aboutFriend(other.name, "challenge.more", "challenge.more_anon", { count: result.difference })
        : aboutFriend(other.name, "challenge.less", "challenge.less_anon", { count: -result.difference }) });
  return [
    verdict,
    ...partedLines(result),
    result.clocked ? h("p", { class: "detail", text: t("challenge.clocked_note") }) : null,
    h("div", { class: "sheet-scroll" }, result.lines[0].games.map((_, game) => gameTable(result, game))),
    result.lines[0].games.length > 1 ? h("p", { "data-challenge-match": true, text: t("challenge.match_leads", {
      leads: list(result.lines.map((line, i) => t("challenge.name_lead", { name: lineName(result, i), lead: signed(line.lead) }))) }) }) : null,
    compare.running ? h("p", { class: "detail", role: "status", text: t("challenge.comparing", { done: compare.done, total: compare.total }) }) : null,
    h("p", { class: "detail", text: t("challenge.lead_note") }),
  ];
}

/** The standings of a challenge sent: the sender (when played) and every reply kept, by lead. */
export function standings(entry) {
  const rows = Object.entries(entry.replies).map(([key, r]) => ({ key, name: named(r.name), lead: r.lead, lost: r.lost }));
  if (entry.played && entry.lead !== null) rows.push({ key: "", name: entry.sender ? `${entry.sender} (${t("challenge.you")})` : t("challenge.you"), lead: entry.lead, lost: entry.lost });
  rows.sort((a, b) => (b.lead ?? -Infinity) - (a.lead ?? -Infinity));
  if (!rows.length) return null;
  // Equal leads share a place: one more than the number of leads above.
  const place = (row) => 1 + rows.filter((other) => (other.lead ?? -Infinity) > (row.lead ?? -Infinity)).length;
  return h("table", { class: "sheet challenge-standings", "data-standings": true },
    h("caption", { text: t("challenge.standings") }),
    h("thead", {}, h("tr", {}, h("th", { scope: "col", text: t("challenge.col_place") }),
      h("th", { scope: "col", text: t("challenge.col_name") }), h("th", { scope: "col", text: t("challenge.col_lead") }),
      h("th", { scope: "col", text: t("challenge.col_lost") }))),
    h("tbody", {}, rows.map((row) => h("tr", { "data-standing": row.key },
      h("td", { text: points(place(row)) }), h("th", { scope: "row", text: row.name }),
      cell(row.lead), cell(row.lost)))));
}

// -- the score sheet -------------------------------------------------------------------------

// An element's child of that name, made the first time: the parts of a section that change
// at different times are redrawn apart, so a comparison in progress never rebuilds (and takes
// the focus from) a field or a button beside it.
function part(el, name) {
  let child = el.querySelector(`:scope > [data-part=${name}]`);
  if (!child) {
    child = h("div", { "data-part": name });
    el.append(child);
  }
  return child;
}

/** Draws the challenge's part of the score sheet of a finished match: its comparison and the
 * reply link (a challenge answered), the link of a challenge made, or the offer to make one. */
export function drawSheetChallenge(el, ui) {
  const { view, table } = ui;
  const c = ui.challenge;
  const key = gameKey(view, table);
  const open = view.status === "game_over" && view.match.is_over && ui.names.alone()
    && document.documentElement.dataset.remote !== "guest";
  el.hidden = !open;
  const answer = open && c.answer?.key === key ? c.answer : null;
  const made = open && c.made?.key === key ? c.made : null;
  const compare = answer && c.compare.key === `${answer.id}|here` ? c.compare : null;
  redraw(part(el, "compare"), JSON.stringify([answer?.id, compare && [compare.done, compare.result, compare.running]]),
    () => (answer ? [h("h3", { text: aboutFriend(answer.sender, "challenge.from", "challenge.from_anon") }),
      compare ? comparison(compare) : null] : []));
  // The game's key holds its seed: kept out of the page (a data-key) until the sheet is open to
  // one person, whose match is over (names.js nameableSeed: at a hand-off it re-deals a hand).
  // The kept name is read from storage only then, not at every draw of the game.
  redraw(part(el, "send"), JSON.stringify([open, open && key, answer, made?.link, open && store.lastName()]), () => {
    if (!open) return [];
    if (answer) {
      return [
        h("h3", { text: t("challenge.reply_title") }),
        h("p", { text: aboutFriend(answer.sender, "challenge.reply_lead", "challenge.reply_lead_anon") }),
        h("div", { class: "share-row" }, nameField("reply-name", aboutFriend(answer.sender, "challenge.reply_name", "challenge.reply_name_anon"),
          answer.name ?? store.lastName(), ui.hello),
        h("button", { type: "button", class: "btn", "data-action": "challenge_reply", text: t("challenge.make_reply") })),
        answer.reply ? linkBox("reply-link", t("challenge.reply_link"), answer.reply, t("challenge.qr")) : null,
        honest(),
      ];
    }
    if (made) {
      return [h("h3", { text: t("challenge.sheet_title") }),
        h("p", { text: made.summary.played ? t("challenge.made_lead") : t("challenge.fresh_lead") }),
        linkBox("challenge-link", t("challenge.link"), addressOf(made.link), t("challenge.qr")), honest()];
    }
    return [h("h3", { text: t("challenge.sheet_title") }), h("p", { text: t("challenge.offer_make") }),
      h("div", { class: "share-row" }, nameField("challenge-name", t("challenge.your_name"), store.lastName(), ui.hello),
        h("button", { type: "button", class: "btn", "data-action": "challenge_make", text: t("challenge.make") })),
      honest()];
  });
}

// -- the dialog ------------------------------------------------------------------------------

/** Draws the challenge dialog from what it shows (app.challenge.shown): a comparison in
 * progress redraws its own part only. */
export function drawChallengeDialog(el, ui) {
  const c = ui.challenge;
  const shown = c.shown;
  const kept = shown?.kind === "list" || shown?.kind === "compare" || shown?.kind === "made" ? store.load() : null;
  const live = shown?.kind === "compare" && c.compare.key === `${shown.id}|${shown.reply}` ? c.compare : null;
  redraw(part(el, "head"), JSON.stringify([shown, shown?.kind === "compare" ? null : kept,
    shown?.kind === "compare" ? c.compare.reply?.name : null]), () => {
    if (!shown) return [];
    if (shown.kind === "offer") return offerView(shown, ui.hello);
    if (shown.kind === "made") return madeView(shown, kept, ui.hello);
    if (shown.kind === "compare") return title(c.compare.reply ? aboutFriend(c.compare.reply.name, "challenge.reply_from", "challenge.reply_from_anon")
      : t("challenge.reply_opened"));
    return listView(kept);
  });
  redraw(part(el, "live"), JSON.stringify(live && [live.done, live.result, live.running, live.problem?.code]), () => (live ? [
    live.problem ? h("p", { class: "challenge-problem", role: "alert", "data-challenge-problem": live.problem.code ?? "",
      text: say(errorMessage(live.problem)) }) : null,
    comparison(live)] : []));
  redraw(part(el, "tail"), JSON.stringify(shown?.kind === "compare" && [kept.sent[shown.id], live?.running]), () => (
    shown?.kind === "compare" ? [kept.sent[shown.id] ? standings(kept.sent[shown.id]) : null,
      h("div", { class: "form-actions" },
        h("button", { type: "button", class: "btn", "data-action": "challenges", text: t("challenge.all") }))] : []));
}

function title(text) {
  return h("h2", { id: "challenge-title", tabindex: "-1", autofocus: true, text });
}

function offerView(shown, hello) {
  const { summary } = shown;
  const sender = summary.sender;
  return [
    title(aboutFriend(sender, "challenge.offer_title", "challenge.offer_title_anon")),
    h("p", { text: aboutFriend(sender, "challenge.offer_lead", "challenge.offer_lead_anon") }),
    termsOf(summary.terms, hello),
    h("p", { class: "detail", text: summary.played ? aboutFriend(sender, "challenge.offer_hidden", "challenge.offer_hidden_anon")
      : aboutFriend(sender, "challenge.offer_fresh", "challenge.offer_fresh_anon") }),
    summary.clocked ? h("p", { class: "detail", text: aboutFriend(sender, "challenge.offer_clocked", "challenge.offer_clocked_anon") }) : null,
    shown.reply ? linkBox("offer-reply", t("challenge.reply_link"), shown.reply, t("challenge.qr")) : null,
    honest(),
    h("div", { class: "form-actions" },
      h("button", { type: "button", class: "btn btn-primary", "data-action": "challenge_play", text: t("challenge.play") })),
  ];
}

function madeView(shown, kept, hello) {
  const entry = kept.sent[shown.id];
  return [
    title(t("challenge.sheet_title")),
    h("p", { text: shown.summary.played ? t("challenge.made_lead") : t("challenge.fresh_lead") }),
    termsOf(shown.summary.terms, hello),
    shown.summary.played ? null : h("div", { class: "share-row" },
      nameField("challenge-dialog-name", t("challenge.your_name"), shown.summary.sender, hello),
      h("button", { type: "button", class: "btn", "data-action": "challenge_rename", text: t("challenge.rename") })),
    linkBox("dialog-link", t("challenge.link"), addressOf(shown.link), t("challenge.qr")),
    entry ? standings(entry) : null,
    honest(),
    h("div", { class: "form-actions" },
      h("button", { type: "button", class: "btn", "data-action": "challenges", text: t("challenge.all") }),
      shown.summary.played ? null : h("button", { type: "button", class: "btn btn-primary", "data-action": "challenge_play",
        text: t("challenge.play_now") })),
  ];
}

function listView(kept) {
  const sent = Object.entries(kept.sent).sort(([, a], [, b]) => b.at - a.at);
  const received = Object.entries(kept.received).sort(([, a], [, b]) => b.at - a.at);
  const row = (id, text, extra) => h("li", { class: "save-row", "data-challenge-row": id },
    h("span", { text }), h("span", { class: "save-actions" }, extra,
      h("button", { type: "button", class: "btn", "data-action": "challenge_open", "data-value": id, text: t("challenge.open") }),
      h("button", { type: "button", class: "btn", "data-action": "challenge_forget", "data-value": id, text: t("challenge.forget") })));
  return [
    title(t("challenge.list_title")),
    h("p", { class: "dialog-lead", text: t("challenge.list_lead") }),
    !sent.length && !received.length ? h("p", { text: t("challenge.none") }) : null,
    sent.length ? h("h3", { text: t("challenge.sent_title") }) : null,
    sent.length ? h("ul", { class: "saves-list challenge-list" }, sent.map(([id, entry]) => {
      const item = row(id, aboutFriend(entry.sender, "challenge.sent_row", "challenge.sent_row_anon", {
        replies: Object.keys(entry.replies).length, when: dateTime(entry.at) }), null);
      const table = standings(entry);
      if (table) item.append(table);
      return item;
    })) : null,
    received.length ? h("h3", { text: t("challenge.received_title") }) : null,
    received.length ? h("ul", { class: "saves-list" }, received.map(([id, entry]) => row(id,
      entry.lead === null ? aboutFriend(entry.sender, "challenge.received_new", "challenge.received_new_anon")
        : entry.them === null ? aboutFriend(entry.sender, "challenge.received_fresh", "challenge.received_fresh_anon", { you: signed(entry.lead) })
          : aboutFriend(entry.sender, "challenge.received_row", "challenge.received_row_anon", { you: signed(entry.lead), them: signed(entry.them) }), null))) : null,
  ];
}
