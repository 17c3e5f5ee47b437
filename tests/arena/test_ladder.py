"""Bot ladders: seeded round-robins, duplicate seats, OpenSkill ratings and the head-to-head table."""

from __future__ import annotations

import sys

import pytest

from dicepoker.arena.engine import Engine
from dicepoker.arena.ladder import ladder, pair_seed
from dicepoker.core.errors import ConfigError

pytest.importorskip("openskill", reason="the research extra is not installed: pip install -e '.[research]'")


def _comparable(data: dict[str, object]) -> dict[str, object]:
    return {key: value for key, value in data.items() if key not in ("seconds", "workers")}


def test_the_stronger_bots_rank_higher_and_the_counts_add_up() -> None:
    report = ladder("scorecard", games=12, seed=1)
    assert [r.bot for r in report.ratings][-1] == "random"
    assert report.total_games == 3 * 2 * 12
    for (bot, opponent), pair in report.head_to_head.items():
        assert pair.trials == 24, "both seat orders"
        assert pair.wins.count + pair.ties.count + pair.losses.count == 24
        mirror = report.head_to_head[(opponent, bot)]
        assert pair.wins.count == mirror.losses.count and pair.ties.count == mirror.ties.count
    assert report.head_to_head[("greedy", "random")].wins.rate > 0.9
    best, *_, worst = report.ratings
    assert best.low > worst.high, "a clear gap: the intervals do not overlap"
    assert best.low < best.mu < best.high


def test_a_seed_gives_one_ladder_whatever_the_workers() -> None:
    one = ladder("peekpoker", ["random", "equity", "expert"], games=4, seed=7)
    two = ladder("peekpoker", ["random", "equity", "expert"], games=4, seed=7, engine=Engine("local", 2))
    assert _comparable(one.to_json()) == _comparable(two.to_json())
    other = ladder("peekpoker", ["random", "equity", "expert"], games=4, seed=8)
    assert _comparable(other.to_json()) != _comparable(one.to_json())


def test_adding_a_bot_does_not_change_the_games_of_the_others() -> None:
    two = ladder("scorecard", ["random", "greedy"], games=5, seed=3)
    three = ladder("scorecard", ["random", "greedy", "optimal"], games=5, seed=3)
    assert two.head_to_head[("greedy", "random")] == three.head_to_head[("greedy", "random")]
    assert pair_seed(3, "greedy", "random") == pair_seed(3, "random", "greedy")


def test_game_options_reach_the_game() -> None:
    report = ladder("holdem", ["random", "equity"], games=2, seed=1, config={"stack": 100})
    assert report.config["stack"] == 100 and report.config["players"] == 2


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"bots": ["random"]}, "at least two bots"),
        ({"bots": ["random", "random"]}, "each bot once"),
        ({"bots": ["random", "wizard"]}, "no bot 'wizard'"),
        ({"games": 0}, "at least one game"),
        ({"config": {"players": 3}}, "heads-up"),
    ],
)
def test_bad_ladders_are_refused(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        ladder("scorecard", **kwargs)  # type: ignore[arg-type]


def test_without_openskill_the_error_says_which_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "openskill.models", None)
    with pytest.raises(ConfigError, match=r"dicepoker\[research\]"):
        ladder("scorecard", games=1)
