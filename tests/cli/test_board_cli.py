"""The board commands: output, JSON, and exit status 2 with a clear message for bad input."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dicepoker.cli.app import app

runner = CliRunner()
for _module in ("dicepoker.cli.board", "dicepoker.cli.replay"):
    importlib.import_module(_module)  # registers the commands on the app


def test_hand_json_lists_the_claims() -> None:
    result = runner.invoke(app, ["hand", "zepherin", "1", "1", "1", "1", "3", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["hand"] == "four-of-a-kind" and data["lucky"] == "L7"
    assert set(data["claims"]) == {"K1", "L7"}


def test_hand_text() -> None:
    result = runner.invoke(app, ["hand", "classic-board", "11333"])
    assert result.exit_code == 0 and "full house" in result.stdout


@pytest.mark.parametrize("dice", [["1", "1", "7", "1", "3"], ["1", "1"], ["x"]])
def test_bad_dice_exit_2_without_traceback(dice: list[str]) -> None:
    result = runner.invoke(app, ["hand", "zepherin", *dice])
    assert result.exit_code == 2
    assert ("Traceback" not in result.output and result.exception is None) or isinstance(result.exception, SystemExit)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("rows = [", "not valid TOML"),
        ('rows = ["S K6", "P1"]', "not rectangular"),
        ('rows = ["XX"]', "unknown label"),
    ],
)
def test_bad_board_file_exit_2(tmp_path: Path, content: str, message: str) -> None:
    board = tmp_path / "board.toml"
    board.write_text(content)
    for command in (
        ["hand", "zepherin", "1", "2", "3", "4", "5"],
        ["odds", "zepherin"],
        ["simulate", "zepherin", "--games", "1"],
        ["play", "zepherin"],
    ):
        result = runner.invoke(app, [*command, "--board", str(board)])
        assert result.exit_code == 2, (command, result.output)
        assert message in " ".join(result.output.split())  # Rich wraps long paths: compare words


def test_odds_json() -> None:
    result = runner.invoke(app, ["odds", "zepherin", "--json"])
    assert result.exit_code == 0
    assert json.loads(result.stdout)["hands"][0]["key"] == "five-of-a-kind"


def test_simulate_json() -> None:
    result = runner.invoke(
        app, ["simulate", "zepherin", "--bots", "greedy,random", "--games", "4", "--seed", "1", "--json"]
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["games"] == 4


def test_play_bots_only_to_the_end_and_save(tmp_path: Path) -> None:
    save = tmp_path / "game.jsonl"
    result = runner.invoke(
        app, ["play", "classic-board", "--vs", "greedy,random,greedy", "--seed", "2", "--save", str(save)]
    )
    assert result.exit_code == 0, result.output
    assert "Game over" in result.stdout and save.exists()
    replayed = runner.invoke(app, ["replay", str(save)])
    assert replayed.exit_code == 0


def test_play_human_commands(tmp_path: Path) -> None:
    result = runner.invoke(
        app,
        ["play", "zepherin", "--vs", "greedy", "--seed", "3"],
        input="\nhelp\nboard\nhint\nclaim 9 9\nquit\n",
    )
    assert result.exit_code == 0, result.output
    assert "Commands" in result.stdout


def test_bad_vs_exit_2() -> None:
    result = runner.invoke(app, ["play", "zepherin", "--vs", "wizard"])
    assert result.exit_code == 2 and "unknown player" in result.output


# -- terminal play (issue 13 §4) --------------------------------------------------------------------------
def test_board_without_colour_shows_team_letters_a_legend_and_the_last_move() -> None:
    """BD-2: the teams are the colours the game declares, as in the browser: seat 0 Blue, seat 1 Orange (issue 21)."""
    result = runner.invoke(
        app, ["play", "zepherin", "--vs", "greedy", "--seed", "3"], input="\nboard\nquit\n", env={"NO_COLOR": "1"}
    )
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Greedy bot (Orange) rolled 1 3 4 4 4 (three 4s) and claims 4 1." in out
    row = next(line for line in out.splitlines() if line.startswith("  4 "))
    assert row.split()[1] == ">O<", "the last move, Orange's chip at row 4 column 1, between arrows"
    assert "Legend: (B) (O) (G) a team's chip" in out and "\x1b[" not in out
    assert "You (Blue)" in out and "seat" not in out.lower()


def test_BD_14_board_clock_through_a_pipe(tmp_path: Path) -> None:
    """BD-14: ``play zepherin --clock``: a silent player's turn is completed by the engine; the log says timeout."""
    from dicepoker.tui.saving import read_saved
    from tests.tui.silence import run_cli_falling_silent

    path = tmp_path / "timed.jsonl"
    args = ["play", "zepherin", "--vs", "human", "--clock", "0.5", "--seed", "2", "--save", str(path)]
    status, out, err = run_cli_falling_silent(*args)
    assert status == 1 and err == ""
    assert "Turn clock: 0.5 s per decision" in out and "the engine completes the turn (BD-14)" in out
    events = read_saved(path).events
    assert any(event.action == "timeout" for event in events)
    result = runner.invoke(app, ["play", "zepherin", "--clock", "0"])
    assert result.exit_code == 2 and "--clock must be a positive" in result.output
