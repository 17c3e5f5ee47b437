"""``dicepoker verify LOG`` (issue 9 §6): a fair game of every game verifies; one changed die fails it."""

from __future__ import annotations

import itertools
import json
from dataclasses import replace
from pathlib import Path
from random import Random
from typing import Any

import pytest
from typer.testing import CliRunner, Result

import dicepoker.cli.verify  # noqa: F401  (registers the command)
from dicepoker.cli.app import app
from dicepoker.core import CHANCE, CorruptLog, EventLog, Match
from dicepoker.games.history import write_history
from dicepoker.games.registry import create, names, replay
from dicepoker.server.tables.fairness import FairRandom, commitment, fairness_header

runner = CliRunner()
SEED = bytes.fromhex("5eed" * 16)
CLIENTS = ("ann", "")
CONFIGS: dict[str, dict[str, Any]] = {"holdem": {"stack": 30}, "peekpoker": {"stack": 10}}
FACES = ["1", "2", "3", "4", "5", "6", "9", "T", "J", "Q", "K", "A"]


def fair_game(name: str) -> EventLog:
    """A finished two-player game whose dice come from a FairRandom, its server seed revealed."""
    match = Match(create(name, players=2, **CONFIGS.get(name, {})), rng=FairRandom(SEED, CLIENTS))
    choose = Random(9)
    for _ in range(5000):
        if match.state.is_terminal:
            break
        to_act = match.state.to_act
        assert to_act is not CHANCE
        seat = to_act[0]
        legal = match.state.legal_actions(seat)
        match.act(legal[choose.randrange(len(legal))], seat)
    assert match.state.is_terminal
    return replace(match.log, fairness=fairness_header(SEED, CLIENTS, commitment(SEED)))


def one_die_changed(log: EventLog) -> tuple[EventLog, int]:
    """The log with one die of one chance event changed (and still replaying), and that event's number."""
    events = list(log.events)
    for index in reversed([i for i, e in enumerate(events) if e.seat is None]):
        tokens = events[index].action.split()
        for position in range(1, len(tokens)):
            token = tokens[position]
            for face in FACES:
                if not token.startswith(face) and token[0] in FACES:
                    changed = [*tokens[:position], face + token[1:], *tokens[position + 1 :]]
                    events[index] = replace(events[index], action=" ".join(changed))
                    try:
                        replay(replace(log, events=tuple(events)))
                    except CorruptLog:
                        continue
                    return replace(log, events=tuple(events)), index + 1
        events[index] = log.events[index]
    raise AssertionError(f"no die of {log.game} can be changed")


def run(path: Path, *extra: str) -> Result:
    return runner.invoke(app, ["verify", str(path), *extra])


def assert_refused(result: Result, *words: str) -> None:
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error:")
    assert "Traceback" not in result.output + result.stderr
    for word in words:
        assert word in result.stderr


@pytest.mark.parametrize("name", names())
def test_a_fair_game_verifies_and_one_changed_die_fails(name: str, tmp_path: Path) -> None:
    log = fair_game(name)
    path = tmp_path / "game.jsonl"
    path.write_text(log.to_jsonl())
    result = run(path)
    assert result.exit_code == 0, result.output
    chance = [i for i, e in enumerate(log.events, start=1) if e.seat is None]
    assert f"fair: all {len(chance)} chance events match" in result.output
    assert "ok: it is the SHA-256 of the revealed server seed" in result.output
    assert result.output.count(" ok") >= len(chance)

    tampered, number = one_die_changed(log)
    path.write_text(tampered.to_jsonl())
    result = run(path)
    assert result.exit_code == 1, result.output
    line = next(line for line in result.output.splitlines() if line.lstrip().startswith(f"{number}. dice:"))
    assert f"MISMATCH expected {log.events[number - 1].action}" in line
    assert result.output.count("MISMATCH") == 1
    assert "NOT verified: 1 of" in result.output


@pytest.mark.parametrize("name", ["holdem", "peekpoker"])
def test_a_hand_history_verifies(name: str, tmp_path: Path) -> None:
    log = fair_game(name)
    path = tmp_path / "hand.phh"
    path.write_text(write_history(log))
    assert run(path).exit_code == 0
    tampered, number = one_die_changed(log)
    path.write_text(write_history(tampered))
    result = run(path, "--json")
    assert result.exit_code == 1, result.output
    report = json.loads(result.output)
    assert [c["index"] for c in report["checks"] if not c["ok"]] == [number]
    assert report["commitment_ok"] is True and report["ok"] is False


def test_a_forged_seed_fails_the_commitment(tmp_path: Path) -> None:
    log = fair_game("scorecard")
    assert log.fairness is not None
    path = tmp_path / "game.jsonl"
    path.write_text(replace(log, fairness={**log.fairness, "server_seed": "00" * 32}).to_jsonl())
    result = run(path)
    assert result.exit_code == 1
    assert "MISMATCH: the revealed server seed hashes to" in result.output


def test_json_report(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    path.write_text(fair_game("scorecard").to_jsonl())
    result = run(path, "--json")
    assert result.exit_code == 0
    report = json.loads(result.output)
    assert report["ok"] is True and report["game"] == "scorecard" and report["client_seeds"] == list(CLIENTS)


def test_logs_that_cannot_be_verified_exit_2(tmp_path: Path) -> None:
    log = fair_game("scorecard")
    assert log.fairness is not None
    path = tmp_path / "game.jsonl"
    path.write_text(replace(log, fairness=None).to_jsonl())
    assert_refused(run(path), "no fairness record")
    path.write_text(replace(log, fairness={**log.fairness, "server_seed": None}).to_jsonl())
    assert_refused(run(path), "not revealed")
    path.write_text("{not json\n")
    assert_refused(run(path), "not JSON")
    path.write_bytes(b"\xff\xfe\x00binary")
    assert_refused(run(path), "not a text file")
    assert_refused(run(tmp_path / "missing.jsonl"))


def test_a_log_that_stops_replaying_exits_2(tmp_path: Path) -> None:
    log = fair_game("scorecard")
    player = next(i for i, e in enumerate(log.events) if e.seat is not None)
    events = list(log.events)
    events[player] = replace(events[player], action="score chance")
    events[player + 1 :] = []
    path = tmp_path / "game.jsonl"
    path.write_text(replace(log, events=tuple(events)).to_jsonl())
    result = run(path)
    assert result.exit_code == 2, result.output
    assert f"replay stopped: event {player + 1}" in result.output


def fair_game_from(seed: bytes) -> EventLog:
    """A finished scorecard game whose dice come from ``seed``, carrying that seed's own commitment."""
    match = Match(create("scorecard", players=2), rng=FairRandom(seed, CLIENTS))
    choose = Random(9)
    while not match.state.is_terminal:
        seat = match.state.to_act[0]
        legal = match.state.legal_actions(seat)
        match.act(legal[choose.randrange(len(legal))], seat)
    return replace(match.log, fairness=fairness_header(seed, CLIENTS, commitment(seed)))


def test_a_log_cut_short_is_not_fair_issue_19(tmp_path: Path) -> None:
    """Issue 19 §9: every die of a log cut short matches, but the game is not over: not verified (exit 2)."""
    log = fair_game("scorecard")
    path = tmp_path / "game.jsonl"
    for keep in (len(log.events) - 1, len(log.events) // 2, 0):
        path.write_text(replace(log, events=log.events[:keep]).to_jsonl())
        result = run(path)
        assert result.exit_code == 2, result.output
        assert "cut short" in result.output and "NOT verified" in result.output
        assert "fair:" not in result.output
    path.write_text(replace(log, events=log.events[:-1]).to_jsonl())
    report = json.loads(run(path, "--json").output)
    assert report["ok"] is False and report["finished"] is False and "cut short" in report["end_problem"]


def test_a_changed_move_is_said_not_to_be_covered_issue_19(tmp_path: Path) -> None:
    """Issue 19 §9: a changed decision that stays legal draws the same dice: the verdict says moves are not
    covered and shows the replayed result; one that no longer replays to the end is not verified."""
    log = fair_game("scorecard")
    original = replay(log)[-1].result().to_json()
    scored = [i for i, e in enumerate(log.events) if e.seat == 0 and e.action.startswith("score")]
    changed: EventLog | None = None
    for first, second in itertools.combinations(scored, 2):  # two boxes of one card, swapped: still legal
        events = list(log.events)
        events[first], events[second] = log.events[second], log.events[first]
        candidate = replace(log, events=tuple(events))
        try:
            final = replay(candidate)[-1]
        except CorruptLog:
            continue
        if final.is_terminal and final.result().to_json() != original:
            changed = candidate
            break
    assert changed is not None
    path = tmp_path / "game.jsonl"
    path.write_text(changed.to_jsonl())
    output = " ".join(run(path).output.split())  # the console wraps long lines
    assert "moves are not covered" in output and "replayed result:" in output
    report = json.loads(run(path, "--json").output)
    assert report["result"] != original and "moves are not covered" in report["covers"]


def test_a_reseeded_log_fails_against_the_commitment_seen_issue_19(tmp_path: Path) -> None:
    """Issue 19 §9: a log re-rolled from another seed with that seed's own commitment verifies against
    itself; against the commitment the player was shown (``--commitment``) it fails."""
    shown = commitment(SEED)
    reseeded = fair_game_from(bytes.fromhex("ab" * 32))
    path = tmp_path / "game.jsonl"
    path.write_text(reseeded.to_jsonl())
    alone = run(path)
    assert alone.exit_code == 0 and "not compared" in alone.output and "--commitment" in alone.output
    result = run(path, "--commitment", shown)
    assert result.exit_code == 1, result.output
    output = " ".join(result.output.split())
    assert f"you were shown {shown}" in output and "NOT verified" in output
    report = json.loads(run(path, "--json", "--commitment", shown).output)
    assert report["seen_commitment_ok"] is False and report["ok"] is False

    honest = tmp_path / "honest.jsonl"
    honest.write_text(fair_game_from(SEED).to_jsonl())
    result = run(honest, "--commitment", shown.upper())
    assert result.exit_code == 0, result.output
    assert "it is the commitment you were shown" in result.output
