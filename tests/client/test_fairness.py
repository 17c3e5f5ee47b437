"""Issue 19 §9: the clients keep the commitment the join answered and check the finished log against it;
a log re-rolled from another seed, carrying that seed's own commitment, fails."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from random import Random

import httpx

from dicepoker.cli.online import check_dice
from dicepoker.client import Seated, ServerClient, check_commitment, check_table
from dicepoker.core import EventLog, Match
from dicepoker.games.history import write_history
from dicepoker.games.registry import create
from dicepoker.server.tables.fairness import FairRandom, commitment, fairness_header

SEED = bytes.fromhex("11" * 32)
OTHER = bytes.fromhex("22" * 32)


def finished(seed: bytes, game: str = "scorecard", **config: int) -> EventLog:
    match = Match(create(game, players=2, **config), rng=FairRandom(seed, ["ann", ""]))
    choose = Random(5)
    while not match.state.is_terminal:
        seat = match.state.to_act[0]
        legal = match.state.legal_actions(seat)
        match.act(legal[choose.randrange(len(legal))], seat)
    return replace(match.log, fairness=fairness_header(seed, ["ann", ""], commitment(seed)))


def test_the_kept_commitment_accepts_the_table_log_and_refuses_a_reseeded_one() -> None:
    kept = commitment(SEED)
    assert check_commitment(finished(SEED).to_jsonl(), kept).ok
    assert check_commitment(write_history(finished(SEED, "holdem", stack=20)), kept.upper()).ok
    reseeded = check_commitment(finished(OTHER).to_jsonl(), kept)
    assert not reseeded.ok and reseeded.problem is not None and "not the one kept" in reseeded.problem
    log = finished(SEED)
    assert log.fairness is not None
    hidden = replace(log, fairness={**log.fairness, "server_seed": None})
    assert "does not reveal" in str(check_commitment(hidden.to_jsonl(), kept).problem)
    forged = replace(log, fairness={**log.fairness, "server_seed": OTHER.hex()})
    assert "hashes to" in str(check_commitment(forged.to_jsonl(), kept).problem)
    assert "no fairness record" in str(check_commitment(replace(log, fairness=None).to_jsonl(), kept).problem)


def test_the_python_client_keeps_the_join_answers_commitment_and_checks_the_log() -> None:
    kept = commitment(SEED)
    logs = {"t1": finished(SEED).to_jsonl(), "t2": finished(OTHER).to_jsonl()}

    def answer(request: httpx.Request) -> httpx.Response:
        path = request.url.path
        if path.endswith("/join"):
            table = path.split("/")[3]
            return httpx.Response(200, json={"seat": 0, "token": "ab" * 16, "commitment": kept, "table": table})
        if path == "/api/play-now":
            return httpx.Response(200, json={"id": "t1", "seat": 1, "token": "cd" * 16, "commitment": kept})
        return httpx.Response(200, text=logs[path.split("/")[3]])

    async def main() -> None:
        async with ServerClient("http://server", transport=httpx.MockTransport(answer)) as client:
            seated = await client.join("t1", 0, "ann")
            assert seated.commitment == kept
            assert (await client.play_now("scorecard", "ann")).commitment == kept
            assert (await check_table(client, seated)).ok
            swapped = await check_table(client, Seated("t2", 0, "ab" * 16, kept))  # the server re-rolled it
            assert not swapped.ok

    asyncio.run(main())


class _Logs:
    """The one method of a SyncClient that check_dice uses."""

    def __init__(self, text: str) -> None:
        self.text = text

    def log(self, table: str) -> str:
        return self.text


def test_the_terminal_checks_every_die_against_the_kept_commitment() -> None:
    kept = commitment(SEED)
    ok = check_dice(_Logs(finished(SEED).to_jsonl()), "t1", kept)  # type: ignore[arg-type]
    assert ok.startswith("Dice verified: all")
    reseeded = check_dice(_Logs(finished(OTHER).to_jsonl()), "t1", kept)  # type: ignore[arg-type]
    assert reseeded.startswith("Dice NOT verified") and "not the one kept" in reseeded
    log = finished(SEED)
    cut = check_dice(_Logs(replace(log, events=log.events[:-2]).to_jsonl()), "t1", kept)  # type: ignore[arg-type]
    assert cut.startswith("Dice NOT verified")
    assert check_dice(_Logs("{}"), "t1", None).startswith("Dice not checked")  # type: ignore[arg-type]
    assert kept[:16] in ok
