"""Every frame a real server sends is one the protocol defines, field for field (issue 18 §2), and so is every
answer that seats a client.

The server builds its frames as dicts on the hot path (``benchmarks/bench_protocol.py``: building the
pydantic model per frame was slower), so this test is what holds those dicts to the models: a frame type
must be in ``SERVER_FRAMES``, carry every field the schema calls required, no field the model lacks, and
read back through the Python client's parser.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from random import Random
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect

from dicepoker.client.protocol import ProtocolError, frame_from_json
from dicepoker.protocol import schema
from dicepoker.protocol.frames import SERVER_FRAMES
from dicepoker.protocol.rest import PlayNowSeat, SeatTaken, TableCreated
from tests.server.live import Live, live_server

DEFS = schema.json_schema()["$defs"]
NESTED = {"clock": "Clock", "last": "LastAction"}


@pytest.fixture(scope="module")
def live() -> Iterator[Live]:
    with live_server() as server:
        yield server


def mismatches(frame: dict[str, Any]) -> list[str]:
    """How a frame from the server differs from its model's schema (empty: it conforms)."""
    kind = frame.get("type")
    if kind not in SERVER_FRAMES:
        return [f"frame type {kind!r} is not defined in dicepoker.protocol"]
    found = _fields(f"{kind} frame", frame, DEFS[SERVER_FRAMES[kind].__name__])
    for key, name in NESTED.items():
        if isinstance(frame.get(key), dict):
            found += _fields(f"{kind}.{key}", frame[key], DEFS[name])
    for seat in frame.get("seats") or []:
        found += _fields(f"{kind}.seats[]", seat, DEFS["SeatInfo"])
    try:
        frame_from_json(frame)
    except ProtocolError as exc:
        found.append(f"the Python client cannot read it: {exc}")
    return found


def _fields(where: str, data: dict[str, Any], definition: dict[str, Any]) -> list[str]:
    keys, known, required = set(data), set(definition["properties"]), set(definition.get("required", ()))
    found = [f"{where} has {key!r}, which the model lacks" for key in sorted(keys - known)]
    return found + [f"{where} lacks required {key!r}" for key in sorted(required - keys)]


def test_a_planted_field_or_frame_is_a_mismatch() -> None:
    ack = {"type": "ack", "id": "a", "version": 1}
    assert mismatches(ack) == []
    assert mismatches({**ack, "extra": 1}) == ["ack frame has 'extra', which the model lacks"]
    assert mismatches({"type": "ack", "id": "a"}) == [
        "ack frame lacks required 'version'",
        "the Python client cannot read it: ack frame: 'version': Field required",
    ]
    assert mismatches({"type": "chat"}) == ["frame type 'chat' is not defined in dicepoker.protocol"]


def _answer(model: type[Any], response: httpx.Response) -> dict[str, Any]:
    """An HTTP answer, checked to have exactly its model's fields and to validate."""
    assert response.is_success, response.text
    data: dict[str, Any] = response.json()
    assert set(data) == set(model.model_fields), f"{model.__name__}: {sorted(data)}"
    model.model_validate(data)
    return data


def _create(live: Live, game: str, seats: list[str], **body: Any) -> tuple[str, list[str]]:
    created = _answer(TableCreated, httpx.post(f"{live.url}/api/tables", json={"game": game, "seats": seats, **body}))
    table = str(created["id"])
    tokens = []
    for seat, kind in enumerate(seats):
        if kind == "open":
            joined = httpx.post(f"{live.url}/api/tables/{table}/join", json={"seat": seat, "name": f"p{seat}"})
            tokens.append(str(_answer(SeatTaken, joined)["token"]))
    return table, tokens


async def _next(ws: ClientConnection, frames: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    while True:
        frame = json.loads(await ws.recv())
        frames.append(frame)
        if frame["type"] == kind:
            return frame


def test_every_frame_of_a_session_conforms(live: Live) -> None:
    frames: list[dict[str, Any]] = []
    holdem, tokens = _create(live, "holdem", ["open", "open"], clock=30, time_bank=20)
    scorecard, (solo,) = _create(live, "scorecard", ["open"], config={"players": 1}, clock=None)
    base = f"{live.ws_url}/api/tables"

    async def main() -> None:
        async with connect(f"{base}/{holdem}/ws?token={tokens[1]}") as ws:
            state = await _next(ws, frames, "state")
            async with connect(f"{base}/{holdem}/ws?token={tokens[0]}"):
                await _next(ws, frames, "presence")
            await _next(ws, frames, "presence")
            await ws.send(json.dumps({"type": "ping"}))
            await _next(ws, frames, "pong")
            await ws.send('{"type": "action"}')
            assert (await _next(ws, frames, "error"))["id"] is None
            await ws.send(json.dumps({"type": "action", "action": "fold", "version": 0, "id": "stale"}))
            assert (await _next(ws, frames, "error"))["id"] == "stale"
            assert state["clock"] is None or "time_bank" in state["clock"]
        rng = Random(3)
        async with connect(f"{base}/{scorecard}/ws?token={solo}") as ws:  # a whole game, to its result
            state = await _next(ws, frames, "state")
            while state["status"] != "finished":
                version = state["version"]
                action = rng.choice(state["legal_actions"])
                await ws.send(json.dumps({"type": "action", "action": action, "version": version, "id": f"a{version}"}))
                await _next(ws, frames, "ack")  # after the new state (docs/protocol.md: "Answers, in this order")
                state = next(f for f in reversed(frames) if f["type"] == "state")
        assert state["result"] is not None

    asyncio.run(asyncio.wait_for(main(), 60))
    _answer(TableCreated, httpx.post(f"{live.url}/api/tables/{scorecard}/rematch"))
    _answer(PlayNowSeat, httpx.post(f"{live.url}/api/play-now", json={"game": "scorecard", "name": "ann"}))
    assert {frame["type"] for frame in frames} == set(SERVER_FRAMES)
    assert any(f["type"] == "state" and f["clock"] and "time_bank" in f["clock"] for f in frames)
    assert [problem for frame in frames for problem in mismatches(frame)] == []
