// The page's forms: the new-game dialog (each seat a person on this device, with a name, a
// guest — a friend on another device, web/remote/ — or a computer player of a level; rules;
// match length; suit; speed; seed) and the settings. The choices
// come from the engine's hello, their words from the catalogs; the forms only read and write
// them.

import { $, $$, h, redraw } from "./dom.js";
import { msg, say, seatName, t } from "./i18n.js";
import { app } from "./state.js";

const PERSON = "person";
const GUEST = "guest";
// The order the dialog lists people in, so that the first person (whose suit "suit" sets) is
// the engine's default person (South) when that seat has one: from there, clockwise (the
// seats and the default people as the engine's hello gives them).
const peopleOrder = ({ seats, people }) => seats.map((_, i) => (people.default[0] + i) % seats.length);
const defaultPeople = ({ people }) => people.default.map((seat) => ({ seat, name: "" }));

const form = () => $("[data-new-game-form]");

/** "Expert (level 4 of 5, the strongest): … Thinks up to 2 s a move." — where the level
 * stands among the engine's levels (weakest first), what it does and how long it thinks. */
function levelHelp(level, levels) {
  const think = level.think_ms ? msg("form.thinks", { seconds: level.think_ms / 1000 }) : msg("form.at_once");
  const at = levels.indexOf(level);
  const key = at === 0 ? "form.level_help_weakest" : at === levels.length - 1 ? "form.level_help_strongest"
    : "form.level_help";
  return t(key, { name: level.label, at: at + 1, count: levels.length, help: level.help, think });
}

/** Fills the new-game form's choices from the engine's hello: levels (weakest first), the
 * seats, rule options, match lengths and suits (again when the language changes: the dialog
 * sets its values each time it opens). */
export function fillNewGameForm(hello) {
  const f = form();
  const levelOptions = () => hello.levels.map((l) => h("option", { value: l.key, text: say(l.label) }));
  redraw($("select[data-levels]", f), JSON.stringify(hello.levels), levelOptions);
  redraw($("[data-seat-choices]", f), JSON.stringify([hello.seats, hello.levels]), () =>
    hello.seats.map((seat, i) => h("div", { class: "seat-choice", "data-seat-choice": i },
      h("label", { for: `ng-seat-${i}`, text: seatName(i) }),
      h("select", { id: `ng-seat-${i}`, name: `seat_${i}`, "data-seat-select": i },
        h("option", { value: PERSON, text: t("form.person") }),
        h("option", { value: GUEST, text: t("form.guest") }), levelOptions()),
      h("input", { id: `ng-name-${i}`, name: `name_${i}`, type: "text", autocomplete: "off",
        maxlength: hello.people.name_chars, placeholder: t("form.name_placeholder"),
        "aria-label": t("form.name_label", { seat: i }) }))));
  redraw($("[data-rule-options]", f), JSON.stringify(hello.options), () =>
    hello.options.map((o) => h("label", { class: "check check-help" },
      h("input", { type: "checkbox", name: `rule_${o.key}`, "data-rule": o.key,
        "data-default": o.default ? "true" : "false" }),
      h("span", {}, h("b", { text: say(o.label) }), h("span", { class: "help", text: say(o.help) })))));
  redraw(f.elements.games, JSON.stringify(hello.games), () =>
    Array.from({ length: hello.games.max - hello.games.min + 1 }, (_, i) => hello.games.min + i)
      .map((n) => h("option", { value: n, text: t("form.games", { count: n }) })));
  redraw(f.elements.suit, JSON.stringify(hello.cards.suits), () => [
    h("option", { value: "random", text: t("form.random_suit") }),
    ...hello.cards.suits.map((s) => h("option", { value: s.key, text: t("form.suit", { suit: s.key }) }))]);
  f.dataset.levels = JSON.stringify(hello.levels);
}

/** Puts settings into the new-game form: {level, levels, people, rules, games, suit, speed}. */
export function setNewGameForm(settings) {
  const f = form();
  f.elements.level.value = settings.level;
  const everyone = settings.people ?? defaultPeople(app.hello);
  const people = new Map(everyone.map((p) => [p.seat, p.name ?? ""]));
  const guests = everyone.filter((p) => p.remote).map((p) => p.seat);
  f.dataset.hosting = JSON.stringify(guests); // the guests of the table in play, if any
  for (const select of $$("[data-seat-select]", f)) {
    const seat = Number(select.dataset.seatSelect);
    select.value = guests.includes(seat) ? GUEST : people.has(seat) ? PERSON : settings.levels?.[seat] ?? settings.level;
    if (!select.value) select.value = settings.level;
    f.elements[`name_${seat}`].value = people.get(seat) ?? "";
  }
  for (const box of $$("[data-rule]", f)) {
    box.checked = settings.rules?.[box.dataset.rule] ?? box.dataset.default === "true";
  }
  f.elements.games.value = String(settings.games ?? 1);
  f.elements.suit.value = settings.suit ?? "random";
  f.elements.speed.value = settings.speed ?? "normal";
  f.elements.seed.value = "";
  updateNewGameForm();
}

/** The "Level" choice sets every seat a computer plays. */
export function setAllLevels() {
  const f = form();
  for (const select of $$("[data-seat-select]", f)) {
    if (select.value !== PERSON && select.value !== GUEST) select.value = f.elements.level.value;
  }
  updateNewGameForm();
}

/** Shows a name field for each person, what the level is like, whose suit the suit choice
 * sets, and keeps Deal off until some seat has a person. */
export function updateNewGameForm() {
  const f = form();
  const seats = $$("[data-seat-select]", f);
  const people = peopleOrder(app.hello).filter((seat) => seats[seat]?.value === PERSON);
  for (const select of seats) {
    const seat = Number(select.dataset.seatSelect);
    f.elements[`name_${seat}`].hidden = !people.includes(seat);
  }
  const levels = JSON.parse(f.dataset.levels ?? "[]");
  const level = levels.find((l) => l.key === f.elements.level.value);
  $("[data-level-help]", f).textContent = level ? levelHelp(level, levels) : "";
  $("[data-suit-label]", f).textContent = people.length <= 1 ? t("form.your_suit")
    : t("form.seat_suit", { seat: people[0] });
  $("[data-no-person]", f).hidden = people.length > 0;
  $("[data-deal]", f).disabled = people.length === 0;
  // Guests other than the table's in play open a new table (its invitations come next).
  const guests = seats.filter((select) => select.value === GUEST).map((select) => Number(select.dataset.seatSelect));
  const opens = guests.length > 0 && JSON.stringify(guests) !== (f.dataset.hosting ?? "[]");
  $("[data-deal]", f).textContent = t(opens ? "form.open_table" : "form.deal");
}

/** Reads the new-game form into settings: {level, levels (null when every computer plays at
 * level), people (this device's, from the default person's seat, clockwise), guests (the
 * seats of friends on other devices, North first), rules, games, suit, speed, seed}. */
export function readNewGameForm() {
  const f = form();
  const level = f.elements.level.value;
  const seats = $$("[data-seat-select]", f).map((select) => select.value);
  const people = peopleOrder(app.hello).filter((seat) => seats[seat] === PERSON)
    .map((seat) => ({ seat, name: f.elements[`name_${seat}`].value.trim() }));
  const guests = seats.flatMap((value, seat) => (value === GUEST ? [seat] : []));
  const levels = seats.map((value) => (value === PERSON ? null : value === GUEST ? level : value));
  const rules = {};
  for (const box of $$("[data-rule]", f)) rules[box.dataset.rule] = box.checked;
  return {
    level,
    levels: levels.every((l) => l === null || l === level) ? null : levels,
    people,
    guests,
    rules,
    games: Number(f.elements.games.value),
    suit: f.elements.suit.value,
    speed: f.elements.speed.value,
    seed: f.elements.seed.value.trim(),
  };
}

// -- settings -------------------------------------------------------------------------------

/** Puts preferences into the settings form (checkboxes for booleans, selects for choices). */
export function setPrefsForm(f, prefs, speed) {
  for (const [key, value] of Object.entries(prefs)) {
    const field = f.elements[key];
    if (!field) continue;
    if (field.type === "checkbox") field.checked = value;
    else field.value = value;
  }
  if (f.elements.speed) f.elements.speed.value = speed;
}

export function readPrefsForm(f, prefs) {
  const next = { ...prefs };
  for (const key of Object.keys(prefs)) {
    const field = f.elements[key];
    if (!field) continue;
    next[key] = field.type === "checkbox" ? field.checked : field.value;
  }
  return { prefs: next, speed: f.elements.speed?.value };
}
