"""Leaving a table (CM-7): leaving is resigning (CM-5), by asking, or by being away while the clock runs out.

Three ways out, one action. Whichever way a seat leaves, the table's log gets that seat's ``resign``,
applied by the dealer like any action (checked, committed, then published: accept = commit), so every
client hears of it the way it hears of a move (``"last": {"seat": 0, "action": "resign"}``).

- **Asking**: ``POST /api/tables/{id}/leave`` with the seat's token (:func:`leave`), or the WebSocket
  action ``resign``. A seat that has left already, whichever way, is answered from its resignation in
  the log (:func:`resignation_version`): leaving again gives the same answer, not an error. Two leaves
  at once: the dealer's lock orders them, the second finds the seat resigned and is answered likewise.
- **Being away**: a seat whose decision times out while none of its connections is open gets that
  timeout logged with the action id :data:`AWAY` (:func:`timeout_id`); when its previous decision was
  such a timeout too (two in a row, nothing of its own in between), the dealer resigns it
  (:func:`after_timeouts`). A connected player who times out is only slow, and never leaves this way.
  The mark is in the log, so it holds across restarts and whichever process times the table.
- **Nobody left**: once every person at a table has left and bots are still in play, the table is
  :func:`bots_only`: the dealer gives it no clock and its bots no delay, so the scheduler plays it to the
  end at once (one move per commit, as always), and its log is published the moment it ends.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from dicepoker.core.state import State
from dicepoker.core.types import JSON, Resign, Seat, Timeout
from dicepoker.server.errors import Conflict, Rejected, Unauthorized
from dicepoker.server.logs import log_event
from dicepoker.server.storage.records import TableRecord
from dicepoker.server.tables.table import PLAYING, WAITING, Table

if TYPE_CHECKING:
    from dicepoker.server.tables.dealer import Dealer
    from dicepoker.server.tables.service import TableService

AWAY_TIMEOUTS = 2
"""CM-7: timed-out decisions in a row, while not connected, that count as leaving."""
AWAY = "cm7:away"
"""The action id of a timeout applied while its seat had no connection open. In the log, so the count
survives restarts and moves between processes; a client may not send a timeout, so none can forge one."""
logger = logging.getLogger("dicepoker.server.tables")


def people(record: TableRecord) -> list[Seat]:
    """The seats people hold (bots and open seats are not people)."""
    return [seat for seat, info in enumerate(record.seats) if info.kind == "human"]


def has_left(table: Table, seat: Seat) -> bool:
    """Whether ``seat`` is out of the game (it resigned, or the game is over)."""
    return not table.state.is_legal(Resign(), seat)


def bots_only(table: Table) -> bool:
    """CM-7: a playing table at which people sat and every one of them has left, bots still in play."""
    return bots_only_after(table.record, table.state)


def bots_only_after(record: TableRecord, state: State) -> bool:
    """:func:`bots_only` for ``state``, before it is the table's (a commit decides the clock with it)."""
    seated = people(record)
    return (
        record.status == PLAYING
        and not state.is_terminal
        and bool(seated)
        and not any(state.is_legal(Resign(), seat) for seat in seated)
    )


def resignation_version(table: Table, seat: Seat) -> int | None:
    """The table's version right after ``seat``'s resignation was committed (with the dice that followed
    it, as an ack counts), or ``None`` if the seat never resigned."""
    events = table.events
    for index, event in enumerate(events):
        if event.seat == seat and event.action == Resign.keyword:
            after = index + 1
            while after < len(events) and events[after].seat is None:
                after += 1
            return events[after - 1].seq if after else None
    return None


async def leave(service: TableService, table_id: str, token: str | None) -> dict[str, JSON]:
    """``POST /api/tables/{id}/leave``: resign the seat ``token`` holds; ``{"table", "seat", "version",
    "status"}``, ``version`` being the table's version right after the resignation. Raises NotFound (no
    such table), Unauthorized (no token, or one that holds no seat here) or Conflict (the table has not
    started, or the game ended with the seat still in it); a seat that already left is answered again."""
    if not token:
        raise Unauthorized("leaving needs the seat's token")
    seat = await service.authenticate(table_id, token)
    if seat is None:
        raise Unauthorized("leaving needs the seat's token")
    table = await service._table(table_id)
    if table.status == WAITING:
        raise Conflict(f"table {table_id} has not started: there is no game to leave yet")
    version = resignation_version(table, seat)
    if version is None and table.status == PLAYING and not has_left(table, seat):
        try:
            version = await service.act(table_id, seat, Resign.keyword)
        except Rejected:
            # Another request (a timeout, the other seat's last move, a second leave) came first: look again.
            version = resignation_version(table, seat)
            if version is None and not has_left(table, seat):
                raise
    if version is None and table.status == PLAYING:
        raise Conflict(f"seat {seat} is out of the game at table {table_id} already: there is nothing to leave")
    if version is None:
        raise Conflict(f"the game at table {table_id} is over: seat {seat} played it to the end")
    log_event(logger, "left", table=table_id, seat=seat, version=version)
    return {"table": table_id, "seat": seat, "version": version, "status": table.status}


def timeout_id(table: Table, seat: Seat) -> str | None:
    """The action id the dealer logs a timeout of ``seat`` with: :data:`AWAY` if none of its connections
    is open now, else none."""
    return None if table.connections.get(seat, 0) > 0 else AWAY


async def after_timeouts(dealer: Dealer, table: Table, seats: tuple[Seat, ...]) -> int:
    """CM-7, after the dealer committed timeouts for ``seats`` (table lock held): resign each seat whose
    last two decisions both timed out while it was away (nothing of its own in between); how many left."""
    left = 0
    for seat in seats:
        own = [e for e in table.events if e.seat == seat][-AWAY_TIMEOUTS:]
        away = len(own) == AWAY_TIMEOUTS and all(e.action == Timeout.keyword and e.client_id == AWAY for e in own)
        # One commit each: the first resignation may end the game (CM-5), and then nobody else leaves.
        if away and table.status == PLAYING and not has_left(table, seat):
            log_event(logger, "left while away", table=table.id, seat=seat, timeouts=AWAY_TIMEOUTS)
            await dealer.commit(table, [(seat, Resign(), None)])
            left += 1
    return left
