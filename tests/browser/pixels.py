"""What a person sees at a box's edges: a PNG screenshot read into pixel brightness.

Playwright's screenshots are 8-bit, non-interlaced RGB or RGBA PNGs; reading them here keeps
the tests free of an imaging package.
"""

from __future__ import annotations

import statistics
import struct
import zlib

from playwright.sync_api import Locator


def brightness(png: bytes) -> list[list[int]]:
    """Rows of pixels, each pixel's brightness the mean of its red, green and blue (0-255)."""
    if png[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    at, data = 8, b""
    width = height = channels = 0
    while at < len(png):
        (size,), kind = struct.unpack(">I", png[at : at + 4]), png[at + 4 : at + 8]
        body = png[at + 8 : at + 8 + size]
        at += 12 + size
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or colour not in (2, 6) or interlace:
                raise ValueError(f"a PNG of depth {depth}, colour {colour}: not read here")
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            data += body
    raw = zlib.decompress(data)
    stride = width * channels
    rows: list[list[int]] = []
    above = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        method, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for x in range(stride):
            left = line[x - channels] if x >= channels else 0
            up = above[x]
            corner = above[x - channels] if x >= channels else 0
            if method == 1:
                line[x] = (line[x] + left) & 255
            elif method == 2:
                line[x] = (line[x] + up) & 255
            elif method == 3:
                line[x] = (line[x] + (left + up) // 2) & 255
            elif method == 4:
                p = left + up - corner
                # Paeth: the nearest of the three to p, ties to left, then up.
                near = min((abs(p - left), 0, left), (abs(p - up), 1, up),
                           (abs(p - corner), 2, corner))  # fmt: skip
                line[x] = (line[x] + near[2]) & 255
        rows.append([sum(line[x : x + 3]) // 3 for x in range(0, stride, channels)])
        above = line
    return rows


def edge_shades(box: Locator) -> tuple[bool, bool]:
    """Whether ``box`` is shaded at its left and at its right edge, seen with its contents
    hidden (their text and borders are not shade): the middle half of one of its three
    outermost columns of pixels is darker than 235 at its median (the dialog is 246; the
    median passes over what overlaps the box, such as a dialog's sticky buttons)."""
    box.evaluate("(el) => { for (const c of el.children) c.style.visibility = 'hidden'; }")
    try:
        rows = brightness(box.screenshot())
    finally:
        box.evaluate("(el) => { for (const c of el.children) c.style.visibility = ''; }")
    middle = rows[len(rows) // 4 : 3 * len(rows) // 4]

    def shaded(columns: range) -> bool:
        return min(statistics.median(r[x] for r in middle) for x in columns) < 235

    width = len(rows[0])
    return shaded(range(3)), shaded(range(width - 3, width))
