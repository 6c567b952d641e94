"""The repository's own rules and docs: docs/rules.md is complete and agrees with the engine,
every citation and link inside the repository resolves, nothing cites a file outside it, and
the page's Rules dialog and walkthrough say what docs/rules.md says."""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from protocol_calls import ok

from calypso_core import Card, GameState, Rules, Suit, from_record, new_game, trick_winner
from calypso_core.cards import SEAT_NAMES
from calypso_core.messages import LANGUAGES, catalog

ROOT = Path(__file__).resolve().parents[1]
RULES_MD = ROOT / "docs" / "rules.md"
# Headings that code, tests and docs cite as docs/rules.md#anchor.
REQUIRED_HEADINGS = (
    "## Players, partnerships and personal suits",
    "## The deck and the cut",
    "## Dealing and the stock",
    "## Following suit",
    "## Who wins a trick",
    "### Worked examples",
    "## Building calypsos",
    "## Scoring",
    "## Options",
    "## A match",
    "## Where the sources disagree",
)
# Written in two parts so that this file does not mention them itself.
OUTSIDE_FILES = ("../" + "shared", "calypso-rules" + ".md", "bots-notes" + ".md")
SKIPPED_DIRS = {".git", ".venv", ".cache", "dist", "build", "node_modules", "__pycache__",
                ".mypy_cache", ".ruff_cache", ".pytest_cache", ".hypothesis"}


# -- reading the repository ------------------------------------------------------------------


def repository_files() -> list[Path]:
    """The repository's files: tracked or new, never ignored ones (caches, dist/, .venv)."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
            cwd=ROOT, capture_output=True, check=True, text=True).stdout
        paths = [ROOT / name for name in listed.split("\0") if name]
    except (OSError, subprocess.CalledProcessError):  # a copy without git
        paths = [p for p in ROOT.rglob("*")
                 if not SKIPPED_DIRS & set(p.relative_to(ROOT).parts[:-1])]
    return sorted(p for p in paths if p.is_file())


def text_files() -> dict[Path, str]:
    texts = {}
    for path in repository_files():
        try:
            texts[path] = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # an image or other binary file
    return texts


def markdown_outside_code(text: str) -> str:
    """Markdown without its fenced code blocks and code spans (links there are not links)."""
    text = re.sub(r"(?ms)^```.*?^```", "", text)
    return re.sub(r"`[^`\n]*`", "", text)


def slugs_of(markdown: str) -> list[str]:
    """The slug of each heading of a Markdown file, in order, as GitHub makes them."""
    slugs = []
    for line in re.sub(r"(?ms)^```.*?^```", "", markdown).splitlines():
        heading = re.match(r"#{1,6} (.*)", line)
        if heading:
            title = re.sub(r"\[([^]]*)\]\([^)]*\)", r"\1", heading.group(1).strip())
            slugs.append(re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-"))
    return slugs


def anchors_of(markdown: str) -> list[str]:
    """GitHub's anchors for a Markdown file's headings: repeated slugs get -1, -2, ..."""
    anchors: list[str] = []
    seen: dict[str, int] = {}
    for slug in slugs_of(markdown):
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        anchors.append(slug if count == 0 else f"{slug}-{count}")
    return anchors


def section(markdown: str, heading: str) -> str:
    """The text under a heading, up to the next heading of the same or a higher level."""
    level = heading.split()[0]
    start = markdown.index(f"\n{heading}\n") + len(heading) + 2
    end = re.compile(rf"^#{{1,{len(level)}}} ", re.M).search(markdown, start)
    return markdown[start: end.start() if end else len(markdown)]


def tables(text: str) -> list[list[list[str]]]:
    """The Markdown tables in a text, each as rows of cells (the header first, no rule line)."""
    found: list[list[list[str]]] = []
    rows: list[list[str]] = []
    for line in [*text.splitlines(), ""]:
        if line.startswith("|"):
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            if not all(re.fullmatch(r":?-+:?", cell) for cell in cells):
                rows.append(cells)
        elif rows:
            found.append(rows)
            rows = []
    return found


def rules_md() -> str:
    return RULES_MD.read_text()


def plain(markdown: str) -> str:
    """Markdown prose as plain text: no emphasis marks, one space between words."""
    return " ".join(markdown.replace("*", "").split())


# -- docs/rules.md has the headings the repository cites -------------------------------------


def test_the_rules_have_every_heading_the_code_cites() -> None:
    lines = set(rules_md().splitlines())
    assert [h for h in REQUIRED_HEADINGS if h not in lines] == []
    slugs = slugs_of(rules_md())
    # A repeated heading would take the anchor and move the cited one to "-1".
    assert sorted({s for s in slugs if slugs.count(s) > 1}) == []


def rules_citations(texts: dict[Path, str]) -> list[tuple[str, str]]:
    """(file, anchor) for every docs/rules.md#anchor cited in the repository, with the short
    forms code uses on the same line ("docs/rules.md#options, #who-wins-a-trick",
    "(rules: #building-calypsos)")."""
    cited = []
    for path, text in texts.items():
        name = path.relative_to(ROOT).as_posix()
        for line in text.splitlines():
            cited += [(name, a) for a in re.findall(r"rules\.md#([\w-]+)", line)]
            if path.suffix != ".md" and re.search(r"rules\.md#|rules: #", line):
                cited += [(name, a) for a in re.findall(r"(?<![\w.#/-])#([a-z][a-z0-9-]*)", line)]
    return cited


def test_every_cited_rules_anchor_is_a_heading_of_the_rules() -> None:
    texts = text_files()
    del texts[Path(__file__)]  # its examples of citations are broken on purpose
    cited = rules_citations(texts)
    assert len(cited) >= 20, "the engine, its tests and the docs cite the rules by anchor"
    anchors = set(anchors_of(rules_md()))
    assert sorted({c for c in cited if c[1] not in anchors}) == []


def test_rules_citations_are_found_in_every_form() -> None:
    texts = {
        ROOT / "a.py": '"""Rules (docs/rules.md#options, #who-wins-a-tric)."""\n',
        ROOT / "b.py": "    # Sort a trick (rules: #bulding-calypsos).\n",
        ROOT / "c.md": "See [the rules](rules.md#scorin).\n",
    }
    assert sorted(a for _, a in rules_citations(texts)) == [
        "bulding-calypsos", "options", "scorin", "who-wins-a-tric"]


def markdown_links(texts: dict[Path, str]) -> list[tuple[Path, str]]:
    return [(path, target)
            for path, text in texts.items() if path.suffix == ".md"
            for target in re.findall(r"\]\(([^)\s]+)\)", markdown_outside_code(text))]


def test_relative_links_in_the_docs_lead_to_files_and_headings_that_exist() -> None:
    texts = text_files()
    links = markdown_links(texts)
    assert len(links) >= 15
    broken = []
    for path, target in links:
        if re.match(r"[a-z]+:", target):  # https:, mailto:
            continue
        file, _, anchor = target.partition("#")
        linked = (path.parent / file).resolve() if file else path
        if not linked.exists():
            broken.append(f"{path.relative_to(ROOT)}: {target} (no such file)")
        elif anchor and linked.suffix == ".md" and anchor not in anchors_of(linked.read_text()):
            broken.append(f"{path.relative_to(ROOT)}: {target} (no such heading)")
    assert broken == []


def test_nothing_in_the_repository_cites_a_file_outside_it() -> None:
    texts = text_files()
    assert ROOT / "tests" / "test_docs.py" in texts  # the scan sees this very file
    found = [f"{path.relative_to(ROOT)}: {word}"
             for path, text in texts.items() for word in OUTSIDE_FILES if word in text]
    assert found == []
    # Section numbers belonged to the outside file; docs/rules.md has headings instead.
    numbered = [f"{path.relative_to(ROOT)}: {m}"
                for path, text in texts.items() for m in re.findall(r"§\s*\d+", text)]
    assert numbered == []


# -- the worked examples ---------------------------------------------------------------------


def worked_examples() -> tuple[list[Suit], list[tuple[list[str], int]]]:
    """The personal suits of the example table's columns, and each row's cards and winner."""
    [table] = tables(section(rules_md(), "### Worked examples"))
    header, *rows = table
    assert header[0] == "#" and header[5:] == ["winner", "why"]
    seats = [column.split()[0] for column in header[1:5]]
    assert seats == list(SEAT_NAMES), "the columns are the seats in playing order from North"
    suits = [Suit.parse(column.split()[1]) for column in header[1:5]]
    examples = []
    for number, row in enumerate(rows, 1):
        assert row[0] == str(number)
        cards = [str(Card.parse(cell)) for cell in row[1:5]]
        examples.append((cards, SEAT_NAMES.index(row[5])))
    return suits, examples


def test_the_rules_have_eight_worked_examples_and_the_engine_agrees_with_each() -> None:
    suits, examples = worked_examples()
    assert len(examples) == 8
    for cards, winner in examples:
        assert trick_winner(cards, suits) == winner, cards


def test_the_pages_worked_examples_are_the_eight_of_the_rules() -> None:
    suits, examples = worked_examples()
    page = ok("examples")
    assert [ex["trumps"] for ex in page] == [[str(s) for s in suits]] * 8
    assert [(ex["cards"], ex["winner"]) for ex in page] == examples


def test_the_options_table_agrees_with_the_engine() -> None:
    options = section(rules_md(), "## Options")
    table = next(t for t in tables(options) if t[0][-1] == "All Fours")
    header, *rows = table
    columns = {
        "standard": [Rules()],
        "must beat the lead": [Rules(lead_trump_must_be_beaten=True)],
        "last trump-in": [Rules(last_trump_in_wins=True)],
        "both of these": [Rules(lead_trump_must_be_beaten=True, last_trump_in_wins=True)],
        # All Fours includes must-beat and overrides last-trump-in: every combination agrees.
        "All Fours": [Rules(all_fours=True, lead_trump_must_be_beaten=a, last_trump_in_wins=b)
                      for a in (False, True) for b in (False, True)],
    }
    assert header[4:] == list(columns)
    suits = [Suit.parse(column.split()[1]) for column in header[:4]]
    assert len(rows) >= 4
    for row in rows:
        cards = [str(Card.parse(cell)) for cell in row[:4]]
        for column, winner in zip(header[4:], row[4:], strict=True):
            for rules in columns[column]:
                assert SEAT_NAMES[trick_winner(cards, suits, rules)] == winner, (cards, rules)


# -- scoring ---------------------------------------------------------------------------------


def points_of_the_rules() -> tuple[list[int], int, int]:
    """From the scoring table of the rules: points for the 1st-4th completed calypso, for a
    card in progress and for a pile card."""
    table = tables(section(rules_md(), "## Scoring"))[0]
    points = {item: int(value.replace(",", "")) for item, value in table[1:]}
    ladder = [points[f"{nth} completed calypso"] for nth in ("first", "second", "third", "fourth")]
    return ladder, points["each card of the calypso in progress"], \
        points["each pile card from tricks the player won"]


def score_by_the_rules(completed: int, in_progress: int, pile: int) -> int:
    ladder, card, pile_card = points_of_the_rules()
    return sum(ladder[:completed]) + card * in_progress + pile_card * pile


def test_the_scoring_examples_add_up_by_the_rules() -> None:
    examples = tables(section(rules_md(), "## Scoring"))[1]
    assert examples[0][1:] == ["completed", "in progress", "pile", "score"]
    assert len(examples) == 3
    for _, completed, in_progress, pile, score in examples[1:]:
        terms, total = score.split("=")
        assert sum(int(term) for term in terms.split("+")) == int(total)
        assert score_by_the_rules(int(completed), int(in_progress), int(pile)) == int(total)


def test_the_rules_ladder_of_calypso_points_adds_up() -> None:
    ladder, _, _ = points_of_the_rules()
    scoring = plain(section(rules_md(), "## Scoring"))
    stated = re.search(r"calypsos are worth ([\d, and]+) points", scoring)
    assert stated
    values = [int(v.replace(",", "")) for v in re.split(r", | and ", stated.group(1))]
    assert values == [sum(ladder[:n]) for n in range(5)]


def scored_positions() -> Iterator[GameState]:
    """Every position of the golden games (one has four calypsos) and of a few others."""
    games = [from_record(json.loads(p.read_text()))
             for p in sorted((ROOT / "tests" / "golden").glob("*.record.json"))]
    for seed in range(3):
        state = new_game(seed, Rules(leftovers_start_next_calypso=seed != 1))
        while not state.is_over:
            state.play(state.legal_moves()[0])
        games.append(state)
    for game in games:
        state = new_game(rules=game.rules, suits=game.suits, first_dealer=game.first_dealer,
                         deck=game.deck)
        for card in game.plays:
            state.play(card)
            yield state


def test_the_engine_scores_every_position_as_the_rules_say() -> None:
    most = 0
    for state in scored_positions():
        for seat in range(4):
            most = max(most, state.completed(seat))
            expected = score_by_the_rules(
                state.completed(seat), len(state.calypso(seat)), state.pile(seat))
            assert state.score(seat) == expected
    assert most == 4, "the positions reach every step of the ladder"


# -- the page says what the rules say ---------------------------------------------------------


RULES_IN = {"en": RULES_MD, "ru": ROOT / "docs" / "rules.ru.md"}  # the rules in each language


def brief(lang: str = "en") -> str:
    """The rules in brief: the part of docs/rules.md (in Russian, docs/rules.ru.md) that the
    page's Rules dialog shows."""
    text = RULES_IN[lang].read_text()
    start, end = text.index("<!-- rules-dialog -->"), text.index("<!-- /rules-dialog -->")
    return text[start:end]


def tour_steps(lang: str = "en") -> dict[str, list[str]]:
    """The walkthrough's steps (web/tour.js, its words in the catalogs): each title with the
    rules it quotes."""
    words = catalog(lang)
    keys = re.findall(r'key: "(\w+)"', (ROOT / "web" / "tour.js").read_text())
    return {words[f"tour.{key}.title"]: [words[name] for name in sorted(words)
                                          if name.startswith(f"tour.{key}.rule_")]
            for key in keys}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_walkthrough_quotes_its_rules_from_the_rules_in_brief(lang: str) -> None:
    steps = tour_steps(lang)
    assert len(steps) == 5
    quoted = [sentence for sentences in steps.values() for sentence in sentences]
    assert len(quoted) >= 5
    rules_text = plain(brief(lang))
    assert [s for s in quoted if plain(s) not in rules_text] == []


def test_the_walkthrough_says_a_trump_lead_wins_unless_someone_trumps_in() -> None:
    said = " ".join(tour_steps()["The trick"])
    assert "trumps in" in said and "suit led" in said
    assert "if nobody trumps in, a trump lead wins" in said
    in_russian = " ".join(tour_steps("ru")["Взятка"])
    assert "если никто не козыряет, берёт козырный заход" in in_russian


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_rules_dialog_is_rendered_from_the_rules_in_brief(
    build_module: ModuleType, lang: str
) -> None:
    html = build_module.rules_dialog_html(RULES_IN[lang].read_text())
    assert html.count("<h3>") == brief(lang).count("\n### ") >= 5
    # The same words in the same order: nothing left out, added or changed.
    words = re.sub(r"<[^>]+>", " ", re.sub(r"</?(b|em)>", "", html)).replace("&amp;", "&")
    source = re.sub(r"(?m)^(###|\d+\.|-) |<!--.*?-->|\*", "", brief(lang))
    assert words.split() == source.split()
    first_rule = {"en": "Trump-ins are compared by rank alone",
                  "ru": "Козыри сравниваются только по достоинству"}
    assert f"<ol><li>{first_rule[lang]}" in html


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_rules_in_brief_say_who_takes_a_trick_once(lang: str) -> None:
    summary = {"en": "if nobody trumps in, a trump lead wins",
               "ru": "если никто не козыряет, берёт козырный заход"}[lang]
    assert plain(brief(lang)).count(summary) == 1


def test_the_russian_rules_in_brief_have_the_sections_of_the_english() -> None:
    # Each ### section of the brief, in the same order, with as many numbered rules.
    for part in ("\n### ", "\n1. ", "\n2. ", "\n3. "):
        assert brief("ru").count(part) == brief("en").count(part)
    assert "[rules.md](rules.md)" in RULES_IN["ru"].read_text()


def test_the_built_page_shows_the_rules_in_brief_in_its_rules_dialog(
    build_module: ModuleType, dist_dir: Path
) -> None:
    page = (dist_dir / "index.html").read_text()
    dialog = page[page.index('<dialog class="dialog dialog-wide" data-dialog="rules"'):]
    dialog = dialog[: dialog.index("</dialog>")]
    source = (ROOT / "web" / "index.html").read_text()
    for lang, path in RULES_IN.items():
        assert build_module.rules_dialog_html(path.read_text()) in dialog
        name = path.relative_to(ROOT).as_posix()
        assert source.count(f'data-rules-from="{name}" lang="{lang}"') == 1


def test_the_rules_dialog_seats_its_examples_as_the_rules_do() -> None:
    page = (ROOT / "web" / "index.html").read_text()
    seating = re.search(r"North \((.)\) leads, then East \((.)\), South \((.)\) and West \((.)\)",
                        page)
    assert seating
    suits, _ = worked_examples()
    assert [Suit.parse(s) for s in seating.groups()] == suits


@pytest.mark.parametrize("markdown", [
    "no marks at all",
    "<!-- rules-dialog -->\n| a | table |\n<!-- /rules-dialog -->",
    "<!-- rules-dialog -->\nSee `code`.\n<!-- /rules-dialog -->",
    "<!-- rules-dialog -->\nA [link](rules.md).\n<!-- /rules-dialog -->",
    "<!-- rules-dialog -->\n## A second-level heading\n<!-- /rules-dialog -->",
    "<!-- rules-dialog -->\nAn *unpaired mark.\n<!-- /rules-dialog -->",
], ids=["no marks", "table", "code", "link", "heading", "unpaired"])
def test_the_build_refuses_rules_the_dialog_cannot_show(
    build_module: ModuleType, markdown: str
) -> None:
    with pytest.raises(SystemExit):
        build_module.rules_dialog_html(markdown)


def test_the_rules_dialog_keeps_to_the_brief_and_escapes_text(build_module: ModuleType) -> None:
    markdown = ("Before.\n<!-- rules-dialog -->\n### Cards & packs\n\nFour **packs**, *one* deck."
                "\n\n- one\n  more\n- two\n<!-- /rules-dialog -->\nAfter.")
    assert build_module.rules_dialog_html(markdown) == (
        "<h3>Cards &amp; packs</h3>\n<p>Four <b>packs</b>, <em>one</em> deck.</p>\n"
        "<ul><li>one more</li><li>two</li></ul>")
