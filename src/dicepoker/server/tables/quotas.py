"""What one client may cost, and how long a table may wait for players (issue 19 §1 and §7).

**Open tables per client address.** ``POST /api/tables`` records the address that asked (as the app sees
it: behind a proxy, the forwarded one). While that address has ``max_open_tables`` tables here that are
not finished, its next one is refused with 429. Tables whose seats are all bots count like any other, so
the bots one client keeps thinking are bounded too (each table's bots share one strategy per process, see
:mod:`dicepoker.bots.scorecard`, and a finished table keeps none). The count is this process's (kept in
memory, started afresh by a restart); in a cluster each process counts its own, and the rate limit, shared
through Redis, bounds the total.

**Waiting tables expire.** A table still waiting ``waiting_ttl`` seconds after it was created (nobody
came to fill it) is closed: finished with no winner and the reason below, its ``lobby`` slot let go, its
frame sent to whoever watches. An expired table is never restored at start; tables that expired while the
server was down are closed at start without being loaded into memory.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from dicepoker.core.types import JSON
from dicepoker.server.errors import ServiceError
from dicepoker.server.logs import log_event
from dicepoker.server.storage.records import Storage, TableRecord
from dicepoker.server.tables.table import FINISHED, WAITING, Table

if TYPE_CHECKING:
    from dicepoker.server.tables.dealer import Dealer

logger = logging.getLogger("dicepoker.server.tables")
START_BATCH = 500
"""Expired tables closed at once at start (their writes share group commits)."""


class TooManyTables(ServiceError):
    """The client already has its allowed number of unfinished tables (HTTP 429)."""

    status = 429


class OpenTables:
    """The unfinished tables each client address created in this process, capped at ``limit``."""

    def __init__(self, limit: int | None) -> None:
        self.limit = limit
        self._by_owner: dict[str, set[str]] = {}

    def check(self, owner: str | None, tables: Mapping[str, Table]) -> None:
        """Raise :class:`TooManyTables` if ``owner`` may not open another table now."""
        if owner is None or self.limit is None:
            return
        owned = self._by_owner.get(owner)
        if owned is None:
            return
        owned.intersection_update(i for i in owned if i in tables and tables[i].status != FINISHED)
        if not owned:
            del self._by_owner[owner]
        elif len(owned) >= self.limit:
            raise TooManyTables(
                f"at most {self.limit} unfinished tables per client: finish or leave one before opening another"
            )

    def add(self, owner: str | None, table_id: str) -> None:
        if owner is not None and self.limit is not None:
            self._by_owner.setdefault(owner, set()).add(table_id)


def expires_at(record: TableRecord, waiting_ttl: float | None) -> float | None:
    """When a waiting table expires (``None``: it does not wait, or tables never expire)."""
    if waiting_ttl is None or record.status != WAITING:
        return None
    return record.created + waiting_ttl


def expired_result(waiting_ttl: float) -> dict[str, JSON]:
    """The result of an expired table: the shape of a game's result, nobody winning."""
    minutes = max(1, round(waiting_ttl / 60))
    return {"winners": [], "scores": [], "reason": f"expired: nobody came within {minutes} min", "expired": True}


def _close(record: TableRecord, waiting_ttl: float) -> None:
    record.status, record.result = FINISHED, expired_result(waiting_ttl)
    record.lobby = record.autofill = record.deadline = record.remaining = None


async def expire(dealer: Dealer, table: Table) -> int:
    """Close a waiting table whose time is up (lock held); 0 moves applied."""
    record = table.record
    assert dealer.waiting_ttl is not None
    saved, waited = table.snapshot(), (record.lobby, record.autofill)
    _close(record, dealer.waiting_ttl)
    try:
        await dealer.storage.save(record)
    except BaseException:
        table.restore_snapshot(saved)
        record.lobby, record.autofill = waited
        raise
    log_event(logger, "expired", table=record.id, game=record.game, waited=round(dealer.now() - record.created))
    table.revision += 1
    table.bots.clear()
    dealer.after_change(table)
    await dealer.publish(table)
    return 0


async def close_expired_at_start(
    storage: Storage, records: Iterable[TableRecord], waiting_ttl: float | None, now: float
) -> set[str]:
    """Close the waiting tables among ``records`` that expired while the server was down; their ids."""
    due = [r for r in records if (at := expires_at(r, waiting_ttl)) is not None and at <= now]
    if not due or waiting_ttl is None:
        return set()
    for record in due:
        _close(record, waiting_ttl)
    for start in range(0, len(due), START_BATCH):
        await asyncio.gather(*(storage.save(r) for r in due[start : start + START_BATCH]))
    log_event(logger, "expired at start", tables=len(due))
    return {r.id for r in due}
