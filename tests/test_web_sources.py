"""Rules the page's modules keep, read from their sources (web/, the friends' table too):
one module owns the page's state, one owns the browser's storage, and the page repeats no
clamp of the deal the engine sends, nor a list of request types (hello declares what each
does), nor the number of seats or their numbers (hello's seats), the match lengths or the
suits (the engine judges saved settings: check_settings), and decides nothing from an error's
code (the engine says what a refusal means). Each check is shown to fire on a planted
violation."""

from __future__ import annotations

import re
from pathlib import Path

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
