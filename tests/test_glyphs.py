"""Every character the page shows is one that every system draws.

The page names no font of its own (system-ui, Georgia and the usual fall-backs in
web/style.css), so a character counts as safe only if the fonts of every system have it:
the rule is WGL4, the Windows Glyph List 4 (Basic Latin, Latin-1, Latin Extended-A, Greek,
Cyrillic, the common punctuation, arrows and box drawing, and the card suits ♠♣♥♦), which
Windows' core fonts (Segoe UI, Arial, Georgia), Apple's system fonts, DejaVu, Liberation and
Noto all cover. A sign outside it (ⓘ, ★, ✓, ◀, ▶) showed as an empty box on some systems;
the page draws such icons with CSS instead.

Checked: the two message catalogs, web/index.html (text and attributes), every script, style
sheet and manifest of web/ and its folders (their literals, and their comments too, to keep
the rule simple), and the rules in brief that build.py puts into the page.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted(
    [*(path for path in (ROOT / "web").rglob("*")
       if path.suffix in {".js", ".css", ".html", ".webmanifest", ".svg"}),
     *(ROOT / "calypso_core/messages").glob("*.json"),
     ROOT / "docs/rules.md", ROOT / "docs/rules.ru.md"])

# WGL4, as ranges of code points (inclusive); its two private-use code points and the fi and
# fl ligatures are left out (the page never needs them).
WGL4_RANGES = [
    (0x20, 0x7E), (0xA0, 0x17F), (0x192, 0x192), (0x1FA, 0x1FF),
    (0x2C6, 0x2C7), (0x2C9, 0x2C9), (0x2D8, 0x2DD),
    (0x384, 0x38A), (0x38C, 0x38C), (0x38E, 0x3A1), (0x3A3, 0x3CE),
    (0x401, 0x40C), (0x40E, 0x44F), (0x451, 0x45C), (0x45E, 0x45F), (0x490, 0x491),
    (0x1E80, 0x1E85), (0x1EF2, 0x1EF3),
    (0x2013, 0x2015), (0x2017, 0x201E), (0x2020, 0x2022), (0x2026, 0x2026), (0x2030, 0x2030),
    (0x2032, 0x2033), (0x2039, 0x203A), (0x203C, 0x203C), (0x203E, 0x203E), (0x2044, 0x2044),
    (0x207F, 0x207F), (0x20A3, 0x20A4), (0x20A7, 0x20A7), (0x20AC, 0x20AC),
    (0x2105, 0x2105), (0x2113, 0x2113), (0x2116, 0x2116), (0x2122, 0x2122), (0x2126, 0x2126),
    (0x212E, 0x212E), (0x215B, 0x215E),
    (0x2190, 0x2195), (0x21A8, 0x21A8),
    (0x2202, 0x2202), (0x2206, 0x2206), (0x220F, 0x220F), (0x2211, 0x2212), (0x2215, 0x2215),
    (0x2219, 0x221A), (0x221E, 0x221F), (0x2229, 0x2229), (0x222B, 0x222B), (0x2248, 0x2248),
    (0x2260, 0x2261), (0x2264, 0x2265),
    (0x2302, 0x2302), (0x2310, 0x2310), (0x2320, 0x2321),
    (0x2500, 0x2500), (0x2502, 0x2502), (0x250C, 0x250C), (0x2510, 0x2510), (0x2514, 0x2514),
    (0x2518, 0x2518), (0x251C, 0x251C), (0x2524, 0x2524), (0x252C, 0x252C), (0x2534, 0x2534),
    (0x253C, 0x253C), (0x2550, 0x256C), (0x2580, 0x2580), (0x2584, 0x2584), (0x2588, 0x2588),
    (0x258C, 0x258C), (0x2590, 0x2593),
    (0x25A0, 0x25A1), (0x25AA, 0x25AC), (0x25B2, 0x25B2), (0x25BA, 0x25BA), (0x25BC, 0x25BC),
    (0x25C4, 0x25C4), (0x25CA, 0x25CB), (0x25CF, 0x25CF), (0x25D8, 0x25D9), (0x25E6, 0x25E6),
    (0x263A, 0x263C), (0x2640, 0x2640), (0x2642, 0x2642), (0x2660, 0x2660), (0x2663, 0x2663),
    (0x2665, 0x2666), (0x266A, 0x266B),
]
# Layout characters, never drawn: line ends and tabs.
LAYOUT = {"\n", "\r", "\t"}


def is_safe(char: str) -> bool:
    code = ord(char)
    return char in LAYOUT or any(low <= code <= high for low, high in WGL4_RANGES)


def unsafe_characters(text: str) -> dict[str, int]:
    """Characters outside the safe set, each with the line it first appears on."""
    found: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), 1):
        for char in line:
            if not is_safe(char):
                found.setdefault(char, number)
    return found


def test_the_safe_set_is_wgl4_with_the_suits_cyrillic_and_the_page_s_punctuation() -> None:
    assert all(is_safe(c) for c in "♠♥♦♣ЁёАяЙй«»—…·←→►◄○●\u2013\u00d7")  # en dash, times
    assert all(a[1] < b[0] for a, b in itertools.pairwise(WGL4_RANGES))  # sorted, apart


@pytest.mark.parametrize("sign", ["ⓘ", "★", "☆", "✓", "✕", "◀", "▶", "◆", "◐", "🂡"])
def test_signs_some_systems_lack_are_refused(sign: str) -> None:
    assert unsafe_characters(f'.notice::before {{ content: "{sign} "; }}') == {sign: 1}


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_character_the_page_shows_is_one_every_system_draws(path: Path) -> None:
    found = unsafe_characters(path.read_text(encoding="utf-8"))
    assert not found, ", ".join(f"{c!r} (U+{ord(c):04X}) on line {n}" for c, n in found.items())
