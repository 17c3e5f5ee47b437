"""Heavy answers (replays, verifications, reviews, hand histories) computed once, off the event loop.

Replaying a long game takes a tenth of a second or more (a 6,534-event Hold'em game's hand history: 150
ms); done on the event loop it stalls every table's frames, clocks and pings for that long, and a client
repeating it stalls them for good (issue 19 §4). So:

- **Cached.** A finished table's log never changes, so its text is kept by table id; every answer built
  from a log (a replay as one seat saw it, a verification, a review, a hand history) is kept under the
  SHA-256 of the log text it was built from, so a replay by table id and an upload of the same file share
  one entry. The cache is an LRU bounded by bytes and by entries; answers are kept encoded (JSON bytes),
  so a hit costs a dictionary lookup and no serialisation.
- **Off the loop.** A miss is computed in a worker thread, at most ``workers`` at a time (the others wait
  off the loop, without holding a thread). Identical requests arriving together wait for one computation.
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
from collections import Counter, OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from typing import Protocol

import anyio
import anyio.to_thread
from fastapi import HTTPException

from dicepoker.core.types import JSON
from dicepoker.server.errors import NotFound
from dicepoker.server.ratelimit import RateLimiter

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
    ) -> None:
        self.cache = ByteLRU(max_bytes, max_entries)
        self.workers = workers
        self.limiter = limiter
        self.limit = limit
        """Computations a minute per client (``None``: no limit)."""
        self.computed: Counter[str] = Counter()
        """Computations per kind (``replay``, ``verify``, ``review``, ``history``, ``log``): tests count them."""
        self.hits: Counter[str] = Counter()
        self._limiter: anyio.CapacityLimiter | None = None
        self._pending: dict[Hashable, asyncio.Future[bytes]] = {}

    async def answer(
        self, kind: str, text: str, detail: Hashable, compute: Callable[[], JSON], *, client: str | None = None
    ) -> bytes:
        """``compute()`` as JSON bytes, from the cache or from a worker thread; keyed by the log's text.
        A computation counts against ``client``'s budget (429 over it)."""
        key = (kind, hashlib.sha256(text.encode()).hexdigest(), detail)
        return await self._cached(key, kind, lambda: encode_json(compute()).encode(), client)

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
        return (await self._cached(history_key, "history", lambda: _history(text).encode(), client)).decode()

    async def _charge(self, client: str | None) -> None:
        """Count one computation of ``client``; 429 when it is over its budget for this minute."""
        if self.limiter is None or self.limit is None:
            return
        if not await self.limiter.allow(f"heavy:{client or 'unknown'}", self.limit):
            reason = f"too many replays, verifications or logs to compute: at most {self.limit} a minute"
            raise HTTPException(429, reason, headers={"Retry-After": "60"})

    async def _cached(self, key: Hashable, kind: str, compute: Callable[[], bytes], client: str | None = None) -> bytes:
        cached = self.cache.get(key)
        if cached is not None:
            self.hits[kind] += 1
            return cached
        pending = self._pending.get(key)
        if pending is not None:  # the same answer is being computed: wait for it rather than compute twice
            self.hits[kind] += 1
            return await asyncio.shield(pending)
        await self._charge(client)
        future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self._pending[key] = future
        try:
            value = await anyio.to_thread.run_sync(compute, limiter=self._worker_limit())
            self.computed[kind] += 1
            self.cache.put(key, value)
            future.set_result(value)
            return value
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: no "exception never retrieved" warning when nobody else waited
            raise
        finally:
            del self._pending[key]

    def _worker_limit(self) -> anyio.CapacityLimiter:
        if self._limiter is None:  # created on first use: it belongs to the running event loop
            self._limiter = anyio.CapacityLimiter(self.workers)
        return self._limiter


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


def _history(log_text: str) -> str:
    from dicepoker.core.log import EventLog
    from dicepoker.games.history import variant_names, write_history

    log = EventLog.from_jsonl(log_text)
    if log.game not in variant_names():
        raise NotFound(f"{log.game} has no hand history (only {', '.join(variant_names())})")
    return write_history(log)


DEFAULT_WORK = HeavyWork()
"""For routers mounted without :func:`~.app.create_app` (tests of the browser routes alone)."""
