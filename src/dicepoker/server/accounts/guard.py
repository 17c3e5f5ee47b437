"""The sign-in guard: failed sign-ins slow down, then lock, per account name and per client address.

Each key (a name key, a client address) counts its failed sign-ins; the count is forgotten after a success
for that name, or :attr:`Policy.forget_after` seconds after the key's last failure. With ``n`` failures:

- ``n < free``: no wait;
- ``free <= n < lock_at``: the next attempt waits ``base_delay * 2 ** (n - free)`` seconds after the last
  failure (2, 4, 8, ... s): growing delays;
- ``n >= lock_at``: the key is locked for ``lock_seconds`` after its last failure.

An attempt that comes while its key must wait is refused (429, ``Retry-After``) without checking the
password, so waiting costs the server nothing, and it does not count as a failure. The numbers, for names
and for clients, are :data:`NAME_POLICY` and :data:`CLIENT_POLICY` (``docs/accounts.md`` repeats them).
Unknown names are counted exactly like known ones: the guard's answers say nothing about who exists.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from dicepoker.server.errors import ServiceError


@dataclass(frozen=True, slots=True)
class Policy:
    free: int
    lock_at: int
    base_delay: float = 2.0
    lock_seconds: float = 15 * 60.0
    forget_after: float = 60 * 60.0

    def wait(self, failures: int) -> float:
        """Seconds after the last failure before the next attempt is heard."""
        if failures < self.free:
            return 0.0
        if failures >= self.lock_at:
            return self.lock_seconds
        return min(self.base_delay * 2.0 ** (failures - self.free), self.lock_seconds)


NAME_POLICY = Policy(free=4, lock_at=10)
"""Per account name: 4 free failures, then waits of 2, 4, 8, 16, 32, 64 s, then 15-minute locks."""
CLIENT_POLICY = Policy(free=10, lock_at=30)
"""Per client address (one address may sign in to many names, e.g. a shared network): more room."""


class TooManyAttempts(ServiceError):
    """Sign-in refused until ``retry_after`` seconds have passed (429)."""

    status = 429

    def __init__(self, retry_after: float) -> None:
        super().__init__(f"too many failed sign-ins: try again in {int(retry_after + 0.999)} s")
        self.retry_after = retry_after


Key = tuple[str, str]
"""``("name", name_key)`` or ``("client", address)``."""


@dataclass(slots=True)
class Count:
    failures: int
    last: float
    """When the last failure was counted."""


class GuardCounts(Protocol):
    """Where the failure counts live: this process (:class:`MemoryCounts`) or Redis (:class:`RedisCounts`)."""

    async def get(self, key: Key) -> Count | None: ...

    async def fail(self, key: Key, now: float, forget_after: float) -> None:
        """One more failure at ``now``; the count is forgotten ``forget_after`` seconds later."""

    async def forget(self, key: Key) -> None: ...


class MemoryCounts:
    """The counts of one process (the embedded server)."""

    def __init__(self, now: Callable[[], float] = time.time) -> None:
        self.now = now
        self._counts: dict[Key, tuple[Count, float]] = {}  # count, when it is forgotten

    async def get(self, key: Key) -> Count | None:
        found = self._counts.get(key)
        if found is None:
            return None
        if self.now() >= found[1]:
            del self._counts[key]
            return None
        return Count(found[0].failures, found[0].last)

    async def fail(self, key: Key, now: float, forget_after: float) -> None:
        if len(self._counts) > 100_000:  # drop the forgotten ones
            self._counts = {k: v for k, v in self._counts.items() if v[1] > now}
        count = await self.get(key)
        self._counts[key] = (Count((count.failures if count else 0) + 1, now), now + forget_after)

    async def forget(self, key: Key) -> None:
        self._counts.pop(key, None)


class SignInGuard:
    """Decides, from the counts, whether a sign-in is heard now (see the module docstring)."""

    def __init__(
        self,
        now: Callable[[], float] = time.time,
        *,
        counts: GuardCounts | None = None,
        name_policy: Policy = NAME_POLICY,
        client_policy: Policy = CLIENT_POLICY,
    ) -> None:
        self.now = now
        self.counts = counts or MemoryCounts(now)
        self.policies = {"name": name_policy, "client": client_policy}

    async def check(self, name_key: str, client: str) -> None:
        """Raise :class:`TooManyAttempts` if either key must still wait."""
        now = self.now()
        waits = [await self._wait(("name", name_key), now), await self._wait(("client", client), now)]
        if max(waits) > 0:
            raise TooManyAttempts(max(waits))

    async def failed(self, name_key: str, client: str) -> None:
        now = self.now()
        for key in (("name", name_key), ("client", client)):
            await self.counts.fail(key, now, self.policies[key[0]].forget_after)

    async def succeeded(self, name_key: str) -> None:
        """The name's failures are forgotten (the client's stay: it may be guessing other names)."""
        await self.counts.forget(("name", name_key))

    async def _wait(self, key: Key, now: float) -> float:
        count = await self.counts.get(key)
        policy = self.policies[key[0]]
        if count is None or now - count.last >= policy.forget_after:
            return 0.0
        return max(0.0, count.last + policy.wait(count.failures) - now)
