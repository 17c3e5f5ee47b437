"""The checks of action fields that keep malformed actions from reaching the rules (CM-4)."""

from __future__ import annotations

import enum

import pytest

from dicepoker.core.errors import IllegalAction
from dicepoker.core.fields import MAX_WHOLE, require_int, require_ints, require_member, require_members, shown


class Colour(enum.Enum):
    RED = 1


@pytest.mark.parametrize(
    "value", [True, False, 1.0, "1", None, (1,), MAX_WHOLE + 1, -MAX_WHOLE - 1, 10**5000], ids=shown
)
def test_require_int_refuses_what_is_not_a_sane_whole_number(value: object) -> None:
    with pytest.raises(IllegalAction, match="needs a whole number"):
        require_int("x", value)


def test_require_int_checks_the_range_and_returns_the_value() -> None:
    assert require_int("face", 6, low=1, high=6) == 6
    with pytest.raises(IllegalAction, match="from 1 to 6, got 7"):
        require_int("face", 7, low=1, high=6)


def test_tuples_and_members() -> None:
    assert require_ints("dice", (1, 2), low=1, high=6, max_len=5) == (1, 2)
    for bad in ([1, 2], (1, "2"), (1,) * 6, "12"):
        with pytest.raises(IllegalAction):
            require_ints("dice", bad, low=1, high=6, max_len=5)
    assert require_member("colour", Colour.RED, Colour) is Colour.RED
    with pytest.raises(IllegalAction, match="needs a Colour"):
        require_member("colour", 1, Colour)
    with pytest.raises(IllegalAction):
        require_members("colours", (Colour.RED, 1), Colour, max_len=3)


def test_shown_keeps_messages_short_and_printable() -> None:
    assert shown(10**5000).startswith("a number of about 5001 digits")
    assert len(shown("x" * 10**6)) <= 40
    assert shown(True) == "True"
