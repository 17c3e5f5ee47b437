"""Protocol fuzzing against a real ``dicepoker serve``: the HTTP API from its OpenAPI schema (schemathesis)
and hand-made malformed WebSocket frames. Whatever a client sends, the answer is a 4xx, an error frame or
a clean close, never a 5xx or a dead server, and the table still plays afterwards."""

from __future__ import annotations

import asyncio
import json
import random

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from dicepoker.client import TableConnection, play_seat, random_chooser, ws_url
from tests.client.server_process import ServerProcess


def test_http_api_never_answers_5xx(server: ServerProcess) -> None:
    """Every operation of the app's OpenAPI schema, with data valid and invalid (schemathesis)."""
    schema = schemathesis.openapi.from_url(f"{server.url}/openapi.json")
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 9
    for operation in operations:

        @given(case=operation.as_strategy())
        @settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck), database=None)
        def check(case: schemathesis.Case) -> None:
            case.call_and_validate(checks=[not_a_server_error])

        check()
    assert httpx.get(f"{server.url}/healthz").json() == {"status": "ok"}
    _no_tracebacks(server)


# -- WebSocket frames ----------------------------------------------------------------------------------


async def _recv(ws: ClientConnection) -> dict[str, object]:
    frame: dict[str, object] = json.loads(await asyncio.wait_for(ws.recv(), timeout=10))
    return frame


async def _answer(ws: ClientConnection) -> dict[str, object]:
    """The next frame that is not a state or presence (they may interleave with answers)."""
    while (frame := await _recv(ws))["type"] in ("state", "presence"):
        pass
    return frame


def _table(server: ServerProcess) -> tuple[str, str, str]:
    created = httpx.post(f"{server.url}/api/tables", json={"game": "scorecard", "seats": ["open", "open"]})
    table = created.json()["id"]
    tokens = [httpx.post(f"{server.url}/api/tables/{table}/join", json={"seat": s, "name": f"p{s}"}) for s in (0, 1)]
    return table, tokens[0].json()["token"], tokens[1].json()["token"]


HUGE = "1" + "0" * 5000  # 10**5000
MALFORMED = [
    "not json",
    "",
    "[" * 16_000,  # deep nesting: a recursion bomb for naive parsers
    '{"type": "ping", "pad": "' + "x" * 20_000 + '"}',  # over the 16 KiB frame limit
    "[1, 2]",
    '{"type": "action"}',
    '{"type": 7, "action": "roll"}',
    '{"type": "action", "action": 5, "version": 0, "id": "w1"}',
    '{"type": "action", "action": "roll", "version": "0", "id": "w2"}',
    '{"type": "action", "action": "roll", "version": 0, "id": ["w3"]}',
    '{"type": "action", "action": "roll", "version": 0, "id": "' + "x" * 65 + '"}',
    '{"type": "action", "action": "roll", "version": ' + HUGE + ', "id": "w4"}',
    '{"type": "action", "action": "roll", "version": "' + HUGE + '", "id": "w5"}',
    '{"type": "action", "action": "roll", "version": 1e999, "id": "w6"}',
    '{"type": "action", "action": "roll", "version": -1, "id": "w7"}',
    '{"type": "teleport"}',
    '{"type": "action", "action": "reroll ' + HUGE + '", "version": 0, "id": "w8"}',
]


def test_malformed_frames_get_error_frames_and_the_table_plays_on(server: ServerProcess) -> None:
    table, token0, token1 = _table(server)

    async def main() -> None:
        async with connect(ws_url(server.url, table, token0), max_size=2**22) as ws:
            state = await _recv(ws)
            assert state["type"] == "state" and state["legal_actions"] == ["roll"]
            for text in MALFORMED:
                await ws.send(text)
                answer = await _answer(ws)
                assert answer["type"] == "error" and answer["id"] is None, (text[:80], answer)
            await ws.send(b"\x00binary")
            assert (await _answer(ws))["type"] == "error"
        async with connect(ws_url(server.url, table, token0)) as ws:
            await _recv(ws)  # a fresh connection starts with a clean slate of bad frames
            for reason, frame in [
                ("cannot read action", {"action": "fly", "version": 0, "id": "u1"}),
                ("", {"action": "reroll " + "9" * 190, "version": 0, "id": "u2"}),  # huge, within 200 chars
                ("timeouts are applied by the server", {"action": "timeout", "version": 0, "id": "u3"}),
            ]:
                await ws.send(json.dumps({"type": "action", **frame}))
                answer = await _answer(ws)
                assert answer["type"] == "error" and answer["id"] == frame["id"], answer
                assert reason in str(answer["reason"]), answer
            await ws.send(json.dumps({"type": "ping"}))
            assert (await _answer(ws)) == {"type": "pong"}

    asyncio.run(main())
    _play_to_the_end(server, table, token0, token1)


def test_seats_versions_ids_and_tokens(server: ServerProcess) -> None:
    table, token0, token1 = _table(server)

    async def main() -> None:
        async with connect(ws_url(server.url, table, token0)) as ws0, connect(ws_url(server.url, table, token1)) as ws1:
            assert (await _recv(ws0))["version"] == 0 and (await _recv(ws1))["legal_actions"] == []
            await ws1.send(json.dumps({"type": "action", "action": "roll", "version": 0, "id": "other"}))
            answer = await _answer(ws1)
            assert answer["type"] == "error" and answer["id"] == "other", answer  # not seat 1's turn
            await ws0.send(json.dumps({"type": "action", "action": "roll", "version": 0, "id": "r1"}))
            ack = await _answer(ws0)
            assert ack["type"] == "ack" and ack["id"] == "r1"
            await ws0.send(json.dumps({"type": "action", "action": "roll", "version": 0, "id": "r2"}))
            stale = await _answer(ws0)
            assert stale["type"] == "error" and str(stale["reason"]).startswith("stale version 0"), stale
            await ws0.send(json.dumps({"type": "action", "action": "roll", "version": 0, "id": "r1"}))
            assert await _answer(ws0) == ack  # the same answer, not applied twice
            summary = httpx.get(f"{server.url}/api/tables/{table}").json()
            assert summary["version"] == ack["version"]
        async with connect(ws_url(server.url, table)) as spectator:
            state = await _recv(spectator)
            assert state["seat"] is None
            await spectator.send(json.dumps({"type": "action", "action": "score chance", "version": 2, "id": "s"}))
            assert (await _answer(spectator))["type"] == "error"
        for token in ("0" * 32, token0 + "x", "' or 1=1 --"):
            async with connect(ws_url(server.url, table, token)) as intruder:
                with pytest.raises(ConnectionClosed) as closed:
                    await _recv(intruder)
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
        async with connect(ws_url(server.url, "no-such-table", token0)) as lost:
            with pytest.raises(ConnectionClosed) as closed:
                await _recv(lost)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404

    asyncio.run(main())
    _play_to_the_end(server, table, token0, token1)


def test_oversized_and_flooding_clients_are_disconnected_cleanly(server: ServerProcess) -> None:
    table, token0, token1 = _table(server)

    async def main() -> None:
        async with connect(ws_url(server.url, table, token0), max_size=2**22) as ws:
            await _recv(ws)
            await ws.send("x" * (1 << 20))  # 1 MB: an error frame or a close (1009), never a crash
            with pytest.raises(ConnectionClosed):
                while True:
                    frame = await _recv(ws)
                    assert frame["type"] == "error"
        async with connect(ws_url(server.url, table, token0)) as ws:
            await _recv(ws)
            with pytest.raises(ConnectionClosed) as closed:
                for _ in range(200):  # far more bad frames than the server tolerates
                    await ws.send("{")
                while True:
                    await _recv(ws)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008

    asyncio.run(main())
    assert httpx.get(f"{server.url}/healthz").json() == {"status": "ok"}
    _play_to_the_end(server, table, token0, token1)


def _play_to_the_end(server: ServerProcess, table: str, *tokens: str) -> None:
    """Both seats play the table to its end with the project's client: it was not broken by the fuzzing."""

    async def seat(token: str, seed: int) -> None:
        async with TableConnection(server.url, table, token, reconnect=False) as connection:
            final = await play_seat(connection, random_chooser(random.Random(seed)))
            assert final.finished and final.result is not None

    async def main() -> None:
        await asyncio.wait_for(asyncio.gather(*(seat(t, n) for n, t in enumerate(tokens))), timeout=60)

    asyncio.run(main())
    assert httpx.get(f"{server.url}/api/tables/{table}/log").status_code == 200
    _no_tracebacks(server)


def _no_tracebacks(server: ServerProcess) -> None:
    output = server.log.read_text(errors="replace")
    assert "Traceback" not in output and "internal error" not in output, output[-3000:]
