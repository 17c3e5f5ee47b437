"""CM-7 at the server: leaving by asking (REST and service), by two timeouts while away, and bots that
finish a table every person has left. Time is a :class:`FakeClock` moved by the tests; nothing sleeps."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect

from dicepoker.core.types import JSON
from dicepoker.server.errors import Conflict, NotFound, Unauthorized
from dicepoker.server.storage.records import MemoryStorage
from dicepoker.server.tables import leaving
from dicepoker.server.tables.pubsub import InProcessPubSub
from dicepoker.server.tables.service import TableService
from tests.server.conftest import FakeClock, frame, new_service, run
from tests.server.live import Live, live_server

CLOCK = 30.0


async def _table(service: TableService, seats: list[str], **config: Any) -> tuple[str, dict[int, str]]:
    """A started scorecard table; the tokens of its open seats (taken by "p0", "p1", ...)."""
    table_id = str((await service.create_table("scorecard", config, seats, CLOCK))["id"])
    tokens = {}
    for seat, spec in enumerate(seats):
        if spec == "open":
            tokens[seat] = str((await service.join(table_id, seat, f"p{seat}"))["token"])
    return table_id, tokens


def _own(service: TableService, table_id: str, seat: int) -> list[str]:
    return [e.action for e in service._tables[table_id].events if e.seat == seat]


async def _play_turn(service: TableService, table_id: str, seat: int) -> None:
    """A whole scorecard turn of ``seat``: roll once, score the first box offered."""
    await service.act(table_id, seat, "roll")
    legal = service._tables[table_id].state.legal_actions(seat)
    await service.act(table_id, seat, next(str(a) for a in legal if str(a).startswith("score")))


async def _time_out(service: TableService, clock: FakeClock) -> None:
    clock.advance(CLOCK + 1)
    await service.tick()


async def _until_seat_zero_is_out(service: TableService, clock: FakeClock, table_id: str, turns: int) -> None:
    """Seat 0 lets its clock run out on each of its turns; seat 1 (connected) plays its own."""
    table = service._tables[table_id]
    for _ in range(turns):
        if table.status != "playing" or "resign" in _own(service, table_id, 0):
            return
        if table.to_act() == (0,):
            await _time_out(service, clock)
        else:
            await _play_turn(service, table_id, 1)


def test_CM_7_two_timed_out_decisions_in_a_row_while_disconnected_leave_the_table() -> None:
    """CM-7: a player not connected whose clock runs out twice in a row has left (resigned, CM-5): in a
    two-player game the other player wins at once, and the log says ``resign`` after the two timeouts."""
    clock = FakeClock()

    async def main() -> None:
        service = new_service(MemoryStorage(), clock)
        await service.start(scheduler=False)
        table_id, _ = await _table(service, ["open", "open"])
        await service.connect(table_id, 1)  # seat 0 closed its tab; seat 1 plays on
        await _until_seat_zero_is_out(service, clock, table_id, turns=8)
        assert _own(service, table_id, 0) == ["timeout", "timeout", "resign"]
        seen = await frame(service, table_id, 1)
        assert seen["status"] == "finished" and seen["last"] == {"seat": 0, "action": "resign"}
        assert isinstance(seen["result"], dict) and seen["result"]["winners"] == [1]
        assert (await service.log_text(table_id)).count('"resign"') == 1  # the log is out at once
        await service.stop()

    run(main())


def test_CM_7_the_count_of_timeouts_while_away_survives_a_restart() -> None:
    """The first timeout while away is marked in the log; a restarted server counts it (no fresh start)."""
    clock = FakeClock()
    storage = MemoryStorage()

    async def main() -> None:
        service = new_service(storage, clock)
        await service.start(scheduler=False)
        table_id, _ = await _table(service, ["open", "open"])
        await _time_out(service, clock)  # seat 0, away
        await _play_turn(service, table_id, 1)
        await service.stop()
        restarted = new_service(storage, clock)
        await restarted.start(scheduler=False)
        await _time_out(restarted, clock)  # seat 0's second decision in a row, still away
        assert _own(restarted, table_id, 0) == ["timeout", "timeout", "resign"]
        assert (await restarted.summary(table_id))["status"] == "finished"
        await restarted.stop()

    run(main())


def test_CM_7_a_connected_player_who_times_out_again_and_again_does_not_leave() -> None:
    clock = FakeClock()

    async def main() -> None:
        service = new_service(MemoryStorage(), clock)
        await service.start(scheduler=False)
        table_id, _ = await _table(service, ["open", "open"])
        await service.connect(table_id, 0)
        await service.connect(table_id, 1)
        await _until_seat_zero_is_out(service, clock, table_id, turns=8)
        assert _own(service, table_id, 0) == ["timeout"] * 4
        assert service._tables[table_id].status == "playing"
        await service.stop()

    run(main())


def test_CM_7_only_timeouts_in_a_row_count_an_own_move_in_between_starts_again() -> None:
    """Away, a timeout; back for one turn (played); away again: one timeout is not leaving, two are."""
    clock = FakeClock()

    async def main() -> None:
        service = new_service(MemoryStorage(), clock)
        await service.start(scheduler=False)
        table_id, _ = await _table(service, ["open", "open"])
        await service.connect(table_id, 1)
        await _time_out(service, clock)  # seat 0, away
        await _play_turn(service, table_id, 1)
        await service.connect(table_id, 0)
        await _play_turn(service, table_id, 0)
        await service.disconnect(table_id, 0)
        await _play_turn(service, table_id, 1)
        await _time_out(service, clock)  # seat 0, away: the first in a row
        assert service._tables[table_id].status == "playing"
        await _until_seat_zero_is_out(service, clock, table_id, turns=4)
        actions = _own(service, table_id, 0)
        assert actions[-3:] == ["timeout", "timeout", "resign"] and actions.count("timeout") == 3
        await service.stop()

    run(main())


def test_CM_7_when_every_person_has_left_the_bots_finish_at_once_without_clocks_or_delays() -> None:
    """CM-7: the person leaves a three-player table (the game goes on, CM-5); the two bots then play it
    to the end in one tick at the same instant, although their delay is 5 s and the clock 30 s."""
    clock = FakeClock()

    async def main() -> None:
        service = new_service(MemoryStorage(), clock, bot_delay=5.0)
        await service.start(scheduler=False)
        table_id, tokens = await _table(service, ["open", "bot:random", "bot:random"], players=3)
        await service.connect(table_id, 0)
        answer = await leaving.leave(service, table_id, tokens[0])
        assert answer["seat"] == 0 and answer["status"] == "playing"
        assert (await frame(service, table_id, None))["clock"] is None  # no clock for bots alone
        start = clock.time
        await service.tick()
        assert clock.time == start
        summary = await service.summary(table_id)
        assert summary["status"] == "finished"
        result = summary["result"]
        assert isinstance(result, dict) and 0 not in result["winners"]
        assert "resign" in await service.log_text(table_id)
        await service.stop()

    run(main())


def test_CM_7_people_who_are_away_leave_one_by_one_and_then_the_bots_finish_at_once() -> None:
    """Two people who never connect: each leaves after two timeouts of their own; the moment the second
    has left, the two bots play the game to its end in the same tick."""
    clock = FakeClock()

    async def main() -> None:
        service = new_service(MemoryStorage(), clock, bot_delay=5.0)
        await service.start(scheduler=False)
        table_id, _ = await _table(service, ["open", "open", "bot:random", "bot:random"], players=4)
        table = service._tables[table_id]
        for _ in range(60):  # 6 s at a time: the bot (5 s) moves in its turns, the people time out (30 s)
            if table.status == "finished":
                break
            clock.advance(6)
            await service.tick()
            if all("resign" in _own(service, table_id, seat) for seat in (0, 1)):
                assert table.status == "finished"  # in the very tick in which the last person left
        assert _own(service, table_id, 0) == ["timeout", "timeout", "resign"]
        assert _own(service, table_id, 1) == ["timeout", "timeout", "resign"]
        result = (await service.summary(table_id))["result"]
        assert table.status == "finished" and isinstance(result, dict) and set(result["winners"]) <= {2, 3}
        await service.stop()

    run(main())


def test_CM_7_two_leaves_at_once_get_the_same_answer() -> None:
    clock = FakeClock()

    async def main() -> None:
        service = new_service(MemoryStorage(), clock)
        await service.start(scheduler=False)
        table_id, tokens = await _table(service, ["open", "open"])
        first, second = await asyncio.gather(*(leaving.leave(service, table_id, tokens[0]) for _ in range(2)))
        assert first == second and _own(service, table_id, 0) == ["resign"]
        await service.stop()

    run(main())


def test_CM_7_a_table_with_people_still_in_play_is_not_hurried() -> None:
    """One of two people leaves a three-seat table: the bot keeps its delay (somebody still plays)."""
    clock = FakeClock()

    async def main() -> None:
        service = new_service(MemoryStorage(), clock, bot_delay=5.0)
        await service.start(scheduler=False)
        table_id, tokens = await _table(service, ["open", "open", "bot:random"], players=3)
        await leaving.leave(service, table_id, tokens[0])
        table = service._tables[table_id]
        assert not leaving.bots_only(table) and table.status == "playing"
        assert (await frame(service, table_id, None))["clock"] is not None
        await service.stop()

    run(main())


class RecordingPubSub(InProcessPubSub):
    """Notes, at each publication, the actions the storage already holds (accept = commit)."""

    def __init__(self, storage: MemoryStorage) -> None:
        super().__init__()
        self.storage = storage
        self.stored_at_publish: list[list[str]] = []

    async def publish(self, topic: str, message: JSON) -> None:
        loaded = await self.storage.load(topic)
        self.stored_at_publish.append([] if loaded is None else [e.action for e in loaded[1]])
        await super().publish(topic, message)


def test_CM_7_leave_is_idempotent_authenticated_and_committed_before_it_is_broadcast() -> None:
    clock = FakeClock()

    async def main() -> None:
        storage = MemoryStorage()
        pubsub = RecordingPubSub(storage)
        service = TableService(storage, pubsub, now=clock, bot_delay=0.0)
        await service.start(scheduler=False)
        waiting = str((await service.create_table("scorecard", {}, ["open", "open"], CLOCK))["id"])
        early = str((await service.join(waiting, 0, "ann"))["token"])
        with pytest.raises(Conflict, match="has not started"):
            await leaving.leave(service, waiting, early)
        table_id, tokens = await _table(service, ["open", "open"])
        with pytest.raises(NotFound):
            await leaving.leave(service, "nope", tokens[0])
        with pytest.raises(Unauthorized):
            await leaving.leave(service, table_id, "0" * 32)
        with pytest.raises(Unauthorized):
            await leaving.leave(service, table_id, None)
        with pytest.raises(Unauthorized):
            await leaving.leave(service, table_id, early)  # another table's token
        subscription = pubsub.subscribe(table_id)
        first = await leaving.leave(service, table_id, tokens[1])  # off turn: seat 0 is to act
        assert first == {"table": table_id, "seat": 1, "version": first["version"], "status": "finished"}
        message = await asyncio.wait_for(subscription.get(), 5)
        assert isinstance(message, dict) and message["version"] == first["version"]
        assert pubsub.stored_at_publish[-1][-1] == "resign"  # durable before anyone heard of it
        assert await leaving.leave(service, table_id, tokens[1]) == first  # again: the same answer
        assert _own(service, table_id, 1) == ["resign"]
        with pytest.raises(Conflict, match="is over"):
            await leaving.leave(service, table_id, tokens[0])  # the winner has nothing to leave
        # A seat that left through the WebSocket's "resign" is answered from its resignation too.
        other, other_tokens = await _table(service, ["open", "open"])
        version = await service.act(other, 0, "resign")
        assert (await leaving.leave(service, other, other_tokens[0]))["version"] == version
        await service.stop()

    run(main())


# -- over HTTP and the WebSocket ---------------------------------------------------------------------
@pytest.fixture(scope="module")
def live() -> Iterator[Live]:
    with live_server() as server:
        yield server


def test_CM_7_post_leave_over_http_and_the_opponent_hears_it_at_once(live: Live) -> None:
    client = httpx.Client(base_url=live.url)
    body = {"game": "scorecard", "seats": ["open", "open"], "clock": CLOCK}
    table_id = client.post("/api/tables", json=body).json()["id"]
    joins = [client.post(f"/api/tables/{table_id}/join", json={"seat": s, "name": f"p{s}"}) for s in (0, 1)]
    tokens = [j.json()["token"] for j in joins]
    assert client.post("/api/tables/nope/leave", json={"token": tokens[0]}).status_code == 404
    assert client.post(f"/api/tables/{table_id}/leave", json={"token": "f" * 32}).status_code == 401
    assert client.post(f"/api/tables/{table_id}/leave").status_code == 401
    assert client.post(f"/api/tables/{table_id}/leave", json={"token": 5}).status_code == 422
    listed = client.get(f"/api/tables/{table_id}").json()
    assert listed["status"] == "playing" and listed["abandoned"] is True  # nobody is connected

    async def main() -> dict[str, Any]:
        async with connect(f"{live.ws_url}/api/tables/{table_id}/ws?token={tokens[1]}") as ws:
            assert json.loads(await ws.recv())["status"] == "playing"
            assert client.get(f"/api/tables/{table_id}").json()["abandoned"] is False
            answer = await asyncio.to_thread(client.post, f"/api/tables/{table_id}/leave", json={"token": tokens[0]})
            assert answer.status_code == 200, answer.text
            while True:
                message = json.loads(await ws.recv())
                if message["type"] == "state":
                    assert message["last"] == {"seat": 0, "action": "resign"}
                    assert message["version"] == answer.json()["version"]
                    return dict(message)

    seen = asyncio.run(asyncio.wait_for(main(), 30))
    assert seen["status"] == "finished" and seen["result"]["winners"] == [1]
    again = client.post(f"/api/tables/{table_id}/leave", json={"token": tokens[0]})
    assert again.status_code == 200 and again.json()["version"] == seen["version"]
    assert client.post(f"/api/tables/{table_id}/leave", json={"token": tokens[1]}).status_code == 409
    assert client.get(f"/api/tables/{table_id}/log").status_code == 200
    assert client.get(f"/api/tables/{table_id}").json()["abandoned"] is False  # finished, not abandoned
