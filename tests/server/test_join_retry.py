"""A join (or play-now) whose answer was lost, sent again with the same ``client_key``: the same seat and a
token that works, never a second seat or a 409 for one's own seat (docs/protocol.md, "Retrying a join")."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import httpx
import pytest

from dicepoker.client import ServerClient
from dicepoker.server.errors import Conflict
from dicepoker.server.storage.records import MemoryStorage
from tests.server.conftest import FakeClock, new_service, run
from tests.server.live import Live, live_server

KEY = "k" * 8 + "0123456789abcdef"


def test_a_join_sent_again_with_its_key_answers_the_same_seat_and_token() -> None:
    async def main() -> None:
        service = new_service(MemoryStorage(), FakeClock())
        await service.start(scheduler=False)
        table_id = str((await service.create_table("scorecard", {"players": 3}, ["open", "open", "open"], None))["id"])
        first = await service.join(table_id, 1, "ann", client_key=KEY)
        again = await service.join(table_id, 1, "ann", client_key=KEY)
        assert again == first
        assert await service.authenticate(table_id, str(first["token"])) == 1
        with pytest.raises(Conflict):
            await service.join(table_id, 1, "ann")  # without the key, a taken seat is taken
        with pytest.raises(Conflict):
            await service.join(table_id, 1, "eve", client_key="e" * 24)  # and another key is someone else
        # The last seat starts the game; its answer lost, the same join still answers once it is playing.
        await service.join(table_id, 0, "bob")
        last = await service.join(table_id, 2, "cy", client_key="c" * 24)
        assert (await service.summary(table_id))["status"] == "playing"
        assert await service.join(table_id, 2, "cy", client_key="c" * 24) == last

    run(main())


def test_play_now_sent_again_with_its_key_finds_the_seat_it_took() -> None:
    async def main() -> None:
        service = new_service(MemoryStorage(), FakeClock())
        await service.start(scheduler=False)
        ann = await service.play_now("scorecard", "ann", client_key=KEY)
        assert await service.play_now("scorecard", "ann", client_key=KEY) == ann
        bob = await service.play_now("scorecard", "bob", client_key="b" * 24)
        assert bob["id"] == ann["id"] and bob["seat"] == 1  # the table is full and starts
        assert await service.play_now("scorecard", "bob", client_key="b" * 24) == bob
        assert await service.play_now("scorecard", "ann", client_key=KEY) == ann
        assert len(service._tables) == 1

    run(main())


def test_join_and_play_now_answer_the_tables_commitment_issue_19() -> None:
    """Issue 19 §9: a player who joins (not only whoever created the table) is given the commitment to keep."""

    async def main() -> None:
        service = new_service(MemoryStorage(), FakeClock())
        await service.start(scheduler=False)
        created = await service.create_table("scorecard", {}, ["open", "open"], None)
        joined = await service.join(str(created["id"]), 0, "ann", client_key=KEY)
        assert joined["commitment"] == created["commitment"]
        assert (await service.join(str(created["id"]), 0, "ann", client_key=KEY))["commitment"] == created["commitment"]
        first = await service.play_now("scorecard", "bob", client_key="b" * 24)
        again = await service.play_now("scorecard", "bob", client_key="b" * 24)
        summary = await service.summary(str(first["id"]))
        assert first["commitment"] == again["commitment"] == summary["commitment"]

    run(main())


@pytest.fixture(scope="module")
def live() -> Iterator[Live]:
    with live_server() as server:
        yield server


class LosesTheFirstAnswer(httpx.AsyncBaseTransport):
    """The network drops the answer to the first join (or play-now) after the server has handled it."""

    def __init__(self) -> None:
        self.inner = httpx.AsyncHTTPTransport()
        self.bodies: list[bytes] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self.inner.handle_async_request(request)
        if request.url.path.endswith(("/join", "/play-now")):
            self.bodies.append(request.content)
            if len(self.bodies) == 1:
                await response.aread()
                await response.aclose()
                raise httpx.ReadError("connection reset before the answer arrived", request=request)
        return response

    async def aclose(self) -> None:
        await self.inner.aclose()


@pytest.mark.parametrize("route", ["join", "play_now"])
def test_the_client_retries_a_lost_join_with_the_same_key(live: Live, route: str) -> None:
    async def main() -> None:
        transport = LosesTheFirstAnswer()
        async with ServerClient(live.url, transport=transport) as server:
            if route == "join":
                table_id = (await server.create_table("scorecard", seats=["open", "open"], clock=None)).table
                seated = await server.join(table_id, 0, "ann")
            else:
                seated = await server.play_now("peekpoker", "ann")
        assert len(transport.bodies) == 2 and transport.bodies[0] == transport.bodies[1]  # the same request
        assert b'"client_key"' in transport.bodies[0]
        async with server.table(seated.table, seated.token) as table:  # the token of the answer works
            state = await table.next_state(timeout=10)
            assert state.seat == seated.seat

    asyncio.run(main())
