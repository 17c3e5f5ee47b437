"""Issue 13 §5: exact odds are computed once per machine and read back; what is read back is what is computed."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from dicepoker.analysis import board_odds, holdem_odds, peekpoker_odds
from dicepoker.dice.table_cache import BUILDS, CACHE_ENV


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    cached: list[Any] = [
        peekpoker_odds.odds_table,
        holdem_odds.category_probabilities,
        board_odds.hand_odds,
        board_odds.label_odds,
    ]
    for function in cached:
        function.cache_clear()
    yield tmp_path
    for function in cached:
        function.cache_clear()  # later tests get values read from their own cache, not this one's


def _built_then_read_back(name: str, function: Callable[[], Any]) -> Any:
    before = BUILDS[name]
    first = function()
    assert BUILDS[name] == before + 1
    function.cache_clear()  # type: ignore[attr-defined]  # as in a new process
    second = function()
    assert BUILDS[name] == before + 1, "read back from the cache, not computed again"
    assert second == first
    return second


def test_peekpoker_odds_read_back_equal_a_fresh_computation(cache: Path) -> None:
    table = _built_then_read_back("peekpoker-odds", peekpoker_odds.odds_table)
    assert table == peekpoker_odds._compute_odds_table()
    assert (cache / "peekpoker-odds.npz").exists()


def test_holdem_odds_read_back_equal_a_fresh_computation(cache: Path) -> None:
    probabilities = _built_then_read_back("holdem-odds", holdem_odds.category_probabilities)
    assert probabilities == holdem_odds._category_probabilities()
    assert sum(probabilities.values()) == 1


def test_board_hand_odds_read_back_equal_a_fresh_computation(cache: Path) -> None:
    rows = _built_then_read_back("board-hand-odds", board_odds.hand_odds)
    fresh = [
        board_odds.reach_probability(frozenset(i for i, r in enumerate(board_odds.READINGS) if r.hand is hand))
        for hand in sorted(board_odds.PokerHand, reverse=True)
    ]
    assert [(row.one_roll, row.in_turn) for row in rows] == fresh


def test_a_corrupt_odds_file_is_recomputed(cache: Path) -> None:
    expected = holdem_odds.category_probabilities()
    (cache / "holdem-odds.npz").write_bytes(b"\x00" * 100)
    holdem_odds.category_probabilities.cache_clear()
    before = BUILDS["holdem-odds"]
    assert holdem_odds.category_probabilities() == expected
    assert BUILDS["holdem-odds"] == before + 1
