"""Small values packed into a short text for a link: one whole number in mixed radix, written
in base64url (RFC 4648's URL-safe alphabet, no padding), so that a link carries exactly the
information it holds and no byte more.

Each value is a digit of its own radix: a card chosen among 4 legal ones costs two bits, a
forced card none. ``Packer.put`` adds digits in reading order and ``Unpacker.take`` reads
them back in the same order, each with the radix the reader knows at that point (for a
card, the number of legal cards in the position the replay has reached). A packed text is
canonical: the same values give the same text, and ``Unpacker`` refuses any other spelling
of the number (padding, a leading zero byte, stray bits), so a text and its values
correspond one to one.

A sealed text (``seal``, ``unseal``) adds a format digit and a checksum of both: a
link cut short, retyped or edited by hand is refused rather than read as other values.
The checksum is no signature: anyone with this source can compute it (docs/challenge.md).
"""

from __future__ import annotations

import base64
import hashlib
import re

_TEXT = re.compile(r"[A-Za-z0-9_-]*")
CHECK_BITS = 32
FORMATS = 64  # the radix of the format digit a sealed text starts with


class PackingError(ValueError):
    """A packed text that is malformed, or does not hold the values read from it."""


class Packer:
    """Digits added in reading order; ``number`` and ``text`` give them packed."""

    def __init__(self) -> None:
        self._digits: list[tuple[int, int]] = []

    def put(self, value: int, radix: int) -> None:
        """Add ``value``, one of ``radix`` values (0 to radix - 1)."""
        if type(value) is not int or type(radix) is not int or not 0 <= value < radix:
            raise ValueError(f"{value!r} is not a digit of radix {radix!r}")
        self._digits.append((value, radix))

    def put_bytes(self, data: bytes, max_bytes: int) -> None:
        """Add a run of at most ``max_bytes`` bytes, its length first."""
        if len(data) > max_bytes:
            raise ValueError(f"{len(data)} bytes is over the {max_bytes} allowed")
        self.put(len(data), max_bytes + 1)
        for byte in data:
            self.put(byte, 256)

    def put_text(self, text: str, max_bytes: int) -> None:
        """Add a text as its UTF-8 bytes, at most ``max_bytes`` of them."""
        self.put_bytes(text.encode(), max_bytes)

    def number(self) -> int:
        """The digits as one whole number: the first digit added is the lowest."""
        number = 0
        for value, radix in reversed(self._digits):
            number = number * radix + value
        return number

    def text(self) -> str:
        """The number in base64url (``to_text``)."""
        return to_text(self.number())


class Unpacker:
    """Reads digits back from a packed number, in the order they were added."""

    def __init__(self, number: int) -> None:
        self._number = number

    @classmethod
    def from_text(cls, text: str) -> Unpacker:
        """Read a text ``to_text`` wrote; any other text raises ``PackingError``."""
        return cls(from_text(text))

    def take(self, radix: int) -> int:
        """The next digit, of ``radix`` values."""
        self._number, value = divmod(self._number, radix)
        return value

    def take_bytes(self, max_bytes: int) -> bytes:
        """A run of bytes ``put_bytes`` added with the same limit."""
        return bytes(self.take(256) for _ in range(self.take(max_bytes + 1)))

    def take_text(self, max_bytes: int) -> str:
        """A text ``put_text`` added with the same limit; bytes that are not UTF-8 raise."""
        try:
            return self.take_bytes(max_bytes).decode()
        except UnicodeDecodeError:
            raise PackingError("a text in it is not UTF-8") from None

    @property
    def is_empty(self) -> bool:
        """Whether every digit has been read (what is left is zero)."""
        return self._number == 0

    def end(self) -> None:
        """Refuse digits left over once everything was read."""
        if self._number:
            raise PackingError("it holds more than its values")


def to_text(number: int) -> str:
    """A whole number as base64url without padding: its big-endian bytes, no leading zero
    byte (zero is the empty text)."""
    data = number.to_bytes((number.bit_length() + 7) // 8, "big")
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def from_text(text: str) -> int:
    """The number ``to_text`` wrote as ``text``; any other spelling raises ``PackingError``."""
    if not isinstance(text, str) or not _TEXT.fullmatch(text) or len(text) % 4 == 1:
        raise PackingError("it is not base64url text")
    data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    number = int.from_bytes(data, "big")
    if to_text(number) != text:
        raise PackingError("it is not written as this engine writes it")
    return number


def seal(kind: int, payload: Packer) -> str:
    """The payload's text with the format ``kind`` first and a checksum of the payload."""
    if not 0 <= kind < FORMATS:
        raise ValueError(f"format {kind} is not 0-{FORMATS - 1}")
    body = payload.number()
    number = (body << CHECK_BITS | _check(kind, body)) * FORMATS + kind
    return to_text(number)


def unseal(text: str) -> tuple[int, Unpacker]:
    """The format and the payload of a sealed text; a text whose checksum does not hold (cut
    short, retyped, edited) raises ``PackingError``."""
    number = from_text(text)
    rest, kind = divmod(number, FORMATS)
    body, check = rest >> CHECK_BITS, rest & ((1 << CHECK_BITS) - 1)
    if _check(kind, body) != check:
        raise PackingError("its checksum does not hold: it was cut short or changed")
    return kind, Unpacker(body)


def _check(kind: int, body: int) -> int:
    data = bytes([kind]) + body.to_bytes((body.bit_length() + 7) // 8, "big")
    return int.from_bytes(hashlib.sha256(data).digest()[: CHECK_BITS // 8], "big")
