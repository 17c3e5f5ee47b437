"""Reading whole numbers typed by people or found in files, the same careful way everywhere.

``str.isdigit`` accepts ``²``, ``①`` and other Unicode digits that ``int`` then rejects, and ``int`` refuses
strings of more than 4,300 digits with a ``ValueError``: every parser uses :func:`parse_int` instead, which
accepts ASCII digits only, bounds the length, and raises :class:`NotationError` with a clear message.
"""

from __future__ import annotations

from dicepoker.core.errors import NotationError

MAX_DIGITS = 18
"""No number in these games needs more digits; longer text is refused before ``int`` sees it."""

QUOTE_LIMIT = 40
"""How much of a bad input an error message repeats: a 4 MB line must not make a 4 MB message."""


def quote(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``repr(text)``, cut to ``limit`` characters (saying how long the whole was), for error messages.

    >>> quote("reroll 9")
    "'reroll 9'"
    >>> quote("x" * 1000, limit=5)
    "'xxxxx…' (1,000 characters)"
    """
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit] + '…'!r} ({len(text):,} characters)"


def is_ascii_number(text: str) -> bool:
    """Whether ``text`` is a non-negative whole number written in ASCII digits (and not absurdly long).

    >>> is_ascii_number("42"), is_ascii_number("²"), is_ascii_number("-1"), is_ascii_number("")
    (True, False, False, False)
    """
    return 0 < len(text) <= MAX_DIGITS and text.isascii() and text.isdigit()


def parse_int(text: str, what: str, *, low: int | None = None, high: int | None = None) -> int:
    """``text`` as a whole number in ``[low, high]``; raises :class:`NotationError` naming ``what``.

    >>> parse_int("3", "a die position", low=1, high=5)
    3
    >>> parse_int("①", "a die position", low=1, high=5)
    Traceback (most recent call last):
    ...
    dicepoker.core.errors.NotationError: a die position must be a whole number written with the digits 0-9, not '①'
    """
    if not is_ascii_number(text):
        raise NotationError(f"{what} must be a whole number written with the digits 0-9, not {quote(text, 20)}")
    value = int(text)
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = (
            f"from {low} to {high}"
            if low is not None and high is not None
            else (f"at least {low}" if low is not None else f"at most {high}")
        )
        raise NotationError(f"{what} must be {bounds}, not {value}")
    return value
