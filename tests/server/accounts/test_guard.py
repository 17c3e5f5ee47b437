"""The sign-in guard: growing waits, then 15-minute locks, per name and per client (issue 20), with its
counts in this process or shared through Redis by several processes."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Awaitable, Callable

import pytest

from dicepoker.server.accounts.guard import (
    CLIENT_POLICY,
    NAME_POLICY,
    GuardCounts,
    MemoryCounts,
    SignInGuard,
    TooManyAttempts,
)
from tests.server.conftest import FakeClock
from tests.server.scale.harness import REDIS_HOST, REDIS_PORT, reachable

Scenario = Callable[[Callable[[], SignInGuard], FakeClock], Awaitable[None]]


@pytest.fixture(params=["memory", "redis"])
def counts(request: pytest.FixtureRequest) -> str:
    if request.param == "redis" and not reachable(REDIS_HOST, REDIS_PORT):
        pytest.skip("redis-server is not reachable at 127.0.0.1:6379")
    return str(request.param)


def _run(kind: str, scenario: Scenario) -> None:
    """``scenario`` gets a factory of guards: with Redis, each is another "process" over the same counts."""

    async def main() -> None:
        clock = FakeClock()
        memory = MemoryCounts(clock)
        clients = []

        def guard() -> SignInGuard:
            if kind == "memory":
                return SignInGuard(clock, counts=memory)
            import redis.asyncio as redis

            from dicepoker.server.accounts.redis_counts import RedisCounts

            client = redis.from_url(f"redis://{REDIS_HOST}:{REDIS_PORT}/0", decode_responses=True)
            clients.append(client)
            counts: GuardCounts = RedisCounts(client, prefix=prefix, fallback=MemoryCounts(clock))
            return SignInGuard(clock, counts=counts)

        prefix = f"dp-test-{secrets.token_hex(4)}"
        try:
            await scenario(guard, clock)
        finally:
            for client in clients:
                async for key in client.scan_iter(f"{prefix}:*"):
                    await client.delete(key)
                await client.aclose()

    asyncio.run(main())


def test_documented_waits() -> None:
    assert [NAME_POLICY.wait(n) for n in range(12)] == [0, 0, 0, 0, 2, 4, 8, 16, 32, 64, 900, 900]
    assert CLIENT_POLICY.wait(9) == 0 and CLIENT_POLICY.wait(10) == 2 and CLIENT_POLICY.wait(30) == 900


def test_failures_wait_longer_then_lock_and_the_lock_ends(counts: str) -> None:
    async def scenario(guard: Callable[[], SignInGuard], clock: FakeClock) -> None:
        one, other = guard(), guard()
        waits = []
        for attempt in range(20):
            process = (one, other)[attempt % 2]  # with Redis: two processes share the counts
            try:
                await process.check("ada", "10.0.0.1")
            except TooManyAttempts as locked:
                waits.append(locked.retry_after)
                clock.advance(locked.retry_after)
                await process.check("ada", "10.0.0.1")
            await process.failed("ada", "10.0.0.1")
        assert waits == [2, 4, 8, 16, 32, 64] + [900] * 10
        with pytest.raises(TooManyAttempts):
            await one.check("ada", "10.0.0.2")  # the name is locked for every client
        clock.advance(899)
        with pytest.raises(TooManyAttempts):
            await other.check("ada", "10.0.0.2")
        clock.advance(1)
        await other.check("ada", "10.0.0.2")
        await other.succeeded("ada")
        await one.check("ada", "10.0.0.2")

    _run(counts, scenario)


def test_one_client_guessing_many_names_is_slowed_down_too(counts: str) -> None:
    async def scenario(guard: Callable[[], SignInGuard], clock: FakeClock) -> None:
        one = guard()
        for n in range(10):
            await one.check(f"name{n}", "10.0.0.9")
            await one.failed(f"name{n}", "10.0.0.9")
        with pytest.raises(TooManyAttempts):
            await guard().check("another", "10.0.0.9")
        await one.check("another", "10.0.0.8")

    _run(counts, scenario)


def test_failures_are_forgotten_after_an_hour(counts: str) -> None:
    async def scenario(guard: Callable[[], SignInGuard], clock: FakeClock) -> None:
        one = guard()
        for _ in range(4):
            await one.failed("ada", "c")
        clock.advance(3600)
        await one.check("ada", "c")  # the four failures are an hour old: no wait
        await one.failed("ada", "c")
        await one.check("ada", "c")  # and counting starts again from one

    _run(counts, scenario)
