"""The dealer: everything that moves a game on. Players' actions, dice, clocks, time banks and bots.

Every change to a table happens under that table's lock, in this order: check (auth, version, rules),
roll any dice due from the table's fairness RNG, commit to storage, and only then update the table in
memory and publish "table changed". So nothing is ever heard of before it is durable (accept = commit),
and a failed commit leaves the table as it was.

Time is data (:mod:`.clocks`): each table holds the deadline of its current decision, the moment its bot
should move and the moment a play-now table is filled with bots; one :class:`~.clocks.Scheduler` task
sleeps until the earliest and calls :meth:`Dealer.tick`. Tests inject ``now`` and call ``tick`` themselves.

A server bot thinks *outside* the table's lock, in a thread, as a task of its own: neither the table's
other clients (a resignation, say) nor the scheduler, and so the clocks of every other table, wait for a
slow bot. When it has chosen, its move is committed only if the table is still at the version the bot
looked at; otherwise (a timeout, a resignation) the move is dropped and the bot asked again if due.

**Several processes** (issue 11, :mod:`.cluster`). With a ``coordinator``, other processes may change
the same tables. Every write is optimistic (:class:`~.storage.StaleWrite`, see :mod:`.storage`): on a
conflict the dealer reads the table back, brings its copy up to date (:mod:`.replica`) and decides again
from there: an action is checked again (and may now be stale), a timeout is applied only if it is still
due. The scheduler here times only the tables whose lease this process holds (``coordinator.owns``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol

from dicepoker.bots.registry import create_bot
from dicepoker.core.errors import DicePokerError
from dicepoker.core.steps import roll_chance
from dicepoker.core.types import Action, Seat, Timeout
from dicepoker.server.errors import Rejected
from dicepoker.server.logs import log_event
from dicepoker.server.storage.records import EventRecord, SeatRecord, StaleWrite, Storage, StorageUnavailable
from dicepoker.server.tables import catalog, clocks, leaving, quotas
from dicepoker.server.tables.fairness import FairRandom
from dicepoker.server.tables.pubsub import PubSub
from dicepoker.server.tables.replica import Gap, absorb
from dicepoker.server.tables.table import FINISHED, PLAYING, WAITING, Last, Table, simultaneous

MAX_TICK_ROUNDS = 100_000
KEEP_FINISHED = 1000
"""Finished tables kept in memory; older ones are read back from the archive when asked for."""
logger = logging.getLogger("dicepoker.server.tables")
Move = tuple[Seat, Action, str | None]
RETRIES = 8
"""Times an action is tried again after another process changed its table first."""
STORAGE_RETRY = 2.0
"""Seconds before due work (a timeout, a bot's move) is tried again after the database failed it."""


class Metrics(Protocol):
    """What the service reports; the app plugs Prometheus in."""

    def accepted(self, seconds: float) -> None: ...

    def rejected(self, kind: str) -> None: ...


class Coordinator(Protocol):
    """What the dealer asks of the cross-process coordination (:class:`~.cluster.Cluster`)."""

    def owns(self, table_id: str) -> bool:
        """Whether this process times the table (its clocks, bots and autofill)."""

    async def changed(self, table: Table, events: Sequence[EventRecord], extra: dict[str, int]) -> None:
        """A change was committed here (or a presence changed): tell the other processes."""


class NoMetrics:
    def accepted(self, seconds: float) -> None:
        return None

    def rejected(self, kind: str) -> None:
        return None


class Dealer:
    """Acts on the tables of ``tables`` (shared with the service, which seats people and finds tables)."""

    def __init__(
        self,
        tables: dict[str, Table],
        storage: Storage,
        pubsub: PubSub,
        *,
        now: Callable[[], float],
        bot_delay: float,
        metrics: Metrics,
    ) -> None:
        self.tables = tables
        self.storage = storage
        self.pubsub = pubsub
        self.now = now
        self.bot_delay = bot_delay
        self.metrics = metrics
        self.scheduler = clocks.Scheduler(now)
        self._thinking: set[asyncio.Task[int]] = set()
        self.coordinator: Coordinator | None = None
        self.waiting_ttl: float | None = None
        """Seconds a table may wait for players before it expires (:mod:`.quotas`); ``None``: for ever."""

    async def stop(self) -> None:
        await self.scheduler.stop()
        for task in list(self._thinking):
            task.cancel()  # the thread finishes on its own; its move is never committed
        await asyncio.gather(*self._thinking, return_exceptions=True)

    async def publish(self, table: Table, events: Sequence[EventRecord] = (), **extra: int) -> None:
        await self.pubsub.publish(
            table.id, {"table": table.id, "revision": table.revision, "version": table.version, **extra}
        )
        if self.coordinator is not None:
            await self.coordinator.changed(table, events, extra)

    # -- other processes' changes -------------------------------------------------------------------
    async def refresh(self, table: Table) -> bool:
        """Read the table back from the database and catch up with it; whether it had changed."""
        async with table.lock:
            return await self.reload(table)

    async def reload(self, table: Table) -> bool:
        """:meth:`refresh` with the table's lock held."""
        loaded = await self.storage.load(table.id)
        return loaded is not None and await self._caught_up(table, absorb(table, *loaded))

    async def receive(self, table: Table, record: Any, events: Sequence[EventRecord]) -> bool:
        """Another process committed ``record`` with ``events``: catch up (from the database on a gap)."""
        async with table.lock:
            try:
                return await self._caught_up(table, absorb(table, record, events))
            except Gap:
                return await self.reload(table)

    async def _caught_up(self, table: Table, changed: bool) -> bool:
        if changed:
            self.after_change(table)
            # Only this process's subscribers: the process that made the change told the others.
            await self.pubsub.publish(table.id, {"table": table.id, "revision": table.revision})
        return changed

    # -- starting -----------------------------------------------------------------------------------
    async def maybe_start(self, table: Table) -> bool:
        """Start a waiting table whose seats are all filled: fix the client seeds, then roll. Lock held."""
        record = table.record
        if record.status != WAITING or any(s.kind == "open" for s in record.seats):
            return False
        lobby = record.lobby
        record.client_seeds = [s.client_seed for s in record.seats if s.client_seed is not None]
        record.status = PLAYING
        record.autofill = record.lobby = None  # a play-now table that starts is no longer the open one
        clocks.fill_banks(record)
        table.rng = FairRandom(bytes.fromhex(record.server_seed), record.client_seeds, 0)
        log_event(logger, "started", table=record.id, game=record.game)
        try:
            await self.commit(table, [])
        except BaseException:
            record.status, record.client_seeds, table.rng, record.lobby = WAITING, None, None, lobby
            for seat in record.seats:
                seat.bank = None
            raise
        return True

    # -- actions ------------------------------------------------------------------------------------
    async def act(self, table: Table, seat: Seat, text: str, *, version: int | None, client_id: str | None) -> int:
        """Apply ``seat``'s action (text form); the table's version after it. See ``TableService.act``."""
        if self.coordinator is not None and version is not None and version > table.version:
            await self.refresh(table)  # the client heard of a change before this process did
        for _ in range(RETRIES):
            try:
                return await self._act(table, seat, text, version=version, client_id=client_id)
            except StaleWrite:
                await self.refresh(table)  # another process was first: decide again from what it did
        raise Rejected("the table is busy: try again")

    async def _act(self, table: Table, seat: Seat, text: str, *, version: int | None, client_id: str | None) -> int:
        started = time.perf_counter()
        async with table.lock:
            if client_id is not None and (seat, client_id) in table.accepted:
                self.metrics.rejected("duplicate")
                return table.accepted[(seat, client_id)]
            if table.status != PLAYING:
                self.metrics.rejected("not_playing")
                raise Rejected(f"the table is {table.status}")
            if version is not None and version != table.version:
                self.metrics.rejected("stale")
                raise Rejected(f"stale version {version} (table is at {table.version})")
            try:
                action = table.game.parse_action(text)
                if isinstance(action, Timeout):
                    raise Rejected("timeouts are applied by the server's clock")
                table.state.check(action, seat)
            except DicePokerError as exc:
                self.metrics.rejected("illegal")
                raise Rejected(str(exc)) from None
            await self.commit(table, [(seat, action, client_id)])
            if client_id is not None:
                table.accepted[(seat, client_id)] = table.version
            self.metrics.accepted(time.perf_counter() - started)
            return table.version

    async def commit(self, table: Table, moves: Sequence[Move]) -> None:
        """Apply checked moves, roll the dice that follow, commit, then update memory and publish."""
        record = table.record
        state, before_to_act = table.state, table.to_act()
        events: list[EventRecord] = []
        last = table.last
        seq = record.version
        for seat, action, client_id in moves:
            last = Last(seat, str(action), simultaneous(state))
            state = state.apply(action, seat)
            seq += 1
            events.append(EventRecord(seq, seat, str(action), client_id))
        rng = table.rng
        assert rng is not None
        counter = rng.counter
        for outcome, rolled in roll_chance(state, rng):
            state = rolled
            seq += 1
            events.append(EventRecord(seq, None, str(outcome)))
        saved = table.snapshot()
        now = self.now()
        record.version, record.rng_counter = seq, rng.counter
        if state.is_terminal:
            record.status, record.result = FINISHED, state.result().to_json()
        if moves:
            clocks.settle_bank(record, moves, now)
        to_act = state.to_act
        after = to_act if isinstance(to_act, tuple) else ()
        record.deadline = clocks.next_deadline(
            record, terminal=state.is_terminal, before=before_to_act, after=after, moves=moves, now=now
        )
        if leaving.bots_only_after(record, state):
            record.deadline = None  # CM-7: every person has left; the bots finish without clocks
        record.remaining = None if record.deadline is None else record.deadline - now
        try:
            await self.storage.save(record, events)
        except BaseException:
            # Nothing happened: the record, and the dice stream, are as they were before.
            table.restore_snapshot(saved)
            table.rng = FairRandom(bytes.fromhex(record.server_seed), record.client_seeds or [], counter)
            raise
        table.state, table.last = state, last
        table.events.extend(events)
        table.revision += 1
        for seat, action, _ in moves:
            kind = "timeout" if isinstance(action, Timeout) else "action"
            log_event(logger, kind, table=record.id, game=record.game, seat=seat, action=str(action), version=seq)
        if record.status == FINISHED:
            log_event(logger, "finished", table=record.id, game=record.game, result=record.result)
            table.bots.clear()  # a finished table is kept (KEEP_FINISHED) but has nothing left to decide
            self._evict()
        self.after_change(table)
        await self.publish(table, events)

    def _evict(self) -> None:
        """Forget the oldest finished tables nobody watches, beyond :data:`KEEP_FINISHED` (they stay stored)."""
        finished = [t for t in self.tables.values() if t.status == FINISHED]
        if len(finished) <= KEEP_FINISHED:
            return
        finished.sort(key=lambda t: t.record.created)
        for table in finished[: len(finished) - KEEP_FINISHED]:
            if not any(table.connections.values()) and (
                self.coordinator is None or not self.coordinator.owns(table.id)
            ):
                del self.tables[table.id]
                self.scheduler.set(table.id, None)

    # -- what falls due -----------------------------------------------------------------------------
    def after_change(self, table: Table) -> None:
        """Recompute when the bot moves and put the table's next due moment on the schedule."""
        seats = table.record.seats
        wants_bot = table.thinking is None and any(seats[s].kind == "bot" for s in table.to_act())
        if not wants_bot:
            table.bot_due = None
        elif leaving.bots_only(table):
            table.bot_due = self.now()  # CM-7: nobody is left to watch; no bot delays
        elif table.bot_due is None or table.bot_due < self.now():
            table.bot_due = self.now() + self.bot_delay
        owned = self.coordinator is None or self.coordinator.owns(table.id)
        due = [t for t in (table.due(), quotas.expires_at(table.record, self.waiting_ttl)) if t is not None]
        self.scheduler.set(table.id, min(due) if owned and due else None)

    async def tick(self, *, wait: bool = True) -> int:
        """Apply everything due by ``now()``: timeouts, time banks, bot moves, autofills; how many moves
        were applied. With ``wait`` (tests, ``Live.advance``) it also waits for the bots it set thinking and
        whatever they make due; the scheduler task does not (see the module docstring)."""
        applied = 0
        for _ in range(MAX_TICK_ROUNDS):
            due = [self.tables[key] for key in self.scheduler.pop_due(self.now()) if key in self.tables]
            if not due:
                if not (wait and self._thinking):
                    break
                for moved in await asyncio.gather(*self._thinking, return_exceptions=True):
                    applied += moved if isinstance(moved, int) else 0
                continue
            results = await asyncio.gather(*(self._process(t) for t in due), return_exceptions=True)
            for table, outcome in zip(due, results, strict=True):
                if isinstance(outcome, StorageUnavailable):
                    # Still due, but the database cannot take it (a full disk): try again in a while, not
                    # at once (which would spin this loop on a failing commit).
                    logger.warning("table %s: scheduled work waits for the database: %s", table.id, outcome)
                    self.scheduler.set(table.id, self.now() + STORAGE_RETRY)
                elif isinstance(outcome, BaseException):
                    logger.error("table %s: scheduled work failed: %r", table.id, outcome)
                    self.after_change(table)
                else:
                    applied += outcome
        return applied

    def start_scheduler(self) -> None:
        self.scheduler.start(lambda: self.tick(wait=False))

    async def _process(self, table: Table) -> int:
        async with table.lock:
            now = self.now()
            record = table.record
            try:
                if self.coordinator is not None and not self.coordinator.owns(table.id):
                    return 0  # the lease went elsewhere since this was scheduled
                expires = quotas.expires_at(record, self.waiting_ttl)
                if expires is not None and expires <= now:
                    return await quotas.expire(self, table)
                if record.status == WAITING and record.autofill is not None and record.autofill <= now:
                    return await self._autofill(table)
                if record.status != PLAYING:
                    return 0
                if record.deadline is not None and record.deadline <= now:
                    return await self._expired(table)
                if table.bot_due is not None and table.bot_due <= now and table.thinking is None:
                    self._start_bot(table)
                return 0
            except StaleWrite:
                # Another process changed the table first (a player's action, or a timeout it applied
                # while holding the lease): catch up; whatever is still due is scheduled again.
                await self.reload(table)
                return 0
            finally:
                if self.scheduler.scheduled(table.id) is None:
                    self.after_change(table)

    async def give_back(self, table: Table, since: float) -> bool:
        """Nobody timed this table from ``since`` until now (its timing process died): move its deadline
        on by that time (:func:`.clocks.unattended`), durably, for every process. Lock held. Whether it
        did; :class:`StaleWrite` if the table changed meanwhile (then its deadline is a fresh one)."""
        record = table.record
        extra = clocks.unattended(record, since, self.now())
        if extra <= 0 or record.deadline is None:
            return False
        saved = table.snapshot()
        record.deadline += extra
        record.remaining = record.deadline - self.now()
        try:
            await self.storage.save(record)
        except BaseException:
            table.restore_snapshot(saved)
            raise
        log_event(logger, "downtime given back", table=record.id, seconds=round(extra, 3), until=record.deadline)
        table.revision += 1
        self.after_change(table)
        await self.publish(table)
        return True

    async def _expired(self, table: Table) -> int:
        """A deadline passed: the acting seat's time bank if it has one to draw, else the engine's Timeout."""
        record = table.record
        to_act = table.to_act()
        saved = table.snapshot()
        if clocks.draw_bank(record, to_act):
            record.remaining = record.deadline - self.now() if record.deadline is not None else None
            try:
                await self.storage.save(record)
            except BaseException:
                table.restore_snapshot(saved)
                raise
            log_event(logger, "time bank", table=record.id, game=record.game, seat=to_act[0], until=record.deadline)
            table.revision += 1
            self.after_change(table)
            await self.publish(table)
            return 0
        for seat in to_act:
            log_event(logger, "clock expired", table=record.id, game=record.game, seat=seat)
        await self.commit(table, [(seat, Timeout(), leaving.timeout_id(table, seat)) for seat in to_act])
        return len(to_act) + await leaving.after_timeouts(self, table, to_act)

    async def _autofill(self, table: Table) -> int:
        record = table.record
        bot = catalog.autofill_bot(record.game)
        before, waited = list(record.seats), (record.autofill, record.lobby)
        filled = 0
        for seat, info in enumerate(record.seats):
            if info.kind == "open":
                record.seats[seat] = SeatRecord("bot", f"{bot} bot", bot)
                filled += 1
        record.autofill = record.lobby = None
        try:
            await self.storage.save(record)
        except BaseException:
            record.seats[:] = before
            record.autofill, record.lobby = waited
            raise
        log_event(logger, "autofilled", table=record.id, bots=filled)
        table.revision += 1
        if not await self.maybe_start(table):
            await self.publish(table)
        return filled

    # -- bots ---------------------------------------------------------------------------------------
    def _start_bot(self, table: Table) -> None:
        """Set the first bot to act thinking, as a task of its own (lock held)."""
        seats = table.record.seats
        seat = next(s for s in table.to_act() if seats[s].kind == "bot")
        state = table.state
        think = _thinker(table, seat, state.view(seat), state.legal_actions(seat), table.bot_rng)
        table.bot_due = None
        task = asyncio.create_task(self._bot_move(table, seat, table.version, think))
        table.thinking = task
        self._thinking.add(task)
        task.add_done_callback(self._thinking.discard)

    async def _bot_move(self, table: Table, seat: Seat, version: int, think: Callable[[], Awaitable[Any]]) -> int:
        """Let the bot think (no lock held), then commit its move if the table has not moved on meanwhile."""
        try:
            action = await think()
            async with table.lock:
                if table.version != version or table.status != PLAYING or seat not in table.to_act():
                    log_event(logger, "bot move dropped", table=table.id, seat=seat, version=version)
                    return 0
                try:
                    await self.commit(table, [(seat, action, None)])
                except StaleWrite:
                    await self.reload(table)
                    return 0
                return 1
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            logger.error("table %s: bot of seat %s failed: %r", table.id, seat, exc)
            return 0
        finally:
            table.thinking = None
            if table.status == FINISHED:
                table.bots.clear()  # a bot that was thinking when the game ended may have stored itself
            if table.id in self.tables:
                self.after_change(table)


def _thinker(table: Table, seat: Seat, *args: Any) -> Callable[[], Awaitable[Any]]:
    # In a thread: a strong bot may think for seconds, and creating one may load (or, on a cold cache, build)
    # its tables (the scorecard's optimal strategy, the PeekPoker equity tables): the event loop goes on.
    def think() -> Any:
        bot = table.bots.get(seat)
        if bot is None:
            bot = table.bots[seat] = create_bot(table.record.game, table.record.seats[seat].bot or "random")
        return bot.choose(*args)

    return lambda: asyncio.to_thread(think)
