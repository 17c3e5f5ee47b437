"""Issue 9 §6: the provably fair dice stream (FairRandom), the commitment, the fairness record and verify_log."""

from __future__ import annotations

import hashlib
import hmac
import pickle
import random
import struct
from collections import Counter
from dataclasses import replace
from fractions import Fraction

import pytest

from dicepoker.core import CorruptLog, EventLog, Match
from dicepoker.games.registry import create
from dicepoker.server.tables.fairness import (
    SCHEME,
    CannotVerify,
    FairnessError,
    FairRandom,
    commitment,
    encode_client_seeds,
    fairness_header,
    new_server_seed,
    verify_log,
)

SEED = bytes(range(32))
OTHER = bytes(range(1, 33))


class Reference:
    """The scheme reimplemented from the module docstring alone, as a third party would."""

    def __init__(self, seed: bytes, clients: list[str], counter: int = 0) -> None:
        self.seed, self.counter = seed, counter
        self.prefix = struct.pack(">I", len(clients)) + b"".join(
            struct.pack(">I", len(c.encode())) + c.encode() for c in clients
        )

    def bits(self, k: int) -> int:
        if k == 0:
            return 0
        m = -(-k // 256)
        data = b"".join(
            hmac.new(self.seed, self.prefix + (self.counter + i).to_bytes(8, "big"), hashlib.sha256).digest()
            for i in range(m)
        )
        self.counter += m
        return int.from_bytes(data, "big") >> (256 * m - k)

    def below(self, n: int) -> int:
        k = (n - 1).bit_length()
        while True:
            r = self.bits(k)
            if r < n:
                return r


def test_the_stream_is_the_documented_scheme() -> None:
    rng, ref = FairRandom(SEED, ["ann", "", "bø 😀"]), Reference(SEED, ["ann", "", "bø 😀"])
    for n in [6, 1, 2, 7776, 2**256, 2**300 + 7, 36, 3, 1000]:
        assert [rng.randrange(n) for _ in range(50)] == [ref.below(n) for _ in range(50)], n
    assert rng.getrandbits(53) == ref.bits(53) and rng.getrandbits(700) == ref.bits(700)
    assert rng.random() == ref.bits(53) / 2**53
    assert rng.counter == ref.counter
    assert rng.randint(1, 6) == 1 + ref.below(6)
    assert rng.choice("abcdef") == "abcdef"[ref.below(6)]


def test_known_answer_and_canonical_encoding() -> None:
    assert encode_client_seeds([]) == b"\0\0\0\0"
    assert encode_client_seeds(["ab", ""]) == b"\0\0\0\x02\0\0\0\x02ab\0\0\0\0"
    # "a","b" and "ab" must not collide: the encoding is length-prefixed
    assert encode_client_seeds(["a", "b"]) != encode_client_seeds(["ab"])
    expected = hmac.new(SEED, b"\0\0\0\0" + bytes(8), hashlib.sha256).digest()
    assert FairRandom(SEED).block(0) == expected
    assert FairRandom(SEED).getrandbits(256) == int.from_bytes(expected, "big")


def test_same_seeds_same_draws_and_every_seed_matters() -> None:
    def draws(seed: bytes, clients: list[str]) -> list[int]:
        rng = FairRandom(seed, clients)
        return [rng.randrange(6) for _ in range(40)]

    base = draws(SEED, ["ann", "bob"])
    assert base == draws(SEED, ["ann", "bob"])
    assert base != draws(OTHER, ["ann", "bob"])
    assert base != draws(SEED, ["ann", "bo"])
    assert base != draws(SEED, ["bob", "ann"])  # seat order is part of the message
    assert base != draws(SEED, ["ann", "bob", ""])


def test_a_restored_stream_continues_exactly() -> None:
    rng = FairRandom(SEED, ["x"])
    for _ in range(37):
        rng.randrange(7776)
    saved = rng.counter
    assert saved >= 37
    restored = FairRandom(SEED, ["x"], counter=saved)
    assert [rng.randrange(6) for _ in range(100)] == [restored.randrange(6) for _ in range(100)]
    assert pickle.loads(pickle.dumps(rng)).randrange(10**9) == rng.randrange(10**9)


def test_counter_counts_blocks() -> None:
    rng = FairRandom(SEED)
    rng.randrange(1)  # one outcome: nothing to draw
    assert rng.counter == 0
    rng.getrandbits(256)
    rng.getrandbits(257)
    assert rng.counter == 3


def test_commitment_is_sha256_of_the_seed() -> None:
    seed = new_server_seed()
    assert len(seed) == 32 and seed != new_server_seed()
    assert commitment(seed) == hashlib.sha256(seed).hexdigest()
    assert FairRandom(seed).commitment == commitment(seed)


def test_die_rolls_are_uniform() -> None:
    rng = FairRandom(SEED, ["chi"])
    counts = Counter(rng.randrange(6) for _ in range(6000))
    chi2 = sum((counts[face] - 1000) ** 2 / 1000 for face in range(6))
    assert set(counts) == set(range(6))
    assert chi2 < 20.52, counts  # 5 degrees of freedom, p = 0.001
    picks = Counter(rng.choices("123456", k=6000))
    assert sum((picks[f] - 1000) ** 2 / 1000 for f in "123456") < 20.52, picks


@pytest.mark.parametrize("n", [2, 3, 5, 6, 7, 8, 9, 36, 100, 1296])
def test_no_modulo_bias_by_construction(n: int) -> None:
    """Every k-bit value below n is returned as itself and every other one is rejected: the n outcomes are
    n equally likely k-bit values, with 2**(k-1) < n <= 2**k so fewer than half the draws are rejected."""
    k = (n - 1).bit_length()
    assert 2 ** (k - 1) < n <= 2**k
    for value in range(2**k):
        rng = FairRandom(SEED)
        asked: list[int] = []
        feed = iter([value, 0])
        rng.getrandbits = lambda width, asked=asked, feed=feed: asked.append(width) or next(feed)  # type: ignore[method-assign,misc]
        assert rng.randrange(n) == (value if value < n else 0)
        assert asked == ([k] if value < n else [k, k])


def test_randrange_rejects_the_top_values_and_draws_again() -> None:
    rng = FairRandom(SEED)
    feed = iter([7, 6, 7, 2])
    rng.getrandbits = lambda k: next(feed)  # type: ignore[method-assign]
    assert rng.randrange(6) == 2  # never 7 % 6 or 6 % 6


def test_rejection_on_the_real_stream() -> None:
    """Find a place in the stream whose block starts with 6 or 7 (top 3 bits): a die there uses two blocks."""
    start = next(c for c in range(100) if FairRandom(SEED, counter=c).getrandbits(3) >= 6)
    rng = FairRandom(SEED, counter=start)
    face = rng.randrange(6)
    assert rng.counter >= start + 2
    assert face == FairRandom(SEED, counter=rng.counter - 1).getrandbits(3)


def test_exact_weighted_choices() -> None:
    rng, ref = FairRandom(SEED), Reference(SEED, [])
    picks = rng.choices("abc", weights=[1, 0, 3], k=200)
    tickets = [ref.below(4) for _ in range(200)]
    assert picks == ["a" if t < 1 else "c" for t in tickets]
    assert "b" not in rng.choices("abc", weights=[Fraction(1, 3), 0, Fraction(2, 3)], k=100)
    with pytest.raises(TypeError):
        rng.choices("ab", weights=[1, 1], cum_weights=[1, 2])
    with pytest.raises(ValueError):
        rng.choices("ab", weights=[0, 0])


def test_it_cannot_be_reseeded_by_accident() -> None:
    rng = FairRandom(SEED)
    before = rng.counter
    with pytest.raises(TypeError, match="cannot be reseeded"):
        rng.seed(1)
    with pytest.raises(TypeError):
        rng.setstate(random.Random(1).getstate())
    with pytest.raises(TypeError):
        rng.getstate()
    assert rng.counter == before
    assert SEED.hex() not in repr(rng)


@pytest.mark.parametrize(
    ("seed", "clients", "counter"),
    [
        (b"short", [], 0),
        ("0" * 32, [], 0),
        (SEED, "ann", 0),
        (SEED, ["x" * 257], 0),
        (SEED, [3], 0),
        (SEED, ["\ud800"], 0),
        (SEED, [], -1),
        (SEED, [], 2**64),
        (SEED, [], True),
    ],
)
def test_bad_seeds_and_counters_are_refused(seed: object, clients: object, counter: object) -> None:
    with pytest.raises(FairnessError):
        FairRandom(seed, clients, counter)  # type: ignore[arg-type]


def test_fairness_header() -> None:
    hidden = fairness_header(None, ["ann", ""], commitment(SEED))
    assert hidden == {
        "scheme": SCHEME,
        "commitment": commitment(SEED),
        "client_seeds": ["ann", ""],
        "server_seed": None,
    }
    assert fairness_header(SEED, [], commitment(SEED))["server_seed"] == SEED.hex()
    with pytest.raises(FairnessError, match="does not match"):
        fairness_header(OTHER, [], commitment(SEED))


# -- verify_log -------------------------------------------------------------------------------------
def fair_log(name: str = "scorecard", clients: tuple[str, ...] = ("ann", "bob"), **config: object) -> EventLog:
    match = Match(create(name, players=2, **config), rng=FairRandom(SEED, clients))
    while not match.state.is_terminal:
        match.act(match.state.legal_actions()[-1])
    return replace(match.log, fairness=fairness_header(SEED, clients, commitment(SEED)))


def test_a_fair_log_verifies() -> None:
    log = fair_log()
    report = verify_log(EventLog.from_jsonl(log.to_jsonl()))
    assert report.ok and report.commitment_ok and report.error is None
    assert len(report.checks) == sum(e.seat is None for e in log.events) > 10
    assert [c.index for c in report.checks] == [i for i, e in enumerate(log.events, 1) if e.seat is None]
    assert report.to_json()["ok"] is True


def test_every_changed_die_is_reported() -> None:
    log = fair_log()
    chance = [i for i, e in enumerate(log.events) if e.seat is None and e.action.startswith("rolled")]
    events = list(log.events)
    changed = []
    for i in (chance[0], chance[-1]):
        old = events[i].action
        new = "rolled " + " ".join(str(7 - int(d)) for d in old.split()[1:])
        events[i] = replace(events[i], action=" ".join(["rolled", *sorted(new.split()[1:])]))
        changed.append(i + 1)
    report = verify_log(replace(log, events=tuple(events)))
    assert not report.ok and report.commitment_ok
    assert [c.index for c in report.mismatches] == changed
    assert report.mismatches[0].expected == log.events[changed[0] - 1].action


def test_another_seed_fails_the_commitment_and_the_dice() -> None:
    log = fair_log()
    forged = replace(log, fairness={**dict(log.fairness or {}), "server_seed": OTHER.hex()})
    report = verify_log(forged)
    assert not report.commitment_ok and report.mismatches


def test_a_log_that_stops_replaying_is_reported() -> None:
    log = fair_log()
    events = (*log.events[:3], replace(log.events[3], action="score chance"), *log.events[4:])
    report = verify_log(replace(log, events=events))
    assert report.error is not None and report.error.startswith("event 4")
    assert not report.ok


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"fairness": None}, "no fairness record"),
        ({"server_seed": None}, "not revealed"),
        ({"scheme": "dice-v0"}, "unknown fairness scheme"),
        ({"server_seed": "zz"}, "not hex"),
        ({"server_seed": "00"}, "32 bytes"),
        ({"client_seeds": "ann"}, "client_seeds"),
    ],
)
def test_logs_that_cannot_be_verified(change: dict[str, object], message: str) -> None:
    log = fair_log()
    if "fairness" in change:
        log = replace(log, fairness=None)
    else:
        log = replace(log, fairness={**dict(log.fairness or {}), **change})
    with pytest.raises(CannotVerify, match=message):
        verify_log(log)


def test_unknown_game_or_config() -> None:
    log = fair_log()
    with pytest.raises(CorruptLog, match="unknown game"):
        verify_log(replace(log, game="chess"))
    with pytest.raises(CorruptLog, match="bad config"):
        verify_log(replace(log, config={"players": 99}))
