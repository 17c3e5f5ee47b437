"""Frames on the hot path: building a state frame as a dict (what the server does) against building the
protocol's pydantic model and serializing it, and the Python client's parse of one frame against
``json.loads`` of the same text, all measured in the same run on a Dice Hold'em table in mid-hand.

Run: ``python benchmarks/bench_protocol.py [--quick]`` (or ``python benchmarks/run.py protocol``).
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections.abc import Callable
from typing import Any

from pydantic import TypeAdapter

from dicepoker.client.protocol import parse_frame
from dicepoker.protocol.frames import StateFrame
from dicepoker.server.storage.records import MemoryStorage
from dicepoker.server.tables.pubsub import InProcessPubSub
from dicepoker.server.tables.service import TableService
from dicepoker.server.tables.table import Table

STATE = TypeAdapter(StateFrame)


async def _table() -> Table:
    service = TableService(MemoryStorage(), InProcessPubSub(), now=lambda: 1_800_000_000.0, bot_delay=0.0)
    created = await service.create_table("holdem", {}, ["open", "open"], 30.0)
    table_id = str(created["id"])
    for seat in (0, 1):
        await service.join(table_id, seat, f"p{seat}", None)
    table = await service._table(table_id)
    for _ in range(6):  # into the hand: blinds, pockets, a few bets
        to_act = table.to_act()
        if not to_act:
            break
        action = str(table.state.legal_actions(to_act[0])[0])
        await service.act(table_id, to_act[0], action, version=table.version)
    return table


def _best_rates(works: dict[str, Callable[[], Any]], count: int, rounds: int) -> dict[str, float]:
    """Calls per second of each work, the best of ``rounds`` rounds run in turn (a shared machine is noisy:
    the best round is the least disturbed one, and every work gets the same chances)."""
    best = dict.fromkeys(works, 0.0)
    for _ in range(rounds):
        for name, work in works.items():
            start = time.perf_counter()
            for _ in range(count):
                work()
            best[name] = max(best[name], count / (time.perf_counter() - start))
    return best


def run(quick: bool = False) -> None:
    count, rounds = (1_000, 2) if quick else (5_000, 7)
    table = asyncio.run(_table())
    seat, now = 0, 1_800_000_000.0
    built = table.frame(seat, now)
    text = json.dumps(built, separators=(",", ":"))
    rates = _best_rates(
        {
            "view + dict + json.dumps": lambda: json.dumps(table.frame(seat, now), separators=(",", ":")),
            "view + model + dump_json": lambda: STATE.dump_json(
                STATE.validate_python(table.frame(seat, now)), exclude={"raw"}
            ),
            "dict, json.dumps": lambda: json.dumps(built, separators=(",", ":")),
            "dict, model + dump_json": lambda: STATE.dump_json(STATE.validate_python(built), exclude={"raw"}),
            "json.loads": lambda: json.loads(text),
            "parse_frame": lambda: parse_frame(text),
        },
        count,
        rounds,
    )
    print(f"state frame ({len(text)} bytes), seat {seat} of a Dice Hold'em table in mid-hand; best of {rounds}:")
    print("  server, building a frame from the table (view, legal actions, seats, clock) and its JSON text:")
    _pair(rates, "view + dict + json.dumps", "view + model + dump_json")
    print("  server, the JSON text of an already built frame:")
    _pair(rates, "dict, json.dumps", "dict, model + dump_json")
    print("  client, reading a frame:")
    _pair(rates, "json.loads", "parse_frame")


def _pair(rates: dict[str, float], reference: str, other: str) -> None:
    print(f"    {reference:28} {rates[reference]:10,.0f} /s")
    print(f"    {other:28} {rates[other]:10,.0f} /s  ({rates[reference] / rates[other]:.2f}x the time)")


if __name__ == "__main__":
    run(quick="--quick" in sys.argv)
