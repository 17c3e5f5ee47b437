"""Finished tables put straight into storage: a long game without playing it through the server.

A 4-player Hold'em game whose log is larger than the app's 64 KiB body limit (issue 19 §3), its dice drawn
from a :class:`FairRandom` exactly as a table draws them, stored as the service stores a finished table.
"""

from __future__ import annotations

import secrets
from dataclasses import replace
from random import Random

from dicepoker.core import EventLog, Match
from dicepoker.games.registry import create
from dicepoker.server.storage.records import EventRecord, SeatRecord, Storage, TableRecord
from dicepoker.server.tables.fairness import FairRandom, commitment, fairness_header

BODY_LIMIT = 64 * 1024
CLIENT_SEEDS = ["ann", "bob", "cy", "di"]


def long_holdem_log(server_seed: bytes, *, min_bytes: int = BODY_LIMIT + 1) -> EventLog:
    """A finished 4-player Hold'em game (random legal moves) whose log is more than ``min_bytes``."""
    for choice_seed in range(100):
        match = Match(create("holdem", players=4, stack=300), rng=FairRandom(server_seed, CLIENT_SEEDS))
        choose = Random(choice_seed)
        while not match.state.is_terminal:
            seat = match.state.to_act[0]
            legal = match.state.legal_actions(seat)
            match.act(legal[choose.randrange(len(legal))], seat)
        log = replace(match.log, fairness=fairness_header(server_seed, CLIENT_SEEDS, commitment(server_seed)))
        if min_bytes < len(log.to_jsonl()) and len(log.events) < 20_000:
            return log
    raise AssertionError("no game long enough")


async def store_finished(storage: Storage, log: EventLog, server_seed: bytes) -> str:
    """Store ``log`` as a finished table, as the service would have; its id."""
    from dicepoker.games.registry import replay

    final = replay(log)[-1]
    assert log.fairness is not None
    names = [str(seed) for seed in log.fairness["client_seeds"]]  # type: ignore[union-attr]
    record = TableRecord(
        id=secrets.token_hex(8),
        game=log.game,
        config=dict(log.config),
        seats=[SeatRecord("human", name or "anon", None, None, name) for name in names],
        clock=None,
        status="finished",
        commitment=commitment(server_seed),
        server_seed=server_seed.hex(),
        created=1_800_000_000.0,
        client_seeds=names,
        version=len(log.events),
        result=final.result().to_json(),
    )
    events = [EventRecord(i, e.seat, e.action) for i, e in enumerate(log.events, start=1)]
    await storage.save(record, events)
    return record.id
