"""SQL storage (SQLAlchemy 2 async): SQLite through aiosqlite (WAL) or PostgreSQL through asyncpg.

Group commit: :meth:`SqlStorage.save` queues its write and waits; one writer task takes every write
queued meanwhile and commits them in a single transaction, so many tables acting at once cost one
commit (one fsync) rather than one each. A save returns only after its transaction committed.

Writes are optimistic (see :mod:`.storage`): the batch reads the stamps of the records it updates with
``SELECT ... FOR UPDATE`` (row locks until the commit, on PostgreSQL) and fails as a whole with
:class:`~.storage.StaleWrite` if one moved on, as it does when an appended event hits the unique
(table, seq) key; the writer then retries each write of the batch alone, so only the stale ones fail.

Faults (issue 19, :mod:`.dbhealth`): a write or read the database cannot do (disk full, a dropped or
refused connection) raises :class:`~.storage.StorageUnavailable` and is recorded in ``self.health``; a
batch that fails so fails as a whole, untried again. PostgreSQL connections are pinged before use, so a
connection that a restart of PostgreSQL left stale is replaced instead of failing the next request.
A SQLite file is checked before it is opened (:func:`.dbhealth.check_sqlite_file`) and every
``integrity_interval`` seconds after (``PRAGMA quick_check``).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import re
import time
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

from sqlalchemy import bindparam, event, select, text
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from dicepoker.server.logs import log_event
from dicepoker.server.storage import dbhealth
from dicepoker.server.storage.records import EventRecord, SeatRecord, StaleWrite, StorageUnavailable, TableRecord
from dicepoker.server.storage.sql_schema import events as events_table
from dicepoker.server.storage.sql_schema import tables as tables_table

_SCHEMA_NAME = re.compile(r"[a-z_][a-z0-9_]{0,62}")
_TABLE_COLUMNS = [f.name for f in dataclasses.fields(TableRecord)]
_MIGRATION_LOCK = 0x6469_6365  # PostgreSQL advisory lock: processes starting together migrate one at a time
_Write = tuple[TableRecord, Sequence[EventRecord], "asyncio.Future[None]"]
PROBE_INTERVAL = 5.0
"""Seconds between probe writes while writes fail (so that /healthz recovers on an idle server too)."""
logger = logging.getLogger("dicepoker.server.storage.sql")


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
    config.set_main_option("script_location", "dicepoker.server.storage:migrations")
    config.attributes["connection"] = connection
    command.upgrade(config, "head")


class SqlStorage:
    """Tables and logs in a SQL database; see the module docstring for the group commit."""

    def __init__(
        self,
        url: str,
        *,
        schema: str | None = None,
        sqlite_synchronous: str = "NORMAL",
        allow_empty: bool = False,
        integrity_interval: float | None = 600.0,
    ) -> None:
        self.url = normalise_url(url)
        self.allow_empty = allow_empty
        """Start on a 0-byte SQLite file, or a missing one whose marker says it existed (see dbhealth)."""
        self.integrity_interval = integrity_interval
        self.health = dbhealth.StorageHealth()
        self._monitor: asyncio.Task[None] | None = None
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

    @property
    def sqlite_file(self) -> Path | None:
        """The SQLite database file (``None``: PostgreSQL, or SQLite in memory)."""
        database = make_url(self.url).database if self.is_sqlite else None
        return Path(database) if database and database != ":memory:" else None

    async def open(self) -> None:
        kwargs: dict[str, Any] = {}
        database = self.sqlite_file
        if database is not None:
            database.parent.mkdir(parents=True, exist_ok=True)
            await asyncio.to_thread(dbhealth.check_sqlite_file, database, allow_empty=self.allow_empty)
        elif not self.is_sqlite:
            kwargs["pool_pre_ping"] = True  # a connection PostgreSQL dropped (a restart) is replaced, not used
            if self.schema is not None:
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
        if database is not None:
            dbhealth.write_marker(database)
            self.health.checked(None, time.time())  # check_sqlite_file ran quick_check
        self._writer = asyncio.create_task(self._write_loop(), name="dicepoker-group-commit")
        self._monitor = asyncio.create_task(self._monitor_loop(), name="dicepoker-database-monitor")

    async def close(self) -> None:
        if self._monitor is not None:
            self._monitor.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._monitor
            self._monitor = None
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
            except StorageUnavailable as exc:
                # The database, not a write, failed (a full disk): each alone would fail the same way.
                for _, _, done in batch:
                    if not done.done():
                        done.set_exception(exc)
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
            async with self._faults("write"), self.engine.begin() as conn:
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

    @contextlib.asynccontextmanager
    async def _faults(self, kind: str) -> AsyncIterator[None]:
        """Turn a database fault into :class:`StorageUnavailable` and keep ``health`` up to date."""
        try:
            yield
        except Exception as exc:
            reason = dbhealth.fault_reason(exc)
            if reason is None:
                raise
            if (self.health.write_fault if kind == "write" else self.health.read_fault) is None:
                log_event(logger, f"database {kind}s fail", reason=reason)
            self.health.fault(kind, reason, time.time())
            raise StorageUnavailable(dbhealth.unavailable_message(reason)) from None
        if self.health.recovered(kind):
            log_event(logger, f"database {kind}s work again")

    # -- checks -------------------------------------------------------------------------------------
    async def check_integrity(self) -> str | None:
        """``PRAGMA quick_check`` of the SQLite file now (in a thread): the problem found, or ``None``.
        Recorded in ``health`` and, if there is a problem, logged as an error. PostgreSQL: nothing to do."""
        database = self.sqlite_file
        if database is None:
            return None
        problem = await asyncio.to_thread(dbhealth.quick_check, database)
        self.health.checked(problem, time.time())
        if problem is not None:
            logger.error("database %s failed its integrity check: %s; %s", database, problem, dbhealth.BACKUP_HINT)
        return problem

    async def probe(self) -> bool:
        """While reads or writes fail: try a read, and a write that changes nothing (the newest table's
        stamp, set to itself). Whether the database works again (``health`` is updated either way).
        Without any table there is nothing to rewrite, and the next real write decides."""
        newest = select(tables_table.c.id).order_by(tables_table.c.created.desc()).limit(1)
        try:
            async with self._faults("read"), self.engine.connect() as conn:
                table_id = (await conn.execute(newest)).scalar()
            if self.health.write_fault is not None:
                if table_id is None:
                    return False  # an UPDATE of no row writes nothing, and would prove nothing
                statement = tables_table.update().where(tables_table.c.id == table_id)
                async with self._faults("write"), self.engine.begin() as conn:
                    await conn.execute(statement.values(stamp=tables_table.c.stamp))
        except StorageUnavailable:
            return False
        return True

    async def _monitor_loop(self) -> None:
        last_check = time.monotonic()
        while True:
            await asyncio.sleep(PROBE_INTERVAL)
            try:
                if self.health.write_fault is not None or self.health.read_fault is not None:
                    await self.probe()
                due = self.integrity_interval
                if due is not None and time.monotonic() - last_check >= due:
                    last_check = time.monotonic()
                    await self.check_integrity()
            except Exception as exc:  # the monitor must outlive whatever it finds
                logger.error("database monitor: %r", exc)

    # -- reads --------------------------------------------------------------------------------------
    async def load(self, table_id: str) -> tuple[TableRecord, list[EventRecord]] | None:
        async with self._faults("read"), self.engine.connect() as conn:
            row = (await conn.execute(select(tables_table).where(tables_table.c.id == table_id))).mappings().first()
            if row is None:
                return None
            record = _record(row)
            return record, await _events(conn, table_id, record.version)

    async def unfinished(self) -> list[tuple[TableRecord, list[EventRecord]]]:
        async with self._faults("read"), self.engine.connect() as conn:
            query = select(tables_table).where(tables_table.c.status != "finished").order_by(tables_table.c.created)
            rows = (await conn.execute(query)).mappings().all()
            records = [_record(row) for row in rows]
            return [(record, await _events(conn, record.id, record.version)) for record in records]

    async def unfinished_ids(self) -> list[str]:
        query = select(tables_table.c.id).where(tables_table.c.status != "finished").order_by(tables_table.c.created)
        async with self._faults("read"), self.engine.connect() as conn:
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
        async with self._faults("read"), self.engine.connect() as conn:
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
