"""Damaged, empty and vanished databases, integrity checks, and a PostgreSQL that restarts (issue 19, item 10)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from sqlalchemy import text

from dicepoker.server.storage.dbhealth import DatabaseProblem, check_sqlite_file, fault_reason, marker_path, quick_check
from dicepoker.server.storage.records import SeatRecord, TableRecord
from dicepoker.server.storage.sql import SqlStorage
from tests.server.conftest import POSTGRES_URL, postgres_available, run
from tests.server.live import live_server

SRC = Path(__file__).resolve().parents[2] / "src"
PAGE = 4096


def _record(table_id: str) -> TableRecord:
    seats = [SeatRecord("open"), SeatRecord("open")]
    return TableRecord(table_id, "scorecard", {"players": 2}, seats, 30.0, "waiting", "c" * 64, "ab" * 32, 1.0)


def _make_database(path: Path, tables: int = 60) -> None:
    """A real server database with some tables, its WAL folded into the file (closing does it)."""

    async def main() -> None:
        storage = SqlStorage(f"sqlite:///{path}", integrity_interval=None)
        await storage.open()
        for i in range(tables):
            await storage.save(_record(f"table{i:04d}"))
        await storage.close()

    run(main())


def _damage_pages(path: Path) -> None:
    """Scribble over every page but the first (the header stays, so SQLite opens it and finds the damage)."""
    data = bytearray(path.read_bytes())
    assert len(data) > 3 * PAGE, "the test database is too small to damage meaningfully"
    for offset in range(PAGE, len(data), PAGE):
        data[offset : offset + 64] = b"\xa5" * 64
    path.write_bytes(bytes(data))


def _serve(tmp_path: Path, *options: str) -> subprocess.CompletedProcess[str]:
    """``dicepoker serve`` on a data folder, expected to refuse to start (so it ends by itself)."""
    env = dict(os.environ, PYTHONPATH=str(SRC), DICEPOKER_DATA_DIR=str(tmp_path))
    command = [sys.executable, "-c", "from dicepoker.cli import main; main()", "serve", "--port", "0", *options]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=60, check=False)


def test_a_file_that_is_not_a_database_is_one_clear_line_and_no_start(tmp_path: Path) -> None:
    database = tmp_path / "server.db"
    database.write_bytes(b"this is no database, it is a text file that took its place\n" * 100)
    with pytest.raises(DatabaseProblem, match=r"is damaged \(file is not a database\).*backup"):
        check_sqlite_file(database)
    finished = _serve(tmp_path)
    assert finished.returncode != 0
    assert "Traceback" not in finished.stderr
    lines = [line for line in (finished.stderr + finished.stdout).splitlines() if line.strip()]
    assert len(lines) == 1 and "damaged" in lines[0] and finished.returncode == 1, lines


def test_an_unreachable_postgresql_at_start_is_one_line_without_the_password(tmp_path: Path) -> None:
    finished = _serve(tmp_path, "--db", "postgresql://postgres:secret@127.0.0.1:1/test")
    lines = [line for line in (finished.stderr + finished.stdout).splitlines() if line.strip()]
    assert finished.returncode == 1 and len(lines) == 1, lines
    assert "cannot reach the database" in lines[0] and "secret" not in lines[0]


def test_damaged_pages_fail_quick_check_at_start(tmp_path: Path) -> None:
    database = tmp_path / "server.db"
    _make_database(database)
    assert quick_check(database) is None
    _damage_pages(database)
    problem = quick_check(database)
    assert problem is not None
    with pytest.raises(DatabaseProblem, match="is damaged"):
        check_sqlite_file(database)

    async def opening() -> None:
        await SqlStorage(f"sqlite:///{database}").open()

    with pytest.raises(DatabaseProblem, match="is damaged"):
        run(opening())


def test_a_zero_byte_file_is_refused_unless_allowed(tmp_path: Path) -> None:
    database = tmp_path / "server.db"
    database.touch()
    with pytest.raises(DatabaseProblem, match=r"empty \(0-byte\) file.*--allow-empty-db"):
        check_sqlite_file(database)
    finished = _serve(tmp_path)
    assert finished.returncode != 0 and "Traceback" not in finished.stderr and "0-byte" in finished.stderr

    async def allowed() -> None:
        storage = SqlStorage(f"sqlite:///{database}", allow_empty=True, integrity_interval=None)
        await storage.open()
        await storage.save(_record("fresh"))
        await storage.close()

    run(allowed())
    assert marker_path(database).exists() and database.stat().st_size > 0
    check_sqlite_file(database)  # a sound database with its marker: fine


def test_a_vanished_or_emptied_database_is_refused_where_its_marker_says_one_was(tmp_path: Path) -> None:
    database = tmp_path / "server.db"
    check_sqlite_file(database)  # a first start: no file, no marker
    _make_database(database, tables=1)
    assert marker_path(database).exists()
    database.unlink()
    with pytest.raises(DatabaseProblem, match=r"missing, but server\.db\.dicepoker says"):
        check_sqlite_file(database)
    import sqlite3

    with sqlite3.connect(database) as connection:  # a new, valid, but empty SQLite file in its place
        connection.execute("CREATE TABLE other (x)")
    with pytest.raises(DatabaseProblem, match="has no dicepoker tables"):
        check_sqlite_file(database)
    check_sqlite_file(database, allow_empty=True)


def test_live_damage_is_found_by_the_periodic_check_and_reported_by_healthz(tmp_path: Path) -> None:
    database = tmp_path / "server.db"
    _make_database(database)
    storage = SqlStorage(f"sqlite:///{database}", integrity_interval=None)
    with live_server(storage=storage) as live:
        assert httpx.get(f"{live.url}/healthz").json() == {"status": "ok"}
        assert storage.health.integrity == "ok"  # checked at start
        _damage_pages(database)
        problem = run_in(live, storage.check_integrity())
        assert problem is not None
        health = httpx.get(f"{live.url}/healthz").json()
        assert health["status"] == "degraded" and health["database"]["integrity"] == problem
        assert "integrity check failed" in health["problems"][0]


def run_in(live: object, coroutine: object) -> str | None:
    """Run a coroutine on the live server's loop (where the storage lives)."""
    import asyncio

    loop = live.loop  # type: ignore[attr-defined]
    result: str | None = asyncio.run_coroutine_threadsafe(coroutine, loop).result(timeout=30)  # type: ignore[arg-type]
    return result


def test_the_documented_backup_keeps_what_a_plain_copy_loses(tmp_path: Path) -> None:
    """docs/deploy.md "Backups": ``VACUUM INTO`` of a live database holds every committed table; ``cp`` of
    the file alone misses what is still in the WAL."""
    import shutil
    import sqlite3

    database = tmp_path / "server.db"
    copied, backup = tmp_path / "copied.db", tmp_path / "backup.db"

    async def main() -> None:
        storage = SqlStorage(f"sqlite:///{database}", integrity_interval=None)
        await storage.open()
        try:
            for i in range(30):
                await storage.save(_record(f"t{i}"))
            shutil.copy(database, copied)
            script = "import sqlite3, sys; sqlite3.connect(sys.argv[1]).execute('VACUUM INTO ?', (sys.argv[2],))"
            subprocess.run([sys.executable, "-c", script, str(database), str(backup)], check=True, timeout=60)
        finally:
            await storage.close()

    run(main())

    def tables(path: Path) -> int:
        with sqlite3.connect(path) as connection:
            try:
                return int(connection.execute("SELECT count(*) FROM dp_tables").fetchone()[0])
            except sqlite3.OperationalError:  # not even the schema made it
                return 0

    assert tables(backup) == 30 and quick_check(backup) is None
    assert tables(copied) < 30


def test_faults_and_non_faults_are_told_apart() -> None:
    import sqlite3

    from sqlalchemy import exc as sa

    full = sa.OperationalError("INSERT", {}, sqlite3.OperationalError("database or disk is full"))
    assert fault_reason(full) == "database or disk is full"
    assert fault_reason(ConnectionRefusedError(111, "Connection refused")) is not None
    assert fault_reason(sa.IntegrityError("INSERT", {}, sqlite3.IntegrityError("UNIQUE constraint failed"))) is None
    assert fault_reason(ValueError("a bug")) is None
    import asyncpg  # type: ignore[import-untyped]

    assert fault_reason(asyncpg.CannotConnectNowError("the database system is starting up")) is not None


@pytest.mark.skipif(not postgres_available(), reason="PostgreSQL is not reachable at 127.0.0.1:5432 (database 'test')")
def test_the_first_request_after_postgresql_dropped_its_connections_succeeds() -> None:
    """A PostgreSQL restart leaves the pool's connections dead; simulated by terminating this storage's
    backend from another connection (``pg_terminate_backend``), which is what a restart does to it."""
    import secrets

    import asyncpg

    schema = f"dp_test_{secrets.token_hex(6)}"

    async def main() -> None:
        storage = SqlStorage(POSTGRES_URL, schema=schema, integrity_interval=None)
        await storage.open()
        try:
            await storage.save(_record("t0"))
            async with storage.engine.connect() as conn:  # the one pooled connection (nothing runs beside)
                pid = int((await conn.execute(text("SELECT pg_backend_pid()"))).scalar_one())
            admin = await asyncpg.connect("postgresql://postgres@127.0.0.1:5432/test")
            try:
                assert await admin.fetchval("SELECT pg_terminate_backend($1)", pid) is True
            finally:
                await admin.close()
            loaded = await storage.load("t0")  # the dead connection is replaced, not used
            assert loaded is not None and loaded[0].id == "t0"
            await storage.save(_record("t1"))
            assert storage.health.problems() == []
        finally:
            await storage.drop_schema()
            await storage.close()

    run(main())


@pytest.mark.skipif(not postgres_available(), reason="PostgreSQL is not reachable at 127.0.0.1:5432 (database 'test')")
def test_while_postgresql_restarts_requests_get_503_and_sockets_1013_then_all_works() -> None:
    """Through a proxy that plays the restart: every connection dropped, then "the database system is
    starting up" (57P03) for new ones, then PostgreSQL back."""
    import secrets

    from tests.server.pg_proxy import postgres_proxy

    schema = f"dp_test_{secrets.token_hex(6)}"
    try:
        with postgres_proxy() as proxy:
            url = f"postgresql+asyncpg://postgres@127.0.0.1:{proxy.port}/test"
            storage = SqlStorage(url, schema=schema, integrity_interval=None)
            with live_server(storage=storage) as live:
                client = httpx.Client(base_url=live.url)
                table_id = client.post("/api/tables", json={"game": "scorecard"}).json()["id"]
                proxy.restart()
                unknown = "0123456789abcdef"  # not in memory: answering needs the database
                response = client.get(f"/api/tables/{unknown}")
                assert response.status_code == 503 and "starting up" in response.json()["detail"]
                assert client.post("/api/tables", json={"game": "scorecard"}).status_code == 503
                assert client.get(f"/api/tables/{table_id}").status_code == 200  # known here: from memory
                assert live.close_code(unknown) == 1013
                assert client.get("/healthz").json()["status"] == "degraded"
                assert proxy.refused > 0
                proxy.up()
                assert client.get("/api/tables").status_code == 200  # the first request after the restart
                assert client.post("/api/tables", json={"game": "scorecard"}).status_code == 201
                assert client.get("/healthz").json() == {"status": "ok"}
    finally:

        async def drop() -> None:
            cleaner = SqlStorage(POSTGRES_URL, schema=schema, integrity_interval=None)
            await cleaner.open()
            await cleaner.drop_schema()
            await cleaner.close()

        run(drop())
