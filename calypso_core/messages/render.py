"""Rendering a message from a catalog: the template language, the kinds of parameters, nouns.

A catalog maps a message id to a **template**, or a noun id (``seat.3``, ``suit.H``,
``rank.Q``) to its word: one text, or an object of grammatical forms (``{"nom": "Запад",
"gen": "Запада"}``; the first is the default). A template is text with placeholders:

- ``{name}`` — a parameter; ``{name:form}`` asks a noun for one of its forms;
- ``{name, plural, one {# card} other {# cards}}`` — a branch chosen by the number's CLDR
  plural category (``=N`` matches one number exactly); ``#`` is the number.

A parameter's kind is the last word of its name: ``seat`` (0-3, the seat's noun), ``card``
(a code such as ``"QH"``: its short form ``Q♥``, or ``{card:name}``, "Queen of hearts"),
``suit`` (a letter; ``{suit:symbol}`` is its symbol in every language), ``rank`` (a
letter), ``level`` (a level's key: its name), ``lead`` (a partnership's lead, a number
written with its sign: ``+1,250``, ``\u221240``, ``0``). Any other number is written as the
language writes numbers; a message (an object with an ``id``) or a list of them is rendered
in place; text is written as it is (people's names, seeds).
``web/i18n.js`` is the same renderer for the page.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from ..cards import SUIT_SYMBOLS
from .plural import format_number, plural_category

Message = dict[str, Any]
# A parsed template: text, ("arg", name, form), ("plural", name, branches) or ("#",).
Node = str | tuple[Any, ...]
KINDS = ("seat", "card", "suit", "rank", "level", "lead")
MINUS = "\u2212"  # a lead behind is written with the minus sign, not a hyphen
_SIMPLE = re.compile(r"\s*([a-z][a-z0-9_]*)\s*(?::\s*([a-z]+)\s*)?\}")
_PLURAL = re.compile(r"\s*([a-z][a-z0-9_]*)\s*,\s*plural\s*,")
_SELECTOR = re.compile(r"\s*(=\d+|zero|one|two|few|many|other)\s*\{")


class MessageError(ValueError):
    """A message that cannot be rendered: an unknown id, a missing parameter, a bad template."""


def message(message_id: str, **params: Any) -> Message:
    """A message as it crosses to the page: ``{"id", "params"}`` (no params when empty)."""
    return {"id": message_id, "params": params} if params else {"id": message_id}


def kind_of(name: str) -> str | None:
    """A parameter's kind from its name's last word (``owner_seat`` is a seat), or None."""
    last = name.rsplit("_", 1)[-1]
    return last if last in KINDS else None


@lru_cache(maxsize=1024)
def parse(template: str) -> tuple[Node, ...]:
    """A template's nodes; a template that does not follow the syntax raises MessageError."""
    nodes, end = _nodes(template, 0, in_plural=False)
    if end != len(template):
        raise MessageError(f"unexpected '}}' at {end} in {template!r}")
    return tuple(nodes)


def _nodes(text: str, i: int, in_plural: bool) -> tuple[list[Node], int]:
    nodes: list[Node] = []
    plain: list[str] = []

    def flush() -> None:
        if plain:
            nodes.append("".join(plain))
            plain.clear()

    while i < len(text):
        char = text[i]
        if char == "}":
            flush()
            return nodes, i  # the caller takes the brace (or finds it unexpected)
        if char == "{":
            flush()
            node, i = _placeholder(text, i + 1)
            nodes.append(node)
            continue
        if char == "#" and in_plural:
            flush()
            nodes.append(("#",))
        else:
            plain.append(char)
        i += 1
    if in_plural:
        raise MessageError(f"a plural branch is not closed in {text!r}")
    flush()
    return nodes, i


def _placeholder(text: str, i: int) -> tuple[Node, int]:
    simple = _SIMPLE.match(text, i)
    if simple:
        return ("arg", simple.group(1), simple.group(2)), simple.end()
    plural = _PLURAL.match(text, i)
    if not plural:
        raise MessageError(f"a placeholder at {i} of {text!r} is not {{name}}, {{name:form}} "
                           "or {name, plural, ...}")
    i = plural.end()
    branches: dict[str, tuple[Node, ...]] = {}
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i < len(text) and text[i] == "}":
            break
        selector = _SELECTOR.match(text, i)
        if not selector:
            raise MessageError(f"a plural branch at {i} of {text!r} has no selector")
        nodes, i = _nodes(text, selector.end(), in_plural=True)
        branches[selector.group(1)] = tuple(nodes)
        i += 1  # the branch's closing brace
    if "other" not in branches:
        raise MessageError(f"the plural of {plural.group(1)!r} has no 'other' in {text!r}")
    return ("plural", plural.group(1), branches), i + 1


def placeholders(template: str) -> set[str]:
    """The parameter names a template uses."""
    found: set[str] = set()

    def walk(nodes: tuple[Node, ...]) -> None:
        for node in nodes:
            if isinstance(node, tuple) and node[0] in ("arg", "plural"):
                found.add(node[1])
                if node[0] == "plural":
                    for branch in node[2].values():
                        walk(branch)

    walk(parse(template))
    return found


def render(said: Message | list[Message], catalog: dict[str, Any], lang: str) -> str:
    """A message (or a list of them, one sentence after another) in one catalog's words."""
    if isinstance(said, list):
        return " ".join(render(item, catalog, lang) for item in said)
    if not isinstance(said, dict) or not isinstance(said.get("id"), str):
        raise MessageError(f"a message is {{'id': ..., 'params': {{...}}}}, not {said!r}")
    template = catalog.get(said["id"])
    if not isinstance(template, str):
        raise MessageError(f"no message {said['id']!r} in the {lang} catalog")
    params = said.get("params") or {}
    return _fill(parse(template), params, catalog, lang, None, said["id"])


def _fill(nodes: tuple[Node, ...], params: dict[str, Any], catalog: dict[str, Any], lang: str,
          number: int | float | None, where: str) -> str:
    out = []
    for node in nodes:
        if isinstance(node, str):
            out.append(node)
        elif node[0] == "#":
            out.append(format_number(number or 0, lang))
        else:
            name = node[1]
            if name not in params:
                raise MessageError(f"{where}: parameter {name!r} is missing")
            value = params[name]
            if node[0] == "arg":
                out.append(_value(name, value, node[2], catalog, lang))
            else:
                if isinstance(value, bool) or not isinstance(value, int | float):
                    raise MessageError(f"{where}: {name} must be a number, not {value!r}")
                branches = node[2]
                category = plural_category(value, lang)
                branch = (branches[f"={value}"] if f"={value}" in branches
                          else branches[category] if category in branches else branches["other"])
                out.append(_fill(branch, params, catalog, lang, value, where))
    return "".join(out)


def _value(name: str, value: Any, form: str | None, catalog: dict[str, Any], lang: str) -> str:
    if isinstance(value, dict | list):
        return render(value, catalog, lang)
    kind = kind_of(name)
    if kind == "seat":
        return noun(catalog, f"seat.{value}", form)
    if kind == "suit" and form == "symbol":  # the same in every language
        return SUIT_SYMBOLS["SHDC".index(value)]
    if kind in ("suit", "rank"):
        return noun(catalog, f"{kind}.{value}", form)
    if kind == "level":  # a level the catalogs do not know (a test's) is called by its key
        known = isinstance(catalog.get(f"level.{value}"), str)
        return render(message(f"level.{value}"), catalog, lang) if known else str(value)
    if kind == "card":
        if not isinstance(value, str) or len(value) != 2:
            raise MessageError(f"{name} must be a card code such as 'QH', not {value!r}")
        if form == "name":
            return render(message("card.name", rank=value[0], suit=value[1]), catalog, lang)
        return noun(catalog, f"rank.{value[0]}", "short") + SUIT_SYMBOLS["SHDC".index(value[1])]
    if isinstance(value, bool):
        raise MessageError(f"{name} is true or false, which has no words")
    if kind == "lead":
        if not isinstance(value, int):
            raise MessageError(f"{name} must be a whole number of points, not {value!r}")
        sign = "+" if value > 0 else MINUS if value < 0 else ""
        return sign + format_number(abs(value), lang)
    if isinstance(value, int | float):
        return format_number(value, lang)
    if isinstance(value, str):
        return value
    raise MessageError(f"{name} cannot be written: {value!r}")


def noun(catalog: dict[str, Any], key: str, form: str | None = None) -> str:
    """A noun's word in the given form (its first form when none is asked for)."""
    word = catalog.get(key)
    if isinstance(word, str):
        return word
    if not isinstance(word, dict) or not word:
        raise MessageError(f"no noun {key!r} in the catalog")
    if form is None:
        return str(next(iter(word.values())))
    if form not in word:
        raise MessageError(f"the noun {key!r} has no form {form!r}")
    return str(word[form])
