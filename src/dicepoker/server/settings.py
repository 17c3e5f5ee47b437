"""How a server is configured: one frozen value, built by ``dicepoker serve`` or by a test."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from dicepoker.server.storage.records import Storage
from dicepoker.server.tables.pubsub import PubSub


@dataclass(frozen=True)
class Settings:
    db_url: str | None = None
    """Any SQLAlchemy URL (``sqlite:///file.db``, ``postgresql://…``); ``None`` keeps everything in memory."""
    db_schema: str | None = None
    """PostgreSQL only: the schema to work in (created if missing); tests use one per run."""
    sqlite_synchronous: str = "NORMAL"
    """WAL with NORMAL survives a killed process; FULL also survives a power cut, at more fsyncs."""
    allow_empty_db: bool = False
    """Start on a 0-byte SQLite file, or on a missing one where a database was (see :mod:`.dbhealth`)."""
    integrity_interval: float | None = 600.0
    """Seconds between ``PRAGMA quick_check`` runs on a SQLite file while serving; ``None``: only at start."""
    autofill: float = 10.0
    """Seconds before a play-now table's empty seats are given to bots."""
    bot_delay: float = 0.5
    """Seconds a server-side bot waits before it acts, so that people can follow (0 in tests)."""
    allowed_origins: tuple[str, ...] = ()
    """Origins (``https://example.org``) allowed besides the server's own, for CORS and WebSockets."""
    max_frame: int = 16 * 1024
    """Largest WebSocket text frame read (bytes); larger ones are an error."""
    max_body: int = 64 * 1024
    """Largest HTTP request body (but for the log uploads of the browser's replays: ``max_log_upload``)."""
    max_log_upload: int = 4 * 1024 * 1024
    """Largest log or hand history uploaded to ``/api/web/replay``, ``/review`` and ``/verify`` (their body
    limit instead of ``max_body``; the routes themselves never read more than 4 MiB)."""
    heavy_processes: bool = True
    """Compute replays, verifications, reviews and hand histories in worker processes (started on the first
    one), so that they never hold the GIL the event loop needs; ``False``: worker threads."""
    heavy_rate_limit: int | None = 120
    """Replays, verifications, reviews, hand histories and finished logs *computed* a minute per client
    address (each replays a whole game in a worker, or reads a log from the database); answers from
    the cache are not counted. ``None``: no limit."""
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
    ``None``: no cap (:mod:`.tables.quotas`)."""
    waiting_ttl: float | None = 3600.0
    """Seconds a table may wait for players before it expires (closed, never restored); ``None``: for ever."""
    trusted_proxies: tuple[str, ...] = ()
    """Addresses whose ``X-Forwarded-For`` names the client (nginx's); nobody's by default, not even a local
    peer's. Their connections are not capped per address either (they carry everybody's)."""
    allowed_hosts: tuple[str, ...] | None = None
    """``Host`` names answered (DNS rebinding, :mod:`.security`); ``None``: any. ``serve`` sets the
    loopback names when it listens on loopback (:func:`.security.allowed_hosts`)."""
    max_header_bytes: int = 16 * 1024
    """Request line and headers of one HTTP request (larger: 400 and closed)."""
    header_timeout: float = 10.0
    """Seconds for a request's headers to arrive, from its first byte (or the connection's opening)."""
    body_timeout: float = 20.0
    """Seconds a request body may pause between reads. A request late on either is dropped."""
    keep_alive: int = 5
    """Seconds an idle keep-alive connection is kept."""
    max_connections_per_client: int = 256
    """Open connections (HTTP and WebSocket) per peer address, trusted proxies excepted; 0: no cap."""
    max_sockets_per_client: int = 64
    """Open WebSockets per client address (the forwarded one behind a trusted proxy); 0: no cap."""
    behind_https: bool = False
    """The server is reached over https (a TLS proxy in front): session cookies are ``Secure``."""
    storage: Storage | None = field(default=None, compare=False)
    """A storage to use instead of ``db_url`` (tests)."""
    pubsub: PubSub | None = field(default=None, compare=False)
