"""The ``dicepoker`` PeekPoker commands: odds, equity and play, with clear errors (exit status 2)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

import dicepoker.cli.peekpoker
import dicepoker.cli.replay  # noqa: F401
from dicepoker.cli.app import app

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


def test_play_against_bots_saves_a_replayable_log(tmp_path: Path) -> None:
    """``play peekpoker``: a scripted human (illegal commands are explained, not fatal), then replay."""
    save = tmp_path / "game.jsonl"
    script = "\n".join(["check", "call", "stand", "bet 2", "nonsense"] * 12 + ["quit"]) + "\n"
    args = ["play", "peekpoker", "--players", "3", "--vs", "equity,random", "--option", "blinds"]
    result = runner.invoke(app, [*args, "--seed", "4", "--save", str(save)], input=script)
    assert result.exit_code == 0, result.output
    assert "Hand 1" in result.output and "cannot read action 'nonsense'" in result.output
    replayed = runner.invoke(app, ["replay", str(save), "--json"])
    assert replayed.exit_code == 0, replayed.output
    assert json.loads(replayed.stdout)["config"]["blinds"] is True


def test_play_rejects_bad_options() -> None:
    for args in (["--option", "bogus"], ["--vs", "genius"], ["--players", "5"], ["--players", "3", "--vs", "a,b,c"]):
        result = runner.invoke(app, ["play", "peekpoker", *args], input="quit\n")
        assert result.exit_code == 2, (args, result.output)
