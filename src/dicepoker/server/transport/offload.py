"""Heavy answers (replays, verifications, reviews, hand histories) computed once, off the event loop.

Replaying a long game takes a tenth of a second or more (a 6,534-event Hold'em game's hand history: 150
ms); done on the event loop it stalls every table's frames, clocks and pings for that long, and a client
repeating it stalls them for good (issue 19 §4). So:

- **Cached.** A finished table's log never changes, so its text is kept by table id; every answer built
  from a log (a replay as one seat saw it, a verification, a review, a hand history) is kept under the
  SHA-256 of the log text it was built from, so a replay by table id and an upload of the same file share
  one entry. The cache is an LRU bounded by bytes and by entries; answers are kept encoded (JSON bytes),
  so a hit costs a dictionary lookup and no serialisation.
- **Off the loop.** A miss is computed in a worker process (or, with ``processes=False``, a worker thread),
  at most ``workers`` at a time; the others wait off the loop. Processes because a thread still shares
  the GIL with the event loop: measured with ``benchmarks/bench_heavy.py``, a client hammering uncached
  replays pushed the ping's p50 to 18-33 ms with threads. Identical requests arriving together wait for
  one computation, which goes on if the request that started it goes away.
- **Limited per client.** Each computation (a cache miss: a replay, verification, review, hand history, or
  a finished log read from the database) counts against the client's budget, ``limit`` a minute per
  address (:class:`~.ratelimit.RateLimiter`, shared through Redis in a cluster); over it, 429 with
  ``Retry-After``. Answers from the cache cost nothing and are not counted, so polling a finished table
  is free while cycling through many tables or uploading ever-different logs is not.

Errors (a log that does not replay: 422) are not cached: they are cheap to find again and rate-limited.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import multiprocessing
from collections import Counter, OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol

import anyio
import anyio.to_thread
from fastapi import HTTPException

from dicepoker.core.types import JSON
from dicepoker.server.errors import NotFound, ServiceError
from dicepoker.server.transport.ratelimit import RateLimiter

logger = logging.getLogger("dicepoker.server.transport.offload")
MAX_CACHE_BYTES = 64 * 1024 * 1024
"""Cached answers and logs in all: a long Hold'em game's replay is a few megabytes."""
MAX_CACHE_ENTRIES = 1024
WORKERS = 2
"""Heavy computations at a time: the machine's other cores stay for the event loop and the database."""


class ByteLRU:
    """A least-recently-used cache of byte strings, bounded by their total size and their number."""

    def __init__(self, max_bytes: int = MAX_CACHE_BYTES, max_entries: int = MAX_CACHE_ENTRIES) -> None:
        if max_bytes < 0 or max_entries < 0:
            raise ValueError("cache bounds are 0 or more")
        self.max_bytes = max_bytes
        self.max_entries = max_entries
        self.size = 0
        self._items: OrderedDict[Hashable, bytes] = OrderedDict()

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: Hashable) -> bytes | None:
        value = self._items.get(key)
        if value is not None:
            self._items.move_to_end(key)
        return value

    def put(self, key: Hashable, value: bytes) -> None:
        """Keep ``value`` (a value larger than the whole cache is not kept: it would evict everything)."""
        old = self._items.pop(key, None)
        if old is not None:
            self.size -= len(old)
        if len(value) > self.max_bytes or self.max_entries == 0:
            return
        self._items[key] = value
        self.size += len(value)
        while self.size > self.max_bytes or len(self._items) > self.max_entries:
            _, evicted = self._items.popitem(last=False)
            self.size -= len(evicted)


class LogSource(Protocol):
    """What :meth:`HeavyWork.finished_log` reads a finished table's log from (the table service)."""

    def log_text(self, table_id: str, *, history: bool = False) -> Awaitable[str]: ...


class HeavyWork:
    """The cache and the worker threads of one app (``app.state.heavy_work``)."""

    def __init__(
        self,
        *,
        max_bytes: int = MAX_CACHE_BYTES,
        max_entries: int = MAX_CACHE_ENTRIES,
        workers: int = WORKERS,
        limiter: RateLimiter | None = None,
        limit: int | None = None,
        processes: bool = False,
    ) -> None:
        self.cache = ByteLRU(max_bytes, max_entries)
        self.workers = workers
        self.processes = processes
        """Compute in worker processes (started on the first miss); otherwise in worker threads."""
        self.limiter = limiter
        self.limit = limit
        """Computations a minute per client (``None``: no limit)."""
        self.computed: Counter[str] = Counter()
        """Computations per kind (``replay``, ``verify``, ``review``, ``history``, ``log``): tests count them."""
        self.hits: Counter[str] = Counter()
        self._threads: anyio.CapacityLimiter | None = None
        self._pool: ProcessPoolExecutor | None = None
        self._pending: dict[Hashable, asyncio.Future[bytes]] = {}

    async def answer(
        self, kind: str, text: str, detail: Hashable, build: Callable[..., JSON], *args: Any, client: str | None = None
    ) -> bytes:
        """``build(*args)`` as JSON bytes, from the cache or from a worker; keyed by ``kind``, the SHA-256 of
        the log's ``text`` and ``detail`` (what else was asked). ``build`` is a module-level function (a
        worker process is sent it by name) that may raise :class:`HTTPException` or a service error.
        A computation counts against ``client``'s budget (429 over it)."""
        key = (kind, hashlib.sha256(text.encode()).hexdigest(), detail)
        return await self._cached(key, kind, build, args, client)

    async def finished_log(
        self, service: LogSource, table_id: str, *, history: bool = False, client: str | None = None
    ) -> str:
        """A finished table's log (or hand history) text: immutable, so read from the service once.

        The service raises (409) while the game runs; nothing is cached then. The hand history is written
        from the log in a worker thread (it replays the whole game)."""
        log_key = ("log", table_id)
        log = self.cache.get(log_key)
        if log is None:
            text = await service.log_text(table_id)
            await self._charge(client)  # after: an unknown or unfinished table costs a lookup, not a read
            self.computed["log"] += 1
            log = text.encode()
            self.cache.put(log_key, log)
        else:
            self.hits["log"] += 1
        if not history:
            return log.decode()
        text = log.decode()
        history_key = ("history", table_id)
        return (await self._cached(history_key, "history", _history, (text,), client)).decode()

    async def _charge(self, client: str | None) -> None:
        """Count one computation of ``client``; 429 when it is over its budget for this minute."""
        if self.limiter is None or self.limit is None:
            return
        if not await self.limiter.allow(f"heavy:{client or 'unknown'}", self.limit):
            reason = f"too many replays, verifications or logs to compute: at most {self.limit} a minute"
            raise HTTPException(429, reason, headers={"Retry-After": "60"})

    async def _cached(
        self, key: Hashable, kind: str, build: Callable[..., JSON], args: tuple[Any, ...], client: str | None
    ) -> bytes:
        for charged in (False, True):
            cached = self.cache.get(key)
            if cached is not None:
                self.hits[kind] += 1
                return cached
            pending = self._pending.get(key)
            if pending is not None:  # the same answer is being computed: wait for it rather than compute twice
                self.hits[kind] += 1
                return await asyncio.shield(pending)
            if not charged:
                await self._charge(client)  # may wait on Redis: look again afterwards
        # A task of its own: a request that goes away (its client hung up) does not take the answer
        # others wait for with it.
        task = asyncio.ensure_future(self._compute(key, kind, build, args))
        task.add_done_callback(lambda done: done.cancelled() or done.exception())  # retrieved: no warning
        self._pending[key] = task
        return await asyncio.shield(task)

    async def _compute(self, key: Hashable, kind: str, build: Callable[..., JSON], args: tuple[Any, ...]) -> bytes:
        try:
            status, value = await self._run(build, args)
            self.computed[kind] += 1
            if status != 200:  # not cached: an error is cheap to find again, and the budget limits it
                raise HTTPException(status, value.decode())
            self.cache.put(key, value)
            return value
        finally:
            del self._pending[key]

    async def _run(self, build: Callable[..., JSON], args: tuple[Any, ...]) -> tuple[int, bytes]:
        if self.processes:
            loop = asyncio.get_running_loop()
            try:
                return await loop.run_in_executor(self._worker_processes(), run_build, build, args)
            except BrokenProcessPool:
                # A worker died, or none can start (spawn re-imports the main module: a server started
                # from a script on stdin has none to import). Threads from now on, rather than a 500 each.
                logger.warning("heavy work: the worker processes failed; computing in threads from now on")
                self.close()
                self.processes = False
        return await anyio.to_thread.run_sync(run_build, build, args, limiter=self._worker_threads())

    def _worker_processes(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # Spawned, not forked: the server's threads (and the event loop's state) must not be copied.
            self._pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"))
        return self._pool

    def close(self) -> None:
        """Stop the worker processes (the app's shutdown calls it); a later miss starts new ones."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)  # joined: no worker outlives the server
            self._pool = None

    def _worker_threads(self) -> anyio.CapacityLimiter:
        if self._threads is None:  # created on first use: it belongs to the running event loop
            self._threads = anyio.CapacityLimiter(self.workers)
        return self._threads


def encode_json(value: JSON, depth: int = 3) -> str:
    """``json.dumps(value, separators=(",", ":"))``, encoded piece by piece down to ``depth`` levels.

    One ``json.dumps`` of a long game's replay (3.6 MB, 6,720 frames) is a single C call that holds the GIL
    for about 0.2 s, and the event loop's thread waits all that time; pieces of a frame each are a
    fraction of a millisecond, and the loop gets the GIL between them.

    >>> value = {"a": [1, {"b": None}], "c": "é"}
    >>> encode_json(value) == json.dumps(value, separators=(",", ":"))
    True
    """
    if depth > 0 and isinstance(value, dict):
        items = (f"{json.dumps(str(key))}:{encode_json(item, depth - 1)}" for key, item in value.items())
        return "{" + ",".join(items) + "}"
    if depth > 0 and isinstance(value, list):
        return "[" + ",".join(encode_json(item, depth - 1) for item in value) + "]"
    return json.dumps(value, separators=(",", ":"))


def run_build(build: Callable[..., JSON], args: tuple[Any, ...]) -> tuple[int, bytes]:
    """``(200, body)`` or ``(status, reason)``: what a worker sends back (exceptions do not cross a process
    boundary whole). A text is the body as it is; anything else is encoded as JSON."""
    try:
        result = build(*args)
    except HTTPException as exc:
        return exc.status_code, str(exc.detail).encode()
    except ServiceError as exc:
        return exc.status, str(exc).encode()
    return 200, (result if isinstance(result, str) else encode_json(result)).encode()


def _history(log_text: str) -> str:
    from dicepoker.core.log import EventLog
    from dicepoker.games.history import variant_names, write_history

    log = EventLog.from_jsonl(log_text)
    if log.game not in variant_names():
        raise NotFound(f"{log.game} has no hand history (only {', '.join(variant_names())})")
    return write_history(log)


DEFAULT_WORK = HeavyWork()
"""For routers mounted without :func:`~.app.create_app` (tests of the browser routes alone)."""
