"""The table service on a fake clock and in-memory storage: clocks, versions, ids, tokens, restore, lobby."""

from __future__ import annotations

import copy
import logging

import pytest

from dicepoker.core.types import Timeout
from dicepoker.games.registry import create
from dicepoker.server.errors import Conflict, Invalid, NotFound, Rejected, Unauthorized
from dicepoker.server.storage.records import MemoryStorage
from dicepoker.server.tables.service import TableService
from tests.server.conftest import FakeClock, frame, new_service, run


async def _two_people(
    service: TableService, game: str, clock: float | None = 30, **config: object
) -> tuple[str, list[str]]:
    created = await service.create_table(game, config, ["open", "open"], clock)
    table_id = str(created["id"])
    tokens = [str((await service.join(table_id, seat, f"p{seat}"))["token"]) for seat in (0, 1)]
    return table_id, tokens


@pytest.mark.parametrize(
    ("game", "clause"),
    [
        ("scorecard", "SC-14"),
        ("zepherin", "BD-14"),
        ("classic-board", "BD-14"),
        ("holdem", "HE-16"),
        ("peekpoker", "PK-15"),
    ],
)
def test_an_expired_clock_applies_and_logs_the_games_timeout(
    game: str, clause: str, caplog: pytest.LogCaptureFixture
) -> None:
    clock = FakeClock()

    async def main() -> None:
        service = new_service(MemoryStorage(), clock)
        await service.start(scheduler=False)
        table_id, _ = await _two_people(service, game, clock=30)
        table = service._tables[table_id]
        before = table.state
        (seat,) = before.to_act
        if game == "scorecard":  # act once, so that this is SC-14 and not the SC-15 no-show
            await service.act(table_id, seat, "roll")
            before = table.state
        deadline = table.record.deadline
        assert deadline == clock() + 30
        clock.advance(29.9)
        assert await service.tick() == 0
        clock.advance(0.2)
        with caplog.at_level(logging.INFO, logger="dicepoker.server"):
            assert await service.tick() == 1
        timeouts = [e for e in table.events if e.action == "timeout"]
        assert [(e.seat, e.action) for e in timeouts] == [(seat, "timeout")]
        # The logged timeout is the engine's own default action (the clause), applied like any action.
        expected = before.apply(Timeout(), seat)
        after_timeout = table.events.index(timeouts[0])
        replayed = create(game, **table.record.config).initial_state()
        for event in table.events[: after_timeout + 1]:
            replayed = replayed.apply(table.game.parse_action(event.action), event.seat)
        assert replayed == expected
        assert any(getattr(r, "fields", {}).get("seat") == seat and r.getMessage() == "timeout" for r in caplog.records)
        if game in ("holdem", "peekpoker"):  # a check was possible, so the seat is still in the hand
            assert (await frame(service, table_id, seat))["view"]["in_hand"][seat] is True  # type: ignore[index]
        else:
            assert table.state.to_act != (seat,) or (game == "scorecard" and table.state.to_act == (1,))

    run(main())


def test_sc15_nobody_starts_the_game_is_a_tie() -> None:
    clock = FakeClock()

    async def main() -> None:
        service = new_service(MemoryStorage(), clock)
        await service.start(scheduler=False)
        table_id, _ = await _two_people(service, "scorecard", clock=30)
        for _ in range(2):
            clock.advance(31)
            await service.tick()
        summary = await service.summary(table_id)
        assert summary["status"] == "finished"
        assert summary["result"]["winners"] == [0, 1]  # type: ignore[index]
        assert "SC-15" in summary["result"]["reason"]  # type: ignore[index]

    run(main())


def test_stale_version_duplicate_id_and_wrong_seat_change_nothing() -> None:
    clock = FakeClock()

    async def main() -> None:
        service = new_service(MemoryStorage(), clock)
        await service.start(scheduler=False)
        table_id, tokens = await _two_people(service, "scorecard")
        assert await service.authenticate(table_id, tokens[1]) == 1
        version = await service.act(table_id, 0, "roll", version=0, client_id="a")
        assert version == 2  # the roll and its dice
        events = list(service._tables[table_id].events)
        assert await service.act(table_id, 0, "roll", version=0, client_id="a") == version  # answered, not applied
        with pytest.raises(Rejected, match=r"stale version 0 \(table is at 2\)"):
            await service.act(table_id, 0, "reroll 1", version=0, client_id="b")
        with pytest.raises(Rejected, match="not seat 1's turn"):
            await service.act(table_id, 1, "roll", version=2)
        with pytest.raises(Rejected, match="cannot read"):
            await service.act(table_id, 0, "fly away", version=2)
        with pytest.raises(Rejected, match="clock"):
            await service.act(table_id, 0, "timeout", version=2)
        assert service._tables[table_id].events == events
        only_own = await frame(service, table_id, 1)
        assert only_own["legal_actions"] == [] and (await frame(service, table_id, 0))["legal_actions"]

    run(main())


def test_tokens_seats_and_unknown_tables() -> None:
    clock = FakeClock()

    async def main() -> None:
        service = new_service(MemoryStorage(), clock)
        await service.start(scheduler=False)
        created = await service.create_table("holdem", {}, ["open", "bot:random"])
        table_id = str(created["id"])
        joined = await service.join(table_id, 0, "ann", "my seed")
        token = str(joined["token"])
        assert len(token) == 32 and int(token, 16) >= 0
        assert token not in repr(service._tables[table_id].record)  # only its hash is kept
        with pytest.raises(Conflict, match="taken"):
            await service.join(table_id, 0, "bob")
        with pytest.raises(Conflict, match="taken"):
            await service.join(table_id, 1, "bob")
        with pytest.raises(NotFound):
            await service.join(table_id, 7, "bob")
        with pytest.raises(NotFound):
            await service.summary("nope")
        with pytest.raises(Unauthorized):
            await service.authenticate(table_id, "0" * 32)
        assert await service.authenticate(table_id, None) is None
        assert await service.authenticate(table_id, token) == 0
        with pytest.raises(Invalid):
            await service.create_table("holdem", {"players": 9})
        with pytest.raises(Invalid):
            await service.create_table("holdem", {}, ["open", "bot:nobody"])
        with pytest.raises(Invalid):
            await service.create_table("holdem", {}, ["open"])
        assert service._tables[table_id].record.client_seeds == ["my seed"]

    run(main())


def test_restore_after_restart_does_not_charge_the_downtime() -> None:
    clock = FakeClock()
    storage = MemoryStorage()

    async def main() -> None:
        first = new_service(storage, clock)
        await first.start(scheduler=False)
        table_id, tokens = await _two_people(first, "holdem", clock=60)
        seat = first._tables[table_id].state.to_act[0]
        version = await first.act(table_id, seat, "check", client_id="c1")
        dice_counter = first._tables[table_id].rng.counter  # type: ignore[union-attr]
        clock.advance(50)  # 50 s into the next decision, the server dies
        await first.stop()

        clock.advance(3600)  # down for an hour
        second = new_service(storage, clock)
        await second.start(scheduler=False)
        table = second._tables[table_id]
        assert table.version == version and table.rng.counter == dice_counter  # type: ignore[union-attr]
        assert await second.authenticate(table_id, tokens[1]) == 1
        assert await second.act(table_id, seat, "check", client_id="c1") == version  # the id survived
        clock.advance(59)
        assert await second.tick() == 0  # the hour down was not charged
        clock.advance(2)
        assert await second.tick() == 1
        assert table.events[version].action == "timeout"

    run(main())


def test_restored_dice_continue_the_same_fair_stream() -> None:
    clock = FakeClock()
    storage = MemoryStorage()

    async def main() -> None:
        first = new_service(storage, clock)
        await first.start(scheduler=False)
        table_id, _ = await _two_people(first, "scorecard", clock=None)
        await first.act(table_id, 0, "roll")
        second = new_service(copy.deepcopy(storage), clock)
        await second.start(scheduler=False)
        for service in (first, second):
            await service.act(table_id, 0, "reroll 1 2 3 4 5")
        assert first._tables[table_id].events == second._tables[table_id].events

    run(main())


def test_rematch_keeps_the_seats_and_play_now_fills_with_bots() -> None:
    clock = FakeClock()

    async def main() -> None:
        service = new_service(MemoryStorage(), clock, autofill=10)
        await service.start(scheduler=False)
        ann = await service.play_now("scorecard", "ann")
        bob = await service.play_now("scorecard", "bob")
        assert ann["id"] == bob["id"] and (ann["seat"], bob["seat"]) == (0, 1)
        assert (await service.summary(str(ann["id"])))["status"] == "playing"
        with pytest.raises(Conflict):
            await service.rematch(str(ann["id"]))

        carl = await service.play_now("peekpoker", "carl")
        table_id = str(carl["id"])
        clock.advance(9)
        await service.tick()
        assert (await service.summary(table_id))["status"] == "waiting"
        clock.advance(2)
        await service.tick()  # the bot fills the seat, and plays whenever it is its turn
        summary = await service.summary(table_id)
        assert summary["status"] == "playing"
        assert [s["kind"] for s in summary["seats"]] == ["human", "bot"]  # type: ignore[index]
        await service.act(table_id, 0, "resign")
        assert (await service.summary(table_id))["status"] == "finished"

        again = await service.rematch(table_id)
        assert again == await service.rematch(table_id)  # asked twice: one rematch
        new = await service.summary(str(again["id"]))
        assert new["status"] == "playing" and new["commitment"] != summary["commitment"]
        assert await service.authenticate(str(again["id"]), str(carl["token"])) == 0
        assert (await service.summary(table_id))["rematch"] == again["id"]

    run(main())


def test_log_is_published_once_the_game_is_over() -> None:
    clock = FakeClock()

    async def main() -> None:
        service = new_service(MemoryStorage(), clock)
        await service.start(scheduler=False)
        table_id, _ = await _two_people(service, "scorecard", clock=None, players=2)
        with pytest.raises(Conflict):
            await service.log_text(table_id)
        await service.act(table_id, 0, "resign")
        text = await service.log_text(table_id)
        assert '"server_seed": "' in text.splitlines()[0]
        with pytest.raises(NotFound):
            await service.log_text(table_id, history=True)

    run(main())


def test_presence_is_announced_only_when_a_seats_connected_changes() -> None:
    clock = FakeClock()

    async def main() -> None:
        service = new_service(MemoryStorage(), clock)
        await service.start(scheduler=False)
        table_id, _ = await _two_people(service, "scorecard")
        table = service._tables[table_id]
        heard = service.pubsub.subscribe(table_id)
        revision = table.revision
        for _ in range(50):  # a crowd of spectators (re)connecting: nobody hears of it
            await service.connect(table_id, None)
        for _ in range(50):
            await service.disconnect(table_id, None)
        await service.connect(table_id, 1)
        await service.connect(table_id, 1)  # a second tab of the same seat
        await service.disconnect(table_id, 1)
        await service.disconnect(table_id, 1)
        messages = []
        while not heard.queue.empty():  # type: ignore[attr-defined]
            messages.append(await heard.get())
        assert [m["presence"] for m in messages] == [1, 2]  # type: ignore[index]
        assert table.revision == revision  # not a new state: the cached state frames stay
        await service.connect(table_id, 0)
        shown = await frame(service, table_id, None)  # a new recipient's state frame is up to date
        assert [s["connected"] for s in shown["seats"]] == [True, False]  # type: ignore[index]
        presence = await service.presence_frame(table_id)
        assert presence == {"type": "presence", "table": table_id, "seats": shown["seats"]}

    run(main())


def test_the_table_list_pages_through_the_archive_newest_first() -> None:
    clock = FakeClock()
    storage = MemoryStorage()

    async def main() -> None:
        first = new_service(storage, clock)
        await first.start(scheduler=False)
        made = []
        for index in range(5):
            clock.advance(1)
            table_id, _ = await _two_people(first, "scorecard" if index % 2 else "holdem", clock=None)
            made.append(table_id)
            if index < 3:
                await first.act(table_id, first._tables[table_id].state.to_act[0], "resign")
        restarted = new_service(storage, clock)  # finished tables are no longer in memory
        await restarted.start(scheduler=False)
        assert set(restarted._tables) == set(made[3:])
        newest_first = list(reversed(made))
        pages, offset = [], 0
        while offset is not None:
            page = await restarted.list_tables(limit=2, offset=offset)
            assert page["limit"] == 2 and page["offset"] == offset
            pages.append([t["id"] for t in page["tables"]])  # type: ignore[index, union-attr]
            offset = page["next"]  # type: ignore[assignment]
        assert pages == [newest_first[0:2], newest_first[2:4], newest_first[4:]]
        finished = await restarted.list_tables(status="finished")
        assert [t["id"] for t in finished["tables"]] == newest_first[2:]  # type: ignore[union-attr, index]
        archived = finished["tables"][0]  # type: ignore[index]
        assert archived == (await restarted.summary(made[2]))
        holdem = await restarted.list_tables(game="holdem", status="finished")
        assert [t["id"] for t in holdem["tables"]] == [made[2], made[0]]  # type: ignore[union-attr, index]
        with pytest.raises(Invalid):
            await restarted.list_tables(limit=0)

    run(main())


def test_state_frames_name_the_rematch_once_there_is_one() -> None:
    clock = FakeClock()

    async def main() -> None:
        service = new_service(MemoryStorage(), clock)
        await service.start(scheduler=False)
        table_id = str((await service.create_table("scorecard", {}, ["open", "open"]))["id"])
        tokens = [await service.join(table_id, seat, name) for seat, name in enumerate(("ann", "bob"))]
        assert tokens[0]["seat"] == 0
        assert (await frame(service, table_id, 0))["rematch"] is None
        await service.act(table_id, 1, "resign")
        assert (await frame(service, table_id, 0))["rematch"] is None  # finished, no rematch asked for yet
        again = str((await service.rematch(table_id))["id"])
        for seat in (0, 1, None):  # both players' pages and a spectator's
            assert (await frame(service, table_id, seat))["rematch"] == again
        assert (await frame(service, again, 0))["rematch"] is None

    run(main())
