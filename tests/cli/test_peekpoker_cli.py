"""The ``dicepoker`` PeekPoker commands: odds, equity and play, with clear errors (exit status 2)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

import dicepoker.cli.peekpoker
import dicepoker.cli.replay  # noqa: F401
from dicepoker.cli.app import app
from dicepoker.games.history import is_history, read_history

runner = CliRunner()


def test_odds_json_is_exact() -> None:
    result = runner.invoke(app, ["odds", "peekpoker", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    hands = {row["hand"]: row for row in data["hands"]}
    assert hands["large straight"]["before"] == "5/324"
    for column in ("before_decimal", "after_decimal"):
        assert abs(sum(row[column] for row in data["hands"]) - 1) < 1e-12


def test_odds_table() -> None:
    result = runner.invoke(app, ["odds", "peekpoker"])
    assert result.exit_code == 0
    assert "five of a kind" in result.stdout


def test_equity_known_dice() -> None:
    args = ["equity", "peekpoker", "--own", "A A A", "--community", "A A K", "--opponent", "K K K", "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["equity"] == "1"


def test_equity_unknown_opponent_text() -> None:
    result = runner.invoke(app, ["equity", "peekpoker", "--own", "9 T J", "--community", "Q K A"])
    assert result.exit_code == 0, result.output
    assert "equity" in result.stdout


def test_equity_errors_exit_2() -> None:
    bad_face = runner.invoke(app, ["equity", "peekpoker", "--own", "A A 8"])
    assert bad_face.exit_code == 2 and "'8' is not a poker-die face" in bad_face.output
    multiway = runner.invoke(app, ["equity", "peekpoker", "--own", "A A K", "--opponent", "9 9 9", "--opponent", "9"])
    assert multiway.exit_code == 2 and "expected 3 poker dice" in multiway.output
    policy = runner.invoke(app, ["equity", "peekpoker", "--own", "A A K", "--rerolls", "sometimes"])
    assert policy.exit_code == 2 and "unknown re-roll policy" in policy.output


def test_play_against_bots_saves_a_replayable_hand_history(tmp_path: Path) -> None:
    """``play peekpoker --save``: a scripted human (illegal commands are explained, not fatal), then replay of
    the hand history it wrote (CM-2), options included (PK-14)."""
    save = tmp_path / "game.phh"
    script = "\n".join(["check", "call", "stand", "bet 2", "nonsense"] * 12 + ["quit"]) + "\n"
    args = ["play", "peekpoker", "--players", "3", "--vs", "equity,random", "--option", "blinds"]
    args += ["--option", "no-ace-rerolls"]
    result = runner.invoke(app, [*args, "--seed", "4", "--save", str(save)], input=script)
    assert result.exit_code == 0, result.output
    assert "Hand 1" in result.output and "cannot read action 'nonsense'" in result.output
    assert f"The game so far is saved in {save}" in result.output.replace("\n", "")
    text = save.read_text(encoding="utf-8")
    assert is_history(text) and "\n# hand 1: dealer p" in text.replace("  #", "#")
    log = read_history(text)
    replayed = runner.invoke(app, ["replay", str(save), "--json"])
    assert replayed.exit_code == 0, replayed.output
    data = json.loads(replayed.stdout)
    assert data["config"]["blinds"] is True and data["config"]["ace_rerolls"] is False
    assert data["events"] == [event.to_json() for event in log.events]


def test_play_rejects_bad_options() -> None:
    for args in (
        ["--option", "bogus"],
        ["--vs", "genius"],
        ["--players", "5"],
        ["--players", "3", "--vs", "a,b,c"],
        ["--clock", "0"],
        ["--clock", "-3"],
    ):
        result = runner.invoke(app, ["play", "peekpoker", *args], input="quit\n")
        assert result.exit_code == 2, (args, result.output)
    assert "--clock must be a positive number of seconds" in result.stderr
