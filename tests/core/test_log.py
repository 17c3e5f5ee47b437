import json
from dataclasses import replace

import pytest

from dicepoker.core import CorruptLog, EventLog, Match, Resign
from dicepoker.games.registry import create, replay


def finished_log() -> EventLog:
    match = Match(create("scorecard", players=2), seed=5)
    match.act(Resign(), 1)
    return match.log


def test_CM_2_log_round_trips_through_json_lines() -> None:
    match = Match(create("scorecard", players=1), seed=3)
    match.act_text("roll")
    match.act_text("reroll 1 2")
    match.act_text("score chance")
    log = EventLog.from_jsonl(match.log.to_jsonl())
    assert log == match.log
    assert replay(log)[-1] == match.state
    assert [e.action.split()[0] for e in log.events] == ["roll", "rolled", "reroll", "rolled", "score"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty file"),
        ("not json\n", "line 1: not JSON"),
        ('{"format": "other"}\n', "not a dicepoker game log"),
        ('{"format": "dicepoker-log", "version": 99}\n', "unsupported log version"),
        ('{"format": "dicepoker-log", "version": 1, "game": "scorecard", "config": {}, "seed": 1}\n[1]\n', "line 2"),
    ],
)
def test_corrupt_logs_are_rejected_clearly(text: str, message: str) -> None:
    with pytest.raises(CorruptLog, match=message):
        EventLog.from_jsonl(text)


def test_foreign_game_and_illegal_events_are_rejected_clearly() -> None:
    lines = finished_log().to_jsonl().splitlines()
    header = json.loads(lines[0])
    with pytest.raises(CorruptLog, match="unknown game"):
        replay(EventLog.from_jsonl(json.dumps({**header, "game": "chess"}) + "\n"))
    with pytest.raises(CorruptLog, match="bad config"):
        replay(EventLog.from_jsonl(json.dumps({**header, "config": {"players": 9}}) + "\n"))
    bad_event = json.dumps({"seat": 0, "action": "score chance"})
    with pytest.raises(CorruptLog, match="event 1"):
        replay(EventLog.from_jsonl(lines[0] + "\n" + bad_event + "\n"))


FAIRNESS = {"scheme": "hmac-sha256-v1", "commitment": "ab" * 32, "client_seeds": ["ann", ""], "server_seed": None}


def test_a_log_without_fairness_is_written_as_before() -> None:
    """Logs of local games stay byte-identical to the format before the fairness record existed."""
    log = EventLog("scorecard", {"players": 1}, 3).append(None, Resign())
    assert log.fairness is None
    assert log.to_jsonl() == (
        '{"config": {"players": 1}, "format": "dicepoker-log", "game": "scorecard", "seed": 3, "version": 1}\n'
        '{"seat": null, "action": "resign"}\n'
    )


def test_fairness_record_round_trips_and_is_kept_by_append() -> None:
    log = replace(finished_log(), fairness=FAIRNESS)
    assert replace(log, events=()).append(1, Resign()).fairness == FAIRNESS
    text = log.to_jsonl()
    assert json.loads(text.splitlines()[0])["fairness"] == FAIRNESS
    assert EventLog.from_jsonl(text) == log
    revealed = replace(log, fairness={**FAIRNESS, "server_seed": "00" * 32, "later": [1]})  # new fields kept
    assert EventLog.from_jsonl(revealed.to_jsonl()) == revealed


@pytest.mark.parametrize(
    ("fairness", "message"),
    [
        ([], "fairness must be an object"),
        ({**FAIRNESS, "scheme": 1}, "fairness scheme"),
        ({k: v for k, v in FAIRNESS.items() if k != "commitment"}, "fairness commitment"),
        ({**FAIRNESS, "client_seeds": "ann"}, "fairness client_seeds"),
        ({**FAIRNESS, "client_seeds": [1]}, "fairness client_seeds"),
        ({**FAIRNESS, "server_seed": 7}, "fairness server_seed"),
        ({k: v for k, v in FAIRNESS.items() if k != "server_seed"}, "fairness server_seed"),
    ],
)
def test_bad_fairness_records_are_rejected(fairness: object, message: str) -> None:
    header = json.loads(finished_log().to_jsonl().splitlines()[0])
    with pytest.raises(CorruptLog, match=f"line 1: {message}"):
        EventLog.from_jsonl(json.dumps({**header, "fairness": fairness}) + "\n")
