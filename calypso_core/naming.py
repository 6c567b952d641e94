"""What a person may be called: the one rule for names, applied by the table's ``new_game``
(every person's name), by its ``check_name`` (a guest's name, which the host's page asks for
before it gives the guest a seat) and so by every form that takes a name, and by a game
record's players (record.py: its characters, at a record's own length).

A name is what people type, spaces collapsed: letters of any script, digits, signs, accents
and emoji — joined ones too (a family, a profession: U+200D between two emoji), flags,
subdivision flags (tag characters after an emoji) and variation selectors. Refused, each with
a message that says what to change: a control character (a tab, a bell), a mark that turns the
direction of the text (bidi controls, which would turn the table's labels around), a name of
nothing visible (zero-width spaces and joiners that join nothing), more than
``MAX_NAME_CHARS`` characters, and the words the table itself labels seats and players with
("You", "Host", the seats' names, in every language of the catalogs), which would make a
table show "East · You" for a seat that is not the reader's.
"""

from __future__ import annotations

import unicodedata
from functools import cache

from .messages import LANGUAGES, Message, catalog, message

MAX_NAME_CHARS = 20  # characters (code points), emoji joiners included
# Marks that change the direction of text around them (Unicode's bidi controls).
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_JOINERS = frozenset("\u200c\u200d")  # zero width (non-)joiner: only between two characters
_EMOJI_STYLE = "\ufe0f"  # variation selector 16: the emoji before it drawn as an emoji
_TAGS = range(0xE0020, 0xE0080)  # emoji tag sequences (subdivision flags), after an emoji
# Characters that take no room of their own: format characters and combining marks.
_ZERO_WIDTH = frozenset({"Cf", "Mn", "Me"})
# The labels the table gives seats and players (their catalog ids): never a person's name.
_LABELS = ("label.you", "label.host", "seat.0", "seat.1", "seat.2", "seat.3")


def collapsed(name: str) -> str:
    """A name as the table keeps it: its runs of spaces (any kind) made one, none at the ends."""
    return " ".join(name.split())


def name_problem(name: str, max_chars: int = MAX_NAME_CHARS, *, reserved: bool = True
                 ) -> Message | None:
    """Why ``name`` (collapsed) cannot be a person's name, as a message saying what to change;
    None when it can (an empty name can: the seat's name stands for it). ``reserved`` False
    lets a name be one of the table's labels (a saved game, a record, from before the rule)."""
    for i, char in enumerate(name):
        kind = unicodedata.category(char)
        if kind in ("Cc", "Cs"):  # a control, or half of a character (a lone surrogate)
            return message("error.name_control")
        if char in _BIDI:
            return message("error.name_bidi")
        if kind == "Cf" and not _joins(name, i):
            return message("error.name_invisible")
    if name and all(unicodedata.category(char) in _ZERO_WIDTH for char in name):
        return message("error.name_invisible")
    if len(name) > max_chars:
        return message("error.name_too_long", count=max_chars)
    if reserved and name and name.casefold() in reserved_words():
        return message("error.name_reserved", name=name)
    return None


def _joins(name: str, i: int) -> bool:
    """Whether the format character at ``i`` has its place: a joiner between two characters
    that take room, or a tag character after an emoji (or another tag)."""
    char = name[i]
    before = name[i - 1] if i else ""
    if char in _JOINERS:
        after = name[i + 1] if i + 1 < len(name) else ""
        return _takes_room(before) and _takes_room(after)
    return ord(char) in _TAGS and bool(before) and (
        ord(before) in _TAGS or unicodedata.category(before) == "So")


def _takes_room(char: str) -> bool:
    """Whether a character is one a joiner may join: a visible one, or the emoji variation
    selector that ends an emoji ("🏳️‍🌈" joins the flag so)."""
    return bool(char) and (char == _EMOJI_STYLE or (
        unicodedata.category(char) not in _ZERO_WIDTH and not char.isspace()))


@cache
def reserved_words() -> frozenset[str]:
    """The table's own labels in every language of the catalogs (every form of a seat's
    name), casefolded."""
    words: set[str] = set()
    for lang in LANGUAGES:
        words_of = catalog(lang)
        for key in _LABELS:
            word = words_of[key]
            words.update(word.values() if isinstance(word, dict) else [word])
    return frozenset(word.casefold() for word in words)
