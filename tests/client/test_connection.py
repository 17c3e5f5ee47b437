import asyncio
import random
from collections.abc import Awaitable, Callable

import pytest

from dicepoker.client import (
    ActionRejected,
    ConnectionLost,
    Frame,
    PresenceFrame,
    StateFrame,
    SyncClient,
    TableConnection,
    play_seat,
    random_chooser,
)
from tests.client.fake_server import FakeTable, start


def run(test: Callable[[FakeTable, str], Awaitable[None]], table: FakeTable | None = None) -> FakeTable:
    fake = table or FakeTable()

    async def main() -> None:
        server, url = await start(fake)
        try:
            await asyncio.wait_for(test(fake, url), timeout=20)
        finally:
            server.close()
            await server.wait_closed()

    asyncio.run(main())
    return fake


def test_act_waits_for_the_ack_and_records_it() -> None:
    async def test(fake: FakeTable, url: str) -> None:
        async with TableConnection(url, "fake", "t0") as table:
            state = await table.next_state()
            assert state.version == 0 and state.legal_actions == ("inc", "crash")
            ack = await table.act("inc", version=0, id="first")
            assert ack.version == 1
            assert [(a.id, a.action, a.version, a.seat) for a in table.acks] == [("first", "inc", 1, 0)]
            assert (await table.next_state()).version == 1
            assert await table.ping() >= 0

    assert run(test).log == ["inc"]


def test_stale_version_and_illegal_action_are_rejected_and_duplicate_id_is_answered_once() -> None:
    async def test(fake: FakeTable, url: str) -> None:
        async with TableConnection(url, "fake", "t0") as table:
            await table.act("inc", version=0, id="a")
            with pytest.raises(ActionRejected) as stale:
                await table.act("inc", version=0, id="b")
            assert stale.value.stale
            with pytest.raises(ActionRejected, match="illegal"):
                await table.act("fly", version=1, id="c")
            again = await table.act("inc", version=0, id="a")
            assert again.version == 1 and len(table.acks) == 1

    assert run(test).log == ["inc"]


def test_reconnects_after_a_crash_and_gets_the_lost_ack() -> None:
    async def test(fake: FakeTable, url: str) -> None:
        async with TableConnection(url, "fake", "t0") as table:
            await table.next_state()
            ack = await table.act("crash", version=0, id="c1")  # committed, connection dropped, resent, acked
            assert ack.version == 1 and table.reconnects == 1
            assert (await table.wait_for(lambda s: s.version == 1)).legal_actions
            assert len(table.catch_up_times) == 1 and table.catch_up_times[0] < 5

    assert run(test).log == ["crash"]


def test_play_seat_plays_to_the_end() -> None:
    async def test(fake: FakeTable, url: str) -> None:
        seen: list[int] = []
        async with TableConnection(url, "fake", "t0") as table:
            final = await play_seat(table, random_chooser(random.Random(3)), on_state=lambda s: seen.append(s.version))
            assert final.finished and final.result == {"count": 5}
            assert [a.version for a in table.acks] == [1, 2, 3, 4, 5]
            assert seen[-1] == 5 and seen == sorted(seen)

    fake = run(test, FakeTable(goal=5))
    assert len(fake.log) == 5


def test_a_presence_frame_updates_the_seats_of_the_newest_state() -> None:
    """Issue 18 §2: ``presence`` was an unknown frame to this client; now it is typed and applied."""

    async def test(fake: FakeTable, url: str) -> None:
        frames: list[Frame] = []
        async with TableConnection(url, "fake", "t0", on_frame=frames.append) as table:
            first = await table.next_state()
            assert first.seats == ()
            seat = {"seat": 0, "kind": "human", "name": "ann", "bot": None, "connected": True}
            await fake.announce([seat])
            state = await table.wait_for(lambda s: bool(s.seats), timeout=5)
            assert state.version == first.version and state.seats[0].name == "ann" and state.seats[0].connected
            assert any(isinstance(frame, PresenceFrame) for frame in frames)
            await table.act("inc", version=0)  # the next state is told apart from the presence-updated one
            assert (await table.next_state()).version == 1

    run(test)


def test_spectator_follows_and_bad_token_is_fatal() -> None:
    async def test(fake: FakeTable, url: str) -> None:
        async with TableConnection(url, "fake") as watcher, TableConnection(url, "fake", "t0") as player:
            assert watcher.state is not None and watcher.state.seat is None
            await player.act("inc", version=0)
            state = await watcher.wait_for(lambda s: s.version == 1, timeout=5)
            assert state.legal_actions == ()
            with pytest.raises(ActionRejected):
                await watcher.act("inc", version=1)
        with pytest.raises(ConnectionLost, match="4401"):
            await TableConnection(url, "fake", "bad").open()

    run(test)


def test_unreachable_server_gives_up_after_the_reconnect_timeout() -> None:
    async def main() -> None:
        table = TableConnection("http://127.0.0.1:9", "x", reconnect_timeout=0.2, open_timeout=0.5)
        with pytest.raises(ConnectionLost, match="cannot connect"):
            await table.open()

    asyncio.run(main())


def test_sync_client_from_a_plain_thread() -> None:
    fake = FakeTable(goal=2)
    ready: asyncio.Future[str] | None = None
    stop = asyncio.Event()

    async def serve() -> None:
        server, url = await start(fake)
        assert ready is not None
        ready.set_result(url)
        await stop.wait()
        server.close()

    async def main() -> None:
        nonlocal ready
        ready = asyncio.get_running_loop().create_future()
        task = asyncio.create_task(serve())
        url = await ready
        states = await asyncio.to_thread(_play_sync, url)
        assert states[-1].finished
        stop.set()
        await task

    asyncio.run(main())
    assert fake.log == ["inc", "inc"]


def _play_sync(url: str) -> list[StateFrame]:
    client = SyncClient(url)
    states = []
    try:
        with client.table("fake", "t0") as table:
            while not (state := table.next_state(timeout=5)).finished:
                states.append(state)
                table.act("inc", version=state.version)
            states.append(state)
    finally:
        client.close()
    return states
