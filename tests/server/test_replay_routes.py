"""Issue 19 §3: a finished table's replay, verification and review by table id, and uploads of long logs
with their own body limit; a 4-player Hold'em log larger than the app's 64 KiB limit works both ways."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from dataclasses import replace
from random import Random

import pytest
from fastapi.testclient import TestClient

from dicepoker.core import EventLog, Match
from dicepoker.games.registry import create
from dicepoker.server.settings import Settings
from dicepoker.server.storage.records import MemoryStorage
from dicepoker.server.tables.fairness import FairRandom, commitment, fairness_header
from dicepoker.server.transport.app import create_app
from tests.server.finished_tables import BODY_LIMIT, long_holdem_log, store_finished

SEED = bytes.fromhex("5eed" * 16)


@pytest.fixture(scope="module")
def long_log() -> EventLog:
    return long_holdem_log(SEED)


def scorecard_log() -> EventLog:
    match = Match(create("scorecard", players=2), rng=FairRandom(SEED, ["ann", ""]))
    choose = Random(4)
    while not match.state.is_terminal:
        seat = match.state.to_act[0]
        legal = match.state.legal_actions(seat)
        match.act(legal[choose.randrange(len(legal))], seat)
    return replace(match.log, fairness=fairness_header(SEED, ["ann", ""], commitment(SEED)))


@pytest.fixture(scope="module")
def served(long_log: EventLog) -> Iterator[tuple[TestClient, str, str]]:
    """A server with two finished tables in its storage: (client, Hold'em table id, scorecard table id)."""
    storage = MemoryStorage()
    holdem = asyncio.run(store_finished(storage, long_log, SEED))
    scorecard = asyncio.run(store_finished(storage, scorecard_log(), SEED))
    app = create_app(Settings(storage=storage, warm_tables=False, scheduler=False, heavy_rate_limit=None))
    with TestClient(app) as client:
        yield client, holdem, scorecard


def test_a_long_holdem_log_replays_and_verifies_by_id(served: tuple[TestClient, str, str], long_log: EventLog) -> None:
    client, table_id, _ = served
    assert len(long_log.to_jsonl()) > BODY_LIMIT and long_log.config["players"] == 4
    replay = client.get(f"/api/tables/{table_id}/replay")
    assert replay.status_code == 200, replay.text
    data = replay.json()
    assert data["game"] == "holdem" and data["players"] == 4 and data["result"] is not None
    assert len(data["frames"]) == len(long_log.events) + 1
    assert data["fairness"]["commitment"] == commitment(SEED)
    seat = client.get(f"/api/tables/{table_id}/replay", params={"seat": 2}).json()
    assert seat["seat"] == 2 and len(seat["frames"]) == len(data["frames"])
    verdict = client.get(f"/api/tables/{table_id}/verify", params={"commitment": commitment(SEED)}).json()
    assert verdict["ok"] is True, verdict["summary"]
    assert "kept when the table was joined" in verdict["summary"] and "moves are not covered" in verdict["summary"]


def test_a_long_holdem_log_replays_and_verifies_by_upload(
    served: tuple[TestClient, str, str], long_log: EventLog
) -> None:
    client, table_id, _ = served
    text = long_log.to_jsonl()
    replay = client.post("/api/web/replay", content=text)
    assert replay.status_code == 200, replay.text
    assert replay.json() == client.get(f"/api/tables/{table_id}/replay").json()
    verdict = client.post("/api/web/verify", content=text).json()
    assert verdict["ok"] is True and "not compared" in verdict["summary"]
    history = client.get(f"/api/tables/{table_id}/log", params={"format": "history"}).text
    assert client.post("/api/web/replay", content=history).json()["frames"] == replay.json()["frames"]


def test_the_upload_limit_is_per_route(served: tuple[TestClient, str, str]) -> None:
    client, _, _ = served
    too_big = "x" * (4 * 1024 * 1024 + 1)
    assert client.post("/api/web/replay", content=too_big).status_code == 413
    assert client.post("/api/web/verify", content=too_big).status_code == 413
    body = {"game": "scorecard", "config": {}, "padding": "x" * BODY_LIMIT}
    assert client.post("/api/tables", json=body).status_code == 413  # every other route keeps 64 KiB
    assert client.post("/api/web/hands", json={"game": "holdem", "hands": ["x" * BODY_LIMIT]}).status_code == 413


def test_a_log_reseeded_with_its_own_commitment_fails_against_the_kept_one(
    served: tuple[TestClient, str, str], long_log: EventLog
) -> None:
    """Issue 19 §9: verifying against the commitment kept at join time catches a re-rolled log."""
    client, table_id, _ = served
    other = bytes.fromhex("ab" * 32)
    reseeded = long_holdem_log(other).to_jsonl()
    alone = client.post("/api/web/verify", content=reseeded).json()
    assert alone["ok"] is True and "not compared" in alone["summary"]
    kept = client.post("/api/web/verify", params={"commitment": commitment(SEED)}, content=reseeded).json()
    assert kept["ok"] is False and "not the one kept" in kept["summary"]
    by_id = client.get(f"/api/tables/{table_id}/verify", params={"commitment": commitment(other)}).json()
    assert by_id["ok"] is False
    assert client.get(f"/api/tables/{table_id}/verify", params={"commitment": "not hex"}).status_code == 422


def test_a_log_cut_short_does_not_verify(served: tuple[TestClient, str, str], long_log: EventLog) -> None:
    client, _, _ = served
    cut = replace(long_log, events=long_log.events[:-3]).to_jsonl()
    verdict = client.post("/api/web/verify", content=cut).json()
    assert verdict["ok"] is False and "cut short" in verdict["summary"]


def test_review_by_id_and_errors(served: tuple[TestClient, str, str]) -> None:
    client, holdem, scorecard = served
    review = client.get(f"/api/tables/{scorecard}/review")
    assert review.status_code == 200, review.text
    assert review.json() == client.post("/api/web/review", content=scorecard_log().to_jsonl()).json()
    assert client.get(f"/api/tables/{holdem}/review").status_code == 422  # reviews are for scorecard games
    assert client.get("/api/tables/nosuchtable/replay").status_code == 404
    assert client.get(f"/api/tables/{holdem}/replay", params={"seat": 4}).status_code == 422
    waiting = client.post("/api/tables", json={"game": "scorecard"}).json()["id"]
    for route in ("replay", "verify", "review"):
        response = client.get(f"/api/tables/{waiting}/{route}")
        assert response.status_code == 409 and "published when the game is over" in response.json()["detail"]
