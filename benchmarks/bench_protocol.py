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
from dicepoker.server.pubsub import InProcessPubSub
from dicepoker.server.service import TableService
from dicepoker.server.storage import MemoryStorage
from dicepoker.server.table import Table

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


def _rate(work: Callable[[], Any], count: int) -> float:
    start = time.perf_counter()
    for _ in range(count):
        work()
    return count / (time.perf_counter() - start)


def run(quick: bool = False) -> None:
    count = 2_000 if quick else 20_000
    table = asyncio.run(_table())
    seat, now = 0, 1_800_000_000.0

    def as_dict() -> str:
        return json.dumps(table.frame(seat, now), separators=(",", ":"))

    def as_model() -> bytes:
        return STATE.dump_json(STATE.validate_python(table.frame(seat, now)), exclude={"raw"})

    text = as_dict()
    dict_rate, model_rate = _rate(as_dict, count), _rate(as_model, count)
    print(f"state frame ({len(text)} bytes), seat {seat} of a Dice Hold'em table in mid-hand:")
    print(f"  server, dict + json.dumps (what it does):        {dict_rate:10,.0f} frames/s")
    print(
        f"  server, pydantic model + dump_json (rejected):   {model_rate:10,.0f} frames/s "
        f"({dict_rate / model_rate:.2f}x slower)"
    )
    loads_rate, parse_rate = _rate(lambda: json.loads(text), count), _rate(lambda: parse_frame(text), count)
    print(f"  client, json.loads only (reference):             {loads_rate:10,.0f} frames/s")
    print(f"  client, parse_frame (json.loads + the model):    {parse_rate:10,.0f} frames/s")


if __name__ == "__main__":
    run(quick="--quick" in sys.argv)
