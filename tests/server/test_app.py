"""The app over real sockets: HTTP routes, and whole games of every game over WebSockets on uvicorn.

The server runs in a thread on a free loopback port with a fake clock; a player that lets its clock run
out moves that clock on (``Live.advance``) instead of sleeping.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from random import Random
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from dicepoker.core.log import EventLog
from dicepoker.games.registry import replay
from tests.server.live import Live, live_server

CLOCK = 5


@pytest.fixture(scope="module")
def live() -> Iterator[Live]:
    with live_server() as server:
        yield server


def _create(live: Live, game: str, seats: list[str], **body: Any) -> str:
    response = httpx.post(f"{live.url}/api/tables", json={"game": game, "seats": seats, "clock": CLOCK, **body})
    assert response.status_code == 201, response.text
    assert len(response.json()["commitment"]) == 64
    return str(response.json()["id"])


def _join(live: Live, table_id: str, seat: int, client_seed: str | None = None) -> str:
    body = {"seat": seat, "name": f"p{seat}", "client_seed": client_seed}
    response = httpx.post(f"{live.url}/api/tables/{table_id}/join", json=body)
    assert response.status_code == 200, response.text
    return str(response.json()["token"])


async def _play(
    live: Live, table_id: str, token: str | None, frames: list[dict[str, Any]], *, seed: int, stall_at: int | None
) -> None:
    """Play random legal actions until the game ends; at decision ``stall_at`` let the clock run out."""
    rng = Random(seed)
    query = f"?token={token}" if token else ""
    async with connect(f"{live.ws_url}/api/tables/{table_id}/ws{query}") as ws:
        acted = -1
        decisions = 0
        async for raw in ws:
            message = json.loads(raw)
            if message["type"] == "error":
                assert message["reason"].startswith("stale version"), message  # a simultaneous decision raced
                continue
            if message["type"] != "state":
                continue
            frames.append(message)
            if message["status"] == "finished":
                return
            if not message["legal_actions"] or message["version"] == acted:
                continue
            acted = message["version"]
            decisions += 1
            if decisions == stall_at:
                assert message["clock"]["remaining"] == CLOCK
                await asyncio.to_thread(live.advance, CLOCK + 1)
                continue
            action = rng.choice(message["legal_actions"])
            await ws.send(json.dumps({"type": "action", "action": action, "version": acted, "id": f"{acted}"}))


def _log(live: Live, table_id: str) -> EventLog:
    response = httpx.get(f"{live.url}/api/tables/{table_id}/log")
    assert response.status_code == 200
    return EventLog.from_jsonl(response.text)


@pytest.mark.parametrize(
    ("game", "config"),
    [
        ("scorecard", {}),
        ("zepherin", {}),
        ("classic-board", {}),
        ("holdem", {"stack": 30}),
        ("peekpoker", {"stack": 6}),
    ],
)
def test_a_whole_game_against_a_bot_with_a_timeout(live: Live, game: str, config: dict[str, Any]) -> None:
    bot = "random" if game in ("holdem", "peekpoker") else "greedy"
    table_id = _create(live, game, ["open", f"bot:{bot}"], config=config)
    token = _join(live, table_id, 0, client_seed="mine")
    frames: list[dict[str, Any]] = []
    asyncio.run(asyncio.wait_for(_play(live, table_id, token, frames, seed=1, stall_at=2), 60))
    log = _log(live, table_id)
    assert (0, "timeout") in [(e.seat, e.action) for e in log.events]
    final = replay(log)[-1]
    assert final.is_terminal and frames[-1]["result"] == final.result().to_json()
    assert frames[-1]["version"] == len(log.events)
    versions = [f["version"] for f in frames]
    assert versions == sorted(versions)
    summary = httpx.get(f"{live.url}/api/tables/{table_id}").json()
    assert summary["status"] == "finished" and summary["result"] == final.result().to_json()


@pytest.mark.parametrize(("game", "config"), [("holdem", {"stack": 30}), ("peekpoker", {"stack": 6})])
def test_no_frame_shows_another_seats_hidden_dice(live: Live, game: str, config: dict[str, Any]) -> None:
    """Leak test: every frame to each seat and to a spectator, checked against the replayed state."""
    table_id = _create(live, game, ["open", "open"], config=config)
    tokens = [_join(live, table_id, seat) for seat in (0, 1)]
    seen: dict[int | None, list[dict[str, Any]]] = {0: [], 1: [], None: []}

    async def everyone() -> None:
        await asyncio.gather(
            _play(live, table_id, None, seen[None], seed=0, stall_at=None),
            _play(live, table_id, tokens[0], seen[0], seed=2, stall_at=3),
            _play(live, table_id, tokens[1], seen[1], seed=3, stall_at=None),
        )

    asyncio.run(asyncio.wait_for(everyone(), 60))
    states = replay(_log(live, table_id))
    secrets_checked = 0
    for recipient, frames in seen.items():
        for frame in frames:
            assert frame["seat"] == recipient
            state = states[frame["version"]]
            assert frame["view"] == state.view(recipient).to_json()
            rest = json.dumps({k: v for k, v in frame.items() if k != "view"})
            for other in (0, 1):
                secret = state.hidden_from_others(other)
                if other == recipient or secret is None:
                    continue
                secrets_checked += 1
                for trial in range(3):  # the frame would be the same whatever the other seat holds
                    assert state.with_other_secret(other, Random(trial)).view(recipient).to_json() == frame["view"]
                dice = secret if isinstance(secret, list) else [secret.get("dice")]
                assert not any(d and json.dumps(d) in rest for d in dice)
    assert secrets_checked > 10


def test_http_routes_answer_with_reasons(live: Live) -> None:
    client = httpx.Client(base_url=live.url)
    games = client.get("/api/games").json()["games"]
    assert {g["name"] for g in games} == {"scorecard", "holdem", "peekpoker", "zepherin", "classic-board"}
    assert {g["name"]: g["clock_default"] for g in games}["scorecard"] == 30
    assert client.get("/healthz").json() == {"status": "ok"}
    table_id = _create(live, "scorecard", ["open", "open"])
    assert client.get(f"/api/tables/{table_id}").json()["clock"] == CLOCK
    default = client.post("/api/tables", json={"game": "scorecard"}).json()["id"]
    assert client.get(f"/api/tables/{default}").json()["clock"] == 30
    untimed = client.post("/api/tables", json={"game": "holdem", "clock": None}).json()["id"]
    assert client.get(f"/api/tables/{untimed}").json()["clock"] is None
    token = _join(live, table_id, 0)
    assert client.get(f"/api/tables/{table_id}/log").status_code == 409
    for body, status in [
        ({"seat": 0, "name": "bob"}, 409),
        ({"seat": 5, "name": "bob"}, 404),
        ({"seat": "1", "name": "bob"}, 422),
        ({"seat": 1, "name": "x" * 500}, 422),
        ({"seat": 1}, 422),
    ]:
        response = client.post(f"/api/tables/{table_id}/join", json=body)
        assert response.status_code == status and isinstance(response.json()["detail"], str)
    for body in [{"game": "chess"}, {"game": "holdem", "seats": ["open"]}, {"game": "holdem", "clock": -1}, [1]]:
        response = client.post("/api/tables", json=body)
        assert response.status_code in (404, 422) and isinstance(response.json()["detail"], str)
    assert (
        client.post("/api/tables", content=b"{not json", headers={"content-type": "application/json"}).status_code
        == 422
    )
    assert client.post("/api/tables", content=b"x" * 100_000).status_code == 413
    assert client.get("/api/tables/nope").status_code == 404
    assert client.get("/api/tables", params={"status": "lost"}).status_code == 422
    assert table_id in [t["id"] for t in client.get("/api/tables", params={"game": "scorecard"}).json()["tables"]]
    assert client.post(f"/api/tables/{table_id}/rematch").status_code == 409
    play = client.post("/api/play-now", json={"game": "holdem", "name": "ann"}).json()
    assert {"id", "seat", "token"} <= set(play) and play["name"] == "ann" and play["mixed_scripts"] is False
    assert "commitment" in play  # issue 19 §9: the commitment to keep
    assert token != play["token"]
    metrics = client.get("/metrics").text
    assert "dicepoker_tables" in metrics and "dicepoker_action_latency_seconds_bucket" in metrics


def test_the_log_and_history_of_a_finished_betting_game(live: Live) -> None:
    table_id = _create(live, "holdem", ["bot:random", "bot:random"], config={"stack": 20})
    for _ in range(100):
        if httpx.get(f"{live.url}/api/tables/{table_id}").json()["status"] == "finished":
            break
        live.advance(0)  # bots act at once (bot delay 0); this only waits for them
    log_text = httpx.get(f"{live.url}/api/tables/{table_id}/log").text
    header = json.loads(log_text.splitlines()[0])
    assert header["fairness"]["server_seed"] and header["fairness"]["commitment"]
    history = httpx.get(f"{live.url}/api/tables/{table_id}/log", params={"format": "history"})
    assert history.status_code == 200 and "hand history" in history.text.splitlines()[0]
    rematch = httpx.post(f"{live.url}/api/tables/{table_id}/rematch")
    assert rematch.status_code == 201


def test_bad_frames_bad_tokens_and_foreign_origins(live: Live) -> None:
    table_id = _create(live, "scorecard", ["open", "open"])
    tokens = [_join(live, table_id, seat) for seat in (0, 1)]
    base = f"{live.ws_url}/api/tables/{table_id}/ws"

    async def main() -> None:
        async with connect(f"{base}?token={'0' * 32}") as ws:
            with pytest.raises(ConnectionClosed) as closed:
                await ws.recv()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
        # A foreign origin is closed with 1008 and a reason, as docs/protocol.md says (it was an HTTP 403).
        async with connect(base, origin="https://evil.example") as ws:  # type: ignore[arg-type]
            with pytest.raises(ConnectionClosed) as closed:
                await ws.recv()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
            assert closed.value.rcvd.reason == "origin not allowed"
        async with connect(f"{base}?token={tokens[1]}") as ws:
            first = json.loads(await ws.recv())
            assert first["seat"] == 1 and first["legal_actions"] == []
            for frame in [
                "not json",
                "[]",
                '{"type": "action", "action": 5}',
                '{"type": "action"}',
                json.dumps({"type": "action", "action": "roll", "version": 10**30}),
                "x" * 20_000,
            ]:
                await ws.send(frame)
                reply = json.loads(await ws.recv())
                while reply["type"] in ("state", "presence"):  # presence: a seat (dis)connected meanwhile
                    reply = json.loads(await ws.recv())
                assert reply["type"] == "error" and reply["id"] is None
            await ws.send(json.dumps({"type": "action", "action": "roll", "version": first["version"], "id": "z"}))
            reply = json.loads(await ws.recv())
            while reply["type"] in ("state", "presence"):  # presence: a seat (dis)connected meanwhile
                reply = json.loads(await ws.recv())
            assert reply == {"type": "error", "id": "z", "reason": reply["reason"]} and "turn" in reply["reason"]
        async with connect(base) as ws:  # a spectator
            assert json.loads(await ws.recv())["seat"] is None
            await ws.send(json.dumps({"type": "action", "action": "roll"}))
            reply = json.loads(await ws.recv())
            while reply["type"] in ("state", "presence"):  # presence: a seat (dis)connected meanwhile
                reply = json.loads(await ws.recv())
            assert reply["reason"] == "spectators cannot act"
        async with connect(base) as ws:
            with pytest.raises(ConnectionClosed) as closed:
                for _ in range(200):
                    await ws.send('{"type": "ping"}')
                for _ in range(400):
                    await ws.recv()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
        assert httpx.get(f"{live.url}/healthz").status_code == 200

    asyncio.run(asyncio.wait_for(main(), 30))


def test_presence_frames_paged_lists_and_time_banks_over_http(live: Live) -> None:
    client = httpx.Client(base_url=live.url)
    _create(live, "scorecard", ["open", "open"])
    live.clock.advance(0.001)  # the newer table is listed first
    table_id = _create(live, "holdem", ["open", "open"], time_bank=20)
    tokens = [_join(live, table_id, seat) for seat in (0, 1)]
    summary = client.get(f"/api/tables/{table_id}").json()
    assert summary["time_bank"] == 20
    assert client.post("/api/tables", json={"game": "scorecard", "time_bank": 5}).status_code == 422
    assert client.post("/api/tables", json={"game": "holdem", "time_bank": 0}).status_code == 422
    page = client.get("/api/tables", params={"limit": 1}).json()
    assert page["limit"] == 1 and page["offset"] == 0 and page["next"] == 1 and len(page["tables"]) == 1
    assert page["tables"][0]["id"] == table_id  # newest first
    assert client.get("/api/tables", params={"limit": 1, "offset": 1}).json()["tables"][0]["id"] != table_id
    assert client.get("/api/tables", params={"limit": 0}).status_code == 422
    assert client.get("/api/tables", params={"offset": -1}).status_code == 422
    base = f"{live.ws_url}/api/tables/{table_id}/ws"

    async def main() -> None:
        async with connect(f"{base}?token={tokens[1]}") as ws:
            first = json.loads(await ws.recv())
            assert first["clock"]["time_bank"] == [20, 20] and first["clock"]["banking"] is False
            assert [s["connected"] for s in first["seats"]] == [False, True]
            # A spectator comes (announced to nobody), then seat 0 (announced).
            async with connect(base), connect(f"{base}?token={tokens[0]}"):
                presence = json.loads(await ws.recv())
                assert presence == {"type": "presence", "table": table_id, "seats": presence["seats"]}
                assert [s["connected"] for s in presence["seats"]] == [True, True]
            left = json.loads(await ws.recv())  # seat 0 left (the spectator's leaving is announced to nobody)
            assert left["type"] == "presence" and [s["connected"] for s in left["seats"]] == [False, True]
            await ws.send('{"type": "ping"}')
            assert json.loads(await ws.recv()) == {"type": "pong"}  # and not a single state frame meanwhile

    asyncio.run(asyncio.wait_for(main(), 30))
