"""The sign-in guard: growing waits, then 15-minute locks, per name and per client (issue 20)."""

from __future__ import annotations

import pytest

from dicepoker.server.accounts.guard import CLIENT_POLICY, NAME_POLICY, SignInGuard, TooManyAttempts
from tests.server.conftest import FakeClock


def test_documented_waits() -> None:
    assert [NAME_POLICY.wait(n) for n in range(12)] == [0, 0, 0, 0, 2, 4, 8, 16, 32, 64, 900, 900]
    assert CLIENT_POLICY.wait(9) == 0 and CLIENT_POLICY.wait(10) == 2 and CLIENT_POLICY.wait(30) == 900


def test_failures_wait_longer_then_lock_and_the_lock_ends() -> None:
    clock = FakeClock()
    guard = SignInGuard(clock)
    waits = []
    for _ in range(20):
        try:
            guard.check("ada", "10.0.0.1")
        except TooManyAttempts as locked:
            waits.append(locked.retry_after)
            clock.advance(locked.retry_after)
            guard.check("ada", "10.0.0.1")
        guard.failed("ada", "10.0.0.1")
    assert waits == [2, 4, 8, 16, 32, 64] + [900] * 10
    with pytest.raises(TooManyAttempts):
        guard.check("ada", "10.0.0.2")  # the name is locked for every client
    clock.advance(899)
    with pytest.raises(TooManyAttempts):
        guard.check("ada", "10.0.0.2")
    clock.advance(1)
    guard.check("ada", "10.0.0.2")
    guard.succeeded("ada")
    guard.check("ada", "10.0.0.2")


def test_one_client_guessing_many_names_is_slowed_down_too() -> None:
    clock = FakeClock()
    guard = SignInGuard(clock)
    for n in range(10):
        guard.check(f"name{n}", "10.0.0.9")
        guard.failed(f"name{n}", "10.0.0.9")
    with pytest.raises(TooManyAttempts):
        guard.check("another", "10.0.0.9")
    guard.check("another", "10.0.0.8")


def test_failures_are_forgotten_after_an_hour() -> None:
    clock = FakeClock()
    guard = SignInGuard(clock)
    for _ in range(4):
        guard.failed("ada", "c")
    clock.advance(3600)
    guard.failed("ada", "c")
    guard.check("ada", "c")  # one failure now: no wait
