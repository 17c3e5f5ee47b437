"""Keeping a table in memory up to date with changes other server processes made (issue 11).

A process holds a copy of each table it serves. Another process's commit reaches it as a message (the
record and the events of that commit, see :mod:`.cluster`) or, after a conflict or a gap, as the record
and log read back from the database. :func:`absorb` applies either to the copy: the events it has not
seen, in order, through the rules (so the copy is exactly the state any process would rebuild), and the
newer record. It never goes backwards: a record whose ``stamp`` is not newer than the copy's is ignored.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from dicepoker.core.steps import replay_steps
from dicepoker.core.types import JSON
from dicepoker.server.storage.records import EventRecord, SeatRecord, TableRecord
from dicepoker.server.tables.fairness import FairRandom
from dicepoker.server.tables.table import PLAYING, Last, Table, simultaneous

_FIELDS = [f.name for f in dataclasses.fields(TableRecord)]


class Gap(Exception):
    """The copy misses events the message does not carry: read the table back from the database."""


def absorb(table: Table, record: TableRecord, events: Sequence[EventRecord]) -> bool:
    """Bring ``table`` to ``record``. ``events`` holds at least every event after the copy's version (more
    is fine: a whole log). Whether anything changed; :class:`Gap` if events are missing."""
    if record.stamp <= table.record.stamp:
        return False
    new = [e for e in events if e.seq > table.version]
    if record.version != table.version + len(new) or any(e.seq != table.version + 1 + i for i, e in enumerate(new)):
        raise Gap(f"table {table.id}: at {table.version}, told of {record.version}")
    state, last = table.state, table.last
    for step in replay_steps(table.game, new, start=state):
        state, event = step.after, step.event
        if event.seat is None:
            continue
        last = Last(event.seat, event.action, simultaneous(step.before))
        if event.client_id is not None:
            acked = event.seq
            for following in new[step.number :]:
                if following.seat is not None:
                    break
                acked = following.seq  # the dice that followed belonged to the same commit
            table.accepted[(event.seat, event.client_id)] = acked
    if not record.server_seed:
        record.server_seed = table.record.server_seed  # messages do not carry it (see record_json)
    table.record, table.state, table.last = record, state, last
    table.events.extend(new)
    if record.status == PLAYING:
        table.rng = FairRandom(bytes.fromhex(record.server_seed), record.client_seeds or [], record.rng_counter)
    else:
        table.rng = None
    table.revision += 1
    return True


def record_json(record: TableRecord) -> dict[str, JSON]:
    """The record as a message carries it: without the server seed, which stays secret until the end."""
    data: dict[str, Any] = {name: getattr(record, name) for name in _FIELDS}
    data["seats"] = [seat.to_json() for seat in record.seats]
    data["server_seed"] = ""
    return data


def record_from_json(data: dict[str, Any]) -> TableRecord:
    values = {name: data[name] for name in _FIELDS if name in data}
    values["seats"] = [SeatRecord.from_json(seat) for seat in data["seats"]]
    return TableRecord(**values)


def events_json(events: Sequence[EventRecord]) -> list[JSON]:
    return [[e.seq, e.seat, e.action, e.client_id] for e in events]


def events_from_json(data: Sequence[Any]) -> list[EventRecord]:
    return [EventRecord(int(seq), seat, str(action), client_id) for seq, seat, action, client_id in data]
