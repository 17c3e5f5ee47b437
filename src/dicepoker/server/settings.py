"""How a server is configured: one frozen value, built by ``dicepoker serve`` or by a test."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from dicepoker.server.pubsub import PubSub
from dicepoker.server.storage import Storage


@dataclass(frozen=True)
class Settings:
    db_url: str | None = None
    """Any SQLAlchemy URL (``sqlite:///file.db``, ``postgresql://…``); ``None`` keeps everything in memory."""
    db_schema: str | None = None
    """PostgreSQL only: the schema to work in (created if missing); tests use one per run."""
    sqlite_synchronous: str = "NORMAL"
    """WAL with NORMAL survives a killed process; FULL also survives a power cut, at more fsyncs."""
    autofill: float = 10.0
    """Seconds before a play-now table's empty seats are given to bots."""
    bot_delay: float = 0.5
    """Seconds a server-side bot waits before it acts, so that people can follow (0 in tests)."""
    allowed_origins: tuple[str, ...] = ()
    """Origins (``https://example.org``) allowed besides the server's own, for CORS and WebSockets."""
    max_frame: int = 16 * 1024
    """Largest WebSocket text frame read (bytes); larger ones are an error."""
    max_body: int = 64 * 1024
    """Largest HTTP request body."""
    max_bad_frames: int = 20
    """Malformed frames tolerated on one connection before it is closed (1008)."""
    max_frames_per_second: int = 50
    now: Callable[[], float] = time.time
    """The wall clock of the turn clocks (tests inject a fake one)."""
    scheduler: bool = True
    """Run the scheduler task (tests with a fake clock may call ``service.tick()`` themselves)."""
    warm_tables: bool = True
    """Load the rules' lookup tables before serving, and the bots' in the background (:mod:`.warmup`)."""
    redis_url: str | None = None
    """``redis://host:port/db``: share the tables with every server process on the same database and Redis
    (issue 11, :mod:`.cluster`); ``None``: the embedded single-process server."""
    redis_prefix: str = "dicepoker"
    """Prefix of every Redis key and channel (several sites, or test runs, on one Redis)."""
    lease_ttl: float = 5.0
    """Seconds a dead process's tables wait before another process takes their clocks over."""
    rate_limit: int | None = 120
    """POST requests and WebSocket connections a minute per client address (shared through Redis in a
    cluster); ``None``: no limit. On by default (issue 19 §7): one client made 20,003 tables in 60 s."""
    max_open_tables: int | None = 20
    """Unfinished tables one client address may have created (``POST /api/tables``) in this process;
    ``None``: no cap (:mod:`.limits`)."""
    waiting_ttl: float | None = 3600.0
    """Seconds a table may wait for players before it expires (closed, never restored); ``None``: for ever."""
    storage: Storage | None = field(default=None, compare=False)
    """A storage to use instead of ``db_url`` (tests)."""
    pubsub: PubSub | None = field(default=None, compare=False)
