"""The table service: finding, creating and seating tables, and who is connected (no transport inside).

What moves a game on (actions, dice, clocks, time banks, bots) is the :class:`~.dealer.Dealer`'s; this
module is the lobby side of a table (DESIGN "Server shape"), and the one object the app talks to.

**Presence.** A person's WebSocket (dis)connecting changes only their seat's ``connected``. That is not a
new state: the table's revision stays, and the subscribers get ``{"presence": n}`` on the bus, on which each
connection sends the small frame ``{"type": "presence", "table", "seats"}`` (``seats`` as in a state
frame) rather than the whole state again. Only a change of a seat's ``connected`` is announced: a second
connection of the same seat, and spectators coming and going (their count is in the summary), announce
nothing, so a crowd of spectators reconnecting costs nothing but their own first frames.

**Several processes** (issue 11). With a coordinator (:class:`~.cluster.Cluster`, Redis) the service
does not restore every table at start: the coordinator hands it the tables whose lease it takes
(:meth:`TableService.adopt`). A table this process does not follow (no lease, no local connection) is
read back from the database whenever it is asked for, so nothing answered here is older than the record;
joins and rematches are optimistic like actions (see :mod:`.dealer`), and presence is counted in Redis.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import logging
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from dicepoker.core.errors import ConfigError
from dicepoker.core.types import JSON, Seat
from dicepoker.games.registry import AnyGame, create
from dicepoker.server.errors import Conflict, Invalid, NotFound, Rejected, Unauthorized
from dicepoker.server.logs import log_event
from dicepoker.server.storage.records import SeatRecord, StaleWrite, Storage, TableRecord
from dicepoker.server.tables import catalog, names, quotas
from dicepoker.server.tables.clocks import time_bank
from dicepoker.server.tables.dealer import RETRIES, Coordinator, Dealer, Metrics, NoMetrics
from dicepoker.server.tables.fairness import commitment, new_server_seed
from dicepoker.server.tables.play_now import PlayNow
from dicepoker.server.tables.pubsub import PubSub
from dicepoker.server.tables.replica import absorb
from dicepoker.server.tables.table import (
    FINISHED,
    PLAYING,
    WAITING,
    Table,
    keyed_token,
    summary,
    token_hash,
)

DEFAULT = object()
"""``create_table(clock=DEFAULT)``: the game's CM-6 clock (``None`` means no clock)."""
MAX_CLOCK = 86_400.0
MAX_PAGE = 200
"""Most tables one ``GET /api/tables`` lists."""
logger = logging.getLogger("dicepoker.server.tables")


class Cluster(Coordinator, Protocol):
    """The coordination of several server processes, as the service uses it (see :mod:`.cluster`)."""

    async def start(self, service: TableService) -> None: ...

    async def stop(self) -> None: ...

    def tracks(self, table_id: str) -> bool:
        """Whether this process hears of every change of the table (so its copy is current)."""

    async def created(self, table: Table) -> None:
        """A table was created here: take its lease."""

    async def connection(self, table: Table, seat: Seat | None, delta: int) -> bool:
        """A local connection came (+1) or went (-1): count it cluster-wide in ``table.connections``;
        whether a seat's ``connected`` changed."""


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
        waiting_ttl: float | None = None,
        max_open_tables: int | None = None,
    ) -> None:
        """``waiting_ttl``, ``max_open_tables``: see :mod:`.quotas` (``None``: no limit)."""
        self.storage = storage
        self.pubsub = pubsub
        self.now = now
        self.autofill = autofill
        self._tables: dict[str, Table] = {}
        self.dealer = Dealer(
            self._tables, storage, pubsub, now=now, bot_delay=bot_delay, metrics=metrics or NoMetrics()
        )
        self.cluster: Cluster | None = None
        self.lobby = PlayNow(self)
        self.dealer.waiting_ttl = waiting_ttl
        self.open_tables = quotas.OpenTables(max_open_tables)

    def use(self, cluster: Cluster) -> None:
        """Share the tables with other processes through ``cluster`` (before :meth:`start`)."""
        self.cluster = cluster
        self.dealer.coordinator = cluster

    # -- life cycle ---------------------------------------------------------------------------------
    async def start(self, *, scheduler: bool = True) -> None:
        """Restore every unfinished table from storage, then start the scheduler (unless told not to).
        In a cluster, the coordinator starts instead and hands over the tables this process leases."""
        if self.cluster is not None:
            await self.cluster.start(self)
        unfinished = await self.storage.unfinished() if self.cluster is None else []
        expired = await quotas.close_expired_at_start(
            self.storage, (r for r, _ in unfinished), self.dealer.waiting_ttl, self.now()
        )
        for record, events in unfinished:
            if record.id in expired:
                continue  # nobody came while it waited: closed, not restored
            table = Table.restore(record, events)
            if record.status == PLAYING and record.remaining is not None:
                record.deadline = self.now() + record.remaining  # downtime is not charged (issue 9 §5)
            self._tables[record.id] = table
            log_event(logger, "restored", table=record.id, game=record.game, version=record.version)
            async with table.lock:
                # A crash between the last join and the start leaves a full table waiting: start it now.
                await self.dealer.maybe_start(table)
            self.dealer.after_change(table)
        if scheduler:
            self.dealer.start_scheduler()

    async def stop(self) -> None:
        if self.cluster is not None:
            await self.cluster.stop()  # first: the leases go, and other processes take the tables over
        await self.dealer.stop()

    async def adopt(self, table_id: str, unattended_since: float | None = None) -> None:
        """This process now times ``table_id`` (the coordinator took its lease): catch up with the
        database, start it if it is full (a crash between the last join and the start), give the turn back
        the time nobody timed it (since ``unattended_since``: when its last timer was last seen alive, if
        known), schedule it."""
        table = await self._table(table_id, fresh=True)
        async with table.lock:
            with contextlib.suppress(StaleWrite):
                await self.dealer.maybe_start(table)
            if unattended_since is not None:
                try:
                    await self.dealer.give_back(table, unattended_since)
                except StaleWrite:
                    await self.dealer.reload(table)  # someone acted meanwhile: a fresh deadline, nothing owed
            self.dealer.after_change(table)

    # -- acting and time (the dealer's) -------------------------------------------------------------
    async def act(
        self, table_id: str, seat: Seat, text: str, *, version: int | None = None, client_id: str | None = None
    ) -> int:
        """Apply ``seat``'s action (text form); returns the table's version after it. Raises
        :class:`Rejected` with the reason and changes nothing. A client id already accepted is answered
        with the version its acceptance produced, and not applied again."""
        return await self.dealer.act(await self._table(table_id), seat, text, version=version, client_id=client_id)

    async def tick(self) -> int:
        """Apply everything due by ``now()`` and wait for the bots it set thinking (tests: see Dealer.tick)."""
        return await self.dealer.tick()

    def next_due(self) -> float | None:
        return self.dealer.scheduler.next_due()

    def poke(self) -> None:
        """Wake the scheduler (after a test moved the clock, or any change of due times)."""
        self.dealer.scheduler.poke()

    # -- lookups ------------------------------------------------------------------------------------
    def games(self) -> list[dict[str, JSON]]:
        return catalog.games()

    async def _table(self, table_id: str, *, fresh: bool = False) -> Table:
        """The table (loaded from the database if needed). In a cluster, a table this process does not
        follow, or any table when ``fresh``, is brought up to date with the database first."""
        table = self._tables.get(table_id)
        stale = self.cluster is not None and (fresh or not self.cluster.tracks(table_id))
        if table is not None and not stale:
            return table
        loaded = await self.storage.load(table_id) if len(table_id) <= 64 else None
        if loaded is None:
            raise NotFound(f"no table {table_id[:64]!r}")
        if table is not None:
            async with table.lock:
                if absorb(table, *loaded):
                    self.dealer.after_change(table)
            return table
        table = Table.restore(*loaded)
        self._tables.setdefault(table_id, table)  # finished tables come back from the archive on demand
        return self._tables[table_id]

    async def summary(self, table_id: str) -> dict[str, JSON]:
        return (await self._table(table_id)).summary()

    async def list_tables(
        self, *, game: str | None = None, status: str | None = None, limit: int = 100, offset: int = 0
    ) -> dict[str, JSON]:
        """A page of every table, the archive included, newest first: ``{"tables", "limit", "offset",
        "next"}``, ``next`` being the offset of the next page or ``None`` after the last one."""
        if not 1 <= limit <= MAX_PAGE or offset < 0:
            raise Invalid(f"limit is 1 to {MAX_PAGE} and offset 0 or more")
        records = await self.storage.list_tables(game=game, status=status, limit=limit + 1, offset=offset)
        page: list[JSON] = []
        for record in records[:limit]:
            table = self._tables.get(record.id)  # live: connections, and a change not yet on the page's read
            page.append(table.summary() if table is not None else summary(record))
        more = len(records) > limit
        return {"tables": page, "limit": limit, "offset": offset, "next": offset + limit if more else None}

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
        # Under the lock: a commit updates the record before its write is durable, and a frame built
        # meanwhile would mix the new version with the old state (and show what is not yet accepted).
        async with table.lock:
            return table.revision, table.frame_text(seat, self.now())

    async def presence_frame(self, table_id: str) -> dict[str, JSON]:
        return (await self._table(table_id)).presence_frame()

    async def authenticate(self, table_id: str, token: str | None) -> Seat | None:
        """The seat a token acts for; ``None`` (spectator) without a token; :class:`Unauthorized` if wrong."""
        table = await self._table(table_id)
        if token is None:
            return None
        seat = table.seat_of(token)
        if seat is None and self.cluster is not None:
            table = await self._table(table_id, fresh=True)  # joined through another process just now?
            seat = table.seat_of(token)
        if seat is None:
            raise Unauthorized("this token holds no seat at this table")
        return seat

    def revision(self, table_id: str) -> int:
        table = self._tables.get(table_id)
        return -1 if table is None else table.revision

    # -- connections (see "Presence" in the module docstring) ---------------------------------------
    async def connect(self, table_id: str, seat: Seat | None) -> None:
        table = await self._table(table_id)
        if self.cluster is not None:
            if await self.cluster.connection(table, seat, +1):
                await self._presence(table)
            return
        table.connections[seat] = table.connections.get(seat, 0) + 1
        if seat is not None and table.connections[seat] == 1:
            await self._presence(table)

    async def disconnect(self, table_id: str, seat: Seat | None) -> None:
        table = self._tables.get(table_id)
        if table is None:
            return
        if self.cluster is not None:
            if await self.cluster.connection(table, seat, -1):
                await self._presence(table)
            return
        table.connections[seat] = max(0, table.connections.get(seat, 0) - 1)
        if seat is not None and table.connections[seat] == 0:
            await self._presence(table)

    async def _presence(self, table: Table) -> None:
        table.presence += 1
        await self.dealer.publish(table, presence=table.presence)

    # -- tables -------------------------------------------------------------------------------------
    async def create_table(
        self,
        game: str,
        config: Mapping[str, Any] | None = None,
        seats: Sequence[str] | None = None,
        clock: float | object | None = DEFAULT,
        *,
        time_bank: float | None = None,
        autofill: bool = False,
        owner: str | None = None,
    ) -> dict[str, JSON]:
        """A new waiting table; 201 ``{"id", "commitment"}``. Bots take their seats at once.
        ``time_bank``: seconds per seat for the betting games (see :mod:`.clocks`). ``owner``: the client
        address that asked, whose unfinished tables are capped (:mod:`.quotas`)."""
        self.open_tables.check(owner, self._tables)
        table = self._new_table(game, config or {}, seats, clock, time_bank)
        if autofill:
            table.record.autofill = self.now() + self.autofill
            table.record.options["play_now"] = True
            table.record.lobby = game  # StaleWrite if another table is already the open one of this game
        async with table.lock:
            self._tables[table.id] = table
            try:
                await self.storage.save(table.record)
            except BaseException:
                del self._tables[table.id]
                raise
            self.open_tables.add(owner, table.id)
            log_event(logger, "created", table=table.id, game=game, seats=[s.kind for s in table.record.seats])
            if self.cluster is not None:
                await self.cluster.created(table)  # its lease: this process times it
            if not await self.dealer.maybe_start(table):
                self.dealer.after_change(table)  # a waiting table's expiry (and autofill) is timed from now
        return {"id": table.id, "commitment": table.record.commitment}

    def _new_table(
        self, game: str, config: Mapping[str, Any], seats: Sequence[str] | None, clock: object, bank: float | None
    ) -> Table:
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
        options: dict[str, JSON] = {}
        if bank is not None:
            if game not in catalog.TIME_BANK_GAMES:
                betting = ", ".join(catalog.TIME_BANK_GAMES)
                raise Invalid(f"a time bank is for the betting games ({betting}), not {game}")
            if seconds is None:
                raise Invalid("a time bank needs a clock")
            if isinstance(bank, bool) or not 0 < bank <= MAX_CLOCK:
                raise Invalid(f"time_bank is a number of seconds above 0 and at most {MAX_CLOCK:g}, or null")
            options["time_bank"] = bank
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
            options=options,
        )
        return Table(record, instance, instance.initial_state(), [])

    async def join(
        self, table_id: str, seat: int, name: str, client_seed: str | None = None, *, client_key: str | None = None
    ) -> dict[str, JSON]:
        """Take an open seat: ``{"seat", "token", "commitment"}``. The token (128 bits) is shown once and stored
        hashed; the commitment is the table's (issue 19 §9: players keep it to verify the dice against).
        With a ``client_key`` the token is derived from it (:func:`~.table.keyed_token`), and the same join
        sent again, its answer lost, is answered again: the same seat and token, not 409.
        The name is checked and normalised (:mod:`.names`): a bad one is :class:`Invalid`, and the answer
        says ``"name"`` as kept and whether it ``"mixed_scripts"``."""
        checked = _checked_name(name)
        table = await self._table(table_id)
        for _ in range(RETRIES):
            try:
                joined = await self._join(table, seat, checked.text, client_seed, client_key)
                return {**joined, "name": checked.text, "mixed_scripts": checked.mixed_scripts}
            except StaleWrite:
                await self.dealer.refresh(table)  # another process changed the table: look again
        raise Rejected("the table is busy: try again")

    async def _join(
        self, table: Table, seat: int, name: str, client_seed: str | None, client_key: str | None
    ) -> dict[str, JSON]:
        table_id = table.id
        async with table.lock:
            seats = table.record.seats
            if not 0 <= seat < len(seats):
                raise NotFound(f"table {table_id} has seats 0 to {len(seats) - 1}, not {seat}")
            token = secrets.token_hex(16) if client_key is None else keyed_token(client_key, table_id, seat)
            if client_key is not None and seats[seat].token_hash == token_hash(token):
                log_event(logger, "join repeated", table=table_id, seat=seat)
                return {"seat": seat, "token": token, "commitment": table.record.commitment}  # sent again
            if table.status != WAITING or seats[seat].kind != "open":
                raise Conflict(f"seat {seat + 1} is taken")
            before = seats[seat]
            seats[seat] = SeatRecord("human", name, None, token_hash(token), client_seed)
            try:
                # The last seat taken starts the game in the same write: no moment is stored in which
                # the table is full but waiting (another process could not tell whose seat it was).
                started = await self.dealer.maybe_start(table)
                if not started:
                    await self.storage.save(table.record)
            except BaseException:
                seats[seat] = before
                raise
            log_event(logger, "joined", table=table_id, seat=seat, name=name)
            table.revision += 1
            if not started:
                self.dealer.after_change(table)
                await self.dealer.publish(table)
        # The commitment again (issue 19 §9): a player who joins keeps the one published before any die.
        return {"seat": seat, "token": token, "commitment": table.record.commitment}

    async def play_now(
        self, game: str, name: str, client_seed: str | None = None, *, client_key: str | None = None
    ) -> dict[str, JSON]:
        """Seat a person at the oldest waiting play-now table of ``game``, or at a new one: every caller,
        whatever the burst, on one process or several (see :mod:`.play_now`)."""
        _checked_name(name)  # before any table is opened for a name that is refused
        return await self.lobby.seat(game, name, client_seed, client_key=client_key)

    async def rematch(self, table_id: str) -> dict[str, JSON]:
        """A new table with the same game, config, clock and seats (people keep their tokens)."""
        # Fresh: the asker may have seen the end from another process before this one heard of it, and
        # "is it finished?" is checked here, not by the write (as a join's seat is).
        table = await self._table(table_id, fresh=True)
        for _ in range(RETRIES):
            try:
                return await self._rematch(table)
            except StaleWrite:
                await self.dealer.refresh(table)
        raise Rejected("the table is busy: try again")

    async def _rematch(self, table: Table) -> dict[str, JSON]:
        table_id = table.id
        async with table.lock:
            old = table.record
            if old.status != FINISHED:
                raise Conflict(f"table {table_id} is {old.status}: a rematch follows a finished game")
            if old.rematch is None:
                # The old table names its rematch first: of two processes asked at once, one wins (the
                # other retries and finds it), and no full table that nobody asked for is ever stored.
                old.rematch = rematch_id(old.id)
                try:
                    await self.storage.save(old)
                except BaseException:
                    old.rematch = None
                    raise
                log_event(logger, "rematch", table=table_id, rematch=old.rematch)
                table.revision += 1
                await self.dealer.publish(table)
            with contextlib.suppress(NotFound):
                found = await self._table(old.rematch)
                return {"id": found.id, "commitment": found.record.commitment}
            # Named but not stored: the process that named it died (or failed) before its second write.
            # The id is fixed, so whoever gets here stores the same table; of two at once, one insert wins
            # and the other's StaleWrite makes it look again and find that one.
            new = self._new_table(old.game, old.config, ["open"] * len(old.seats), old.clock, time_bank(old))
            new.record.id = old.rematch
            new.record.seats = [dataclasses.replace(s, bank=None) for s in old.seats]
            new.record.rematch_of = old.id
            async with new.lock:
                await self.storage.save(new.record)
                self._tables[new.id] = new
                if self.cluster is not None:
                    await self.cluster.created(new)
                await self.dealer.maybe_start(new)
        return {"id": new.id, "commitment": new.record.commitment}


def _checked_name(name: str) -> names.CheckedName:
    try:
        return names.check_name(name)
    except names.BadName as exc:
        raise Invalid(f"name: {exc}") from None


def rematch_id(table_id: str) -> str:
    """The id of ``table_id``'s rematch, fixed in advance (so an interrupted rematch is completed the same
    way by whoever asks next, whichever process that is)."""
    return hashlib.sha256(f"rematch:{table_id}".encode()).hexdigest()[:16]
