"""What the table service keeps: table records and their event logs, behind a small protocol.

Two implementations: :class:`MemoryStorage` here (tests, throw-away servers) and the SQL one in
:mod:`.sql` (SQLite or PostgreSQL). A table's log is append-only; the table record beside it holds what
the log alone cannot give back: seats and tokens, the fairness seeds, the RNG counter and the clock.

**Optimistic concurrency** (several server processes on one database, issue 11). Every write of a table
record is conditional: it succeeds only if the stored record is still the one the writer read (its
``stamp``, the number of writes so far), the events it appends must not exist yet (the unique
(table, seq) key), and no other table may hold its ``lobby`` (the open play-now table of a game).
Otherwise the write changes nothing and raises :class:`StaleWrite`; the writer reloads the table and
tries again. One process alone never sees it.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from dicepoker.core.types import JSON, Seat
from dicepoker.server.errors import Unavailable


@dataclass(slots=True)
class SeatRecord:
    kind: str
    """``"open"``, ``"human"`` or ``"bot"``."""
    name: str | None = None
    bot: str | None = None
    token_hash: str | None = None
    """SHA-256 of the seat's token: the token itself is never stored."""
    client_seed: str | None = None
    bank: float | None = None
    """Seconds left in this seat's time bank (tables with a time bank only), beyond its current deadline."""

    def to_json(self) -> dict[str, JSON]:
        found: dict[str, JSON] = {
            "kind": self.kind,
            "name": self.name,
            "bot": self.bot,
            "token_hash": self.token_hash,
            "client_seed": self.client_seed,
        }
        if self.bank is not None:  # rows of tables without a time bank stay as they were
            found["bank"] = self.bank
        return found

    @classmethod
    def from_json(cls, data: dict[str, JSON]) -> SeatRecord:
        bank = data.get("bank")
        return cls(
            data["kind"],
            data.get("name"),
            data.get("bot"),
            data.get("token_hash"),
            data.get("client_seed"),
            float(bank) if isinstance(bank, (int, float)) else None,
        )


@dataclass(slots=True)
class TableRecord:
    """One table as stored. ``version`` is the number of events in its log."""

    id: str
    game: str
    config: dict[str, JSON]
    seats: list[SeatRecord]
    clock: float | None
    status: str
    commitment: str
    server_seed: str
    """Hex; revealed in the log only once the game is over."""
    created: float
    client_seeds: list[str] | None = None
    """Fixed when the table starts (sorted by seat); ``None`` while it waits."""
    rng_counter: int = 0
    version: int = 0
    deadline: float | None = None
    remaining: float | None = None
    """Time left on the current decision when this record was written: restored as the new clock."""
    autofill: float | None = None
    """When the open seats of a play-now table are given to bots."""
    result: dict[str, JSON] | None = None
    rematch: str | None = None
    rematch_of: str | None = None
    options: dict[str, JSON] = field(default_factory=dict)
    """Table options without a column of their own: ``play_now``; ``time_bank`` (seconds per seat) and
    ``banking`` (the seat whose current deadline already includes its time bank) at tables with a time bank."""
    stamp: int = 0
    """Writes of this record so far (0: never stored). A save expects the stored stamp to equal this one
    and, once durable, sets it one higher (see "Optimistic concurrency" above)."""
    lobby: str | None = None
    """The game whose open play-now table this is, while it waits; ``None`` otherwise. Unique among the
    stored tables, so that processes opening a play-now table at the same moment open one (the others'
    writes are stale, and they join it)."""


@dataclass(frozen=True, slots=True)
class EventRecord:
    seq: int
    """1-based position in the log (the table's version after this event)."""
    seat: Seat | None
    action: str
    client_id: str | None = None


class StaleWrite(Exception):
    """Another writer changed the table first (its stamp moved on, or an event of that seq exists)."""


class StorageUnavailable(Unavailable):
    """The database could not be written or read (disk full, connection lost, server restarting): nothing
    was written. The service passes it on as 503 / a WebSocket error frame (issue 19, items 8 and 10)."""


class Storage(Protocol):
    async def open(self) -> None:
        """Connect and bring the schema up to date."""

    async def close(self) -> None: ...

    async def save(self, table: TableRecord, events: Sequence[EventRecord] = ()) -> None:
        """Write the table record and append ``events`` in one transaction; returns once it is durable.
        Raises :class:`StaleWrite` (and writes nothing) if the stored stamp is not ``table.stamp`` or an
        event's seq is taken, and :class:`StorageUnavailable` if the database cannot be written; on success
        ``table.stamp`` is one higher."""

    async def load(self, table_id: str) -> tuple[TableRecord, list[EventRecord]] | None: ...

    async def unfinished(self) -> list[tuple[TableRecord, list[EventRecord]]]:
        """Every table still waiting or playing, with its log (what a restarted server restores)."""

    async def unfinished_ids(self) -> list[str]:
        """The ids of the tables still waiting or playing, oldest first (cheap: no logs)."""

    async def list_tables(
        self, *, game: str | None = None, status: str | None = None, limit: int = 100, offset: int = 0
    ) -> list[TableRecord]:
        """Tables of every status (the archive included), newest first (ties by id): a page of ``limit``."""

    async def lobby_table(self, game: str) -> TableRecord | None:
        """The table holding ``game``'s ``lobby`` slot (its open play-now table), if any."""


class MemoryStorage:
    """Storage in a dict: nothing survives the process. Records are copied in and out."""

    def __init__(self) -> None:
        self.tables: dict[str, TableRecord] = {}
        self.events: dict[str, list[EventRecord]] = {}
        self.saves = 0

    async def open(self) -> None:
        return None

    async def close(self) -> None:
        return None

    async def save(self, table: TableRecord, events: Sequence[EventRecord] = ()) -> None:
        stored = self.tables.get(table.id)
        if (0 if stored is None else stored.stamp) != table.stamp:
            raise StaleWrite(f"table {table.id} was changed by another writer")
        if table.lobby is not None and any(t.lobby == table.lobby and t.id != table.id for t in self.tables.values()):
            raise StaleWrite(f"another table is the open play-now table of {table.lobby}")
        log = self.events.setdefault(table.id, [])
        for offset, event in enumerate(events):
            if event.seq != len(log) + 1 + offset:
                raise StaleWrite(f"table {table.id}: event {event.seq} does not follow {len(log) + offset}")
        log.extend(events)
        table.stamp += 1
        self.tables[table.id] = copy.deepcopy(table)
        self.saves += 1

    async def load(self, table_id: str) -> tuple[TableRecord, list[EventRecord]] | None:
        if table_id not in self.tables:
            return None
        return copy.deepcopy(self.tables[table_id]), list(self.events.get(table_id, ()))

    async def unfinished(self) -> list[tuple[TableRecord, list[EventRecord]]]:
        return [
            (copy.deepcopy(t), list(self.events.get(t.id, ()))) for t in self.tables.values() if t.status != "finished"
        ]

    async def unfinished_ids(self) -> list[str]:
        found = sorted((t for t in self.tables.values() if t.status != "finished"), key=lambda t: t.created)
        return [t.id for t in found]

    async def list_tables(
        self, *, game: str | None = None, status: str | None = None, limit: int = 100, offset: int = 0
    ) -> list[TableRecord]:
        found = [
            t
            for t in self.tables.values()
            if (game is None or t.game == game) and (status is None or t.status == status)
        ]
        found.sort(key=lambda t: (t.created, t.id), reverse=True)
        return [copy.deepcopy(t) for t in found[offset : offset + limit]]

    async def lobby_table(self, game: str) -> TableRecord | None:
        found = next((t for t in self.tables.values() if t.lobby == game), None)
        return None if found is None else copy.deepcopy(found)
