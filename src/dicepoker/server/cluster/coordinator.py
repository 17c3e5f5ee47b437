"""Several identical server processes on one PostgreSQL database and one Redis (issue 11).

PostgreSQL is the record; Redis is the messenger and keeps nothing that matters. Any process may serve
any request for any table (docs/architecture.md has the whole design and its failure cases):

- **Correctness** does not depend on Redis at all: every write is optimistic (``stamp`` and the unique
  (table, seq) key, :mod:`.storage`), so two processes can never both append event ``n`` of a table.
- **Changes** reach the other processes as messages on the table's channel (the record without its
  secret seed, and the events of that commit). A process follows the channels of the tables it leases
  or has connections to; one that sees a gap, or whose Redis connection came back, catches up from the
  database (:mod:`.replica`).
- **Clocks** (timeouts, bots, autofill): each unfinished table has a lease ``lease:<id>`` (a Redis key
  with a time to live, renewed every second). Only the holder schedules the table. A process that dies
  stops renewing; within ``lease_ttl`` the key expires and another process's scan takes it (within 10 s
  of the death with the defaults), reads the table back and applies whatever is due, once: were two
  processes ever to apply the same timeout, the second write would hit the unique key and be dropped.
- **Presence** ("who is connected") is a sorted set per table of ``process|seat|count`` members that
  expire unless their process renews them, so a dead process's connections vanish on their own.
- **Rate limits** are fixed-window counters in Redis, shared by every process (:meth:`Cluster.allow`).

When Redis is away, games go on: actions are still committed (to PostgreSQL) and answered; the other
processes' clients hear of them when Redis is back (each subscriber catches up from the database);
leases are kept by their holders, and none can be taken until Redis returns.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import os
import random
import secrets
import socket
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import redis.asyncio as redis
from redis.exceptions import RedisError

from dicepoker.core.types import JSON, Seat
from dicepoker.server.cluster.redis_pubsub import RedisPublisher, RedisPubSub, RedisSubscription
from dicepoker.server.logs import log_event
from dicepoker.server.storage.records import EventRecord
from dicepoker.server.tables.replica import events_from_json, events_json, record_from_json, record_json
from dicepoker.server.tables.table import FINISHED, Table

if TYPE_CHECKING:
    from dicepoker.server.tables.service import TableService

logger = logging.getLogger("dicepoker.server.cluster.coordinator")
_RENEW = """
local kept = {}
for i, key in ipairs(KEYS) do
  local holder = redis.call('GET', key)
  if holder == ARGV[1] then
    kept[i] = redis.call('PEXPIRE', key, ARGV[2])
  elseif not holder then
    kept[i] = redis.call('SET', key, ARGV[1], 'PX', ARGV[2]) and 1 or 0
  else
    kept[i] = 0
  end
end
return kept
"""
"""Renew every lease of this process in one call (one command per lease cost ~50 µs of Python each at every
beat): each kept (1), re-created if Redis lost it (1), or held by another process now (0)."""
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


SAFETY_SCAN_BEATS = 30
"""Beats between two looks for orphan tables when no process has left (a lease lost some other way)."""


class Cluster:
    """This process's part in a cluster; see the module docstring. ``now``: wall clock (presence)."""

    def __init__(
        self,
        url: str,
        *,
        prefix: str = "dicepoker",
        lease_ttl: float = 5.0,
        name: str | None = None,
        now: Callable[[], float] = time.time,
    ) -> None:
        self.url = url
        self.prefix = prefix
        self.lease_ttl = lease_ttl
        self.beat = lease_ttl / 5
        self.name = name or f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(2)}"
        self.now = now
        options: dict[str, Any] = {"decode_responses": True, "socket_timeout": 2.0, "socket_connect_timeout": 2.0}
        self.redis: redis.Redis = redis.from_url(url, **options)
        # This process's own messages (see changed: "origin" comes first) are dropped before being parsed.
        own = '{"origin":' + json.dumps(self.name) + ","
        self.bus = RedisPubSub(url, prefix=f"{prefix}:table:", client=redis.from_url(url, **options), ignore=own)
        self.owned: set[str] = set()
        self.local: dict[str, dict[Seat | None, int]] = {}
        self._followed: dict[str, tuple[RedisSubscription, asyncio.Task[None]]] = {}
        self._renew = self.redis.register_script(_RENEW)
        self._release = self.redis.register_script(_RELEASE)
        self.publisher = RedisPublisher(self.redis)
        self._tasks: list[asyncio.Task[None]] = []
        self._service: TableService | None = None
        self.takeovers = 0
        self._members: set[str] | None = None  # the live processes at the last beat (None: none seen yet)
        self._scan_until = 0.0  # look for orphan tables every beat until then (a process left)

    @property
    def service(self) -> TableService:
        if self._service is None:
            raise RuntimeError("the cluster is not started")
        return self._service

    def _key(self, *parts: str) -> str:
        return ":".join((self.prefix, *parts))

    # -- life cycle ---------------------------------------------------------------------------------
    async def start(self, service: TableService) -> None:
        self._service = service
        self._tasks = [asyncio.create_task(self._beat_loop(), name="dicepoker-cluster-beat")]
        log_event(logger, "cluster joined", process=self.name, prefix=self.prefix)

    async def stop(self) -> None:
        """Leave: hand the leases back (others take the tables at once) and remove this presence."""
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(BaseException):
                await task
        self._tasks = []
        with contextlib.suppress(RedisError, OSError):
            async with self.redis.pipeline(transaction=False) as pipe:
                for table_id in self.owned:
                    await self._release(keys=[self._key("lease", table_id)], args=[self.name], client=pipe)
                for table_id, counts in self.local.items():
                    for seat, count in counts.items():
                        pipe.zrem(self._key("presence", table_id), _member(self.name, seat, count))
                pipe.zrem(self._key("processes"), self.name)
                await pipe.execute()
        self.owned.clear()
        for subscription, task in self._followed.values():
            task.cancel()
            subscription.close()
        self._followed.clear()
        await self.publisher.close()
        await self.bus.close()
        with contextlib.suppress(RedisError, OSError, RuntimeError):
            await self.redis.aclose()
        log_event(logger, "cluster left", process=self.name)

    # -- what the service and the dealer ask --------------------------------------------------------
    def owns(self, table_id: str) -> bool:
        return table_id in self.owned

    def tracks(self, table_id: str) -> bool:
        return table_id in self._followed

    async def created(self, table: Table) -> None:
        if await self._claim(table.id):
            await self._follow(table.id)

    async def changed(self, table: Table, events: Sequence[EventRecord], extra: dict[str, int]) -> None:
        message: dict[str, JSON] = {"origin": self.name, "table": table.id}  # origin first: see the bus's ignore
        if "presence" in extra:
            message["presence"] = extra["presence"]
        else:
            message["record"] = record_json(table.record)
            message["events"] = events_json(events)
        self.publisher.publish(self.bus.prefix + table.id, _dumps(message))  # no waiting: see RedisPublisher
        if table.status == FINISHED and table.id in self.owned:
            self.owned.discard(table.id)
            with contextlib.suppress(RedisError, OSError):
                await self._release(keys=[self._key("lease", table.id)], args=[self.name])
                await self.redis.hdel(self._key("renewed"), table.id)

    async def connection(self, table: Table, seat: Seat | None, delta: int) -> bool:
        counts = self.local.setdefault(table.id, {})
        old = counts.get(seat, 0)
        new = max(0, old + delta)
        if new:
            counts[seat] = new
        else:
            counts.pop(seat, None)
        if delta > 0 and table.id not in self._followed:
            await self._follow(table.id)
            await self.service.dealer.refresh(table)  # whatever happened before the subscription took
        before = _connected(table)
        key = self._key("presence", table.id)
        try:
            async with self.redis.pipeline(transaction=True) as pipe:
                if old:
                    pipe.zrem(key, _member(self.name, seat, old))
                if new:
                    pipe.zadd(key, {_member(self.name, seat, new): self.now() + 3 * self.lease_ttl})
                pipe.expire(key, 86_400)
                await pipe.execute()
        except (RedisError, OSError) as exc:
            logger.warning("presence of table %s not shared: %r", table.id, exc)
        await self._merge_presence(table)
        if not counts:
            self.local.pop(table.id, None)
            if table.id not in self.owned:
                await self._unfollow(table.id)
        return _connected(table) != before

    async def allow(self, key: str, limit: int, window: float = 60.0) -> bool:
        """Count one request of ``key`` in the current window, shared by every process; whether it is
        within ``limit``. Without Redis everything is allowed (a limit is no reason to stop the games)."""
        slot = int(self.now() // window)
        name = self._key("rate", key, str(slot))
        try:
            async with self.redis.pipeline(transaction=True) as pipe:
                pipe.incr(name)
                pipe.expire(name, math.ceil(window) * 2)
                count, _ = await pipe.execute()
        except (RedisError, OSError):
            return True
        return int(count) <= limit

    # -- following tables ---------------------------------------------------------------------------
    async def _follow(self, table_id: str) -> None:
        if table_id in self._followed:
            return
        subscription = self.bus.subscribe(table_id)
        task = asyncio.create_task(self._consume(table_id, subscription), name=f"dicepoker-follow-{table_id}")
        self._followed[table_id] = (subscription, task)
        await subscription.ready(timeout=2.0)  # from now on nothing published is missed

    async def _unfollow(self, table_id: str) -> None:
        followed = self._followed.pop(table_id, None)
        if followed is not None:
            subscription, task = followed
            subscription.close()
            if task is not asyncio.current_task():
                task.cancel()

    async def _consume(self, table_id: str, subscription: RedisSubscription) -> None:
        async for message in subscription:
            if not isinstance(message, dict) or message.get("origin") == self.name:
                continue
            table = self.service._tables.get(table_id)
            if table is None:
                continue
            try:
                if "resync" in message:
                    await self.service.dealer.refresh(table)
                    await self._merge_presence(table, announce=True)
                elif "presence" in message:
                    await self._merge_presence(table, announce=True)
                else:
                    record = record_from_json(message["record"])
                    await self.service.dealer.receive(table, record, events_from_json(message["events"]))
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # a message we cannot use: the database says what happened
                logger.warning("table %s: message not applied (%r): reading the table back", table_id, exc)
                with contextlib.suppress(Exception):
                    await self.service.dealer.refresh(table)

    async def _merge_presence(self, table: Table, *, announce: bool = False) -> None:
        """``table.connections`` := every live process's connections; announce a change of ``connected``."""
        local = self.local.get(table.id, {})
        merged: dict[Seat | None, int] = {}
        members: list[str] = []
        with contextlib.suppress(RedisError, OSError):
            found = await self.redis.zrangebyscore(self._key("presence", table.id), self.now(), "+inf")
            members = [m for m in found if isinstance(m, str)]
        for member in members:
            process, seat, count = _parse_member(member)
            if process != self.name:
                merged[seat] = merged.get(seat, 0) + count
        for seat, count in local.items():  # this process's own counts are known exactly
            merged[seat] = merged.get(seat, 0) + count
        before = _connected(table)
        table.connections = merged
        if announce and _connected(table) != before:
            table.presence += 1
            await self.service.dealer.pubsub.publish(table.id, {"table": table.id, "presence": table.presence})

    # -- leases ---------------------------------------------------------------------------------------
    async def _claim(self, table_id: str) -> bool:
        try:
            taken = await self.redis.set(self._key("lease", table_id), self.name, nx=True, px=self._ttl_ms)
        except (RedisError, OSError) as exc:
            logger.warning("lease of table %s not taken: %r", table_id, exc)
            return False
        if taken:
            self.owned.add(table_id)
            with contextlib.suppress(RedisError, OSError):
                await self.redis.hset(self._key("renewed"), table_id, repr(self.now()))
        return bool(taken)

    @property
    def _ttl_ms(self) -> int:
        return int(self.lease_ttl * 1000)

    async def _beat_loop(self) -> None:
        beats = 0
        while True:
            try:
                await self._beat(beats)
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError) as exc:
                if beats % 10 == 0:
                    logger.warning("cluster heartbeat: redis unavailable: %r", exc)
            except Exception:
                logger.exception("cluster heartbeat failed")
            beats += 1
            await asyncio.sleep(self.beat)

    async def _beat(self, beats: int) -> None:
        """Once a beat: say this process lives, renew its leases and presence, take over orphan tables."""
        now = self.now()
        for table_id in sorted(self.owned):  # finished through another process: nothing left to time
            table = self.service._tables.get(table_id)
            if table is not None and table.status == FINISHED:
                self.owned.discard(table_id)
                await self._release(keys=[self._key("lease", table_id)], args=[self.name])
                await self.redis.hdel(self._key("renewed"), table_id)
        owned = sorted(self.owned)
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zadd(self._key("processes"), {self.name: now + 3 * self.beat})
            pipe.zremrangebyscore(self._key("processes"), "-inf", now)
            pipe.zrange(self._key("processes"), 0, -1)
            if owned:
                await self._renew(
                    keys=[self._key("lease", i) for i in owned], args=[self.name, self._ttl_ms], client=pipe
                )
                # when each table's timer was last seen alive (what a takeover gives back)
                pipe.hset(self._key("renewed"), mapping={table_id: repr(now) for table_id in owned})
            for table_id, counts in self.local.items():
                for seat, count in counts.items():
                    pipe.zadd(
                        self._key("presence", table_id), {_member(self.name, seat, count): now + 3 * self.lease_ttl}
                    )
            results = await pipe.execute()
        members = {str(m) for m in results[2]}
        alive = max(1, len(members))
        for table_id, kept in zip(owned, results[3] if owned else [], strict=True):
            if not kept:
                await self._lost(table_id)
        for table_id in list(self._followed):
            if table_id not in self.owned and table_id not in self.local:
                await self._unfollow(table_id)
        if beats % 3 == 2:  # connections of processes that died expire: tell this process's clients
            for table_id in list(self._followed):
                table = self.service._tables.get(table_id)
                if table is not None:
                    await self._merge_presence(table, announce=True)
        # Orphan tables appear when a process leaves (dies, stops, or Redis forgot it): look for them each beat
        # from then until its leases have expired and been shared out, and otherwise only now and then.
        # Scanning every beat read every unfinished table's lease each second: at 1,250 tables, a fifth of a
        # process's time, and the pauses that made the cross-process fan-out's tail.
        left = self._members is not None and bool(self._members - members)
        if self._members is None or left:
            self._scan_until = now + self.lease_ttl + 2 * self.beat
        self._members = members
        if left:
            # A process that died between a commit and its publish took that message with it, and if it was a
            # game's last move no later message shows the gap: read back every table followed here.
            for table_id in list(self._followed):
                table = self.service._tables.get(table_id)
                if table is not None and table.status != FINISHED:
                    await self.service.dealer.refresh(table)
        if now <= self._scan_until or beats % SAFETY_SCAN_BEATS == 0:
            await self._take_over(alive)

    async def _lost(self, table_id: str) -> None:
        self.owned.discard(table_id)
        log_event(logger, "lease lost", table=table_id, process=self.name)
        table = self.service._tables.get(table_id)
        if table is not None:
            self.service.dealer.after_change(table)  # no longer scheduled here

    async def _take_over(self, alive: int) -> None:
        """Take the leases nobody holds: a fair share per beat, so that the survivors split the tables."""
        ids = await self.service.storage.unfinished_ids()
        if not ids:
            return
        holders = await self.redis.mget([self._key("lease", i) for i in ids])
        free = [i for i, holder in zip(ids, holders, strict=True) if holder is None and i not in self.owned]
        random.shuffle(free)
        for table_id in free[: max(1, math.ceil(len(free) / alive))]:
            # Read before the claim overwrites it: when the last holder was last seen timing the table.
            renewed = await self.redis.hget(self._key("renewed"), table_id)
            if not await self._claim(table_id):
                continue
            self.takeovers += 1
            log_event(logger, "lease taken", table=table_id, process=self.name, renewed=renewed)
            await self._follow(table_id)
            try:
                await self.service.adopt(table_id, unattended_since=_seconds(renewed))
            except Exception as exc:
                logger.warning("table %s: taken over but not restored: %r", table_id, exc)


def _seconds(value: object) -> float | None:
    """A time stored in Redis, or ``None`` (never stored, or lost with a Redis restart: nothing given back)."""
    try:
        return float(value) if isinstance(value, (str, bytes)) else None
    except ValueError:
        return None


def _member(process: str, seat: Seat | None, count: int) -> str:
    return f"{process}|{'s' if seat is None else seat}|{count}"


def _parse_member(member: str) -> tuple[str, Seat | None, int]:
    process, seat, count = member.rsplit("|", 2)
    return process, None if seat == "s" else int(seat), int(count)


def _connected(table: Table) -> frozenset[Seat]:
    return frozenset(s for s, n in table.connections.items() if s is not None and n > 0)


def _dumps(message: dict[str, JSON]) -> str:
    return json.dumps(message, separators=(",", ":"))
