"""``dicepoker ladder``: tables, JSON, the plot file, and exit status 2 with a clear message for bad input."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dicepoker.cli.app import app

pytest.importorskip("openskill", reason="the research extra is not installed: pip install -e '.[research]'")
runner = CliRunner()
importlib.import_module("dicepoker.cli.ladder")  # registers the command on the app


def test_tables_and_the_command_that_reproduces_them(tmp_path: Path) -> None:
    plot = tmp_path / "ladder.png"
    result = runner.invoke(app, ["ladder", "peekpoker", "--games", "3", "--seed", "2", "--plot", str(plot)])
    assert result.exit_code == 0, result.output
    assert "OpenSkill ratings" in result.stdout and "Head to head" in result.stdout
    assert (
        "reproduce: dicepoker ladder peekpoker --bots random,equity,expert,station,maniac,tight,lag --games 3 --seed 2"
        in result.stdout
    )
    assert plot.read_bytes().startswith(b"\x89PNG")


def test_json_with_a_game_option() -> None:
    args = ["ladder", "holdem", "--bots", "random,equity", "--games", "2", "--seed", "1", "--set", "stack=100"]
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["config"]["stack"] == 100 and data["total_games"] == 4
    assert {r["bot"] for r in data["ratings"]} == {"random", "equity"}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["ladder", "chess"], "unknown game 'chess'"),
        (["ladder", "scorecard", "--bots", "random,wizard"], "no bot 'wizard'"),
        (["ladder", "scorecard", "--set", "stack"], "KEY=VALUE"),
        (["ladder", "scorecard", "--engine", "spark"], "unknown engine"),
    ],
)
def test_bad_input_exits_2_with_a_message(args: list[str], message: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output


def test_missing_extras_are_named(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "openskill.models", None)
    result = runner.invoke(app, ["ladder", "scorecard", "--games", "1"])
    assert result.exit_code == 2 and "dicepoker[research]" in result.output
    monkeypatch.setitem(sys.modules, "ray", None)
    result = runner.invoke(app, ["ladder", "scorecard", "--engine", "ray"])
    assert result.exit_code == 2 and "dicepoker[distributed]" in result.output
