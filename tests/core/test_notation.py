"""ASCII-only, bounded whole numbers (issue: non-ASCII digits and 4,300-digit numbers crashed parsers)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dicepoker.core.errors import NotationError
from dicepoker.core.notation import parse_int


@pytest.mark.parametrize("text", ["²", "①", "¹⁰", "٣", "", "-1", "1.0", " 1", "9" * 5000])
def test_refuses_what_is_not_an_ascii_whole_number(text: str) -> None:
    with pytest.raises(NotationError, match="digits 0-9"):
        parse_int(text, "a count")


def test_bounds_are_named() -> None:
    with pytest.raises(NotationError, match="from 1 to 5"):
        parse_int("6", "a die position", low=1, high=5)
    assert parse_int("5", "a die position", low=1, high=5) == 5


@given(st.text(max_size=30))
def test_any_text_either_parses_or_gets_notation_error(text: str) -> None:
    try:
        value = parse_int(text, "a number")
    except NotationError:
        return
    assert str(value) == text.lstrip("0") or value == 0
