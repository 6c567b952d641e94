"""The guards on JSON text from outside: nesting measured outside strings, the strict parse,
the id of a request read without parsing it, and every one of them a single pass (crafted
inputs at the request size limit take milliseconds, not the minutes a backtracking pattern
took)."""

from __future__ import annotations

import ast
import json
import time
from pathlib import Path

import pytest

from calypso_core import jsontext, table
from calypso_core.jsontext import MAX_NESTING, loads, nests_too_deeply, top_level_id
from calypso_core.record import MAX_RECORD_BYTES
from calypso_core.table.transport import MAX_REQUEST_CHARS

LIMIT = MAX_REQUEST_CHARS
SLOW_S = 2.0  # generous: each takes milliseconds here; the old check took minutes


def fill(head: str, unit: str, size: int = LIMIT) -> str:
    """``head`` then ``unit`` repeated up to ``size`` characters."""
    return (head + unit * ((size - len(head)) // len(unit) + 1))[:size]


# Each is built to make a backtracking string pattern start again at every quote.
CRAFTED = {
    "backslash-quote pairs": fill("[" * 40, '\\"'),
    "quote-backslash pairs": fill("[" * 40, '"\\'),
    "quotes and escaped quotes": fill("[" * 40, '"\\"\\\\'),
    "unclosed string of escapes": fill('{"id": 1, "x": ' + "[" * 40 + '"', "\\u0001\\\""),
    "brackets": fill("", "[]{}"),
    "deep": fill("", "["),
    "deep inside an object": fill('{"type": "view", "x": ', "["),
    "many strings": fill('{"a": [', '"", '),
    "many ids": fill("{", '"id":{"id":'),
}


# -- nesting --------------------------------------------------------------------------------


def test_nesting_counts_brackets_outside_strings_only() -> None:
    assert not nests_too_deeply("[" * MAX_NESTING + "]" * MAX_NESTING)
    assert nests_too_deeply("[" * (MAX_NESTING + 1) + "]" * (MAX_NESTING + 1))
    assert nests_too_deeply('{"a":' * (MAX_NESTING + 1))
    assert not nests_too_deeply(json.dumps({"text": "[" * 1000}))
    assert not nests_too_deeply(json.dumps({"text": '\\"[' * 1000, "b": ["]" * 1000]}))
    # Brackets after an escaped quote are still inside the string.
    assert not nests_too_deeply('["\\"' + "[" * 1000 + '"]')
    # An unclosed string runs to the end of the text.
    assert not nests_too_deeply('["' + "[" * 1000)


def test_nesting_agrees_with_the_parser_on_valid_json() -> None:
    for depth in range(MAX_NESTING - 2, MAX_NESTING + 3):
        value: object = "x[\"{"
        for level in range(depth):
            value = [value] if level % 2 else {"k": value, "s": "]}"}
        assert nests_too_deeply(json.dumps(value)) == (depth > MAX_NESTING)


# -- the strict parse -----------------------------------------------------------------------


@pytest.mark.parametrize("text", [
    '{"a": NaN}', '{"a": Infinity}', '{"a": 1, "a": 2}', '{"a": "\\ud800"}', '{"\\udfff": 1}',
])
def test_the_strict_parse_refuses_what_is_not_json_text(text: str) -> None:
    with pytest.raises(ValueError):
        loads(text)


def test_the_strict_parse_reads_json_as_json() -> None:
    assert loads('{"a": [1, "\\ud83c\\udca1", {"b": null}]}') == {"a": [1, "🂡", {"b": None}]}


# -- the id of a request --------------------------------------------------------------------


@pytest.mark.parametrize(("text", "expected"), [
    ('{"id": 7, "type": "view"}', 7),
    ('{"type": "view", "id": "a\\"b"}', 'a"b'),
    ('  {"x": {"id": 1}, "y": ["id", {"id": 2}], "id" : -3}', -3),
    ('{"text": "\\"id\\": 5", "id": 6}', 6),
    ('{"text": "' + "\\u0001" * 70_000 + '", "id": 8, "type": "import"}', 8),
    ('{"type": "view", "x": NaN, "id": 9}', 9),
    ('{"id": 10, "x": ' + "[" * 100_000, 10),
])
def test_the_id_is_read_from_the_top_level_object_without_parsing(text: str,
                                                                  expected: object) -> None:
    assert top_level_id(text) == expected


@pytest.mark.parametrize("text", [
    "", "{", "[]", "x" * 1000, '[{"id": 1}]', '{"a": {"id": 1}}', '{"a": "id", "b": 1}',
    '{"id": 1.5}', '{"id": 1e3}', '{"id": null}', '{"id": [1]}', '{"id": "\\ud800"}',
    '{"id": "unclosed', '{"id": 0123}', '{"id": ' + "9" * 30 + "}", '{"id": "\\x"}',
    '{"a": 1}, "id": 2}',
])
def test_no_id_is_read_where_there_is_none_or_it_is_not_an_id(text: str) -> None:
    assert top_level_id(text) is None


# -- one pass -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", CRAFTED)
def test_every_check_before_parsing_is_one_pass_at_the_request_size_limit(name: str) -> None:
    text = CRAFTED[name]
    assert len(text) == LIMIT
    for check in (nests_too_deeply, top_level_id, table.handle):
        start = time.perf_counter()
        check(text)
        elapsed = time.perf_counter() - start
        assert elapsed < SLOW_S, f"{check.__name__}: {elapsed:.1f} s on {name}"


@pytest.mark.parametrize("name", ["backslash-quote pairs", "quote-backslash pairs",
                                  "quotes and escaped quotes"])
def test_an_import_of_crafted_text_at_the_record_size_limit_is_refused_fast(name: str) -> None:
    text = CRAFTED[name][:MAX_RECORD_BYTES]
    request = json.dumps({"text": text, "id": 4, "type": "import"})
    start = time.perf_counter()
    reply = json.loads(table.handle(request))
    assert time.perf_counter() - start < SLOW_S
    assert reply["id"] == 4 and reply["error"]["code"] == "bad_record"


def engine_imports() -> dict[str, set[tuple[str, str]]]:
    """Each engine module's relative imports, lazy ones included (not those made for type
    checking only): module -> {(imported module, imported name)}."""
    package = Path(jsontext.__file__).parent
    graph: dict[str, set[tuple[str, str]]] = {}
    for path in package.rglob("*.py"):
        name = ".".join(path.relative_to(package.parent).with_suffix("").parts)
        name = name.removesuffix(".__init__")
        parts = name.split(".") + ([""] if path.name == "__init__.py" else [])
        found = graph.setdefault(name, set())
        nodes: list[ast.AST] = [ast.parse(path.read_text(encoding="utf-8"))]
        while nodes:
            for node in ast.iter_child_nodes(nodes.pop()):
                if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                    continue
                if isinstance(node, ast.ImportFrom) and node.level:
                    target = ".".join(parts[: len(parts) - node.level]
                                      + ([node.module] if node.module else []))
                    for alias in node.names:
                        # "from . import session" imports the module calypso_core.table.session
                        module = f"{target}.{alias.name}"
                        path_of = package.parent.joinpath(*module.split("."))
                        if path_of.with_suffix(".py").exists() or path_of.is_dir():
                            found.add((module, ""))
                        else:
                            found.add((target, alias.name))
                nodes.append(node)
    return graph


def test_the_protocol_layer_imports_in_no_circle_and_no_private_name() -> None:
    # table_requests imported the protocol's private _nesting while the protocol imported
    # table_requests; the guards now live in jsontext, below the table's transport and
    # handlers.
    graph = engine_imports()
    assert not [(module, target, name) for module, imports in graph.items()
                for target, name in imports
                if name.startswith("_") and not name.endswith("__")]
    handlers = [f"calypso_core.table.{name}"
                for name in ("session", "facts", "playing", "reading", "remote", "reviews",
                             "seat_reviews")]
    for start in ("calypso_core.table.transport", *handlers, "calypso_core.jsontext"):
        seen, stack = set(), [start]
        while stack:
            for target, _ in graph.get(stack.pop(), ()):
                assert target != start, f"{start} imports itself again through {target}"
                if target not in seen:
                    seen.add(target)
                    stack.append(target)
