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


@dataclass(slots=True)
class _Count:
    failures: int
    last: float


class SignInGuard:
    """The counts of one process (the embedded server). A cluster would need them in Redis (not yet)."""

    def __init__(
        self,
        now: Callable[[], float] = time.time,
        *,
        name_policy: Policy = NAME_POLICY,
        client_policy: Policy = CLIENT_POLICY,
    ) -> None:
        self.now = now
        self.policies = {"name": name_policy, "client": client_policy}
        self._counts: dict[tuple[str, str], _Count] = {}

    def check(self, name_key: str, client: str) -> None:
        """Raise :class:`TooManyAttempts` if either key must still wait."""
        now = self.now()
        waits = [self._wait(("name", name_key), now), self._wait(("client", client), now)]
        if max(waits) > 0:
            raise TooManyAttempts(max(waits))

    def failed(self, name_key: str, client: str) -> None:
        now = self.now()
        if len(self._counts) > 100_000:
            self._forget_old(now)
        for key in (("name", name_key), ("client", client)):
            count = self._current(key, now)
            self._counts[key] = _Count((count.failures if count else 0) + 1, now)

    def succeeded(self, name_key: str) -> None:
        """The name's failures are forgotten (the client's stay: it may be guessing other names)."""
        self._counts.pop(("name", name_key), None)

    def _current(self, key: tuple[str, str], now: float) -> _Count | None:
        count = self._counts.get(key)
        if count is not None and now - count.last >= self.policies[key[0]].forget_after:
            del self._counts[key]
            return None
        return count

    def _wait(self, key: tuple[str, str], now: float) -> float:
        count = self._current(key, now)
        if count is None:
            return 0.0
        return max(0.0, count.last + self.policies[key[0]].wait(count.failures) - now)

    def _forget_old(self, now: float) -> None:
        for key in list(self._counts):
            self._current(key, now)
