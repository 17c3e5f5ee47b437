"""The sign-in guard's failure counts in Redis, shared by every server process of a cluster.

One hash per key (``{prefix}:signin:{kind}:{sha256 of the value}``: names and addresses are not stored in
clear) with ``failures`` and ``last``; it expires ``forget_after`` seconds after its last failure. If Redis
cannot be reached the counts of this process are used meanwhile, so the guard never stops sign-ins nor
stops guarding.
"""

from __future__ import annotations

import hashlib
import logging
import math
from typing import Any

from redis.exceptions import RedisError

from dicepoker.server.accounts.guard import Count, Key, MemoryCounts

logger = logging.getLogger("dicepoker.server.accounts")
# One failure, atomically: a count whose last failure is older than forget_after starts again from 0 (the
# count's clock is the server's, which tests inject; Redis's own expiry only cleans up).
_FAIL = """
local last = redis.call('HGET', KEYS[1], 'last')
if last and tonumber(ARGV[1]) - tonumber(last) >= tonumber(ARGV[2]) then redis.call('DEL', KEYS[1]) end
redis.call('HINCRBY', KEYS[1], 'failures', 1)
redis.call('HSET', KEYS[1], 'last', ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[3])
"""


class RedisCounts:
    def __init__(self, client: Any, *, prefix: str, fallback: MemoryCounts) -> None:
        self.redis = client
        self.prefix = prefix
        self.fallback = fallback

    def _name(self, key: Key) -> str:
        return f"{self.prefix}:signin:{key[0]}:{hashlib.sha256(key[1].encode()).hexdigest()}"

    async def get(self, key: Key) -> Count | None:
        try:
            found = await self.redis.hmget(self._name(key), "failures", "last")
        except (RedisError, OSError):
            logger.warning("redis unreachable: sign-in counts of this process only")
            return await self.fallback.get(key)
        if found[0] is None or found[1] is None:
            return None
        return Count(int(found[0]), float(found[1]))

    async def fail(self, key: Key, now: float, forget_after: float) -> None:
        try:
            await self.redis.eval(_FAIL, 1, self._name(key), repr(now), repr(forget_after), math.ceil(forget_after))
        except (RedisError, OSError):
            logger.warning("redis unreachable: sign-in counts of this process only")
            await self.fallback.fail(key, now, forget_after)

    async def forget(self, key: Key) -> None:
        await self.fallback.forget(key)
        try:
            await self.redis.delete(self._name(key))
        except (RedisError, OSError):
            logger.warning("redis unreachable: sign-in counts of this process only")
