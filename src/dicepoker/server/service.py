"""The table service: tables, seats, clocks and bots, with no transport inside (DESIGN "Server shape").

Every change to a table happens under that table's lock, in this order: check (auth, version, rules),
roll any dice due from the table's fairness RNG, commit to storage, and only then update the table in
memory and publish "table changed". So nothing is ever heard of before it is durable (accept = commit),
and a failed commit leaves the table as it was.

Time is data: each table holds the deadline of its current decision, the moment its bot should move and
the moment a play-now table is filled with bots. One scheduler task sleeps until the earliest of those
(a heap) and calls :meth:`TableService.tick`; tests inject ``now`` and call ``tick`` themselves.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import heapq
import itertools
import logging
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from dicepoker.bots.registry import create_bot
from dicepoker.core.errors import ConfigError, DicePokerError
from dicepoker.core.types import JSON, Action, Seat, Timeout
from dicepoker.games.registry import AnyGame, create
from dicepoker.server import catalog
from dicepoker.server.errors import Conflict, Invalid, NotFound, Rejected, Unauthorized
from dicepoker.server.fairness import FairRandom, commitment, new_server_seed
from dicepoker.server.logs import log_event
from dicepoker.server.pubsub import PubSub
from dicepoker.server.storage import EventRecord, SeatRecord, Storage, TableRecord
from dicepoker.server.table import FINISHED, PLAYING, WAITING, Last, Table, token_hash

DEFAULT = object()
"""``create_table(clock=DEFAULT)``: the game's CM-6 clock (``None`` means no clock)."""
MAX_CLOCK = 86_400.0
MAX_TICK_ROUNDS = 100_000
KEEP_FINISHED = 1000
"""Finished tables kept in memory; older ones are read back from the archive when asked for."""
logger = logging.getLogger("dicepoker.server.tables")


class Metrics(Protocol):
    """What the service reports; the app plugs Prometheus in."""

    def accepted(self, seconds: float) -> None: ...

    def rejected(self, kind: str) -> None: ...


class _NoMetrics:
    def accepted(self, seconds: float) -> None:
        return None

    def rejected(self, kind: str) -> None:
        return None


class TableService:
    """Tables of every registered game; see the module docstring. Public methods raise ``ServiceError``."""

    def __init__(
        self,
        storage: Storage,
        pubsub: PubSub,
        *,
        now: Callable[[], float] = time.time,
        autofill: float = 10.0,
        bot_delay: float = 0.5,
        metrics: Metrics | None = None,
    ) -> None:
        self.storage = storage
        self.pubsub = pubsub
        self.now = now
        self.autofill = autofill
        self.bot_delay = bot_delay
        self.metrics: Metrics = metrics or _NoMetrics()
        self._tables: dict[str, Table] = {}
        self._heap: list[tuple[float, int, str]] = []
        self._counter = itertools.count()
        self._wake = asyncio.Event()
        self._scheduler: asyncio.Task[None] | None = None

    # -- life cycle ---------------------------------------------------------------------------------
    async def start(self, *, scheduler: bool = True) -> None:
        """Restore every unfinished table from storage, then start the scheduler (unless told not to)."""
        for record, events in await self.storage.unfinished():
            table = self._restore(record, events)
            if record.status == PLAYING and record.remaining is not None:
                record.deadline = self.now() + record.remaining  # downtime is not charged (issue 9 §5)
            self._tables[record.id] = table
            log_event(logger, "restored", table=record.id, game=record.game, version=record.version)
            async with table.lock:
                # A crash between the last join and the start leaves a full table waiting: start it now.
                await self._maybe_start(table)
            self._after_change(table)
        if scheduler:
            self._scheduler = asyncio.create_task(self._run_scheduler(), name="dicepoker-scheduler")

    async def stop(self) -> None:
        if self._scheduler is not None:
            self._scheduler.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._scheduler
            self._scheduler = None

    def _restore(self, record: TableRecord, events: list[EventRecord]) -> Table:
        game = create(record.game, **record.config)
        state = game.initial_state()
        table = Table(record, game, state, list(events))
        for index, event in enumerate(events):
            before = state
            state = state.apply(game.parse_action(event.action), event.seat)
            if event.seat is not None:
                table.last = Last(event.seat, event.action, _simultaneous(before))
                if event.client_id is not None:
                    acked = index + 1
                    while acked < len(events) and events[acked].seat is None:
                        acked += 1  # the dice that followed belonged to the same commit
                    table.accepted[(event.seat, event.client_id)] = acked
        table.state = state
        if record.status == PLAYING:
            table.rng = FairRandom(bytes.fromhex(record.server_seed), record.client_seeds or [], record.rng_counter)
        return table

    # -- lookups ------------------------------------------------------------------------------------
    def games(self) -> list[dict[str, JSON]]:
        return catalog.games()

    async def _table(self, table_id: str) -> Table:
        table = self._tables.get(table_id)
        if table is not None:
            return table
        loaded = await self.storage.load(table_id) if len(table_id) <= 64 else None
        if loaded is None:
            raise NotFound(f"no table {table_id[:64]!r}")
        table = self._restore(*loaded)
        self._tables.setdefault(table_id, table)  # finished tables come back from the archive on demand
        return self._tables[table_id]

    async def summary(self, table_id: str) -> dict[str, JSON]:
        return (await self._table(table_id)).summary()

    async def list_tables(self, *, game: str | None = None, status: str | None = None) -> list[dict[str, JSON]]:
        """Tables held by this server (waiting, playing, and those finished since it started), newest first."""
        found = [
            t for t in self._tables.values() if (game is None or t.record.game == game) and (status in (None, t.status))
        ]
        found.sort(key=lambda t: t.record.created, reverse=True)
        return [t.summary() for t in found[:200]]

    def count_by_status(self) -> dict[str, int]:
        counts = {WAITING: 0, PLAYING: 0, FINISHED: 0}
        for table in self._tables.values():
            counts[table.status] += 1
        return counts

    async def log_text(self, table_id: str, *, history: bool = False) -> str:
        """The finished game's log (fairness header included) or, for the betting games, its hand history."""
        table = await self._table(table_id)
        if table.status != FINISHED:
            raise Conflict(f"table {table_id} is {table.status}: its log is published when the game is over")
        if not history:
            return table.log_text()
        from dicepoker.games.history import variant_names, write_history

        if table.record.game not in variant_names():
            raise NotFound(f"{table.record.game} has no hand history (only {', '.join(variant_names())})")
        return write_history(table.event_log())

    async def frame_text(self, table_id: str, seat: Seat | None) -> tuple[int, str]:
        """(revision, frame JSON) for ``seat`` (``None``: spectator)."""
        table = await self._table(table_id)
        return table.revision, table.frame_text(seat, self.now())

    async def authenticate(self, table_id: str, token: str | None) -> Seat | None:
        """The seat a token acts for; ``None`` (spectator) without a token; :class:`Unauthorized` if wrong."""
        table = await self._table(table_id)
        if token is None:
            return None
        seat = table.seat_of(token)
        if seat is None:
            raise Unauthorized("this token holds no seat at this table")
        return seat

    def revision(self, table_id: str) -> int:
        table = self._tables.get(table_id)
        return -1 if table is None else table.revision

    # -- connections --------------------------------------------------------------------------------
    async def connect(self, table_id: str, seat: Seat | None) -> None:
        table = await self._table(table_id)
        table.connections[seat] = table.connections.get(seat, 0) + 1
        table.revision += 1
        await self._publish(table)

    async def disconnect(self, table_id: str, seat: Seat | None) -> None:
        table = self._tables.get(table_id)
        if table is None:
            return
        table.connections[seat] = max(0, table.connections.get(seat, 0) - 1)
        table.revision += 1
        await self._publish(table)

    # -- tables -------------------------------------------------------------------------------------
    async def create_table(
        self,
        game: str,
        config: Mapping[str, Any] | None = None,
        seats: Sequence[str] | None = None,
        clock: float | object | None = DEFAULT,
        *,
        autofill: bool = False,
    ) -> dict[str, JSON]:
        """A new waiting table; 201 ``{"id", "commitment"}``. Bots take their seats at once."""
        table = self._new_table(game, config or {}, seats, clock)
        if autofill:
            table.record.autofill = self.now() + self.autofill
            table.record.options["play_now"] = True
        async with table.lock:
            self._tables[table.id] = table
            try:
                await self.storage.save(table.record)
            except BaseException:
                del self._tables[table.id]
                raise
            log_event(logger, "created", table=table.id, game=game, seats=[s.kind for s in table.record.seats])
            await self._maybe_start(table)
        return {"id": table.id, "commitment": table.record.commitment}

    def _new_table(self, game: str, config: Mapping[str, Any], seats: Sequence[str] | None, clock: object) -> Table:
        try:
            instance: AnyGame = create(game, **dict(config))
        except ConfigError as exc:
            raise Invalid(str(exc)) from None
        except (TypeError, ValueError) as exc:
            raise Invalid(f"{game}: bad config: {exc}") from None
        players = instance.num_players
        specs = list(seats) if seats is not None else ["open"] * players
        if len(specs) != players:
            raise Invalid(f"{game} with this config has {players} seats, got {len(specs)} seat(s)")
        records = []
        for spec in specs:
            kind, bot = catalog.parse_seat(game, spec)
            records.append(SeatRecord(kind, f"{bot} bot" if bot else None, bot))
        if clock is DEFAULT:
            seconds: float | None = catalog.clock_default(game)
        elif clock is None:
            seconds = None
        elif isinstance(clock, (int, float)) and not isinstance(clock, bool) and 0 < clock <= MAX_CLOCK:
            seconds = float(clock)
        else:
            raise Invalid(f"clock is a number of seconds above 0 and at most {MAX_CLOCK:g}, or null")
        seed = new_server_seed()
        record = TableRecord(
            id=secrets.token_hex(8),
            game=game,
            config=instance.config_json(),
            seats=records,
            clock=seconds,
            status=WAITING,
            commitment=commitment(seed),
            server_seed=seed.hex(),
            created=self.now(),
        )
        return Table(record, instance, instance.initial_state(), [])

    async def join(self, table_id: str, seat: int, name: str, client_seed: str | None = None) -> dict[str, JSON]:
        """Take an open seat: ``{"seat", "token"}``. The token (128 bits) is shown once and stored hashed."""
        table = await self._table(table_id)
        async with table.lock:
            seats = table.record.seats
            if not 0 <= seat < len(seats):
                raise NotFound(f"table {table_id} has seats 0 to {len(seats) - 1}, not {seat}")
            if table.status != WAITING or seats[seat].kind != "open":
                raise Conflict(f"seat {seat} is taken")
            token = secrets.token_hex(16)
            before = seats[seat]
            seats[seat] = SeatRecord("human", name, None, token_hash(token), client_seed)
            try:
                await self.storage.save(table.record)
            except BaseException:
                seats[seat] = before
                raise
            log_event(logger, "joined", table=table_id, seat=seat, name=name)
            table.revision += 1
            if not await self._maybe_start(table):
                self._after_change(table)
                await self._publish(table)
        return {"seat": seat, "token": token}

    async def play_now(self, game: str, name: str, client_seed: str | None = None) -> dict[str, JSON]:
        """Seat a person at the oldest waiting play-now table of ``game``, or at a new one."""
        candidates = sorted(
            (
                t
                for t in self._tables.values()
                if t.record.game == game
                and t.status == WAITING
                and t.record.options.get("play_now")
                and any(s.kind == "open" for s in t.record.seats)
            ),
            key=lambda t: t.record.created,
        )
        for table in candidates:
            seat = next((i for i, s in enumerate(table.record.seats) if s.kind == "open"), None)
            if seat is None:
                continue
            with contextlib.suppress(Conflict):
                joined = await self.join(table.id, seat, name, client_seed)
                return {"id": table.id, **joined}
        created = await self.create_table(game, autofill=True)
        joined = await self.join(str(created["id"]), 0, name, client_seed)
        return {"id": created["id"], **joined}

    async def rematch(self, table_id: str) -> dict[str, JSON]:
        """A new table with the same game, config, clock and seats (people keep their tokens)."""
        table = await self._table(table_id)
        async with table.lock:
            old = table.record
            if old.status != FINISHED:
                raise Conflict(f"table {table_id} is {old.status}: a rematch follows a finished game")
            if old.rematch is not None:
                found = await self._table(old.rematch)
                return {"id": found.id, "commitment": found.record.commitment}
            new = self._new_table(old.game, old.config, ["open"] * len(old.seats), old.clock)
            new.record.seats = [dataclasses.replace(s) for s in old.seats]
            new.record.rematch_of = old.id
            self._tables[new.id] = new
            async with new.lock:
                await self.storage.save(new.record)
                old.rematch = new.id
                await self.storage.save(old)
                log_event(logger, "rematch", table=table_id, rematch=new.id)
                table.revision += 1
                await self._publish(table)
                await self._maybe_start(new)
        return {"id": new.id, "commitment": new.record.commitment}

    async def _maybe_start(self, table: Table) -> bool:
        """Start a waiting table whose seats are all filled: fix the client seeds, then roll. Lock held."""
        record = table.record
        if record.status != WAITING or any(s.kind == "open" for s in record.seats):
            return False
        record.client_seeds = [s.client_seed for s in record.seats if s.client_seed is not None]
        record.status = PLAYING
        record.autofill = None
        table.rng = FairRandom(bytes.fromhex(record.server_seed), record.client_seeds, 0)
        log_event(logger, "started", table=record.id, game=record.game)
        try:
            await self._commit(table, [])
        except BaseException:
            record.status, record.client_seeds, table.rng = WAITING, None, None
            raise
        return True

    # -- actions ------------------------------------------------------------------------------------
    async def act(
        self, table_id: str, seat: Seat, text: str, *, version: int | None = None, client_id: str | None = None
    ) -> int:
        """Apply ``seat``'s action (text form); returns the table's version after it. Raises
        :class:`Rejected` with the reason and changes nothing. A client id already accepted is answered
        with the version its acceptance produced, and not applied again."""
        started = time.perf_counter()
        table = await self._table(table_id)
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
            await self._commit(table, [(seat, action, client_id)])
            if client_id is not None:
                table.accepted[(seat, client_id)] = table.version
            self.metrics.accepted(time.perf_counter() - started)
            return table.version

    async def _commit(self, table: Table, moves: Sequence[tuple[Seat, Action, str | None]]) -> None:
        """Apply checked moves, roll the dice that follow, commit, then update memory and publish."""
        record = table.record
        state, before_to_act = table.state, table.to_act()
        events: list[EventRecord] = []
        last = table.last
        seq = record.version
        for seat, action, client_id in moves:
            last = Last(seat, str(action), _simultaneous(state))
            state = state.apply(action, seat)
            seq += 1
            events.append(EventRecord(seq, seat, str(action), client_id))
        rng = table.rng
        assert rng is not None
        counter = rng.counter
        while state.is_chance:
            outcome = state.sample_chance(rng)
            state = state.apply(outcome)
            seq += 1
            events.append(EventRecord(seq, None, str(outcome)))
        saved = (record.version, record.rng_counter, record.status, record.result, record.deadline, record.remaining)
        now = self.now()
        record.version, record.rng_counter = seq, rng.counter
        if state.is_terminal:
            record.status, record.result = FINISHED, state.result().to_json()
        record.deadline = self._deadline(table, state, before_to_act, moves, now)
        record.remaining = None if record.deadline is None else record.deadline - now
        try:
            await self.storage.save(record, events)
        except BaseException:
            # Nothing happened: the record, and the dice stream, are as they were before.
            record.version, record.rng_counter, record.status, record.result, record.deadline, record.remaining = saved
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
            self._evict()
        self._after_change(table)
        await self._publish(table)

    def _deadline(
        self,
        table: Table,
        state: Any,
        before: tuple[Seat, ...],
        moves: Sequence[tuple[Seat, Action, str | None]],
        now: float,
    ) -> float | None:
        clock = table.record.clock
        if clock is None or state.is_terminal or table.record.status != PLAYING:
            return None
        after = tuple(state.to_act)
        previous = table.record.deadline
        simultaneous_rest = len(before) > 1 and set(after) < set(before) and all(s in before for s, _, _ in moves)
        if previous is not None and moves and simultaneous_rest:
            return previous  # the others of a simultaneous decision keep their clock
        return now + clock

    # -- the scheduler ------------------------------------------------------------------------------
    def _after_change(self, table: Table) -> None:
        """Recompute when the bot moves and put the table's next due moment on the heap."""
        to_act = table.to_act()
        seats = table.record.seats
        wants_bot = any(seats[s].kind == "bot" for s in to_act)
        if not wants_bot:
            table.bot_due = None
        elif table.bot_due is None or table.bot_due < self.now():
            table.bot_due = self.now() + self.bot_delay
        due = table.due()
        if due is not None and due != table.scheduled:
            heapq.heappush(self._heap, (due, next(self._counter), table.id))
            if self._heap[0][2] == table.id:
                self._wake.set()
        table.scheduled = due

    def _evict(self) -> None:
        """Forget the oldest finished tables nobody watches, beyond :data:`KEEP_FINISHED` (they stay stored)."""
        finished = [t for t in self._tables.values() if t.status == FINISHED]
        if len(finished) <= KEEP_FINISHED:
            return
        finished.sort(key=lambda t: t.record.created)
        for table in finished[: len(finished) - KEEP_FINISHED]:
            if not any(table.connections.values()):
                del self._tables[table.id]

    async def _publish(self, table: Table) -> None:
        await self.pubsub.publish(table.id, {"table": table.id, "revision": table.revision, "version": table.version})

    def next_due(self) -> float | None:
        """The earliest moment the scheduler must act (stale heap entries dropped)."""
        while self._heap:
            due, _, table_id = self._heap[0]
            table = self._tables.get(table_id)
            if table is not None and table.scheduled == due:
                return due
            heapq.heappop(self._heap)
        return None

    async def tick(self) -> int:
        """Apply everything due by ``now()``: timeouts, bot moves, autofills. Returns how many were applied."""
        applied = 0
        for _ in range(MAX_TICK_ROUNDS):
            now = self.now()
            due: list[Table] = []
            while (first := self.next_due()) is not None and first <= now:
                _, _, table_id = heapq.heappop(self._heap)
                table = self._tables[table_id]
                table.scheduled = None
                due.append(table)
            if not due:
                break
            results = await asyncio.gather(*(self._process(t) for t in due), return_exceptions=True)
            for table, outcome in zip(due, results, strict=True):
                if isinstance(outcome, BaseException):
                    logger.error("table %s: scheduled work failed: %r", table.id, outcome)
                    self._after_change(table)
                else:
                    applied += outcome
        return applied

    async def _process(self, table: Table) -> int:
        async with table.lock:
            now = self.now()
            record = table.record
            try:
                if record.status == WAITING and record.autofill is not None and record.autofill <= now:
                    return await self._autofill(table)
                if record.status != PLAYING:
                    return 0
                if record.deadline is not None and record.deadline <= now:
                    to_act = table.to_act()
                    for seat in to_act:
                        log_event(logger, "clock expired", table=record.id, game=record.game, seat=seat)
                    await self._commit(table, [(seat, Timeout(), None) for seat in to_act])
                    return len(to_act)
                if table.bot_due is not None and table.bot_due <= now:
                    return await self._bot_move(table)
                return 0
            finally:
                if table.scheduled is None:
                    self._after_change(table)

    async def _autofill(self, table: Table) -> int:
        record = table.record
        bot = catalog.autofill_bot(record.game)
        filled = 0
        for seat, info in enumerate(record.seats):
            if info.kind == "open":
                record.seats[seat] = SeatRecord("bot", f"{bot} bot", bot)
                filled += 1
        record.autofill = None
        await self.storage.save(record)
        log_event(logger, "autofilled", table=record.id, bots=filled)
        table.revision += 1
        if not await self._maybe_start(table):
            await self._publish(table)
        return filled

    async def _bot_move(self, table: Table) -> int:
        seats = table.record.seats
        seat = next(s for s in table.to_act() if seats[s].kind == "bot")
        bot = table.bots.get(seat)
        if bot is None:
            bot = table.bots[seat] = create_bot(table.record.game, seats[seat].bot or "random")
        state = table.state
        view, legal = state.view(seat), state.legal_actions(seat)
        # In a thread: a strong bot may think for a while, and the other tables must not wait for it.
        action = await asyncio.to_thread(bot.choose, view, legal, table.bot_rng)
        table.bot_due = None
        await self._commit(table, [(seat, action, None)])
        return 1

    async def _run_scheduler(self) -> None:
        while True:
            due = self.next_due()
            timeout = None if due is None else max(0.0, due - self.now())
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout)
            self._wake.clear()
            try:
                await self.tick()
            except Exception:
                logger.exception("scheduler tick failed")

    def poke(self) -> None:
        """Wake the scheduler (after a test moved the clock, or any change of due times)."""
        self._wake.set()


def _simultaneous(state: Any) -> bool:
    to_act = state.to_act
    return isinstance(to_act, tuple) and len(to_act) > 1
