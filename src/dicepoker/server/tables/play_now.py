"""Play now: seat every caller at a play-now table of their game, whatever the burst (issue 19 §2).

A game has at most one open play-now table at a time, whichever process opened it: the table holds the
game's ``lobby`` slot (unique in storage) until it starts (see :class:`~.storage.TableRecord`).

**One process** seats its play-now callers of a game one at a time (a lock per game): each finds the open
table and takes its first open seat, or, when there is none, opens the next table. So a burst is a queue
(fill the waiting table, then open the next) and no caller ever races another of the same process: before,
simultaneous callers took the same seat or opened tables at once, and most of a burst of six was answered
409 "busy".

**Several processes** race only through the database: the loser of a race for a seat is refused by its
optimistic write, the loser of a race to open a table by the lobby slot, and each looks again. Every lost
race means another process seated someone or opened a table, so a caller is refused only after
:data:`ROUNDS` such losses in a row.

**A stale slot never wedges play-now.** When no open table is known here, the table holding the slot is
read from the database, whatever the reason it is not in this process's memory (another process opened
it; a request cancelled during the write that opened it; a restart): it is joined if it waits with an open
seat, started if it waits full, and otherwise it lets the slot go.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING

from dicepoker.core.errors import DicePokerError
from dicepoker.core.types import JSON
from dicepoker.games.registry import game_class
from dicepoker.server.errors import Conflict, Invalid, NotFound, Rejected
from dicepoker.server.logs import log_event
from dicepoker.server.storage.records import StaleWrite, TableRecord
from dicepoker.server.tables import names
from dicepoker.server.tables.table import FINISHED, WAITING, Table, keyed_seat, keyed_token

if TYPE_CHECKING:
    from dicepoker.server.tables.service import TableService

ROUNDS = 64
"""Looks at the lobby one caller may take: each lost race is another process's progress."""


class PlayNow:
    """The play-now queue of one :class:`~.service.TableService` (see the module docstring)."""

    def __init__(self, service: TableService) -> None:
        self.service = service
        self._locks: dict[str, asyncio.Lock] = {}

    async def seat(
        self, game: str, name: str, client_seed: str | None = None, *, client_key: str | None = None
    ) -> dict[str, JSON]:
        """``{"id", "seat", "token"}`` at the oldest waiting play-now table of ``game``, or at a new one.
        With a ``client_key`` (see ``TableService.join``) a play-now sent again finds the seat it took,
        even once that table started."""
        from dicepoker.server.tables.service import logger

        try:
            game_class(game)  # before a lock is kept for it
        except DicePokerError as exc:
            raise Invalid(str(exc)) from None
        if client_key is not None:
            for record in await self._records(game):
                seat = keyed_seat(record, client_key)
                if seat is not None:
                    log_event(logger, "join repeated", table=record.id, seat=seat)
                    kept = record.seats[seat].name
                    return {
                        "id": record.id,
                        "seat": seat,
                        "token": keyed_token(client_key, record.id, seat),
                        "name": kept,
                        "mixed_scripts": names.mixed_scripts(kept),
                        "commitment": record.commitment,
                    }
        async with self._locks.setdefault(game, asyncio.Lock()):
            for _ in range(ROUNDS):
                table = await self._open_table(game)
                if table is None:
                    try:
                        created = await self.service.create_table(game, autofill=True)
                    except StaleWrite:
                        continue  # another process opened one just now: the next look finds it by its slot
                    table = await self.service._table(str(created["id"]))
                seated = await self._take_seat(table, name, client_seed, client_key)
                if seated is not None:
                    return {"id": table.id, **seated}
        raise Rejected("the play-now tables are busy: try again")

    async def _take_seat(
        self, table: Table, name: str, client_seed: str | None, client_key: str | None
    ) -> dict[str, JSON] | None:
        """Join ``table`` at its first open seat; ``None`` if another process was first (look again)."""
        seat = next((i for i, s in enumerate(table.record.seats) if s.kind == "open"), None)
        if seat is None or table.status != WAITING:
            return None
        try:
            return await self.service.join(table.id, seat, name, client_seed, client_key=client_key)
        except (Conflict, Rejected, NotFound):
            return None

    async def _records(self, game: str) -> list[TableRecord]:
        """The unfinished play-now tables of ``game`` (from the database in a cluster: a repeated
        play-now may reach another process than the first one)."""
        service = self.service
        if service.cluster is None:
            found = [t.record for t in service._tables.values() if t.record.game == game and t.status != FINISHED]
        else:
            found = []
            for status in ("waiting", "playing"):
                found += await service.storage.list_tables(game=game, status=status, limit=50)
        return [r for r in found if r.options.get("play_now")]

    async def _open_table(self, game: str) -> Table | None:
        """The oldest waiting play-now table of ``game`` with an open seat: one this process knows, else
        the one holding the game's slot in the database (see "A stale slot" above); ``None``: open one."""
        service = self.service
        if service.cluster is not None:  # the waiting tables of every process are in the database
            for record in reversed(await service.storage.list_tables(game=game, status=WAITING, limit=50)):
                if record.options.get("play_now") and any(s.kind == "open" for s in record.seats):
                    with contextlib.suppress(NotFound):
                        await service._table(record.id)
        known = sorted((t for t in service._tables.values() if _open(t, game)), key=lambda t: t.record.created)
        if known:
            return known[0]
        holder = await service.storage.lobby_table(game)
        if holder is None:
            return None
        try:
            table = await service._table(holder.id, fresh=True)
        except NotFound:
            return None
        async with table.lock:
            if _open(table, game):
                service.dealer.after_change(table)  # read back from the database: its autofill is timed here
                return table
            await self._release(table)
        return None

    async def _release(self, table: Table) -> None:
        """The slot's table cannot take a player: start it if it waits full, else let the slot go. Lock held."""
        record = table.record
        with contextlib.suppress(StaleWrite):  # another process changed it first: the next look sees how
            if record.status == WAITING:
                await self.service.dealer.maybe_start(table)  # full but never started (a crash between)
            elif record.lobby is not None:
                record.lobby = None
                try:
                    await self.service.storage.save(record)
                except BaseException:
                    record.lobby = table.record.game
                    raise
                from dicepoker.server.tables.service import logger

                log_event(logger, "lobby slot released", table=record.id, game=record.game, status=record.status)


def _open(table: Table, game: str) -> bool:
    record = table.record
    return (
        record.game == game
        and table.status == WAITING
        and bool(record.options.get("play_now"))
        and any(s.kind == "open" for s in record.seats)
    )
