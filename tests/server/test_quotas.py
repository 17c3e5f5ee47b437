"""Default limits (issue 19 §7): rate limits on by default, waiting tables expire, open tables capped per
client address. Every clock here is injected."""

from __future__ import annotations

import httpx
import pytest

from dicepoker.server.settings import Settings
from dicepoker.server.storage.records import MemoryStorage
from dicepoker.server.tables.quotas import TooManyTables
from dicepoker.server.tables.table import FINISHED, WAITING
from dicepoker.server.transport.app import create_app
from dicepoker.server.transport.ratelimit import LocalRateLimiter, RateLimit
from tests.server.conftest import FakeClock, frame, new_service, run


def test_rate_limit_table_cap_and_expiry_are_on_by_default() -> None:
    settings = Settings()
    assert (settings.rate_limit, settings.max_open_tables, settings.waiting_ttl) == (120, 20, 3600.0)
    app = create_app(Settings(warm_tables=False))
    assert any(m.cls is RateLimit for m in app.user_middleware)
    assert app.state.service.dealer.waiting_ttl == 3600.0
    assert app.state.service.open_tables.limit == 20


def test_the_rate_limiter_counts_per_client_and_window_on_an_injected_clock() -> None:
    clock = FakeClock(0.0)
    limiter = LocalRateLimiter(now=clock)

    async def main() -> None:
        assert all([await limiter.allow("http:1.2.3.4", 120) for _ in range(120)])
        assert not await limiter.allow("http:1.2.3.4", 120)
        assert await limiter.allow("http:5.6.7.8", 120)  # another address has its own count
        clock.advance(60)
        assert await limiter.allow("http:1.2.3.4", 120)  # a new minute

    run(main())


def test_a_waiting_table_nobody_joins_expires_and_is_not_restored() -> None:
    clock = FakeClock()

    async def main() -> None:
        storage = MemoryStorage()
        service = new_service(storage, clock, waiting_ttl=60.0)
        await service.start(scheduler=False)
        table_id = str((await service.create_table("scorecard", {}, ["open", "open"], 30))["id"])
        kept_id = str((await service.create_table("scorecard", {}, ["open", "open"], 30))["id"])
        await service.join(kept_id, 0, "ann")
        await service.join(kept_id, 1, "bob")  # full: it plays, it does not expire
        assert service.next_due() == clock() + 30  # the first turn's clock, before any expiry
        clock.advance(59)
        await service.tick()
        assert service._tables[table_id].status == WAITING
        clock.advance(2)
        await service.tick()
        table = service._tables[table_id]
        assert table.status == FINISHED and table.record.result is not None
        assert table.record.result["expired"] is True and table.record.result["winners"] == []
        assert storage.tables[table_id].status == FINISHED
        shown = await frame(service, table_id, None)
        assert shown["status"] == "finished" and "expired" in str(shown["result"])
        await service.stop()
        again = new_service(storage, clock, waiting_ttl=60.0)
        await again.start(scheduler=False)
        assert table_id not in again._tables and kept_id in again._tables

    run(main())


def test_tables_that_expired_while_the_server_was_down_are_closed_at_start_not_restored() -> None:
    clock = FakeClock()

    async def main() -> None:
        storage = MemoryStorage()
        service = new_service(storage, clock)  # no expiry on this server
        await service.start(scheduler=False)
        old = [str((await service.create_table("holdem", {}, ["open", "open"], 30))["id"]) for _ in range(3)]
        clock.advance(100)
        fresh = str((await service.create_table("holdem", {}, ["open", "open"], 30))["id"])
        await service.stop()
        clock.advance(30)  # the old ones waited 130 s, the fresh one 30 s
        restarted = new_service(storage, clock, waiting_ttl=120.0)
        await restarted.start(scheduler=False)
        assert set(restarted._tables) == {fresh}
        assert [storage.tables[i].status for i in old] == [FINISHED] * 3
        assert storage.tables[fresh].status == WAITING
        assert restarted.next_due() == storage.tables[fresh].created + 120.0

    run(main())


def test_an_expired_play_now_table_lets_its_lobby_slot_go() -> None:
    clock = FakeClock()

    async def main() -> None:
        storage = MemoryStorage()
        service = new_service(storage, clock, waiting_ttl=60.0, autofill=600.0)
        await service.start(scheduler=False)
        ann = await service.play_now("scorecard", "ann")
        clock.advance(61)
        await service.tick()
        assert storage.tables[str(ann["id"])].status == FINISHED
        assert storage.tables[str(ann["id"])].lobby is None
        bob = await service.play_now("scorecard", "bob")
        assert bob["id"] != ann["id"] and storage.tables[str(bob["id"])].lobby == "scorecard"

    run(main())


def test_unfinished_tables_are_capped_per_client_address_bot_only_tables_included() -> None:
    clock = FakeClock()

    async def main() -> None:
        service = new_service(MemoryStorage(), clock, max_open_tables=2, waiting_ttl=60.0)
        await service.start(scheduler=False)
        await service.create_table("scorecard", {}, ["open", "open"], None, owner="1.2.3.4")
        await service.create_table("scorecard", {}, ["bot:optimal", "bot:optimal"], None, owner="1.2.3.4")
        before = len(service._tables)
        with pytest.raises(TooManyTables, match="at most 2 unfinished tables"):
            await service.create_table("scorecard", {}, ["open", "open"], None, owner="1.2.3.4")
        assert len(service._tables) == before  # refused: nothing created
        await service.create_table("scorecard", {}, ["open", "open"], None, owner="5.6.7.8")  # another client
        clock.advance(61)
        await service.dealer.tick(wait=False)  # the waiting table expires: the client may open another
        await service.create_table("scorecard", {}, ["open", "open"], None, owner="1.2.3.4")
        await service.stop()

    run(main())


def test_post_tables_beyond_the_cap_answers_429_with_a_reason() -> None:
    async def main() -> None:
        settings = Settings(now=FakeClock(), scheduler=False, warm_tables=False, max_open_tables=2)
        app = create_app(settings)
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
                body = {"game": "scorecard", "seats": ["open", "open"]}
                codes = [(await client.post("/api/tables", json=body)).status_code for _ in range(2)]
                refused = await client.post("/api/tables", json=body)
        assert codes == [201, 201]
        assert refused.status_code == 429 and "at most 2 unfinished tables" in refused.json()["detail"]

    run(main())
