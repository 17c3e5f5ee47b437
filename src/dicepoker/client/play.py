"""Playing one seat to the end over a :class:`TableConnection`: the loop every network bot shares."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable

from dicepoker.client.connection import ActionRejected, TableConnection
from dicepoker.client.protocol import StateFrame

Chooser = Callable[[StateFrame], str | None]
"""Picks an action's text form from a state frame (usually one of ``legal_actions``), or None to wait."""

MAX_RETRIES = 3
"""Rejections of one state before waiting for the table to change (a chooser stuck on an illegal action)."""


def random_chooser(rng: random.Random) -> Chooser:
    """Any legal action, uniformly: enough to play every game to its end."""

    def choose(state: StateFrame) -> str | None:
        return rng.choice(state.legal_actions) if state.legal_actions else None

    return choose


async def play_seat(
    table: TableConnection,
    choose: Chooser,
    *,
    on_state: Callable[[StateFrame], Awaitable[None] | None] | None = None,
    act_timeout: float | None = 30.0,
) -> StateFrame:
    """Act whenever this seat may, until the game is finished; returns the final state.

    ``act_timeout`` bounds the wait for each action's answer (a restarting server on a busy machine may
    take a while: the connection resends the action with the same id, so waiting longer is safe).

    A stale rejection (someone else acted first, or a clock ran out) just waits for the new state; any
    other rejection lets ``choose`` try again, a few times, on the same state.
    """
    retries = 0
    async for state in table:
        if on_state is not None:
            waiting = on_state(state)
            if waiting is not None:
                await waiting
        if state.finished:
            return state
        action = choose(state) if state.legal_actions else None
        if action is None:
            continue
        try:
            await table.act(action, version=state.version, timeout=act_timeout)
            retries = 0
        except ActionRejected as exc:
            if exc.retry_after is not None:  # not saved (the server's database failed): the same state, later
                await asyncio.sleep(exc.retry_after)
                table.redeliver()
                continue
            retries += 1
            if not exc.stale and retries <= MAX_RETRIES:
                table.redeliver()
    assert table.state is not None  # the iterator only ends after a finished state
    return table.state
