"""Checks of an action's fields, for actions built in code rather than parsed (``Bet("10")``, ``Score(99)``).

Actions are plain frozen dataclasses, so a caller may build one with any values. The checked entry
point (:meth:`dicepoker.core.state.State.check`) asks each action to check its own fields first, so a
wrong type or an impossible value is an :class:`IllegalAction` (CM-4) and never a ``TypeError`` or an
``IndexError`` from deep inside the rules. Which values are legal *here* stays the rules' business.

>>> require_int("bet", "10", low=0)
Traceback (most recent call last):
...
dicepoker.core.errors.IllegalAction: bet needs a whole number of at least 0, got '10'
"""

from __future__ import annotations

import enum
from typing import TypeVar

from dicepoker.core.errors import IllegalAction

E = TypeVar("E", bound=enum.Enum)
_SHOWN = 40
MAX_WHOLE = 2**63 - 1
"""The largest magnitude an action's number may have."""


def shown(value: object) -> str:
    """A short, safe picture of a value for an error message (no 5,000-digit numbers, no megabyte strings)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"a number of about {int(value.bit_length() * 0.30103) + 1} digits"
    try:
        text = repr(value)
    except Exception:  # a value whose repr fails is still refused, with a plainer picture
        text = f"a {type(value).__name__}"
    return text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…"


def _range(low: int | None, high: int | None) -> str:
    if low is not None and high is not None:
        return f" from {low} to {high}"
    if low is not None:
        return f" of at least {low}"
    return "" if high is None else f" of at most {high}"


def is_whole(value: object) -> bool:
    """A real ``int`` (``True`` and ``1.0`` are not)."""
    return isinstance(value, int) and not isinstance(value, bool)


def require_int(what: str, value: object, *, low: int | None = None, high: int | None = None) -> int:
    """``value`` if it is a whole number within ``low``..``high``; else :class:`IllegalAction`.

    Whatever the bounds, a number beyond ±(2**63 - 1) is refused: no seat, die, square or chip count
    comes near it, and a number with thousands of digits cannot even be printed in a message.
    """
    if not isinstance(value, int) or isinstance(value, bool) or not _within(value, low, high):
        raise IllegalAction(f"{what} needs a whole number{_range(low, high)}, got {shown(value)}")
    if abs(value) > MAX_WHOLE:
        raise IllegalAction(f"{what} needs a whole number{_range(low, high)}, got {shown(value)}")
    return value


def _within(value: int, low: int | None, high: int | None) -> bool:
    return (low is None or value >= low) and (high is None or value <= high)


def require_ints(
    what: str, value: object, *, low: int | None = None, high: int | None = None, max_len: int
) -> tuple[int, ...]:
    """``value`` if it is a tuple of at most ``max_len`` whole numbers within ``low``..``high``."""
    if not isinstance(value, tuple) or len(value) > max_len:
        raise IllegalAction(f"{what} needs a tuple of at most {max_len} whole numbers, got {shown(value)}")
    for item in value:
        require_int(what, item, low=low, high=high)
    return value


def require_member(what: str, value: object, kind: type[E]) -> E:
    """``value`` if it is a member of the enum ``kind``."""
    if not isinstance(value, kind):
        raise IllegalAction(f"{what} needs a {kind.__name__}, got {shown(value)}")
    return value


def require_members(what: str, value: object, kind: type[E], *, max_len: int) -> tuple[E, ...]:
    """``value`` if it is a tuple of at most ``max_len`` members of the enum ``kind``."""
    if not isinstance(value, tuple) or len(value) > max_len or not all(isinstance(v, kind) for v in value):
        raise IllegalAction(f"{what} needs a tuple of at most {max_len} {kind.__name__} values, got {shown(value)}")
    return value
