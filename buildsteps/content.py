"""What the build writes for the page from the project's own sources: the Rules dialog from
docs/rules.md, the message catalogs and each language's web app manifest, and the app's
icons, drawn the same every time."""

from __future__ import annotations

import json
import re
import shutil
import struct
import sys
import zlib
from pathlib import Path

from .tools import ROOT, WEB

# Every word people read is in the engine's catalogs, one per language; the page loads the
# same files, and each language has a web app manifest named and described in its words.
MESSAGES = ROOT / "calypso_core" / "messages"
MANIFEST_WORDS = {"name": "app.name", "short_name": "app.name",
                  "description": "app.manifest_description"}


def copy_messages(dist: Path) -> None:
    """Copy the catalogs to dist/messages/ and write each language's manifest from its words
    (English: manifest.webmanifest, the others: manifest.<lang>.webmanifest)."""
    (dist / "messages").mkdir()
    template = json.loads((WEB / "manifest.webmanifest").read_text())
    for catalog in sorted(MESSAGES.glob("*.json")):
        lang = catalog.stem
        shutil.copyfile(catalog, dist / "messages" / catalog.name)
        words = json.loads(catalog.read_text())
        manifest = {**template, "lang": lang,
                    **{key: words[word] for key, word in MANIFEST_WORDS.items()}}
        name = "manifest.webmanifest" if lang == "en" else f"manifest.{lang}.webmanifest"
        (dist / name).write_text(json.dumps(manifest, ensure_ascii=False, indent=1) + "\n")


# The page's Rules dialog is written once, in docs/rules.md, between these two marks; each
# <div data-rules-from="docs/NAME.md"> of a page is filled with that file's marked section, so
# a translation is one more file with the same marks and one more element with its lang.
RULES_MARKS = ("<!-- rules-dialog -->", "<!-- /rules-dialog -->")
RULES_FROM = re.compile(r'(<div\b[^>]*\bdata-rules-from="(docs/[\w.-]+\.md)"[^>]*>)(.*?)(</div>)',
                        re.S)


def render_rules_dialog(page: Path) -> None:
    """Fill the page's rules elements from the marked sections of the docs they name."""
    def fill(found: re.Match[str]) -> str:
        name = found.group(2)
        return found.group(1) + rules_dialog_html((ROOT / name).read_text(), name) + found.group(4)

    text, count = RULES_FROM.subn(fill, page.read_text())
    if not count:
        sys.exit(f'build.py: {page.name} has no <div data-rules-from="docs/….md"> to fill')
    page.write_text(text)


def rules_dialog_html(markdown: str, name: str = "docs/rules.md") -> str:
    """The section between RULES_MARKS as HTML: ### headings, paragraphs, numbered and bulleted
    lists, **bold** and *italics*. Anything else stops the build rather than show as Markdown."""
    start, end = (markdown.find(mark) for mark in RULES_MARKS)
    if start < 0 or end < start:
        sys.exit(f"build.py: {name} has no section between {RULES_MARKS[0]} and {RULES_MARKS[1]}")

    def inline(text: str) -> str:
        if any(sign in text for sign in "`|[]<>_#"):
            sys.exit(f"build.py: {name}: the rules dialog shows plain text only: {text!r}")
        text = text.replace("&", "&amp;")
        text = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", text)
        text = re.sub(r"\*(.+?)\*", r"<em>\1</em>", text)
        if "*" in text:
            sys.exit(f"build.py: {name}: an unpaired * in the rules dialog: {text!r}")
        return text

    out = []
    section = markdown[start + len(RULES_MARKS[0]):end]
    for block in re.split(r"\n\s*\n", section.strip()):
        lines = block.splitlines()
        if lines[0].startswith("### ") and len(lines) == 1:
            out.append(f"<h3>{inline(lines[0][4:])}</h3>")
        elif re.match(r"(\d+\.|-) ", lines[0]):
            items: list[str] = []
            for line in lines:
                item = re.match(r"(?:\d+\.|-) (.*)", line)
                if item:
                    items.append(item.group(1))
                elif line.startswith("  ") and items:
                    items[-1] += " " + line.strip()
                else:
                    sys.exit(f"build.py: {name}: the rules dialog cannot show {line!r}")
            tag = "ul" if lines[0].startswith("-") else "ol"
            out.append(f"<{tag}>" + "".join(f"<li>{inline(i)}</li>" for i in items) + f"</{tag}>")
        else:
            out.append(f"<p>{inline(' '.join(line.strip() for line in lines))}</p>")
    return "\n".join(out)


def icon_png(size: int) -> bytes:
    """The app icon as an RGB PNG: a white card with a red diamond on the theme green.

    Drawn row by row from the shapes' edges (no pixel loop), compressed with fixed zlib
    settings: the same size always gives the same bytes. The card sits inside the central
    80 % that a maskable icon keeps, so the full-bleed green can be cropped to any shape.
    """
    green, white, red = b"\x0f\x4d\x2c", b"\xff\xff\xff", b"\xc6\x28\x28"
    half_w, half_h, radius = 0.27 * size, 0.36 * size, 0.05 * size
    dia_w, dia_h = 0.17 * size, 0.24 * size
    centre = size / 2
    rows = []
    for y in range(size):
        row = bytearray(green * size)
        dy = abs(y + 0.5 - centre)
        if dy <= half_h:
            inset = 0.0
            if dy > half_h - radius:  # the rounded corners
                inset = radius - (radius**2 - (dy - (half_h - radius)) ** 2) ** 0.5
            left, right = round(centre - half_w + inset), round(centre + half_w - inset)
            row[3 * left:3 * right] = white * (right - left)
        if dy <= dia_h:
            reach = dia_w * (1 - dy / dia_h)
            left, right = round(centre - reach), round(centre + reach)
            row[3 * left:3 * right] = red * (right - left)
        rows.append(b"\x00" + bytes(row))  # filter type 0 for every row

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data)))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)  # 8-bit RGB, no interlace
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b""))
