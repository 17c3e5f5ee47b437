"""What every command shares: documented numeric ranges (exit 2, shown in --help), ``--version``, and errors.

Issue 13 §2: ``simulate --games 10**12`` allocated without limit, ``--workers 999`` was accepted, ``equity holdem
--samples 0`` crashed, ``play scorecard --clock 1e308`` crashed, ``equity peekpoker`` accepted 5 players.
"""

from __future__ import annotations

import importlib
import re
from importlib.metadata import version

import pytest
from typer.testing import CliRunner

from dicepoker.cli.app import app
from dicepoker.cli.common import MAX_CLOCK, MAX_GAMES, MAX_SAMPLES, MAX_WORKERS, MIN_SAMPLES

runner = CliRunner()
for _module in ("dicepoker.cli.board", "dicepoker.cli.holdem", "dicepoker.cli.peekpoker", "dicepoker.cli.scorecard"):
    importlib.import_module(_module)  # registers the commands on the app


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["simulate", "scorecard", "--games", str(10**12)], "--games"),
        (["simulate", "scorecard", "--games", "0"], "--games"),
        (["simulate", "scorecard", "--workers", "999"], "--workers"),
        (["simulate", "scorecard", "--workers", "0"], "--workers"),
        (["simulate", "zepherin", "--games", str(MAX_GAMES + 1)], "--games"),
        (["simulate", "classic-board", "--workers", str(MAX_WORKERS + 1)], "--workers"),
        (["simulate", "holdem", "--hands", "0"], "--hands"),
        (["simulate", "peekpoker", "--hands", str(MAX_GAMES + 1)], "--hands"),
        (["equity", "holdem", "--pocket", "6r 6b", "--samples", "0"], "--samples"),
        (["equity", "holdem", "--pocket", "6r 6b", "--samples", "-1"], "--samples"),
        (["equity", "holdem", "--pocket", "6r 6b", "--samples", str(MIN_SAMPLES - 1)], "--samples"),
        (["equity", "holdem", "--pocket", "6r 6b", "--samples", str(MAX_SAMPLES + 1)], "--samples"),
        (["play", "scorecard", "--clock", "1e308"], "--clock"),
        (["play", "scorecard", "--clock", "0"], "--clock"),
        (["play", "holdem", "--clock", "nan"], "--clock"),
        (["play", "holdem", "--clock", "inf"], "--clock"),
        (["play", "peekpoker", "--clock", str(MAX_CLOCK + 1)], "--clock"),
        (["play", "holdem", "--stack", str(10**10)], "--stack"),
    ],
)
def test_numbers_out_of_range_exit_2_naming_the_option(args: list[str], option: str) -> None:
    result = runner.invoke(app, args, input="quit\n")
    assert result.exit_code == 2, result.output
    assert f"Invalid value for '{option}'" in result.output or f"error: {option} must be" in result.output


@pytest.mark.parametrize(
    ("args", "shown"),
    [
        (["simulate", "scorecard", "--help"], ["1<=x<=1000000", "1<=x<=64"]),
        (["simulate", "classic-board", "--help"], ["1<=x<=1000000", "1<=x<=64"]),
        (["simulate", "holdem", "--help"], ["1<=x<=1000000"]),
        (["equity", "holdem", "--help"], ["100<=x<=1000000"]),
        (["play", "scorecard", "--help"], ["up to 3600"]),
        (["play", "peekpoker", "--help"], ["up to 3600"]),
    ],
)
def test_ranges_are_documented_in_help(args: list[str], shown: list[str]) -> None:
    result = runner.invoke(app, args, env={"COLUMNS": "200"})
    assert result.exit_code == 0
    for text in shown:
        assert text in result.output


def test_equity_peekpoker_takes_at_most_three_opponents() -> None:
    opponents = [arg for dice in ("9 9 9", "K K K", "Q Q Q", "T T T") for arg in ("--opponent", dice)]
    result = runner.invoke(app, ["equity", "peekpoker", "--own", "A K 9", *opponents])
    assert result.exit_code == 2 and "at most 3 opponents, got 4" in result.output
    assert runner.invoke(app, ["equity", "peekpoker", "--own", "A K 9", *opponents[:6]]).exit_code == 0


def test_a_custom_board_larger_than_the_chips_can_fill_exits_2(tmp_path: object) -> None:
    from pathlib import Path

    from tests.games.board.test_board_layout import square_board

    board = Path(str(tmp_path)) / "big.toml"
    board.write_text("rows = [\n" + ",\n".join(f'"{row}"' for row in square_board(90)) + "]\n")
    result = runner.invoke(app, ["hand", "zepherin", "11333", "--board", str(board)])
    assert result.exit_code == 2 and "at most 15 rows and columns" in result.output
    board.write_text("rows = [\n" + ",\n".join(f'"{row}"' for row in square_board(12)) + "]\n")
    result = runner.invoke(app, ["odds", "classic-board", "--board", str(board)])
    assert result.exit_code == 2 and "might never end" in result.output


def test_version_comes_from_the_installed_metadata() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.output == f"dicepoker {version('dicepoker')}\n"


@pytest.mark.parametrize(
    ("game", "title"),
    [
        ("scorecard", "Scorecard: "),
        ("holdem", "Dice Hold'em: "),
        ("peekpoker", "PeekPoker: "),
        ("zepherin", "Zepherin: "),
        ("classic-board", "Classic board: "),
    ],
)
def test_odds_prints_every_game_in_the_same_style(game: str, title: str) -> None:
    """One renderer: '<Game>: … (exact)' over a table with a Hand column and percentages to four decimals."""
    result = runner.invoke(app, ["odds", game], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    top = next(i for i, line in enumerate(lines) if line.startswith("┏"))  # a Rich title wraps to the table
    heading = " ".join(line.strip() for line in lines[:top])
    assert heading.startswith(title) and heading.endswith("(exact)")
    assert "┃ Hand " in lines[top + 1] or "┃ Key " in lines[top + 1]
    figures = re.findall(r"│ +([0-9.]+%) ", result.stdout)
    assert figures and all(re.fullmatch(r"\d+\.\d{4}%", figure) for figure in figures)


def test_board_clock_and_peekpoker_stack_have_ranges() -> None:
    """Issue 13 §2: the options added with the terminal work get the same documented ranges, exit 2."""
    board = runner.invoke(app, ["play", "zepherin", "--clock", "1e308"])
    assert board.exit_code == 2 and "--clock must be a positive number" in board.output
    stack = runner.invoke(app, ["play", "peekpoker", "--stack", str(10**12)])
    assert stack.exit_code == 2 and "--stack" in stack.output
