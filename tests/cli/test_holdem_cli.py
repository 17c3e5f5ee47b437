"""The holdem commands: hand, odds, equity (exit 2 on bad input)."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from dicepoker.cli import app
from dicepoker.cli import holdem as _holdem_commands  # noqa: F401  (registers the commands)

runner = CliRunner()


def test_hand_names_the_best_five() -> None:
    result = runner.invoke(app, ["hand", "holdem", "6r", "6b", "2w", "3y", "6w", "2r", "5y", "--json"])
    assert result.exit_code == 0
    assert json.loads(result.stdout)["hand"] == "full house 6 6 6 2 2"


def test_bad_dice_exit_2() -> None:
    result = runner.invoke(app, ["hand", "holdem", "6r", "9b"])
    assert result.exit_code == 2


def test_odds_sum_to_one() -> None:
    result = runner.invoke(app, ["odds", "holdem", "--json"])
    assert result.exit_code == 0
    table = json.loads(result.stdout)
    assert abs(sum(row["probability"] for row in table.values()) - 1) < 1e-12
    assert table["yahtzee flush"]["fraction"] == "7/1674432"


def test_equity_exact_and_monte_carlo() -> None:
    exact = runner.invoke(
        app, ["equity", "holdem", "--pocket", "6r 6b", "--vs", "2w 3y", "--board", "6w 1r 2b", "--json"]
    )
    assert exact.exit_code == 0
    data = json.loads(exact.stdout)
    assert data["method"] == "exact enumeration" and data["error95"] == 0
    sampled = runner.invoke(app, ["equity", "holdem", "--pocket", "6r 6b", "--samples", "20000", "--json"])
    assert sampled.exit_code == 0
    assert json.loads(sampled.stdout)["error95"] > 0
