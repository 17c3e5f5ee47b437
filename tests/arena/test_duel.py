"""Heads-up duels of the betting games: seeded, seat-alternating, and a clear strength order (small runs)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

import dicepoker.cli.holdem  # registers the commands (dicepoker.cli.peekpoker too)
import dicepoker.cli.peekpoker  # noqa: F401
from dicepoker.arena.duel import GAMES, DuelReport, duel, parse_bots
from dicepoker.bots.base import RandomBot
from dicepoker.bots.registry import create_bot
from dicepoker.cli.app import app
from dicepoker.core.errors import ConfigError

runner = CliRunner()


@pytest.mark.parametrize("game", sorted(GAMES))
def test_equity_beats_random(game: str) -> None:
    report = duel(game, create_bot(game, "equity"), RandomBot(), hands=300, seed=1)
    assert report.hands == len(report.results) == 300
    low, _ = report.interval
    assert low > 0, report.summary()


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_seed_gives_the_same_run_and_chips_are_conserved(game: str) -> None:
    first, second = parse_bots(game, "random,random")
    a = duel(game, first, second, hands=40, seed=9)
    b = duel(game, first, second, hands=40, seed=9)
    assert a == b
    assert duel(game, first, second, hands=40, seed=10).results != a.results
    # The same bot in both seats: what one seat wins the other loses, so alternating seats keeps the total
    # a sum of zero-sum hands, each within the starting stack.
    stack = GAMES[game]().stack
    assert all(-stack <= r <= stack for r in a.results)


def test_report_figures() -> None:
    report = DuelReport("holdem", ("a", "b"), 4, 1, (10, -10, 30, 10))
    assert report.mean == 10
    assert report.stdev == pytest.approx((800 / 3) ** 0.5)
    assert report.interval[0] < 10 < report.interval[1]
    assert report.command == "dicepoker simulate holdem --bots a,b --hands 4 --seed 1"
    assert report.to_json()["total_chips"] == 40


def test_bad_requests_are_config_errors() -> None:
    with pytest.raises(ConfigError, match="exactly two bots"):
        parse_bots("holdem", "expert")
    with pytest.raises(ConfigError, match="no bot"):
        parse_bots("peekpoker", "expert,optimal")
    with pytest.raises(ConfigError, match="no heads-up duels"):
        duel("scorecard", RandomBot(), RandomBot(), hands=1, seed=1)
    with pytest.raises(ConfigError, match="at least one hand"):
        duel("holdem", RandomBot(), RandomBot(), hands=0, seed=1)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_simulate_command_reports_and_reproduces(game: str) -> None:
    args = ["simulate", game, "--bots", "equity,random", "--hands", "30", "--seed", "4"]
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["hands"] == 30 and data["bots"] == ["equity", "random"]
    assert data["ci95"][0] <= data["chips_per_hand"] <= data["ci95"][1]
    assert data["command"] == f"dicepoker simulate {game} --bots equity,random --hands 30 --seed 4"
    text = runner.invoke(app, args)
    assert text.exit_code == 0
    assert f"equity wins {data['chips_per_hand']:+.2f} chips per hand" in text.stdout
    assert f"reproduce: {data['command']}" in text.stdout


def test_simulate_command_without_a_seed_prints_the_one_it_chose() -> None:
    result = runner.invoke(app, ["simulate", "holdem", "--bots", "random,random", "--hands", "3", "--json"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["command"].endswith(f"--seed {data['seed']}")


@pytest.mark.parametrize("bots", ["expert", "expert,nobody", "a,b,c"])
def test_simulate_command_bad_bots_exit_2(bots: str) -> None:
    result = runner.invoke(app, ["simulate", "peekpoker", "--bots", bots, "--hands", "3"])
    assert result.exit_code == 2
    assert result.stderr.startswith("error:")
    assert "Traceback" not in result.output


def test_sessions_give_the_same_duel_for_any_worker_count() -> None:
    from dicepoker.arena.duel import duel_named
    from dicepoker.arena.engine import Engine

    one = duel_named("peekpoker", ("expert", "equity"), hands=30, seed=2, session=10)
    two = duel_named("peekpoker", ("expert", "equity"), hands=30, seed=2, session=10, engine=Engine("local", 2))
    assert one.results == two.results and one.command.endswith("--session 10")
    whole = duel_named("peekpoker", ("expert", "equity"), hands=30, seed=2)
    sequential = duel("peekpoker", create_bot("peekpoker", "expert"), create_bot("peekpoker", "equity"), 30, 2)
    assert whole.results == sequential.results, "one session is the sequential duel"
    with pytest.raises(ConfigError, match="at least one hand"):
        duel_named("peekpoker", ("expert", "equity"), hands=30, seed=2, session=0)
