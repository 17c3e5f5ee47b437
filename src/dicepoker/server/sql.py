"""SQL storage (SQLAlchemy 2 async): SQLite through aiosqlite (WAL) or PostgreSQL through asyncpg.

Group commit: :meth:`SqlStorage.save` queues its write and waits; one writer task takes every write
queued meanwhile and commits them in a single transaction, so many tables acting at once cost one
commit (one fsync) rather than one each. A save returns only after its transaction committed.

Writes are optimistic (see :mod:`.storage`): the batch reads the stamps of the records it updates with
``SELECT ... FOR UPDATE`` (row locks until the commit, on PostgreSQL) and fails as a whole with
:class:`~.storage.StaleWrite` if one moved on, as it does when an appended event hits the unique
(table, seq) key; the writer then retries each write of the batch alone, so only the stale ones fail.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sqlalchemy import bindparam, event, select, text
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from dicepoker.server.sql_schema import events as events_table
from dicepoker.server.sql_schema import tables as tables_table
from dicepoker.server.storage import EventRecord, SeatRecord, StaleWrite, TableRecord

_SCHEMA_NAME = re.compile(r"[a-z_][a-z0-9_]{0,62}")
_TABLE_COLUMNS = [f.name for f in dataclasses.fields(TableRecord)]
_MIGRATION_LOCK = 0x6469_6365  # PostgreSQL advisory lock: processes starting together migrate one at a time
_Write = tuple[TableRecord, Sequence[EventRecord], "asyncio.Future[None]"]


def normalise_url(url: str) -> str:
    """Accept plain ``sqlite:///`` and ``postgresql://`` URLs and pick the async drivers."""
    parsed = make_url(url)
    if parsed.drivername in ("sqlite", "sqlite+pysqlite"):
        parsed = parsed.set(drivername="sqlite+aiosqlite")
    elif parsed.drivername in ("postgresql", "postgres", "postgresql+psycopg2"):
        parsed = parsed.set(drivername="postgresql+asyncpg")
    return parsed.render_as_string(hide_password=False)


def migrate(connection: Connection) -> None:
    """Bring the schema to the newest Alembic revision (the migrations ship inside the package)."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", "dicepoker.server:migrations")
    config.attributes["connection"] = connection
    command.upgrade(config, "head")


class SqlStorage:
    """Tables and logs in a SQL database; see the module docstring for the group commit."""

    def __init__(self, url: str, *, schema: str | None = None, sqlite_synchronous: str = "NORMAL") -> None:
        self.url = normalise_url(url)
        self.schema = schema
        if schema is not None and not _SCHEMA_NAME.fullmatch(schema):
            raise ValueError(f"bad schema name {schema!r}")
        self._synchronous = sqlite_synchronous
        self._engine: AsyncEngine | None = None
        self._pending: list[_Write] = []
        self._wake = asyncio.Event()
        self._writer: asyncio.Task[None] | None = None
        self.commits = 0
        """Transactions committed by the writer (each holds one or more saves)."""

    @property
    def is_sqlite(self) -> bool:
        return self.url.startswith("sqlite")

    @property
    def engine(self) -> AsyncEngine:
        if self._engine is None:
            raise RuntimeError("storage is not open")
        return self._engine

    async def open(self) -> None:
        kwargs: dict[str, Any] = {}
        if self.is_sqlite:
            database = make_url(self.url).database
            if database and database != ":memory:":
                Path(database).parent.mkdir(parents=True, exist_ok=True)
        elif self.schema is not None:
            kwargs["connect_args"] = {"server_settings": {"search_path": self.schema}}
        engine = create_async_engine(self.url, **kwargs)
        if self.is_sqlite:
            synchronous = self._synchronous

            @event.listens_for(engine.sync_engine, "connect")
            def _pragmas(dbapi_connection: Any, _record: Any) -> None:
                cursor = dbapi_connection.cursor()
                cursor.execute("PRAGMA journal_mode=WAL")
                cursor.execute(f"PRAGMA synchronous={synchronous}")
                cursor.execute("PRAGMA foreign_keys=ON")
                cursor.execute("PRAGMA busy_timeout=10000")
                cursor.close()

        self._engine = engine
        async with engine.begin() as conn:
            if not self.is_sqlite:
                await conn.execute(text(f"SELECT pg_advisory_xact_lock({_MIGRATION_LOCK})"))
            if self.schema is not None and not self.is_sqlite:
                await conn.execute(text(f'CREATE SCHEMA IF NOT EXISTS "{self.schema}"'))
        async with engine.begin() as conn:
            if not self.is_sqlite:
                await conn.execute(text(f"SELECT pg_advisory_xact_lock({_MIGRATION_LOCK})"))
            await conn.run_sync(migrate)
        self._writer = asyncio.create_task(self._write_loop(), name="dicepoker-group-commit")

    async def close(self) -> None:
        if self._writer is not None:
            # Let queued writes finish: a save that was accepted must reach the disk.
            while self._pending:
                self._wake.set()
                await asyncio.sleep(0.001)
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._writer
            self._writer = None
        if self._engine is not None:
            await self._engine.dispose()
            self._engine = None

    async def drop_schema(self) -> None:
        """Tests: remove the PostgreSQL schema this storage used (and everything in it)."""
        if self.schema is not None and not self.is_sqlite:
            async with self.engine.begin() as conn:
                await conn.execute(text(f'DROP SCHEMA IF EXISTS "{self.schema}" CASCADE'))

    # -- writes -------------------------------------------------------------------------------------
    async def save(self, table: TableRecord, events: Sequence[EventRecord] = ()) -> None:
        if self._writer is None:
            raise RuntimeError("storage is not open")
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((table, tuple(events), done))
        self._wake.set()
        await done

    async def _write_loop(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            batch, self._pending = self._pending, []
            if not batch:
                continue
            try:
                await self._commit(batch)
            except Exception:
                # One bad write must not fail the others: retry each alone, each failing on its own.
                for write in batch:
                    try:
                        await self._commit([write])
                    except Exception as exc:
                        if not write[2].done():
                            write[2].set_exception(exc)
                    else:
                        if not write[2].done():
                            write[2].set_result(None)
            else:
                for _, _, done in batch:
                    if not done.done():
                        done.set_result(None)

    async def _commit(self, batch: Sequence[_Write]) -> None:
        expected: dict[str, int] = {}  # the stamp each table must have in the database now
        stamps: dict[str, int] = {}  # and the one it has after this batch
        latest: dict[str, TableRecord] = {}
        new_events: list[dict[str, Any]] = []
        for table, events, _ in batch:
            expected.setdefault(table.id, table.stamp)
            if stamps.get(table.id, table.stamp) != table.stamp:
                raise StaleWrite(f"table {table.id}: two writes in one batch disagree")
            stamps[table.id] = table.stamp + 1
            latest[table.id] = table  # later saves of a table in the batch supersede earlier ones
            new_events.extend(
                {"table_id": table.id, "seq": e.seq, "seat": e.seat, "action": e.action, "client_id": e.client_id}
                for e in events
            )
        inserts = [_row(t, stamps[t.id]) for t in latest.values() if expected[t.id] == 0]
        updates = [
            {"b_expected": expected[t.id], **{"b_" + k: v for k, v in _row(t, stamps[t.id]).items()}}
            for t in latest.values()
            if expected[t.id] > 0
        ]
        try:
            async with self.engine.begin() as conn:
                if updates:
                    ids = [u["b_id"] for u in updates]
                    query = select(tables_table.c.id, tables_table.c.stamp).where(tables_table.c.id.in_(ids))
                    stored = {row[0]: row[1] for row in (await conn.execute(query.with_for_update())).all()}
                    stale = [i for i in ids if stored.get(i) != expected[i]]
                    if stale:
                        raise StaleWrite(f"table {stale[0]} was changed by another writer")
                    # The stamp again in the WHERE: SQLite ignores FOR UPDATE (and pysqlite runs that
                    # SELECT outside the transaction), so there the row count is what proves the stamp.
                    statement = (
                        tables_table.update()
                        .where(
                            (tables_table.c.id == bindparam("b_id")) & (tables_table.c.stamp == bindparam("b_expected"))
                        )
                        .values({c: bindparam("b_" + c) for c in _TABLE_COLUMNS if c != "id"})
                    )
                    result = await conn.execute(statement, updates)
                    if conn.dialect.supports_sane_multi_rowcount and result.rowcount != len(updates):
                        raise StaleWrite(f"table {ids[0]}: changed by another writer")
                if inserts:
                    await conn.execute(tables_table.insert(), inserts)
                if new_events:
                    await conn.execute(events_table.insert(), new_events)
        except IntegrityError as exc:
            # The unique (table, seq) key, or a table id taken: another writer was first.
            raise StaleWrite(f"another writer was first (duplicate event or table): {exc.orig}"[:300]) from None
        for table, _, _ in batch:
            table.stamp = stamps[table.id]
        self.commits += 1

    # -- reads --------------------------------------------------------------------------------------
    async def load(self, table_id: str) -> tuple[TableRecord, list[EventRecord]] | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(tables_table).where(tables_table.c.id == table_id))).mappings().first()
            if row is None:
                return None
            record = _record(row)
            return record, await _events(conn, table_id, record.version)

    async def unfinished(self) -> list[tuple[TableRecord, list[EventRecord]]]:
        async with self.engine.connect() as conn:
            query = select(tables_table).where(tables_table.c.status != "finished").order_by(tables_table.c.created)
            rows = (await conn.execute(query)).mappings().all()
            records = [_record(row) for row in rows]
            return [(record, await _events(conn, record.id, record.version)) for record in records]

    async def unfinished_ids(self) -> list[str]:
        query = select(tables_table.c.id).where(tables_table.c.status != "finished").order_by(tables_table.c.created)
        async with self.engine.connect() as conn:
            return list((await conn.execute(query)).scalars().all())

    async def list_tables(
        self, *, game: str | None = None, status: str | None = None, limit: int = 100, offset: int = 0
    ) -> list[TableRecord]:
        order = (tables_table.c.created.desc(), tables_table.c.id.desc())
        query = select(tables_table).order_by(*order).limit(limit).offset(offset)
        if game is not None:
            query = query.where(tables_table.c.game == game)
        if status is not None:
            query = query.where(tables_table.c.status == status)
        async with self.engine.connect() as conn:
            return [_record(row) for row in (await conn.execute(query)).mappings().all()]

    async def lobby_table(self, game: str) -> TableRecord | None:
        query = select(tables_table).where(tables_table.c.lobby == game)  # the unique lobby index
        async with self.engine.connect() as conn:
            row = (await conn.execute(query)).mappings().first()
        return None if row is None else _record(row)


def _row(table: TableRecord, stamp: int) -> dict[str, Any]:
    row = {name: getattr(table, name) for name in _TABLE_COLUMNS}
    row["seats"] = [seat.to_json() for seat in table.seats]
    row["stamp"] = stamp
    return row


def _record(row: Any) -> TableRecord:
    values = {name: row[name] for name in _TABLE_COLUMNS}
    values["seats"] = [SeatRecord.from_json(seat) for seat in row["seats"]]
    return TableRecord(**values)


async def _events(conn: Any, table_id: str, version: int) -> list[EventRecord]:
    """The log up to the record's ``version``: each statement sees the latest commits (read committed), so
    events committed after the record was read are left for the next read, with the record they belong to."""
    where = (events_table.c.table_id == table_id) & (events_table.c.seq <= version)
    query = select(events_table).where(where).order_by(events_table.c.seq)
    rows = (await conn.execute(query)).mappings().all()
    return [EventRecord(row["seq"], row["seat"], row["action"], row["client_id"]) for row in rows]
