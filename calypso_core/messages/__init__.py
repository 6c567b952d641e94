"""Every sentence and word people read, as message ids with parameters, in English and Russian.

The engine, the table and the bots never send a sentence: they say things as messages,
``{"id": "trick.overtrump", "params": {"seat": 3, "card": "3D"}}`` (``message`` builds
one), and whoever shows them renders them in the reader's language from one catalog per
language, ``en.json`` and ``ru.json`` beside this module, with the same keys. The page
loads the same two files (``build.py`` copies them into ``dist/messages/``) and renders
them the same way (``web/i18n.js``); the terminal game and the command line use
``render`` here. docs/messages.md describes the templates and how to add a message.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from .plural import format_number, plural_category
from .render import Message, MessageError, kind_of, message, noun, parse, placeholders
from .render import render as render_with

LANGUAGES = ("en", "ru")
LANGUAGE_NAMES = {"en": "English", "ru": "Русский"}  # each in its own language


@cache
def catalog(lang: str) -> dict[str, Any]:
    """A language's catalog: message id or noun id to its template or word."""
    if lang not in LANGUAGES:
        raise MessageError(f"no catalog for language {lang!r} (languages: {', '.join(LANGUAGES)})")
    # Read beside this module (the engine is installed as files, in the page too), when first
    # asked for: the page renders its messages itself, and reads a catalog here only for the
    # words a name may not be (naming.py). Not with importlib.resources, which the page's
    # trimmed standard library leaves out (importing it was 4% of the engine's import).
    from pathlib import Path

    text = (Path(__file__).parent / f"{lang}.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def render(said: Message | list[Message], lang: str = "en") -> str:
    """A message, or a list of them (one sentence after another), in a language."""
    return render_with(said, catalog(lang), lang)


__all__ = [
    "LANGUAGES",
    "LANGUAGE_NAMES",
    "Message",
    "MessageError",
    "catalog",
    "format_number",
    "kind_of",
    "message",
    "noun",
    "parse",
    "placeholders",
    "plural_category",
    "render",
]
