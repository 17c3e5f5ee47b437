"""The scorecard commands (score, odds, solve, simulate) and replay: output, JSON, exit 2 on bad input."""

from __future__ import annotations

import json
import shutil
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

import dicepoker.cli.replay
import dicepoker.cli.scorecard  # noqa: F401  (registers the commands)
from dicepoker.analysis import scorecard_solver
from dicepoker.analysis.scorecard_solver import StrategyLoad, load_strategy
from dicepoker.cli.app import app
from dicepoker.core.match import Match
from dicepoker.games.registry import create

runner = CliRunner()


@pytest.fixture(scope="module")
def cached_strategy() -> StrategyLoad:
    """The user's cached table (built once if missing), shared by the tests that need a valid one."""
    return load_strategy()


# -- score ------------------------------------------------------------------------------------------
def test_score_table_names_every_box() -> None:
    result = runner.invoke(app, ["score", "scorecard", "1", "1", "3", "3", "3"])
    assert result.exit_code == 0, result.output
    assert "Full house" in result.stdout and "score full-house" in result.stdout
    assert "25" in result.stdout


def test_score_json_maps_slugs_to_points() -> None:
    result = runner.invoke(app, ["score", "scorecard", "11333", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["full-house"] == 25 and data["threes"] == 9 and data["chance"] == 11
    assert data["five-kind"] == 0 and len(data) == 13


@pytest.mark.parametrize("dice", [["1", "1", "7", "3", "3"], ["1", "2", "3", "4"], ["a", "b", "c", "d", "e"]])
def test_score_bad_dice_exit_2_with_a_clear_error(dice: list[str]) -> None:
    result = runner.invoke(app, ["score", "scorecard", *dice])
    assert result.exit_code == 2
    assert result.stderr.startswith("error:")
    assert "Traceback" not in result.output


# -- odds -------------------------------------------------------------------------------------------
def test_odds_json_is_exact_and_sums_to_one() -> None:
    result = runner.invoke(app, ["odds", "scorecard", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["five-of-a-kind"]["fraction"] == "1/1296"
    assert data["five-of-a-kind"]["ways"] == 6
    assert data["straight"]["ways"] == 240
    assert sum(Fraction(row["fraction"]) for row in data.values()) == 1
    assert sum(row["ways"] for row in data.values()) == 6**5
    assert sum(row["percent"] for row in data.values()) == pytest.approx(100)


def test_odds_table() -> None:
    result = runner.invoke(app, ["odds", "scorecard"])
    assert result.exit_code == 0
    assert "full house" in result.stdout and "25/648" in result.stdout and "3.8580%" in result.stdout


# -- solve ------------------------------------------------------------------------------------------
def test_solve_json_from_a_valid_cache(
    cached_strategy: StrategyLoad, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = tmp_path / "table.npz"
    shutil.copy(cached_strategy.path, table)
    monkeypatch.setattr(scorecard_solver, "default_cache_path", lambda: table)
    result = runner.invoke(app, ["solve", "scorecard", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) == {"expected_score", "seconds"}
    assert data["expected_score"] == pytest.approx(cached_strategy.strategy.expected_score)
    assert result.stderr == ""

    text = runner.invoke(app, ["solve", "scorecard"])
    assert f"{cached_strategy.strategy.expected_score:.4f}" in text.stdout
    assert "loaded from the cache" in text.stdout


def test_solve_says_when_the_cache_is_corrupt_and_keeps_json_clean(
    cached_strategy: StrategyLoad, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = tmp_path / "table.npz"
    table.write_bytes(b"not a table")
    monkeypatch.setattr(scorecard_solver, "default_cache_path", lambda: table)
    # The rebuild itself is the solver's business (and takes seconds): reuse the solved table.
    monkeypatch.setattr(scorecard_solver, "build_strategy", lambda **_: (cached_strategy.strategy, 1.5))
    result = runner.invoke(app, ["solve", "scorecard", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {
        "expected_score": cached_strategy.strategy.expected_score,
        "seconds": 1.5,
    }
    assert "unusable" in result.stderr and "rebuilt" in result.stderr

    table.unlink()
    missing = runner.invoke(app, ["solve", "scorecard"])
    assert missing.exit_code == 0
    assert "no cached table" in missing.stderr
    assert "built in 1.50 s" in missing.stdout


# -- simulate ---------------------------------------------------------------------------------------
def test_simulate_json_report() -> None:
    args = ["simulate", "scorecard", "--bots", "random,greedy", "--games", "12", "--seed", "4", "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games"] == 12 and data["seed"] == 4 and data["bots"] == ["random", "greedy"]
    for seat in data["seats"]:
        assert seat["wins"]["count"] + seat["ties"]["count"] + seat["losses"]["count"] == 12
        low, high = seat["score"]["ci95"]
        assert low <= seat["score"]["mean"] <= high


def test_simulate_table_solo() -> None:
    result = runner.invoke(app, ["simulate", "scorecard", "--bots", "greedy", "--games", "3", "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert "1: greedy" in result.stdout and "Mean score" in result.stdout
    assert "Wins" not in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "random,wizard"], "no bot 'wizard'"),
        (["--bots", ","], "at least one bot"),
        (["--bots", "random", "--games", "0"], "greater than or equal to 1"),
        (["--bots", "random", "--workers", "0"], "greater than or equal to 1"),
        (["--bots", "random,random,random,random,random,random,random"], "1 to 6 players"),
    ],
)
def test_simulate_bad_options_exit_2(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["simulate", "scorecard", *args])
    assert result.exit_code == 2
    assert message in result.stderr


# -- replay -----------------------------------------------------------------------------------------
def _saved_game(tmp_path: Path) -> tuple[Path, Match]:
    match = Match(create("scorecard", players=1), seed=3)
    for box in range(1, 14):
        match.act_text("roll")
        match.act_text(f"score {box}")
    path = tmp_path / "game.jsonl"
    path.write_text(match.log.to_jsonl(), encoding="utf-8")
    return path, match


def test_replay_round_trip(tmp_path: Path) -> None:
    path, match = _saved_game(tmp_path)
    result = runner.invoke(app, ["replay", str(path), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["result"] == match.state.result().to_json()
    assert len(data["events"]) == len(match.log.events)


_HEADER = b'{"format": "dicepoker-log", "version": 1, "seed": 1, "game": %s}\n'


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "empty file"),
        (b"hello world\n", "not JSON"),
        (b'{"format": "other"}\n', "not a dicepoker game log"),
        (_HEADER % b'"chess", "config": {}', "unknown game"),
        (_HEADER % b'"scorecard", "config": {"players": 9}', "bad config"),
        (b"\xff\xfe\x00binary", "not a text file"),
    ],
)
def test_replay_rejects_corrupt_and_foreign_files(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_bytes(content)
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2
    assert message in result.stderr
    assert "Traceback" not in result.output


def test_replay_rejects_a_tampered_game(tmp_path: Path) -> None:
    path, _ = _saved_game(tmp_path)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[6])["action"] == "score twos"
    lines[6] = json.dumps({"seat": 0, "action": "score ones"})  # filled by event 3 already (SC-3)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2
    assert "event 6" in result.stderr and "already used" in result.stderr


def test_replay_missing_file_exit_2(tmp_path: Path) -> None:
    result = runner.invoke(app, ["replay", str(tmp_path / "nope.jsonl")])
    assert result.exit_code == 2
    assert "error:" in result.stderr


def test_every_scorecard_command_help_has_an_example() -> None:
    for group in ("play", "score", "odds", "solve", "simulate"):
        result = runner.invoke(app, [group, "scorecard", "--help"])
        assert result.exit_code == 0
        assert f"Example: dicepoker {group} scorecard" in result.stdout
