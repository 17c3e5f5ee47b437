"""Database faults (issue 19, items 8 and 10): what is a fault, what the server says about it, and the
checks of a SQLite file at start and while serving.

**Faults while serving.** A write or read the database cannot do (``database or disk is full``, a
connection PostgreSQL dropped, PostgreSQL starting up) is turned into
:class:`~.storage.StorageUnavailable` by the SQL storage: the request gets 503 with the reason, a player's
action an error frame (nothing was applied), and :class:`StorageHealth` records it for ``/healthz``
(``"status": "degraded"``). Reads go on while writes fail. The fault clears by itself: the next write
that succeeds (a player's retry, a new table, or the storage's own probe, see :mod:`.sql`) makes the
server healthy again. Conflicts (:class:`~.storage.StaleWrite`) and programming errors are not faults.

**A damaged or missing SQLite file at start** (:func:`check_sqlite_file`) is one plain line
(:class:`DatabaseProblem`) and the server does not start:

- a file that is not a SQLite database, or fails ``PRAGMA quick_check``: "damaged, restore a backup";
- a 0-byte file: SQLite would take it for a new, empty database and the server would start with no
  tables. The server never leaves such a file (SQLite writes its header when the server first opens it),
  so it is refused unless told (``serve --allow-empty-db``);
- **where tables were expected**: the first start on a database writes a marker beside it,
  ``<file>.dicepoker`` (also written at any later start that finds the schema, so older data folders get
  one). A database file that is missing, empty, or without the schema while its marker exists is
  refused the same way: the data folder held a database, and starting empty would hide that it is gone.

**While serving**, ``PRAGMA quick_check`` runs again every ``integrity_interval`` seconds on a connection
of its own (pooled connections keep pages in their caches, which would hide damage on disk); a failure
is logged as an error and reported by ``/healthz``.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from dicepoker.core.errors import DicePokerError
from dicepoker.core.types import JSON

MARKER_SUFFIX = ".dicepoker"
QUICK_CHECK_ROWS = 5
"""Problems quick_check reports at most (the first is what the message shows)."""
BACKUP_HINT = 'restore it from a backup (docs/deploy.md, "Backups")'


class DatabaseProblem(DicePokerError):
    """The server cannot start on this database; the message is one line that says why and what to do."""


@dataclass
class StorageHealth:
    """What ``/healthz`` says about the database: faults of writes and reads, and the last integrity check."""

    write_fault: str | None = None
    write_fault_since: float | None = None
    read_fault: str | None = None
    read_fault_since: float | None = None
    integrity: str | None = None
    """``None``: not checked (PostgreSQL, memory); ``"ok"``; or the first problem quick_check found."""
    integrity_checked: float | None = None
    failed_writes: int = 0

    def fault(self, kind: str, reason: str, now: float) -> None:
        if kind == "write":
            self.failed_writes += 1
            if self.write_fault is None:
                self.write_fault_since = now
            self.write_fault = reason
        else:
            if self.read_fault is None:
                self.read_fault_since = now
            self.read_fault = reason

    def recovered(self, kind: str) -> bool:
        """A write (or read) succeeded: that fault is over. Whether there was one."""
        if kind == "write":
            had, self.write_fault, self.write_fault_since = self.write_fault is not None, None, None
        else:
            had, self.read_fault, self.read_fault_since = self.read_fault is not None, None, None
        return had

    def checked(self, problem: str | None, now: float) -> None:
        self.integrity = problem or "ok"
        self.integrity_checked = now

    def problems(self) -> list[str]:
        found = []
        if self.write_fault is not None:
            found.append(f"database writes fail: {self.write_fault}")
        if self.read_fault is not None:
            found.append(f"database reads fail: {self.read_fault}")
        if self.integrity not in (None, "ok"):
            found.append(f"database integrity check failed: {self.integrity}")
        return found

    def report(self) -> dict[str, JSON]:
        """The ``"database"`` entry of ``/healthz``."""
        return {
            "writes": "ok" if self.write_fault is None else "failing",
            "writes_failing_since": _iso(self.write_fault_since),
            "reads": "ok" if self.read_fault is None else "failing",
            "integrity": self.integrity,
            "integrity_checked": _iso(self.integrity_checked),
        }


def fault_reason(exc: BaseException) -> str | None:
    """Why the database could not be used, if ``exc`` is a database or connection fault; ``None`` for
    anything else (a conflict, a bug), which must go on as it was."""
    from sqlalchemy import exc as sa

    if isinstance(exc, (sa.IntegrityError, sa.ProgrammingError, sa.DataError, sa.NotSupportedError)):
        return None
    if isinstance(exc, sa.DBAPIError):
        return _one_line(exc.orig if exc.orig is not None else exc)
    if isinstance(exc, (sa.DisconnectionError, sa.TimeoutError, OSError, TimeoutError)):
        return _one_line(exc)
    with contextlib.suppress(ImportError):
        import asyncpg  # type: ignore[import-untyped]

        if isinstance(exc, (asyncpg.PostgresConnectionError, asyncpg.CannotConnectNowError, asyncpg.InterfaceError)):
            return _one_line(exc)
    return None


def unavailable_message(reason: str) -> str:
    return f"the server cannot use its database right now ({reason}): nothing was changed; try again later"


async def check_reachable(url: str, *, timeout: float = 15.0) -> None:
    """Connect once and ask for nothing: :class:`DatabaseProblem` (one line, password hidden) if the
    database cannot be reached. What ``serve`` checks of PostgreSQL before it starts."""
    from sqlalchemy import text
    from sqlalchemy.engine import make_url
    from sqlalchemy.ext.asyncio import create_async_engine

    engine = create_async_engine(url)
    try:
        async with asyncio.timeout(timeout), engine.connect() as conn:
            await conn.execute(text("SELECT 1"))
    except Exception as exc:
        reason = fault_reason(exc) or _one_line(exc) or type(exc).__name__
        shown = make_url(url).render_as_string(hide_password=True)
        raise DatabaseProblem(f"cannot reach the database {shown}: {reason}") from None
    finally:
        await engine.dispose()


# -- SQLite files -------------------------------------------------------------------------------------
def marker_path(database: Path) -> Path:
    return database.with_name(database.name + MARKER_SUFFIX)


def write_marker(database: Path) -> None:
    """Remember that this data folder holds a dicepoker database (see the module docstring)."""
    marker = marker_path(database)
    if not marker.exists():
        marker.write_text(
            "dicepoker keeps its tables in the database beside this file; while this file exists the server\n"
            "refuses to start on a missing or empty database (serve --allow-empty-db to start anew).\n"
        )


def check_sqlite_file(database: Path, *, allow_empty: bool = False) -> None:
    """Refuse to start on a damaged file, a 0-byte file, or an empty one where tables were expected
    (:class:`DatabaseProblem`, one line); see the module docstring."""
    expected = marker_path(database).exists()
    size = database.stat().st_size if database.exists() else None
    if not allow_empty:
        if size == 0:
            raise DatabaseProblem(
                f"the database {database} is an empty (0-byte) file; the server never leaves one, so it was "
                f"probably truncated: {BACKUP_HINT}, or start anew with --allow-empty-db"
            )
        if size is None and expected:
            raise DatabaseProblem(
                f"the database {database} is missing, but {marker_path(database).name} says this folder held "
                f"one: {BACKUP_HINT}, or start anew with --allow-empty-db"
            )
    if not size:
        return
    problem = quick_check(database)
    if problem is not None:
        raise DatabaseProblem(f"the database {database} is damaged ({problem}): {BACKUP_HINT}")
    if expected and not allow_empty and not _has_schema(database):
        raise DatabaseProblem(
            f"the database {database} has no dicepoker tables, but {marker_path(database).name} says it had: "
            f"{BACKUP_HINT}, or start anew with --allow-empty-db"
        )


def quick_check(database: Path) -> str | None:
    """``PRAGMA quick_check`` on a connection of its own, read-only: ``None`` if the file is sound, else
    the first problem in one line. Blocking (a thread's work: it reads the whole file)."""
    try:
        connection = sqlite3.connect(f"{database.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        return _one_line(exc)
    try:
        rows = connection.execute(f"PRAGMA quick_check({QUICK_CHECK_ROWS})").fetchall()
    except sqlite3.DatabaseError as exc:  # "file is not a database", "database disk image is malformed"
        return _one_line(exc)
    finally:
        connection.close()
    found = [str(row[0]) for row in rows]
    if found == ["ok"]:
        return None
    more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
    return f"quick_check: {_one_line(found[0])}{more}"


def _has_schema(database: Path) -> bool:
    connection = sqlite3.connect(f"{database.resolve().as_uri()}?mode=ro", uri=True)
    try:
        query = "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'dp_tables'"
        return bool(connection.execute(query).fetchone()[0])
    finally:
        connection.close()


def _one_line(exc: object) -> str:
    text = str(exc).strip().splitlines()
    return (text[0] if text and text[0] else type(exc).__name__)[:200]


def _iso(when: float | None) -> str | None:
    return None if when is None else datetime.datetime.fromtimestamp(when, datetime.UTC).isoformat()
