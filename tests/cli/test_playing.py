"""Issue 18 §4: the options every ``play`` command shares are declared once (cli/playing.py)."""

from __future__ import annotations

import importlib
import re
from dataclasses import fields

import pytest
from typer.testing import CliRunner

from dicepoker.cli.app import app
from dicepoker.cli.playing import PlayOptions
from dicepoker.games import registry

for _module in ("board", "holdem", "peekpoker", "scorecard"):
    importlib.import_module(f"dicepoker.cli.{_module}")  # registers the commands on the app

runner = CliRunner()
SHARED = [f"--{field.name}" for field in fields(PlayOptions)]


@pytest.mark.parametrize("game", registry.names())
def test_every_play_command_takes_the_shared_options_after_its_own(game: str) -> None:
    result = runner.invoke(app, ["play", game, "--help"], env={"COLUMNS": "200"}, terminal_width=200)
    assert result.exit_code == 0, result.output
    listed = re.findall(r"^│ (--[a-z-]+)", result.output, re.M)
    assert listed[-len(SHARED) - 1 : -1] == SHARED, listed  # then --help
    assert "Seconds per decision (up to 3600); when they run out" in result.output


def test_shared_local_options_are_refused_at_a_server() -> None:
    result = runner.invoke(app, ["play", "scorecard", "--server", "http://127.0.0.1:9", "--clock", "30"])
    assert result.exit_code == 2 and "--clock is for local play" in result.output


def test_the_options_of_a_game_at_this_terminal() -> None:
    options = PlayOptions(seed=3, clock=30.0, force=True)
    assert options.at_terminal() == {"seed": 3, "clock": 30.0, "save": None, "force": True, "resume": None}
    assert options.local() == {"seed": 3, "clock": 30.0, "save": None, "resume": None}
