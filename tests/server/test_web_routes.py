"""The browser's /api/web routes: scores, hints, hand names, replays, reviews, verification; bad input gets a 4xx."""

from __future__ import annotations

import json
import random

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from dicepoker.core.log import EventLog
from dicepoker.games import registry
from dicepoker.server.transport.web_routes import router


@pytest.fixture(scope="module")
def client() -> TestClient:
    app = FastAPI()
    app.include_router(router)
    return TestClient(app)


def _random_log(game: str, seed: int = 3) -> str:
    rng = random.Random(seed)
    state = registry.create(game).initial_state()
    log = EventLog(game, {"players": 2}, None)
    while not state.is_terminal:
        seat = None if state.is_chance else state.to_act[0]
        action = state.sample_chance(rng) if state.is_chance else rng.choice(list(state.legal_actions(seat)))
        log, state = log.append(seat, action), state.apply(action, seat)
    return log.to_jsonl()


def test_scores_of_a_roll_SC_9_SC_10(client: TestClient) -> None:
    scores = client.post("/api/web/scorecard/scores", json={"dice": [1, 2, 3, 4, 5]}).json()["scores"]
    assert scores == [1, 2, 3, 4, 5, 0, 0, 0, 0, 30, 40, 0, 15]


def test_hint_lists_each_choice_once_best_first(client: TestClient) -> None:
    body = {"card": [None] * 13, "dice": [5, 5, 5, 2, 4], "rolls_used": 1}
    hint = client.post("/api/web/scorecard/hint", json=body).json()
    labels = [o["label"] for o in hint["options"]]
    assert len(labels) == len(set(labels))
    assert hint["best"]["cost"] == 0 and all(o["cost"] >= 0 for o in hint["options"])


@pytest.mark.parametrize(
    "body",
    [{"dice": [1, 2, 3]}, {"dice": [0, 1, 2, 3, 4]}, {"dice": [1, 2, 3, 4, 5], "extra": 1}, {"dice": "12345"}],
)
def test_bad_dice_are_rejected(client: TestClient, body: object) -> None:
    assert client.post("/api/web/scorecard/scores", json=body).status_code == 422


def test_hand_names(client: TestClient) -> None:
    holdem = client.post("/api/web/hands", json={"game": "holdem", "hands": ["6r 6b 6w 2y 2r"]}).json()
    assert holdem["names"] == ["full house 6 6 6 2 2"]
    peek = client.post("/api/web/hands", json={"game": "peekpoker", "hands": ["T T T J J 9"]}).json()
    assert peek["names"] == ["full house, tens full of jacks"]
    assert client.post("/api/web/hands", json={"game": "peekpoker", "hands": ["Q K"]}).status_code == 422


def test_replay_review_and_verify_of_a_log(client: TestClient) -> None:
    text = _random_log("scorecard")
    replay = client.post("/api/web/replay?seat=1", content=text).json()
    assert replay["frames"][0]["last"] is None and replay["result"]["reason"]
    assert len(replay["frames"]) == len(text.strip().splitlines())  # the start plus one frame per event
    review = client.post("/api/web/review", content=text).json()
    assert len(review["lost"]) == 2 and all(lost >= 0 for lost in review["lost"])
    verdict = client.post("/api/web/verify", content=text).json()
    assert verdict["ok"] is None and "no fairness record" in verdict["summary"]


def test_a_spectator_replay_of_holdem_hides_pockets(client: TestClient) -> None:
    replay = client.post("/api/web/replay", content=_random_log("holdem")).json()
    assert all(frame["view"]["pocket"] == [] for frame in replay["frames"])


@pytest.mark.parametrize("text", ["", "not json", '{"format": "other"}'])
def test_bad_logs_get_a_reason(client: TestClient, text: str) -> None:
    response = client.post("/api/web/replay", content=text)
    assert response.status_code == 422 and "not a dicepoker log" in response.json()["detail"]


def test_verify_of_a_fair_log_and_of_one_changed_die(client: TestClient) -> None:
    from dataclasses import replace

    from dicepoker.core.match import Match
    from dicepoker.games.registry import create
    from dicepoker.server.tables.fairness import FairRandom, commitment, fairness_header, new_server_seed

    seed = new_server_seed()
    match = Match(create("scorecard", players=1), rng=FairRandom(seed, ["ann"]))
    while not match.state.is_terminal:  # roll, score the first box offered, and again, to the game's end
        actions = [str(a) for a in match.state.legal_actions()]
        match.act_text(next((a for a in actions if a.startswith("score")), actions[0]))
    log = replace(match.log, fairness=fairness_header(seed, ["ann"], commitment(seed)))
    verdict = client.post("/api/web/verify", content=log.to_jsonl()).json()
    assert verdict["ok"] is True and "match the revealed seeds" in verdict["summary"]
    lines = log.to_jsonl().splitlines()
    index = next(i for i, line in enumerate(lines) if '"seat": null' in line)
    event = json.loads(lines[index])
    words = event["action"].split()
    first_die = next(i for i, word in enumerate(words) if word.isdigit())
    words[first_die] = str(int(words[first_die]) % 6 + 1)  # another face: one die changed
    lines[index] = json.dumps({**event, "action": " ".join(words)})
    tampered = client.post("/api/web/verify", content="\n".join(lines) + "\n").json()
    assert tampered["ok"] is False and "MISMATCH" in tampered["summary"]


def test_the_review_route_serves_the_one_review_of_analysis_SC_14(client: TestClient) -> None:
    """Issue 18 §3: the browser's review is :func:`analysis.scorecard_review.review_decisions`, not a copy of it."""
    from dicepoker.analysis.scorecard_review import review_decisions
    from dicepoker.analysis.scorecard_solver import load_strategy

    text = _random_log("scorecard", seed=5)
    expected = [d.to_json() for d in review_decisions(EventLog.from_jsonl(text), load_strategy().strategy)]
    served = client.post("/api/web/review", content=text).json()
    assert served["decisions"] == expected and len(expected) >= 26  # at least a box a round and seat
    assert all(d["loss"] >= 0 for d in expected)
