"""The optimal scorecard strategy: the published optimum, cache handling, and decision values."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from dicepoker.analysis.scorecard_solver import (
    Strategy,
    best_sub_keeps,
    build_strategy,
    keep_expectations,
    load_strategy,
)
from dicepoker.analysis.scorecard_tables import build_keep_tables
from dicepoker.dice.scoring import Category
from dicepoker.dice.standard import ROLLS, outcomes
from dicepoker.games.dice_turn import Reroll
from dicepoker.games.scorecard import EMPTY_CARD, Score

# Optimal solitaire expectation for Yahtzee scoring without Yahtzee bonuses and joker rules,
# as published (245.870775…); SC-8 and SC-11 make our rules exactly those.
PUBLISHED_OPTIMUM = 245.8708


@pytest.fixture(scope="module")
def strategy(tmp_path_factory: pytest.TempPathFactory) -> Strategy:
    return load_strategy(path=tmp_path_factory.mktemp("cache") / "table.npz").strategy


def test_optimal_expected_score_matches_published_figure(strategy: Strategy) -> None:
    assert round(strategy.expected_score, 4) == PUBLISHED_OPTIMUM


def test_keep_recursion_equals_direct_enumeration() -> None:
    """The one-die-at-a-time recursion gives the same expectations as summing over whole re-rolls."""
    tables = build_keep_tables()
    rng = np.random.default_rng(0)
    roll_values = rng.random((252, 3))
    expected = keep_expectations(roll_values, tables)
    roll_index = {roll: i for i, roll in enumerate(ROLLS)}
    for keep in [(3,), (1, 6), (2, 2, 5), (1, 2, 3, 4)]:
        rerolls = outcomes(5 - len(keep))
        direct = sum(float(p) * roll_values[roll_index[tuple(sorted(keep + extra))]] for extra, p in rerolls)
        assert np.allclose(expected[tables.index[keep]], direct)
    everything = sum(float(p) * roll_values[roll_index[roll]] for roll, p in outcomes(5))
    assert np.allclose(expected[tables.index[()]], everything)
    best = best_sub_keeps(expected, tables)
    roll = (1, 2, 2, 5, 6)
    subs = {tuple(sorted(roll[i] for i in range(5) if mask >> i & 1)) for mask in range(32)}
    assert np.allclose(best[roll_index[roll]], np.max([expected[tables.index[s]] for s in subs], axis=0))


def test_action_values_rank_obvious_choices(strategy: Strategy) -> None:
    ranked = strategy.action_values(EMPTY_CARD, (6, 6, 6, 6, 6), rolls_used=1)
    assert ranked[0][0] == Score(Category.FIVE_KIND)
    ranked = strategy.action_values(EMPTY_CARD, (1, 2, 3, 4, 6), rolls_used=3)
    assert all(isinstance(action, Score) for action, _ in ranked)
    assert len(ranked) == 13
    ranked = strategy.action_values(EMPTY_CARD, (2, 3, 4, 5, 1), rolls_used=1)
    assert ranked[0][0] == Score(Category.LARGE_STRAIGHT)
    assert any(isinstance(action, Reroll) for action, _ in ranked)
    assert [v for _, v in ranked] == sorted((v for _, v in ranked), reverse=True)


def test_first_roll_values_average_to_expected_score(strategy: Strategy) -> None:
    """Before any roll the card is worth the average over first rolls of their best decision."""
    total = sum(float(p) * strategy.action_values(EMPTY_CARD, roll, 1)[0][1] for roll, p in outcomes(5))
    assert total == pytest.approx(strategy.expected_score, abs=1e-9)
    assert strategy.state_value(EMPTY_CARD) == pytest.approx(strategy.expected_score)


def test_cache_missing_corrupt_and_reused(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "table.npz"
    first = load_strategy(path=path)
    assert first.built and first.note is not None and "no cached table" in first.note
    second = load_strategy(path=path)
    assert not second.built and second.note is None
    assert second.strategy.expected_score == first.strategy.expected_score
    path.write_bytes(b"garbage, not a table")
    third = load_strategy(path=path)
    assert third.built and third.note is not None and "unusable" in third.note
    assert round(third.strategy.expected_score, 4) == PUBLISHED_OPTIMUM


def test_tampered_table_is_rebuilt(tmp_path: Path) -> None:
    path = tmp_path / "table.npz"
    strategy, _ = build_strategy()
    np.savez(path, values=strategy.values + 1, version=1, digest="0" * 64)
    assert load_strategy(path=path).built


def test_progress_is_reported_while_building_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 13 §5: the wait is announced (a progress bar) only when the table is built, not when it loads."""
    from dicepoker.analysis import scorecard_solver

    def quick_solve(*, progress: Callable[[int, int], None] | None = None) -> np.ndarray:
        for level in range(1, 14):
            if progress:
                progress(level, 13)
        return np.zeros((8192, 64))

    monkeypatch.setattr(scorecard_solver, "solve_values", quick_solve)
    reports: list[tuple[int, int]] = []
    path = tmp_path / "table.npz"
    assert load_strategy(path=path, progress=lambda done, total: reports.append((done, total))).built
    assert reports == [(level, 13) for level in range(1, 14)]
    reports.clear()
    assert not load_strategy(path=path, progress=lambda done, total: reports.append((done, total))).built
    assert reports == []
