"""Bad text never crashes a parser (issue 13 §2): digits that are not ASCII and numbers of thousands of digits.

``str.isdigit`` accepts ``²``, ``①`` and ``¹⁰`` which ``int`` then rejects, and ``int`` refuses more than 4,300
digits: both used to end a game with a ``ValueError`` traceback. Every game's ``parse_action`` and every dice,
category and position parser must either parse or raise :class:`NotationError`, with a message of bounded size.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicepoker.core.errors import CorruptLog, NotationError
from dicepoker.core.log import Event, EventLog
from dicepoker.dice.poker import parse_dice as parse_poker_dice
from dicepoker.dice.scoring import Category
from dicepoker.dice.standard import parse_dice
from dicepoker.dice.suited import parse_suited
from dicepoker.games.dice_turn import parse_positions
from dicepoker.games.registry import create, names, replay

HEADS = ["reroll", "rolled", "score", "bet", "raise", "claim", "remove", "opening", "highroll", "high-roll", "draw"]
WEIRD_NUMBERS = ["²", "①", "¹⁰", "٣", "1²", "𝟕", "9" * 5000, "1" * 4301, "0" * 30 + "1", "-1", "+3", "1_000"]

weird = st.sampled_from(WEIRD_NUMBERS) | st.text(st.characters(categories=["Nd", "No", "Nl"]), min_size=1, max_size=5)
words = st.lists(weird | st.sampled_from(["1", "2", "3", "6", "r", "6r", "A", "T"]), min_size=1, max_size=5)

PARSERS: dict[str, Callable[[str], object]] = {
    "standard dice": parse_dice,
    "standard dice, any count": lambda text: parse_dice(text, count=None),
    "suited dice": parse_suited,
    "poker dice": parse_poker_dice,
    "category": Category.parse,
    "positions": lambda text: parse_positions(text.split()),
}


def _refused_cleanly(parse: Callable[[str], object], text: str) -> None:
    try:
        parse(text)
    except NotationError as exc:
        assert len(str(exc)) < 600, "an error message must not repeat thousands of characters"


@pytest.mark.parametrize("name", names())
@settings(max_examples=150, deadline=None)
@given(head=st.sampled_from(HEADS), rest=words)
def test_every_game_parser_parses_or_says_why(name: str, head: str, rest: list[str]) -> None:
    _refused_cleanly(create(name).parse_action, " ".join([head, *rest]))


@pytest.mark.parametrize("parser", list(PARSERS))
@settings(max_examples=150, deadline=None)
@given(rest=words)
def test_dice_and_category_parsers_parse_or_say_why(parser: str, rest: list[str]) -> None:
    _refused_cleanly(PARSERS[parser], " ".join(rest))


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("scorecard", "reroll ²"),
        ("scorecard", "score ①"),
        ("scorecard", "rolled ¹⁰"),
        ("holdem", "bet ²"),
        ("peekpoker", "raise " + "9" * 5000),
        ("zepherin", "claim ① 1"),
        ("classic-board", "remove 1 " + "9" * 5000),
    ],
)
def test_named_cases_from_the_audit(name: str, text: str) -> None:
    with pytest.raises(NotationError, match=r"digits 0-9|not a die|unknown category"):
        create(name).parse_action(text)


def test_a_save_file_with_a_non_ascii_digit_is_a_corrupt_log() -> None:
    log = EventLog(
        "scorecard", {"players": 1}, 1, (Event(0, "roll"), Event(None, "rolled 1 2 3 4 5"), Event(0, "score ²"))
    )
    with pytest.raises(CorruptLog, match="event 3"):
        replay(EventLog.from_jsonl(log.to_jsonl()))


def test_a_megabyte_action_is_refused_fast_with_a_short_message() -> None:
    started = time.perf_counter()
    with pytest.raises(NotationError) as caught:
        create("scorecard").parse_action("x" * 1_000_000)
    assert len(str(caught.value)) < 300 and "1,000,000 characters" in str(caught.value)
    assert time.perf_counter() - started < 0.5
