"""The game-agnostic simulator: seeded games, results independent of workers, and the interval maths."""

from __future__ import annotations

import json
import math

import pytest

from dicepoker.arena.simulate import (
    GameRecord,
    MeanEstimate,
    derive_seed,
    simulate,
    summarize,
    wilson_interval,
)
from dicepoker.core.errors import ConfigError


def _comparable(report_json: dict[str, object]) -> dict[str, object]:
    return {key: value for key, value in report_json.items() if key not in ("seconds", "workers")}


def test_report_does_not_depend_on_the_number_of_workers() -> None:
    one = simulate("scorecard", ["random", "greedy"], games=24, seed=5, workers=1)
    two = simulate("scorecard", ["random", "greedy"], games=24, seed=5, workers=2)
    assert _comparable(one.to_json()) == _comparable(two.to_json())
    assert two.workers == 2


def test_same_seed_same_report_and_other_seed_other_games() -> None:
    first = simulate("scorecard", ["random"], games=10, seed=1)
    again = simulate("scorecard", ["random"], games=10, seed=1)
    other = simulate("scorecard", ["random"], games=10, seed=2)
    assert _comparable(first.to_json()) == _comparable(again.to_json())
    assert first.seats[0].score.mean != other.seats[0].score.mean


def test_game_seeds_come_from_seed_and_index_only() -> None:
    seeds = {derive_seed(7, index, "dice") for index in range(1000)}
    assert len(seeds) == 1000
    assert derive_seed(7, 3, "dice") != derive_seed(7, 3, "bots")
    assert derive_seed(7, 3, "dice") != derive_seed(8, 3, "dice")


def test_SC_13_counts_add_up_and_the_stronger_bot_wins_more() -> None:
    report = simulate("scorecard", ["random", "greedy"], games=30, seed=3)
    assert report.config == {"players": 2}
    for seat in report.seats:
        assert seat.wins.count + seat.ties.count + seat.losses.count == 30
        assert seat.score.interval.low <= seat.score.mean <= seat.score.interval.high
    random_seat, greedy_seat = report.seats
    assert greedy_seat.score.mean > random_seat.score.mean + 50
    assert greedy_seat.wins.rate > 0.8
    assert report.first_player.seat_counts == (30, 0), "scorecard: seat 0 always starts (SC-1)"
    json.dumps(report.to_json(), allow_nan=False)


def test_one_bot_means_solo_games() -> None:
    report = simulate("scorecard", ["greedy"], games=4, seed=1)
    assert report.config == {"players": 1}
    assert len(report.seats) == 1 and report.seats[0].wins.count == 4


def test_bad_runs_are_config_errors() -> None:
    with pytest.raises(ConfigError, match="no bot 'nobody'"):
        simulate("scorecard", ["random", "nobody"], games=1, seed=1)
    with pytest.raises(ConfigError, match="unknown game"):
        simulate("no-such-game", ["random"], games=1, seed=1)
    with pytest.raises(ConfigError, match="at least 1"):
        simulate("scorecard", ["random"], games=0, seed=1)
    with pytest.raises(ConfigError, match="3 seats but 2 bots"):
        simulate("scorecard", ["random", "random"], games=1, seed=1, config={"players": 3})


def test_summarize_counts_wins_ties_and_the_first_player() -> None:
    records = [
        GameRecord((10, 5), frozenset({0}), 0),
        GameRecord((7, 7), frozenset({0, 1}), 1),
        GameRecord((1, 9), frozenset({1}), 1),
        GameRecord((3, 2), frozenset({0}), 1),
    ]
    report = summarize("scorecard", ["a", "b"], records, seed=0)
    first, second = report.seats
    assert (first.wins.count, first.ties.count, first.losses.count) == (2, 1, 1)
    assert (second.wins.count, second.ties.count, second.losses.count) == (1, 1, 2)
    assert first.score.mean == 21 / 4
    assert report.tied_games.count == 1
    assert report.first_player.seat_counts == (1, 3)
    assert report.first_player.wins.count == 2  # game 1 (seat 0) and game 3 (seat 1)
    assert report.first_player.ties.count == 1
    assert report.first_player.score.mean == (10 + 7 + 9 + 2) / 4


def test_wilson_interval_matches_the_formula() -> None:
    interval = wilson_interval(50, 100)
    assert interval.low == pytest.approx(0.40383, abs=1e-5)
    assert interval.high == pytest.approx(0.59617, abs=1e-5)
    zero = wilson_interval(0, 10)
    assert zero.low == pytest.approx(0, abs=1e-12) and zero.high == pytest.approx(0.27753, abs=1e-5)
    assert wilson_interval(10, 10).high == pytest.approx(1)
    assert math.isnan(wilson_interval(0, 0).low)


def test_mean_interval_is_normal_approximation() -> None:
    values = [float(v) for v in range(1, 101)]
    estimate = MeanEstimate.of(values)
    stdev = math.sqrt(sum((v - 50.5) ** 2 for v in values) / 99)
    assert estimate.mean == 50.5
    assert estimate.stdev == pytest.approx(stdev)
    assert estimate.interval.high - 50.5 == pytest.approx(1.959964 * stdev / 10, rel=1e-6)
    single = MeanEstimate.of([4.0])
    assert single.mean == 4 and single.to_json()["ci95"] == [None, None]
