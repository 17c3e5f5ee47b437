"""What the multi-process tests run: a fresh PostgreSQL database, a Redis key prefix (or a redis-server of
their own), `dicepoker serve` processes, and nginx in front of them, all on loopback, all unprivileged."""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[3]
SRC = ROOT / "src"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/test"
REDIS_HOST, REDIS_PORT = "127.0.0.1", 6379


def reachable(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=0.5):
            return True
    except OSError:
        return False


def missing() -> str | None:
    """Why the multi-process tests cannot run here, or ``None``."""
    if not reachable("127.0.0.1", 5432):
        return "PostgreSQL is not reachable at 127.0.0.1:5432 (database 'test')"
    if not reachable(REDIS_HOST, REDIS_PORT):
        return f"Redis is not reachable at {REDIS_HOST}:{REDIS_PORT}"
    if not Path(NGINX).exists():
        return "nginx is not installed (Debian: apt-get install nginx)"
    return None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


# -- PostgreSQL ------------------------------------------------------------------------------------------
@contextlib.contextmanager
def fresh_database() -> Iterator[str]:
    """A new database ``dicepoker_test_<random>`` (the asyncpg URL), dropped afterwards."""
    import psycopg

    name = f"dicepoker_test_{secrets.token_hex(5)}"
    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"postgresql+asyncpg://postgres@127.0.0.1:5432/{name}"
    finally:
        with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def query(url: str, sql: str, *args: object) -> list[tuple[object, ...]]:
    import psycopg

    plain = url.replace("postgresql+asyncpg://", "postgresql://")
    with psycopg.connect(plain) as conn:
        return list(conn.execute(sql, args).fetchall())  # type: ignore[arg-type]


# -- Redis -------------------------------------------------------------------------------------------------
def clear_prefix(url: str, prefix: str) -> None:
    import redis

    client = redis.Redis.from_url(url)
    try:
        keys = list(client.scan_iter(match=f"{prefix}:*", count=1000))
        if keys:
            client.delete(*keys)
    finally:
        client.close()


@dataclass
class RedisServer:
    """A redis-server of the test's own (the chaos test restarts it): nothing on disk."""

    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None
    restarts: int = 0

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for(lambda: reachable("127.0.0.1", self.port), 10, "redis-server did not start")

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(10)
            self.process = None

    def restart(self, down: float = 1.0) -> None:
        self.stop()
        time.sleep(down)  # Redis away for a while, as in a real restart: the games go on meanwhile
        self.start()
        self.restarts += 1


# -- server processes --------------------------------------------------------------------------------------
@dataclass
class Server:
    """One `dicepoker serve` process on a port of its own; its log (JSON lines) appended to ``log``."""

    db: str
    redis: str
    prefix: str
    log: Path
    options: Sequence[str] = ()
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None
    kills: int = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, wait: bool = True) -> None:
        command = [sys.executable, "-c", "from dicepoker.cli import main; main()", "serve", "--port", str(self.port)]
        command += ["--db", self.db, "--redis", self.redis, "--redis-prefix", self.prefix]
        # The load comes from one address (loopback), directly and through nginx: no caps or limits per client.
        command += ["--max-connections-per-client", "0", "--max-sockets-per-client", "0"]
        command += ["--rate-limit", "0", "--max-open-tables", "0", *self.options]
        env = {**os.environ, "PYTHONPATH": f"{SRC}{os.pathsep}{ROOT}", "NO_COLOR": "1"}
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=log, env=env, cwd=ROOT)
        if wait:
            self.wait_ready()

    def wait_ready(self, timeout: float = 60) -> None:
        def ready() -> bool:
            assert self.process is not None
            if self.process.poll() is not None:
                raise AssertionError(f"server on {self.port} exited:\n{log_tail(self.log)}")
            try:
                return httpx.get(self.url + "/healthz", timeout=1).status_code == 200
            except httpx.HTTPError:
                return False

        wait_for(ready, timeout, f"server on port {self.port} did not become ready:\n{log_tail(self.log)}")

    def state(self) -> str:
        if self.process is None:
            return "stopped"
        code = self.process.poll()
        return "running" if code is None else f"exited with {code}"

    def kill(self) -> None:
        if self.process is not None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)
            self.process = None
            self.kills += 1

    def stop(self) -> None:
        if self.process is not None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
            self.process = None


# -- nginx -------------------------------------------------------------------------------------------------
@dataclass
class Nginx:
    """deploy/nginx.conf run by an unprivileged nginx: upstreams, listen port and paths replaced."""

    upstreams: Sequence[int]
    folder: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def config(self) -> str:
        text = (ROOT / "deploy" / "nginx.conf").read_text()
        folder = self.folder

        # Every upstream group gets the test's servers, with the parameters (max_fails, ...) of the group's
        # own first server line: what is tested is the file's passive health checking.
        def servers(group: re.Match[str]) -> str:
            first = re.search(r"        server \S+( [^;\n]*)?;", group.group(0))
            assert first is not None, "deploy/nginx.conf: an upstream block without servers"
            lines = "".join(f"        server 127.0.0.1:{p}{first.group(1) or ''};\n" for p in self.upstreams)
            return group.group(1) + lines

        text, found = re.subn(r"(    upstream \w+ \{\n        least_conn;\n)(?:        server .*\n)+", servers, text)
        assert found >= 1, "deploy/nginx.conf: the upstream blocks have changed shape"
        text = re.sub(r"limit_conn dicepoker_clients \d+;", "limit_conn dicepoker_clients 60000;", text)
        text = re.sub(r"listen 80;", f"listen 127.0.0.1:{self.port};", text)
        text = re.sub(r"^pid .*$", f"pid {folder / 'nginx.pid'};", text, flags=re.M)
        text = re.sub(r"^error_log .*$", f"error_log {folder / 'error.log'} warn;", text, flags=re.M)
        text = re.sub(r"worker_processes auto;", "worker_processes 1;", text)
        text = re.sub(r"(\w+_temp_path) \S+;", lambda m: f"{m.group(1)} {folder / m.group(1)};", text)
        return "daemon off;\n" + text

    def start(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        conf = self.folder / "nginx.conf"
        conf.write_text(self.config())
        command = [NGINX, "-p", str(self.folder), "-c", str(conf), "-e", str(self.folder / "error.log")]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        wait_for(lambda: reachable("127.0.0.1", self.port), 10, f"nginx did not start: {self._errors()}")

    def _errors(self) -> str:
        path = self.folder / "error.log"
        return path.read_text()[-2000:] if path.exists() else ""

    def stop(self) -> None:
        if self.process is not None:
            self.process.send_signal(signal.SIGTERM)  # fast shutdown: do not wait for open WebSockets
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
            self.process = None


def wait_for(condition: object, timeout: float, message: str) -> None:
    """Poll ``condition`` (a callable) until true: waiting for a process to come up, not for game time."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return
        time.sleep(0.05)
    raise AssertionError(message)


# -- when a test fails: what the processes said, and where the games were ------------------------------------
def log_tail(path: Path, lines: int = 12, *, tables: Iterable[str] = ()) -> str:
    """The end of a server's log (``path``): its last warnings, errors and lines that are not JSON
    (tracebacks, uvicorn's own), its last lines, and the last lines naming each of ``tables``."""
    if not path.exists():
        return f"  ({path} does not exist)"
    text = path.read_text(errors="replace").splitlines()
    loud = [line for line in text if not line.startswith("{") or '"level": "info"' not in line]
    parts = [f"  {path}: {len(text)} lines; last warnings/errors/other:", *loud[-lines:], "  last lines:"]
    parts += text[-lines:]
    for table in tables:
        parts += [f"  last lines about table {table}:", *[line for line in text if table in line][-5:]]
    return "\n".join(parts)


def report(
    servers: Sequence[Server], *, db: str | None = None, nginx: Nginx | None = None, tables: Iterable[str] = ()
) -> str:
    """What the processes said and where the games are: appended to a failing test's error."""
    tables = list(tables)
    parts = ["=" * 30 + " multi-process diagnostics " + "=" * 30]
    for index, server in enumerate(servers):
        parts.append(f"server {index} on port {server.port}: {server.state()}, killed {server.kills} times")
        parts.append(log_tail(server.log, tables=tables))
    if nginx is not None:
        parts.append(f"nginx on port {nginx.port}, error log:\n{nginx._errors()[-1500:]}")
    if db is not None:
        try:
            rows = query(db, "SELECT id, game, status, version, stamp FROM dp_tables WHERE status <> 'finished'")
            parts.append(f"unfinished tables (id, game, status, version, stamp): {rows[:40]}")
            for table in tables:
                found = query(db, "SELECT game, status, version FROM dp_tables WHERE id = %s", table)
                parts.append(f"table {table}: {found}")
        except Exception as exc:  # the database itself may be what failed
            parts.append(f"(database not readable: {exc!r})")
    return "\n".join(parts)


@contextlib.contextmanager
def explain_failure(describe: Callable[[], str]) -> Iterator[None]:
    """Add ``describe()`` to any error raised inside (shown with the traceback, and printed)."""
    try:
        yield
    except Exception as exc:
        try:
            text = describe()
        except Exception as inner:
            text = f"(no diagnostics: {inner!r})"
        exc.add_note(text)
        print(text)
        raise
