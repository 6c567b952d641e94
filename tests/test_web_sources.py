"""Rules the page's modules keep, read from their sources (web/, the friends' table too):
one module owns the page's state (no other keeps state of its own at its top level, but for
the handles listed with their reasons), one owns the browser's storage, and the page repeats no
clamp of the deal the engine sends, nor a list of request types (hello declares what each
does), nor the number of seats or their numbers (hello's seats), the match lengths or the
suits (the engine judges saved settings: check_settings), and decides nothing from an error's
code (the engine says what a refusal means). Each check is shown to fire on a planted
violation."""

from __future__ import annotations

import re
from pathlib import Path

from calypso_core.table.facts import hello
from calypso_core.table.transport import REQUESTS

WEB = Path(__file__).resolve().parents[1] / "web"
STATE_OWNER = "state.js"
STORAGE_OWNER = "storage.js"

# An assignment, compound assignment, increment or deletion whose target starts at ``app``:
# ``app.busy = true``, ``app.replay.position = p``, ``app.run += 1``, ``++app.run``,
# ``delete app.hint``, ``Object.assign(app, ...)``.
_TARGET = r"\bapp(?:\s*\.\s*[A-Za-z_$][\w$]*|\s*\[[^\]]*\])+"
_STATE_WRITES = re.compile(
    rf"{_TARGET}\s*(?:[-+*/%&|^]|\*\*|<<|>>>?|&&|\|\||\?\?)?=(?!=)"
    rf"|{_TARGET}\s*(?:\+\+|--)|(?:\+\+|--)\s*{_TARGET}|\bdelete\s+{_TARGET}"
    r"|\bObject\.assign\(\s*app\b")
_STORAGE = re.compile(r"\b(?:localStorage|sessionStorage|indexedDB)\b")
# A clamp of a deal number: ``Math.min(view.deal, 3)``, ``Math.min(3, deal)``.
_DEAL_CLAMP = re.compile(r"\bMath\.min\([^)]*\bdeal\b[^)]*\)")
# An array literal (a Set's too) of quoted words only: ``["play", "step"]``.
_WORD_LIST = re.compile(r"\[\s*(['\"][a-z_]+['\"](?:\s*,\s*['\"][a-z_]+['\"])*)\s*,?\s*\]")

# The number of seats or a list of seat numbers: ``(leader + i) % 4``, ``[0, 1, 2, 3]``,
# ``[2, 3, 0, 1]``, ``seat <= 3``, ``people.length <= 4``, ``levels.length === 4``, a default
# seat ``?? 2``; the match lengths ``[1, 2, 3, 4]`` too. (``4 * n`` is arithmetic.)
_SEAT_FACTS = re.compile(
    r"%\s*4\b|\[\s*[0-4](?:\s*,\s*[0-4]){2,}\s*\]|(?:[<>]=?|[!=]==?)\s*[34]\b(?!\s*[*.\d])"
    r"|\?\?\s*2\b")
# A list of suit letters: ``["random", "S", "H", "D", "C"]``.
_SUIT_LIST = re.compile(r"""\[\s*(?:['"]random['"]\s*,\s*)?"""
                        r"""['"][SHDC]['"](?:\s*,\s*['"][SHDC]['"])+\s*,?\s*\]""")
# A decision by an error's code: ``error.code === "no_game"``, ``"unavailable" !== code``,
# ``/^bad_/.test(error.code)``.
_CODE_TEST = re.compile(r"""\bcode\s*[!=]==?\s*['"`]|['"`]\s*[!=]==?\s*[\w.?]*\bcode\b|/\^bad_/""")


def code_of(source: str) -> str:
    """The source less its comments (a comment may name what the code may not use)."""
    source = re.sub(r"/\*.*?\*/", " ", source, flags=re.DOTALL)
    return re.sub(r"(?<![:\"'\\])//[^\n]*", " ", source)


def state_writes(source: str) -> list[str]:
    """Each place in a module's source that assigns into the page's state ``app``."""
    return [match.group(0) for match in _STATE_WRITES.finditer(code_of(source))]


def storage_uses(source: str) -> list[str]:
    """Each place in a module's source that names one of the browser's storages."""
    return [match.group(0) for match in _STORAGE.finditer(code_of(source))]


def deal_clamps(source: str) -> list[str]:
    """Each place in a module's source that clamps a deal number itself."""
    return [match.group(0) for match in _DEAL_CLAMP.finditer(code_of(source))]


def request_lists(source: str) -> list[str]:
    """Each array literal in a module's source that lists two or more request types and
    nothing else: a decision about requests the engine's hello declares."""
    found = []
    for match in _WORD_LIST.finditer(code_of(source)):
        words = re.findall(r"['\"]([a-z_]+)['\"]", match.group(1))
        if len(words) >= 2 and set(words) <= set(REQUESTS):
            found.append(match.group(0))
    return found


def modules() -> dict[str, str]:
    """Every module of the page, by its path under web/."""
    return {path.relative_to(WEB).as_posix(): path.read_text()
            for path in sorted(WEB.rglob("*.js"))}


def test_only_the_state_module_changes_the_pages_state() -> None:
    found = {name: state_writes(source) for name, source in modules().items()
             if name != STATE_OWNER}
    assert {name: writes for name, writes in found.items() if writes} == {}


def test_the_state_check_fires_on_every_way_to_assign() -> None:
    planted = ["app.busy = true;", "app.replay.position = p;", "app.run += 1;", "++app.run;",
               "app.run++;", "app . hint=null", "app[\"view\"] = v;", "delete app.hint;",
               "Object.assign(app, { busy: true });", "app.prefs ??= {};"]
    assert [len(state_writes(line)) for line in planted] == [1] * len(planted)
    reads = ["if (app.busy === true) run = 1;", "const x = app.run; x += 1;", "f(app.view) == g;",
             "happ.busy = true;", "// app.busy = true"]
    assert [state_writes(line) for line in reads] == [[]] * len(reads)


# What a module other than state.js may keep at its top level, and why it is not the page's
# state: nothing is drawn from it, and it is a handle on the browser, a request in flight, a
# cache of something static, or a hook wired once at start-up. The worker's and the service
# worker's modules run in threads of their own, not the page's.
NOT_PAGE_STATE = {
    "ahead.js": {"work": "the work-ahead loop's bookkeeping (the engine's last reply); not drawn",
                 "queue": "the work-ahead loops waiting their turn (requests in flight)"},
    "cards.js": {"indexes": "a cache: each list of cards indexed once"},
    "early-worker.js": {"early": "the worker started before the page's modules load",
                        "held": "the events it sent until the engine's client takes it over"},
    "app.js": {"puzzles": "a handle on the puzzles' module, imported at their first use"},
    "engine.js": {"shared": "the one connection to the engine"},
    "flow.js": {"after": "hooks set once at start-up (app.js)",
                "dealEndGo": "the resolver that ends the wait for Next deal (drawn: app.dealEnd)"},
    "i18n.js": {"catalog": "the static catalog of app.language, loaded with it",
                "plurals": "the plural rules of app.language, set with it",
                "numbers": "the number format of app.language, set with it",
                "parsed": "a cache: the catalog's templates parsed so far",
                "listeners": "hooks set once at start-up"},
    "page.js": {"opener": "the element to give the focus back to when the dialogs close"},
    "puzzles.js": {"loaded": "a cache of the static puzzle set, and the worker it was handed to"},
    "panels.js": {"scrollPending": "elements to scroll in the next frame (a draw's own work)"},
    "rerun.js": {"holds": "the review's holds on the worker (requests in flight)",
                 "waiting": "the master's loop waiting for the holds to end"},
    "saves.js": {"locks": "the browser's Web Locks this tab holds, to release",
                 "lost": "a hook set once at start-up: a save taken over by another tab"},
    "sound.js": {"context": "the browser's AudioContext, made at the first sound"},
    "sw-register.js": {"reloading": "a once-only guard of the page's reload for a new build",
                       "waiting": "the new build's service worker, a browser handle"},
    "remote/panel.js": {"qrModule": "a cache: the QR encoder's module, loaded at the first code",
                        "qrLoading": "its loading, in flight"},
    "sw.js": {"*": "the service worker's thread"},
    "worker.js": {"*": "the engine's worker thread"},
}

# A declaration at a module's top level (a statement at the start of a line): a ``let`` or
# ``var``, or a ``const`` bound to an object, array, Map or Set that the module then changes.
_TOP_LET = re.compile(r"^(?:export\s+)?(?:let|var)\s+([A-Za-z_$][\w$]*)", re.MULTILINE)
_TOP_CONTAINER = re.compile(
    r"^(?:export\s+)?const\s+([A-Za-z_$][\w$]*)\s*=\s*(?:\{|\[|new\s+(?:Weak)?(?:Map|Set)\b)",
    re.MULTILINE)


_MEMBER = r"(?:\s*\.\s*[A-Za-z_$][\w$]*|\s*\[[^\]]*\])"
_ASSIGN = r"\s*(?:[-+*/%&|^]|\*\*|\?\?|&&|\|\|)?=(?!=)"
_CHANGERS = r"push|pop|shift|unshift|splice|set|add|delete|clear|sort|reverse|fill"


def _changes(name: str, code: str) -> bool:
    """Whether the code changes the object bound to ``name``: assigns into it, pushes, sets,
    adds, deletes or clears."""
    bare = re.escape(name)
    n = rf"(?<![\w$.]){bare}"
    return re.search(
        rf"{n}{_MEMBER}+{_ASSIGN}|{n}{_MEMBER}+\s*(?:\+\+|--)"
        rf"|{n}\s*\.\s*(?:{_CHANGERS})\s*\("
        rf"|\bdelete\s+{bare}\b|\bObject\.assign\(\s*{bare}\b", code) is not None


def module_state(source: str) -> list[str]:
    """The names a module keeps as state of its own at its top level: each ``let``/``var``,
    and each object, array, Map or Set bound by a ``const`` that the module changes."""
    code = code_of(source)
    return (_TOP_LET.findall(code)
            + [name for name in _TOP_CONTAINER.findall(code) if _changes(name, code)])


def test_no_module_but_the_state_module_keeps_state_of_its_own() -> None:
    found: dict[str, list[str]] = {}
    for name, source in modules().items():
        allowed = NOT_PAGE_STATE.get(name, {})
        kept = [] if name == STATE_OWNER or "*" in allowed else [
            variable for variable in module_state(source) if variable not in allowed]
        if kept:
            found[name] = kept
    assert found == {}


def test_every_name_the_module_state_check_allows_is_still_kept() -> None:
    # A reason for a name that is gone would let a new variable of that name in unseen.
    sources = modules()
    stale = {module: sorted(set(names) - {"*"} - set(module_state(sources[module])))
             for module, names in NOT_PAGE_STATE.items()}
    assert {module: names for module, names in stale.items() if names} == {}


def test_the_module_state_check_fires_on_a_planted_variable() -> None:
    planted = ["let offer = null;", "export let current = 0;", "var lang = 'en';",
               "const review = { running: false };\nfunction f() { review.running = true; }",
               "const moves = [];\nfunction f(m) { moves.push(m); }",
               "const seen = new Map();\nexport const see = (k) => seen.set(k, 1);",
               "const rerun = { done: 0 };\nconst f = () => { rerun.done++; };",
               "const o = { a: 1 };\nObject.assign(o, { a: 2 });"]
    assert [len(module_state(source)) for source in planted] == [1] * len(planted), [
        (source, module_state(source)) for source in planted if len(module_state(source)) != 1]
    others = ["function f() {\n  let x = 1;\n  return x;\n}", "const LIMITS = { a: 1 };",
              "const KEYS = ['a', 'b'];\nconst k = KEYS.includes(x);", "// let x = 1;",
              "const o = { a: 1 };\nconst b = o.a === 2;", "const app2 = { a: 1 };\nx.app2.a = 2;"]
    assert [module_state(source) for source in others] == [[]] * len(others)
    # And on the module's own source with a line of state planted in it.
    source = (WEB / "review.js").read_text() + "\nlet planted = null;\n"
    assert module_state(source) == ["planted"]


def test_only_the_storage_module_touches_the_browsers_storage() -> None:
    # The worker keeps nothing in the browser's storage (the engine's recipe reaches the page
    # in its replies and is saved from here); sw.js keeps the site's files in the Cache API,
    # which holds no person's data and names no storage key.
    found = {name: storage_uses(source) for name, source in modules().items()
             if name != STORAGE_OWNER}
    assert {name: uses for name, uses in found.items() if uses} == {}
    assert storage_uses((WEB / STORAGE_OWNER).read_text())  # the check sees the owner's


def test_the_storage_check_fires_on_each_storage_and_not_on_comments() -> None:
    assert storage_uses('const x = localStorage.getItem("k");') == ["localStorage"]
    assert storage_uses("sessionStorage.setItem(k, v); indexedDB.open(name);") == [
        "sessionStorage", "indexedDB"]
    assert storage_uses("// kept in localStorage\n/* sessionStorage */ const a = 1;") == []


def test_the_page_clamps_no_deal_number() -> None:
    # The engine sends the deal to show (GameState.latest_deal): the page shows it as it is.
    found = {name: deal_clamps(source) for name, source in modules().items()}
    assert {name: clamps for name, clamps in found.items() if clamps} == {}


def test_the_deal_clamp_check_fires_on_a_clamp() -> None:
    assert deal_clamps("const shown = Math.min(view.deal, 3);") == ["Math.min(view.deal, 3)"]
    assert deal_clamps("Math.min(3, deal)") == ["Math.min(3, deal)"]
    assert deal_clamps("Math.min(tally.cards, 5)") == []


def test_the_page_lists_no_request_types() -> None:
    # Which requests deal, change the game or answer with a view: hello.requests says.
    found = {name: request_lists(source) for name, source in modules().items()}
    assert {name: lists for name, lists in found.items() if lists} == {}


def test_the_request_list_check_fires_on_a_list_of_request_types() -> None:
    assert request_lists('const DEALS = new Set(["new_game", "load", "daily"]);') == [
        '["new_game", "load", "daily"]']
    assert request_lists("for (const t of ['view', 'reveal',]) f(t);") == ["['view', 'reveal',]"]
    others = ['readMessage(text, ["join", "play", "ask", "seed"]);', 'const one = ["view"];',
              '// DEALS = ["new_game", "load"]', 'const t = ["play", x];']
    assert [request_lists(line) for line in others] == [[]] * len(others)


def engine_facts(source: str) -> list[str]:
    """Each place in a module's source that writes an engine fact again: the seats' number or
    numbers, the match lengths, the suits, or a decision by an error's code."""
    code = code_of(source)
    return [match.group(0) for pattern in (_SEAT_FACTS, _SUIT_LIST, _CODE_TEST)
            for match in pattern.finditer(code)]


def test_the_page_repeats_no_seat_count_suit_list_or_error_code() -> None:
    # Seats come from hello (names.seats and names.after), saved settings are judged by the
    # engine (check_settings), and a refusal says what it means (input, no_game, text).
    found = {name: engine_facts(source) for name, source in modules().items()}
    assert {name: facts for name, facts in found.items() if facts} == {}


# The DOM and its events, which a table with friends' modules leave to its panel (remote/
# panel.js, drawn in the page's one draw) and to the page's input (intents of app.js).
_DOM = re.compile(r"\b(?:document|window)\.|\.(?:querySelector(?:All)?|innerHTML|textContent"
                  r"|dataset|append|prepend|replaceChildren)\b|\bonLanguage\(|\btranslatePage\("
                  r"|\baddEventListener\(\s*['\"](?:click|submit|change|input|keydown)")
# The remote panel draws; qr.js makes a code's SVG for it; turn.js is the Settings dialog's form.
DRAWING = {"remote/panel.js", "remote/qr.js", "remote/turn.js"}


def dom_uses(source: str) -> list[str]:
    """Each place in a module's source that touches the page's DOM or listens to its events."""
    return [match.group(0) for match in _DOM.finditer(code_of(source))]


def test_the_table_with_friends_clients_speak_the_protocol_only() -> None:
    # HostClient and GuestClient once drew their lobby, form and panels themselves, and kept
    # about 39 fields of screen state where the one-state check could not see them.
    found = {name: dom_uses(source) for name, source in modules().items()
             if name.startswith("remote/") and name not in DRAWING}
    assert {name: uses for name, uses in found.items() if uses} == {}
    assert dom_uses((WEB / "remote" / "panel.js").read_text())  # the check sees the panel's


def test_the_dom_check_fires_on_each_way_a_client_drew() -> None:
    planted = ['const panel = document.createElement("form");', "lobby.innerHTML = `<p>`;",
               'li.querySelector("a");', 'state.textContent = t("remote.joined");',
               "this._panel.dataset.remoteState = state;", 'where.prepend(this._fairness.element);',
               "onLanguage(() => this._word());", "translatePage(panel);",
               'copy.addEventListener("click", () => {});', "window.location.reload();"]
    assert [len(dom_uses(line)) for line in planted] == [1] * len(planted), [
        (line, dom_uses(line)) for line in planted if len(dom_uses(line)) != 1]
    others = ['connection.addEventListener("icegatheringstatechange", f);', "// document.body",
              "const view = reply.view;", 'addEventListener("online", resume);']
    assert [dom_uses(line) for line in others] == [[]] * len(others)


def test_the_remote_tables_addresses_name_the_seats_by_the_engines_keys() -> None:
    # A guest's page reads its seat from the invitation before it has any hello (the host
    # sends it once the seat is taken): the address's names are the engine's seat keys.
    source = code_of((WEB / "remote" / "invite.js").read_text())
    written = re.search(r"export const SEAT_KEYS = \[([^\]]*)\]", source)
    assert written is not None
    assert re.findall(r'"([a-z]+)"', written.group(1)) == [s["key"] for s in hello({})["seats"]]
    others = {name: re.findall(r"""['"](?:north|east|south|west)['"]""", code_of(text))
              for name, text in modules().items() if name != "remote/invite.js"}
    assert {name: found for name, found in others.items() if found} == {}


def test_the_engine_fact_check_fires_on_each_line_it_replaced() -> None:
    # Each line below was in web/ before the engine was asked instead.
    planted = [
        "const bySeat = new Map(trick.cards.map((code, i) => [(trick.leader + i) % 4, code]));",
        "labels: () => [0, 1, 2, 3].map(label),",
        "return [2, 3, 0, 1].find((seat) => !this.seats.has(seat));",
        "return h('div', { class: 'compass' }, [0, 3, 1, 2].map((seat) => {",
        "?? peopleSeats()[0] ?? 2;",
        "if (![1, 2, 3, 4].includes(clean.games)) clean.games = 1;",
        "people.length >= 1 && people.length <= 4 &&",
        "if (!Number.isInteger(seat) || seat < 0 || seat > 3) return null;",
        "Array.isArray(clean.levels) && clean.levels.length === 4",
        'if (!["random", "S", "H", "D", "C"].includes(clean.suit)) clean.suit = "random";',
        'export const masterUnavailable = (problem) => (problem?.code === "unavailable"',
        'else if (reply.error.code === "no_game") this._saved = null;',
        "if (/^bad_/.test(error.code)) reset();",
    ]
    assert [len(engine_facts(line)) for line in planted] == [1] * len(planted), [
        (line, engine_facts(line)) for line in planted if len(engine_facts(line)) != 1]
    others = ["return sdp.length <= 4 * MAX_BLOB_CHARS;", "const PIPS = { 3: [[2, 1], [2, 5]] };",
              "if (error.noGame) forget();", "// seat % 4", "x = a[4];", "const cards = 13;"]
    assert [engine_facts(line) for line in others] == [[]] * len(others)
