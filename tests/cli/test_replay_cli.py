"""``dicepoker replay FILE``: JSON-lines logs and hand histories (holdem, peekpoker); bad files exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

import dicepoker.cli.replay  # noqa: F401  (registers the command)
from dicepoker.cli.app import app
from dicepoker.core.log import EventLog
from dicepoker.core.match import Match
from dicepoker.games.history import write_history
from dicepoker.games.holdem import HoldemGame
from dicepoker.games.registry import create, replay

runner = CliRunner()


def holdem_match(finish: bool = True) -> Match:
    """A short seeded game: the last legal action (the biggest raise) every time."""
    match = Match(HoldemGame(players=3, stack=40), seed=5)
    steps = 0
    while not match.state.is_terminal and (finish or steps < 2):
        match.act(match.state.legal_actions()[-1])
        steps += 1
    return match


def peekpoker_match(finish: bool = True) -> Match:
    """A short seeded 3-player game with every option on but the re-rolls off (PK-14): the last legal action
    (the biggest bet) every time."""
    options = {"blinds": True, "forced_bet": True, "split_community": True, "ace_rerolls": False}
    match = Match(create("peekpoker", players=3, stack=8, **options), seed=7)
    steps = 0
    while not match.state.is_terminal and (finish or steps < 2):
        to_act = match.state.to_act
        assert isinstance(to_act, tuple) and steps < 500
        match.act(match.state.legal_actions(to_act[0])[-1], to_act[0])
        steps += 1
    return match


def run(path: Path, *extra: str) -> Result:
    return runner.invoke(app, ["replay", str(path), *extra])


def assert_refused(result: Result, *words: str) -> None:
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error:")
    assert "Traceback" not in result.output and "Traceback" not in result.stderr
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit)
    for word in words:
        assert word in result.stderr


def test_json_log_round_trip(tmp_path: Path) -> None:
    match = Match(create("scorecard", players=1), seed=3)
    while not match.state.is_terminal:
        match.act(match.state.legal_actions()[-1])
    path = tmp_path / "game.jsonl"
    path.write_text(match.log.to_jsonl(), encoding="utf-8")
    result = run(path, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["game"] == "scorecard" and data["seed"] == 3
    assert data["events"] == [e.to_json() for e in match.log.events]
    assert data["result"] == match.state.result().to_json()
    text = run(path)
    assert text.exit_code == 0 and "Result:" in text.stdout


def test_history_round_trip(tmp_path: Path) -> None:
    match = holdem_match()
    path = tmp_path / "game.phh"
    path.write_text(write_history(match.log), encoding="utf-8")
    result = run(path, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["game"] == "holdem" and data["config"] == {"players": 3, "stack": 40, "ante": 10}
    assert data["seed"] == 5
    assert data["events"] == [e.to_json() for e in match.log.events]
    assert data["result"] == match.state.result().to_json()
    assert replay(match.log)[-1] == match.state
    text = run(path)
    assert (
        text.exit_code == 0
        and "Result:" in text.stdout
        and "won by Player" in text.stdout
        and "seat" not in text.stdout
    )


def test_CM_2_peekpoker_history_round_trip(tmp_path: Path) -> None:
    """CM-2: a PeekPoker hand history replays through the command to the game's result, options included."""
    match = peekpoker_match()
    path = tmp_path / "game.phh"
    path.write_text(write_history(match.log), encoding="utf-8")
    result = run(path, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["game"] == "peekpoker" and data["seed"] == 7
    assert data["config"] == {
        "players": 3,
        "stack": 8,
        "blinds": True,
        "forced_bet": True,
        "split_community": True,
        "ace_rerolls": False,
    }
    assert data["events"] == [e.to_json() for e in match.log.events]
    assert data["result"] == match.state.result().to_json()
    text = run(path)
    assert text.exit_code == 0 and "[bold]" not in text.stdout
    assert "peekpoker" in text.stdout and "the dice: high-roll" in text.stdout and "Result:" in text.stdout
    unfinished = tmp_path / "unfinished.phh"
    unfinished.write_text(write_history(peekpoker_match(finish=False).log), encoding="utf-8")
    assert "unfinished" in run(unfinished).stdout


def test_damaged_peekpoker_history_exits_2(tmp_path: Path) -> None:
    """CM-4: an illegal action, a bad option or an unknown variant: a clear message, exit 2."""
    text = write_history(peekpoker_match().log)
    for change, words in [
        (text.replace('  "p', '  "p9', 1), ["event", "seat"]),
        (text.replace("ace_rerolls = false", "ace_rerolls = 0"), ["bad config", "ace_rerolls"]),
        (text.replace('variant = "peekpoker"', 'variant = "peek"'), ["variant", "'peek'"]),
    ]:
        path = tmp_path / "damaged.phh"
        path.write_text(change, encoding="utf-8")
        assert_refused(run(path), *words)


def test_unfinished_history_says_so(tmp_path: Path) -> None:
    path = tmp_path / "unfinished.phh"
    path.write_text(write_history(holdem_match(finish=False).log), encoding="utf-8")
    result = run(path)
    assert result.exit_code == 0, result.output
    assert "unfinished" in result.stdout


def damaged(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new, 1)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda t: damaged(t, '"p', '"x'), ["expected 'd <dice>' or 'p<seat> <action>'"]),
        (lambda t: damaged(t, '"d draw ', '"d draw 9'), ["draw"]),
        (lambda t: damaged(t, "actions = [", "actions = ["[:-1]), ["not a hand history"]),
        (lambda t: damaged(t, 'variant = "holdem"', 'variant = "omaha"'), ["variant"]),
        (lambda t: damaged(t, "players = 3", "players = 9"), ["bad config"]),
        (lambda t: damaged(t, "players = 3", 'players = "three"'), ["bad config"]),
        (lambda t: damaged(t, "seed = 5", 'seed = "five"'), ["integer seed"]),
        (lambda t: t.split("actions = [")[0] + "actions = 3\n", ["actions list"]),
    ],
    ids=["bad-seat", "bad-die", "bad-toml", "other-variant", "bad-players", "text-players", "text-seed", "no-list"],
)
def test_damaged_history_exits_2(tmp_path: Path, change: object, words: list[str]) -> None:
    path = tmp_path / "damaged.phh"
    assert callable(change)
    path.write_text(change(write_history(holdem_match().log)), encoding="utf-8")
    assert_refused(run(path), *words)


def test_history_with_an_illegal_action_exits_2(tmp_path: Path) -> None:
    text = write_history(holdem_match().log)
    first_bet = next(line for line in text.splitlines() if line.strip().startswith('"p'))
    path = tmp_path / "illegal.phh"
    path.write_text(text.replace(first_bet, '  "p0 raise 990",', 1), encoding="utf-8")
    assert_refused(run(path), "event")


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"", ["empty file"]),
        (b"hello world\n", ["not JSON"]),
        (b'{"format": "something-else"}\n', ["not a dicepoker game log"]),
        (b"\xff\xfe\x00binary", ["not a text file"]),
        (b'[tool.poetry]\nname = "x"\n', ["not JSON"]),
    ],
    ids=["empty", "text", "other-json", "binary", "toml"],
)
def test_foreign_files_exit_2(tmp_path: Path, content: bytes, words: list[str]) -> None:
    path = tmp_path / "foreign"
    path.write_bytes(content)
    assert_refused(run(path), *words)


def test_damaged_json_log_and_missing_file_exit_2(tmp_path: Path) -> None:
    log = holdem_match().log
    path = tmp_path / "game.jsonl"
    path.write_text(EventLog(log.game, log.config, log.seed, log.events[:5]).to_jsonl() + '{"seat": 0}\n')
    assert_refused(run(path), "line 7")
    assert_refused(run(tmp_path / "missing.jsonl"))


# -- reading like a person (issue 13 §4) and files cut off while written (§3) ------------------------------
def test_replay_names_players_whose_roll_running_scores_and_readable_config(tmp_path: Path) -> None:
    match = Match(create("scorecard", players=2), seed=3)
    for _ in range(2):
        match.act_text("roll")
        match.act_text("score chance")
    path = tmp_path / "game.jsonl"
    path.write_text(match.log.to_jsonl(), encoding="utf-8")
    text = run(path).stdout
    assert text.splitlines()[0] == "scorecard — players 2; seed 3"
    assert "Player 1: roll" in text and "Player 1's roll: rolled" in text and "Player 2's roll: rolled" in text
    chance = [int(w) for w in match.log.events[1].action.split()[1:]]
    assert f"(totals Player 1 {sum(chance)}, Player 2 0)" in text
    assert "seat" not in text and "{" not in text


def test_replay_prints_the_hand_notes_of_a_history(tmp_path: Path) -> None:
    match = holdem_match()
    path = tmp_path / "game.phh"
    path.write_text(write_history(match.log), encoding="utf-8")
    text = run(path).stdout
    assert "# hand 1: dealer Player" in text and "main pot" in text
    assert "holdem — players 3, stack 40, ante 10; seed 5" in text


def test_replay_reads_a_file_cut_off_while_it_was_written(tmp_path: Path) -> None:
    """A closed terminal leaves a history without its closing bracket, or half a last line: both read."""
    full = write_history(holdem_match().log)
    cut = full[: full.index("]\n", full.index("actions = ["))]  # no closing bracket, nor game over
    half = cut + '  "p0 ca'
    for number, text in enumerate((cut, half)):
        path = tmp_path / f"cut{number}.phh"
        path.write_text(text, encoding="utf-8")
        result = run(path, "--json")
        assert result.exit_code == 0, result.output
    log = holdem_match().log
    jsonl = tmp_path / "cut.jsonl"
    jsonl.write_text(log.to_jsonl()[:-10], encoding="utf-8")  # the last line half written
    data = json.loads(run(jsonl, "--json").stdout)
    assert data["events"] == [e.to_json() for e in log.events[:-1]]
