"""Numbers as each language writes them, and CLDR plural categories for English and Russian.

The page does the same with ``Intl.NumberFormat`` and ``Intl.PluralRules``; the tests check
that both agree (tests/test_messages.py and the Russian browser test).
"""

from __future__ import annotations

NO_BREAK_SPACE = "\u00a0"  # what Intl.NumberFormat("ru") puts between groups of digits


def plural_category(number: int | float, lang: str) -> str:
    """The CLDR plural category of a number: English ``one``/``other``; Russian
    ``one``/``few``/``many``/``other`` (1 взятка, 2 взятки, 5 взяток, 21 взятка, 1,5 взятки)."""
    whole = isinstance(number, int) or float(number).is_integer()
    if lang == "ru":
        if not whole:
            return "other"
        n = abs(int(number))
        if n % 10 == 1 and n % 100 != 11:
            return "one"
        if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
            return "few"
        return "many"
    return "one" if abs(number) == 1 else "other"


def format_number(number: int | float, lang: str) -> str:
    """A number as people of the language read it: ``1,250`` and ``2.5`` in English,
    ``1 250`` (a no-break space) and ``2,5`` in Russian; at most three decimals."""
    text = f"{number:,}" if isinstance(number, int) else f"{number:,.3f}".rstrip("0").rstrip(".")
    if lang == "ru":
        text = text.replace(",", NO_BREAK_SPACE).replace(".", ",")
    return text
