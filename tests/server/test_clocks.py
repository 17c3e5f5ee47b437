"""Clock rules as data: deadlines, time banks (drawn once, refunded, restored) and the scheduler's heap."""

from __future__ import annotations

import asyncio
import copy
from typing import Any

import pytest

from dicepoker.core.types import Timeout
from dicepoker.games.betting.actions import Check
from dicepoker.server.errors import Invalid
from dicepoker.server.storage.records import MemoryStorage, SeatRecord, TableRecord
from dicepoker.server.tables import clocks
from tests.server.conftest import FakeClock, frame, new_service, run


def _record(bank: float | None = 20.0) -> TableRecord:
    options = {} if bank is None else {"time_bank": bank}
    seats = [SeatRecord("human"), SeatRecord("human")]
    record = TableRecord("t", "holdem", {}, seats, 10.0, "playing", "c", "ab", 0.0, options=dict(options))
    clocks.fill_banks(record)
    return record


def test_a_bank_is_drawn_once_per_decision_and_what_is_left_goes_back() -> None:
    record = _record()
    record.deadline = 110.0
    assert clocks.draw_bank(record, (1,))
    assert record.deadline == 130.0 and record.seats[1].bank == 0 and record.options["banking"] == 1
    assert not clocks.draw_bank(record, (1,))  # once per decision
    clocks.settle_bank(record, [(1, Check(), None)], now=118.5)
    assert record.seats[1].bank == 11.5 and "banking" not in record.options
    assert record.seats[0].bank == 20.0


def test_a_timeout_on_the_bank_leaves_it_empty_and_no_bank_means_the_timeout() -> None:
    record = _record()
    record.deadline = 10.0
    assert clocks.draw_bank(record, (0,))
    clocks.settle_bank(record, [(0, Timeout(), None)], now=30.0)
    assert record.seats[0].bank == 0 and "banking" not in record.options
    record.deadline = 50.0
    assert not clocks.draw_bank(record, (0,))  # empty
    assert not clocks.draw_bank(_record(None), (0,))  # a table without a time bank
    assert not clocks.draw_bank(_record(), (0, 1))  # never for a simultaneous decision


def test_clock_json_shows_the_banks_beyond_the_deadline() -> None:
    record = _record()
    record.deadline = 10.0
    shown = clocks.clock_json(record, (0,), now=4.0)
    assert shown == {
        "seat": 0,
        "seats": [0],
        "deadline": 10.0,
        "remaining": 6.0,
        "total": 10,
        "time_bank": [20, 20],
        "banking": False,
    }
    clocks.draw_bank(record, (0,))
    shown = clocks.clock_json(record, (0,), now=12.0)
    assert shown is not None and shown["remaining"] == 18.0 and shown["time_bank"] == [0, 20] and shown["banking"]
    untimed_bank = _record(None)
    untimed_bank.deadline = 5.0
    plain = clocks.clock_json(untimed_bank, (0,), now=0.0)
    assert plain is not None and "time_bank" not in plain and "banking" not in plain
    assert clocks.clock_json(record, (), now=0.0) is None


def test_the_scheduler_keeps_the_latest_due_moment_per_table() -> None:
    scheduler = clocks.Scheduler(FakeClock())
    scheduler.set("a", 5.0)
    scheduler.set("b", 3.0)
    scheduler.set("a", 1.0)  # moved earlier: the old entry goes stale
    scheduler.set("c", 2.0)
    scheduler.set("c", None)  # nothing due any more
    assert scheduler.next_due() == 1.0
    assert scheduler.pop_due(2.5) == ["a"]
    assert scheduler.scheduled("a") is None and scheduler.scheduled("b") == 3.0
    assert scheduler.pop_due(10.0) == ["b"] and scheduler.next_due() is None


def test_a_table_draws_its_bank_then_times_out_and_survives_a_restart() -> None:
    clock = FakeClock()
    storage = MemoryStorage()

    async def main() -> None:
        service = new_service(storage, clock)
        await service.start(scheduler=False)
        created = await service.create_table("holdem", {}, ["open", "open"], 10, time_bank=15)
        table_id = str(created["id"])
        for seat in (0, 1):
            await service.join(table_id, seat, f"p{seat}")
        table = service._tables[table_id]
        assert (await service.summary(table_id))["time_bank"] == 15
        first = await frame(service, table_id, 0)
        assert first["clock"]["time_bank"] == [15, 15] and not first["clock"]["banking"]  # type: ignore[index]
        (seat,) = table.to_act()
        version, deadline = table.version, table.record.deadline
        assert deadline is not None
        clock.advance(10.5)
        assert await service.tick() == 0  # the clock ran out: the bank, not the timeout
        assert table.version == version and table.record.deadline == deadline + 15
        shown = (await frame(service, table_id, seat))["clock"]
        assert shown["banking"] and shown["time_bank"][seat] == 0 and shown["remaining"] == 14.5  # type: ignore[index]

        restarted = new_service(copy.deepcopy(storage), clock)  # the bank in use survives a restart
        await restarted.start(scheduler=False)
        assert restarted._tables[table_id].record.deadline == deadline + 15
        assert restarted._tables[table_id].record.options["banking"] == seat

        clock.advance(5)
        await service.act(table_id, seat, "check")
        assert table.record.seats[seat].bank == 9.5  # the 9.5 s it did not use
        (other,) = table.to_act()
        clock.advance(10)
        assert await service.tick() == 0  # the other seat draws its 15 s
        clock.advance(14.9)
        assert await service.tick() == 0
        clock.advance(0.2)
        assert await service.tick() == 1  # and then its timeout comes
        assert table.events[version + 1].action == "timeout" and table.record.seats[other].bank == 0

    run(main())


def test_a_time_bank_is_for_timed_betting_tables() -> None:
    clock = FakeClock()

    async def main() -> None:
        service = new_service(MemoryStorage(), clock)
        await service.start(scheduler=False)
        with pytest.raises(Invalid, match="betting games"):
            await service.create_table("scorecard", {}, None, 30, time_bank=10)
        with pytest.raises(Invalid, match="needs a clock"):
            await service.create_table("holdem", {}, None, None, time_bank=10)
        with pytest.raises(Invalid, match="time_bank"):
            await service.create_table("peekpoker", {}, None, 30, time_bank=-1)
        plain = str((await service.create_table("holdem", {}, ["open", "bot:random"], 30))["id"])
        assert (await service.summary(plain))["time_bank"] is None
        banked = str((await service.create_table("peekpoker", {}, ["open", "bot:random"], 30, time_bank=20))["id"])
        await service.join(banked, 0, "ann")
        await service.act(banked, 0, "resign")
        again = str((await service.rematch(banked))["id"])
        record = service._tables[again].record
        assert record.options["time_bank"] == 20 and [s.bank for s in record.seats] == [20, 20]

    run(main())


def test_the_scheduler_stops_even_when_wait_for_swallows_the_cancel(monkeypatch: pytest.MonkeyPatch) -> None:
    """Python 3.11's wait_for returns the result instead of raising when the cancel and the wake-up land in
    the same loop iteration (CPython gh-86296); a server under load then hung on SIGTERM. Simulated here."""
    real_wait_for = asyncio.wait_for
    swallowed: list[bool] = []

    async def swallowing_wait_for(awaitable: Any, timeout: float | None) -> Any:
        try:
            return await real_wait_for(awaitable, timeout)
        except asyncio.CancelledError:
            if swallowed:
                raise
            swallowed.append(True)
            return True  # what 3.11 does when the awaited wake-up is already done

    monkeypatch.setattr(clocks.asyncio, "wait_for", swallowing_wait_for)
    ticks: list[int] = []

    async def tick() -> None:
        ticks.append(1)

    async def main() -> None:
        scheduler = clocks.Scheduler(FakeClock())
        scheduler.start(tick)
        for _ in range(3):
            await asyncio.sleep(0)  # the task is now asleep in wait_for (nothing is due)
        async with asyncio.timeout(10):
            await scheduler.stop()
        assert swallowed == [True] and ticks == []

    asyncio.run(main())


def test_unattended_time_is_given_back_from_when_the_timer_was_last_seen() -> None:
    record = _record(None)
    record.deadline, record.remaining = 130.0, 30.0  # a decision of 30 s, started at 100
    assert clocks.unattended(record, 110.0, 150.0) == 40.0  # timer last seen at 110: 20 s were left, and are
    assert clocks.unattended(record, 90.0, 150.0) == 50.0  # seen before the decision began: from its start
    assert clocks.unattended(record, 131.0, 150.0) == 0.0  # the deadline had passed while the timer lived
    record.deadline = None
    assert clocks.unattended(record, 110.0, 150.0) == 0.0


def test_a_wall_clock_step_moves_running_turns_by_as_much() -> None:
    """Issue 19, item 12 (docs/deploy.md, "Clocks and the wall clock"): deadlines are wall-clock times shared
    by every process, so a step of the clock moves a running turn: back by 20 s, the 30 s turn lasts 50 s;
    forward by more than what is left, it times out at the scheduler's next pass."""
    clock = FakeClock()
    service = new_service(MemoryStorage(), clock)

    async def main() -> None:
        await service.start(scheduler=False)
        table_id = str((await service.create_table("scorecard", {}, ["open", "open"], 30))["id"])
        for seat in (0, 1):
            await service.join(table_id, seat, f"p{seat}")
        clock.advance(-20)  # the clock is stepped back by 20 s at the start of the 30 s turn
        clock.advance(49)
        assert await service.tick() == 0  # 49 s of real time later the turn is still running
        clock.advance(2)
        assert await service.tick() == 1  # it ended after 51 s
        clock.advance(5 + 31)  # the next turn: 5 s of real time, then a step forward by 31 s
        assert await service.tick() == 1  # out at the next pass, 25 s early
        await service.stop()

    run(main())
