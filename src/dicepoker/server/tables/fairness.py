"""Provably fair dice for online tables (issue 9 §6): commit, draw from HMAC-SHA256, reveal, verify.

Scheme ``hmac-sha256-v1``, precisely enough to reimplement it elsewhere:

1. **Commit.** Per table the server draws ``server_seed``, 32 bytes from :mod:`secrets`, and publishes
   ``commitment = lowercase hex SHA-256(server_seed)`` when the table is created, before any die is rolled.
2. **Client seeds.** Every player may give a client seed (text, at most 256 characters). They are fixed when
   the table starts, listed in seat order (the server decides what an absent seed is, e.g. ``""``), and
   recorded in the log as ``client_seeds``. Their canonical encoding is::

       C = uint32_be(number of seeds) || for each seed s: uint32_be(len(utf8(s))) || utf8(s)

3. **Blocks.** Block ``i`` (``i = 0, 1, 2, …``) of the table's stream is 32 bytes::

       block(i) = HMAC-SHA256(key = server_seed, message = C || uint64_be(i))

   The *counter* is the number of blocks used so far; the next draw starts at ``block(counter)``.
4. **Bits.** ``bits(k)`` for ``k >= 1`` takes the next ``m = ceil(k / 256)`` blocks, concatenates them, reads
   them as one big-endian unsigned integer of ``256·m`` bits and keeps its top ``k`` bits (shift right by
   ``256·m - k``); the counter advances by ``m``. ``bits(0)`` is 0 and uses no block.
5. **Integers without modulo bias.** ``below(n)``, uniform on ``0 … n-1``: for ``n == 1`` it is 0 and uses no
   block; otherwise ``k`` = bit length of ``n - 1`` (the least ``k`` with ``2**k >= n``), and
   ``r = bits(k)`` is drawn again until ``r < n`` (rejection sampling; no ``%`` anywhere). A die,
   ``below(6)``: ``k = 3``; 6 and 7 are rejected, so each face has probability exactly 1/6.
6. **Python's methods** on top of these, as :class:`FairRandom` (a :class:`random.Random`):
   ``getrandbits(k) = bits(k)``; ``random() = bits(53) / 2**53``; ``randrange``, ``randint``, ``choice``,
   ``shuffle`` and ``sample`` are CPython's own, which draw every integer with ``below`` (``randrange(n) =
   below(n)``, ``randint(a, b) = a + below(b - a + 1)``, ``choice(seq) = seq[below(len(seq))]``);
   ``choices`` without weights is ``population[below(len(population))]`` per pick, and with integer weights
   the first index whose cumulative weight exceeds ``below(total weight)``.
7. **Chance outcomes.** The table draws every chance outcome with ``state.sample_chance(rng)``, one call per
   chance event, in log order, all from one stream that starts at counter 0. How a game turns draws into dice
   is its own rules module's ``sample_chance`` (by default :func:`dicepoker.core.chance.sample_exact`: one
   ``randrange(denominator)`` over the exact probabilities). Nothing else may draw from that stream
   (server-side bots need an RNG of their own), or the log no longer verifies.
8. **Reveal and verify.** When the game ends, ``server_seed`` (lowercase hex) is written into the log's
   ``fairness`` record. Anyone then checks ``SHA-256(server_seed) == commitment`` and replays the log:
   :func:`verify_log` (``dicepoker verify LOG``) draws each chance outcome from the state before it and
   compares it with the logged one.
9. **What it proves, and what not.** The check is worth only as much as the commitment it starts from: a
   log re-rolled from another seed carries that seed's own commitment and verifies against itself. Clients
   therefore keep the commitment they were shown before the first die (``POST /api/tables``, the join and
   play-now answers) and verify against it (``verify_log(log, seen_commitment=...)``,
   ``dicepoker verify --commitment HEX``). Only the dice are covered: the players' moves are the log's word
   (nobody signs them); the verifier checks that they are legal and replay to the end of the game, so a log
   cut short or with a move that no longer applies fails, but a changed decision that stays legal and
   draws the same dice does not. Compare the replayed result with the one you saw at the table.

A restored table continues the stream exactly with ``FairRandom(seed, client_seeds, counter=n)``, ``n`` being
the :attr:`FairRandom.counter` saved with the table.
"""

from __future__ import annotations

import bisect
import hashlib
import hmac
import itertools
import math
import random
import secrets
import struct
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

from dicepoker.core.errors import CorruptLog, DicePokerError
from dicepoker.core.game import Game
from dicepoker.core.log import EventLog, check_fairness
from dicepoker.core.state import State
from dicepoker.core.steps import replay_steps
from dicepoker.core.types import JSON

if TYPE_CHECKING:
    from _typeshed import SupportsLenAndGetItem

T = TypeVar("T")

SCHEME = "hmac-sha256-v1"
SEED_BYTES = 32
MAX_CLIENT_SEED = 256
"""Characters allowed in one client seed (the protocol's limit)."""
_BLOCK_BITS = 256
_MAX_COUNTER = 2**64 - 1


class FairnessError(DicePokerError, ValueError):
    """A server seed, client seed, counter or fairness record that the scheme does not accept."""


class CannotVerify(FairnessError):
    """A log that cannot be verified: no fairness record, the server seed not revealed yet, an unknown scheme."""


# -- commit -----------------------------------------------------------------------------------------
def new_server_seed() -> bytes:
    """A fresh 256-bit server seed from the operating system's secure source."""
    return secrets.token_bytes(SEED_BYTES)


def commitment(server_seed: bytes) -> str:
    """The published commitment to a server seed: its SHA-256, lowercase hex.

    >>> commitment(bytes(32))[:16]
    '66687aadf862bd77'
    """
    return _digest(server_seed)


def _digest(server_seed: bytes) -> str:  # fairness_header's argument is named commitment too
    return hashlib.sha256(_checked_seed(server_seed)).hexdigest()


def encode_client_seeds(client_seeds: Sequence[str]) -> bytes:
    """The canonical encoding ``C`` of the client seeds (module docstring, step 2).

    >>> encode_client_seeds(["ab", ""]).hex()
    '0000000200000002616200000000'
    """
    parts = [struct.pack(">I", len(client_seeds))]
    for seed in client_seeds:
        data = seed.encode("utf-8")
        parts += [struct.pack(">I", len(data)), data]
    return b"".join(parts)


# -- draw -------------------------------------------------------------------------------------------
class FairRandom(random.Random):
    """A :class:`random.Random` whose every draw comes from the HMAC-SHA256 stream of one table.

    Deterministic from ``(server_seed, client_seeds)``; ``counter`` is where in the stream to start, so a
    restored table goes on exactly where it stopped. It cannot be reseeded (:meth:`seed` raises).

    >>> rng = FairRandom(bytes(32), ["ann"])
    >>> first = [rng.randrange(6) for _ in range(5)]
    >>> again = FairRandom(bytes(32), ["ann"], counter=rng.counter)
    >>> [rng.randrange(6) for _ in range(3)] == [again.randrange(6) for _ in range(3)]
    True
    """

    def __init__(self, server_seed: bytes, client_seeds: Sequence[str] = (), counter: int = 0) -> None:
        # random.Random.__init__ would call seed(); the Mersenne Twister underneath is never used.
        self.gauss_next: float | None = None
        self._key = _checked_seed(server_seed)
        self._client_seeds = _checked_client_seeds(client_seeds)
        if isinstance(counter, bool) or not isinstance(counter, int) or not 0 <= counter <= _MAX_COUNTER:
            raise FairnessError(f"counter must be an integer from 0 to 2**64 - 1, not {counter!r}")
        self._counter = counter
        self._prefix = encode_client_seeds(self._client_seeds)

    @property
    def counter(self) -> int:
        """Blocks of the stream used so far: save it to continue the stream after a restart."""
        return self._counter

    @property
    def client_seeds(self) -> tuple[str, ...]:
        return self._client_seeds

    @property
    def commitment(self) -> str:
        return commitment(self._key)

    @property
    def server_seed(self) -> bytes:
        """The secret: reveal it only once the game is over."""
        return self._key

    def block(self, index: int) -> bytes:
        """Block ``index`` of this stream (step 3); does not move the counter."""
        return hmac.new(self._key, self._prefix + struct.pack(">Q", index), hashlib.sha256).digest()

    # -- the primitives every other method of random.Random is built on ------------------------------
    def getrandbits(self, k: int, /) -> int:
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        if k == 0:
            return 0
        blocks = -(-k // _BLOCK_BITS)
        if self._counter + blocks > _MAX_COUNTER + 1:
            raise FairnessError("this table's dice stream is used up (2**64 blocks)")
        data = b"".join(self.block(self._counter + i) for i in range(blocks))
        self._counter += blocks
        return int.from_bytes(data, "big") >> (blocks * _BLOCK_BITS - k)

    def _randbelow(self, n: int) -> int:
        """Uniform on ``0 … n-1`` by rejection (step 5): never a modulo, so never a bias."""
        if n <= 0:
            raise ValueError(f"empty range for a draw below {n}")
        k = (n - 1).bit_length()
        r = self.getrandbits(k)
        while r >= n:
            r = self.getrandbits(k)
        return r

    def random(self) -> float:
        return self.getrandbits(53) / 2**53

    def choices(
        self,
        population: SupportsLenAndGetItem[T],
        weights: Sequence[float | Fraction] | None = None,
        *,
        cum_weights: Sequence[float | Fraction] | None = None,
        k: int = 1,
    ) -> list[T]:
        """Like :meth:`random.Random.choices`, but exact without weights or with integer or Fraction weights.

        CPython's own version scales a float (``floor(random() * n)``), which is not exactly uniform. Exact
        weights are put on their common denominator; a ticket ``below(total)`` picks the first index whose
        cumulative weight exceeds it. Float weights fall back to CPython's float algorithm.
        """
        if cum_weights is not None and weights is not None:
            raise TypeError("cannot specify both weights and cumulative weights")
        if weights is not None:
            cum_weights = list(itertools.accumulate(weights))
        if cum_weights is None:
            n = len(population)
            return [population[self._randbelow(n)] for _ in range(k)]
        if not all(isinstance(w, int | Fraction) and not isinstance(w, bool) for w in cum_weights):
            return super().choices(population, cum_weights=cum_weights, k=k)
        if len(cum_weights) != len(population):
            raise ValueError("the number of weights does not match the population")
        exact = [Fraction(w) for w in cum_weights]
        scale = math.lcm(*(w.denominator for w in exact)) if exact else 1
        cumulative = [int(w * scale) for w in exact]
        total = cumulative[-1] if cumulative else 0
        if total <= 0:
            raise ValueError("total of weights must be greater than zero")
        return [population[bisect.bisect_right(cumulative, self._randbelow(total))] for _ in range(k)]

    # -- no accidental reseeding ---------------------------------------------------------------------
    def seed(self, a: Any = None, version: int = 2) -> NoReturn:
        raise TypeError("a FairRandom cannot be reseeded: create a new one (or restore one with counter=...)")

    def getstate(self) -> tuple[Any, ...]:
        raise TypeError("a FairRandom has no Mersenne Twister state: save its counter instead")

    def setstate(self, state: tuple[Any, ...]) -> NoReturn:
        raise TypeError("a FairRandom cannot be set to a state: restore it with FairRandom(..., counter=...)")

    def __reduce__(self) -> tuple[Any, ...]:
        return (FairRandom, (self._key, self._client_seeds, self._counter))

    def __repr__(self) -> str:  # never the seed: a repr ends up in logs
        return f"FairRandom(commitment={self.commitment[:12]}…, counter={self._counter})"


def _checked_seed(server_seed: bytes) -> bytes:
    if not isinstance(server_seed, bytes | bytearray) or len(server_seed) != SEED_BYTES:
        raise FairnessError(f"a server seed is {SEED_BYTES} bytes, not {server_seed!r:.40}")
    return bytes(server_seed)


def _checked_client_seeds(client_seeds: Sequence[str]) -> tuple[str, ...]:
    if isinstance(client_seeds, str):  # a lone string would silently become one seed per character
        raise FairnessError("client_seeds is a list of strings, not one string")
    seeds = tuple(client_seeds)
    for seed in seeds:
        if not isinstance(seed, str) or len(seed) > MAX_CLIENT_SEED:
            raise FairnessError(f"a client seed is text of at most {MAX_CLIENT_SEED} characters, not {seed!r:.60}")
        try:
            seed.encode("utf-8")
        except UnicodeEncodeError:
            raise FairnessError(f"client seed {seed!r:.60} is not valid Unicode text") from None
    return seeds


# -- record -----------------------------------------------------------------------------------------
def fairness_header(server_seed: bytes | None, client_seeds: Sequence[str], commitment: str) -> dict[str, JSON]:
    """The ``fairness`` record of a log's header; ``server_seed`` is ``None`` until the game ends.

    >>> seed = bytes(32)
    >>> fairness_header(None, ["ann", ""], commitment(seed))["server_seed"] is None
    True
    """
    seeds = _checked_client_seeds(client_seeds)
    if server_seed is not None and _digest(server_seed) != commitment:
        raise FairnessError("the server seed does not match the commitment")
    return {
        "scheme": SCHEME,
        "commitment": commitment,
        "client_seeds": list(seeds),
        "server_seed": None if server_seed is None else server_seed.hex(),
    }


# -- verify -----------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class ChanceCheck:
    """One chance event of a log: what the revealed seed draws and what the log says."""

    index: int
    """The event's number in the log, from 1 (the number ``dicepoker replay`` shows)."""
    expected: str
    logged: str
    ok: bool

    def to_json(self) -> dict[str, JSON]:
        return {"index": self.index, "expected": self.expected, "logged": self.logged, "ok": self.ok}


@dataclass(frozen=True, slots=True)
class VerifyReport:
    """The verdict on a log: the commitment and every chance outcome, event by event."""

    scheme: str
    commitment: str
    """As published (the log's record)."""
    computed_commitment: str
    """SHA-256 of the revealed server seed."""
    client_seeds: tuple[str, ...]
    checks: tuple[ChanceCheck, ...]
    draws: int
    """Blocks of the stream the replay used (the table's final counter)."""
    error: str | None = None
    """Set when the replay stopped early: a logged action that does not apply."""
    seen_commitment: str | None = None
    """The commitment the player was shown when the table was created or joined, if given: the log's and
    the revealed seed's must both be this one (a log re-rolled from another seed has its own)."""
    finished: bool = True
    """Whether the logged moves replay to the end of the game (a revealed seed means the game ended)."""
    result: JSON = None
    """The replayed game's result (winners, scores), to compare with the one seen at the table."""

    @property
    def commitment_ok(self) -> bool:
        """The revealed seed hashes to the log's commitment and, if given, that is the one the player saw."""
        matches = hmac.compare_digest(self.commitment.lower().encode(), self.computed_commitment.encode())
        return matches and self.seen_commitment_ok is not False

    @property
    def seen_commitment_ok(self) -> bool | None:
        """Whether the log's commitment is the one the player saw; ``None`` when none was given."""
        if self.seen_commitment is None:
            return None
        return hmac.compare_digest(self.seen_commitment.strip().lower().encode(), self.commitment.lower().encode())

    @property
    def end_problem(self) -> str | None:
        """Why the log does not replay to the end of the game (cut short, or a move that does not apply)."""
        if self.error is not None:
            return self.error
        if not self.finished:
            return "the game is not over at the log's last event: the log was cut short"
        return None

    @property
    def mismatches(self) -> tuple[ChanceCheck, ...]:
        return tuple(check for check in self.checks if not check.ok)

    @property
    def ok(self) -> bool:
        """The dice are fair (moves are not covered: see :data:`MOVES_NOT_COVERED`)."""
        return self.commitment_ok and self.end_problem is None and not self.mismatches

    def to_json(self) -> dict[str, JSON]:
        return {
            "scheme": self.scheme,
            "commitment": self.commitment,
            "computed_commitment": self.computed_commitment,
            "commitment_ok": self.commitment_ok,
            "seen_commitment": self.seen_commitment,
            "seen_commitment_ok": self.seen_commitment_ok,
            "client_seeds": list(self.client_seeds),
            "draws": self.draws,
            "checks": [check.to_json() for check in self.checks],
            "error": self.error,
            "finished": self.finished,
            "end_problem": self.end_problem,
            "result": self.result,
            "covers": MOVES_NOT_COVERED,
            "ok": self.ok,
        }


MOVES_NOT_COVERED = (
    "only the dice are checked against the seeds; the players' moves are not covered (they are checked to be"
    " legal and to replay to the end of the game): compare the result with the one you saw at the table"
)
"""What a verification proves and what not, said with every verdict (module docstring, step 9)."""


def revealed_rng(fairness: Mapping[str, JSON] | None) -> FairRandom:
    """The stream a fairness record describes, from counter 0; :class:`CannotVerify` if it cannot be rebuilt."""
    if fairness is None:
        raise CannotVerify("the log has no fairness record (it is not from an online table)")
    try:
        record = check_fairness(dict(fairness), "fairness record")
    except CorruptLog as exc:
        raise CannotVerify(str(exc)) from None
    if record["scheme"] != SCHEME:
        raise CannotVerify(f"unknown fairness scheme {record['scheme']!r} (this verifies {SCHEME!r})")
    if record["server_seed"] is None:
        raise CannotVerify("the server seed is not revealed yet: it is published in the log when the game ends")
    try:
        seed = bytes.fromhex(str(record["server_seed"]))
    except ValueError:
        raise CannotVerify(f"the server seed {record['server_seed']!r:.80} is not hex") from None
    try:
        return FairRandom(seed, list(record["client_seeds"]))
    except FairnessError as exc:
        raise CannotVerify(f"bad fairness record: {exc}") from None


def verify_log(log: EventLog, *, seen_commitment: str | None = None) -> VerifyReport:
    """Recompute the commitment and every chance outcome of ``log`` from its revealed server seed.

    ``seen_commitment``: the commitment the player was shown before the first die; without it the log is
    only checked against its own commitment, which a log re-rolled from another seed passes.
    The logged moves must replay to the end of the game (:attr:`VerifyReport.finished`).

    Each chance event's outcome is drawn with ``state.sample_chance`` from the state before it and compared
    with the logged one; the *logged* action is applied to go on, so every mismatching die is reported, not
    only the first. Raises :class:`CannotVerify` without a usable fairness record and :class:`CorruptLog`
    for a log of an unknown game or with a bad config.
    """
    from dicepoker.games.registry import create, names  # lazy: verifying one game imports only that game

    rng = revealed_rng(log.fairness)
    assert log.fairness is not None  # revealed_rng checked it
    if log.game not in names():
        raise CorruptLog(f"log is for unknown game {log.game!r}; known games: {', '.join(names())}")
    try:
        game = create(log.game, **log.config)
    except DicePokerError as exc:
        raise CorruptLog(f"log header has a bad config: {exc}") from exc
    if seen_commitment is not None and not isinstance(seen_commitment, str):
        raise FairnessError("the commitment seen is a hex string")
    checks, error, final = _replay_chance(game, log, rng)
    return VerifyReport(
        scheme=SCHEME,
        commitment=str(log.fairness["commitment"]),
        computed_commitment=rng.commitment,
        client_seeds=rng.client_seeds,
        checks=tuple(checks),
        draws=rng.counter,
        error=error,
        seen_commitment=seen_commitment,
        finished=error is None and final.is_terminal,
        result=final.result().to_json() if error is None and final.is_terminal else None,
    )


def _replay_chance(game: Game[Any, Any], log: EventLog, rng: FairRandom) -> tuple[list[ChanceCheck], str | None, State]:
    """Every die of ``log`` checked against the stream, the first event that does not apply, and the state reached."""
    checks: list[ChanceCheck] = []
    applied = 0
    state = game.initial_state()
    try:
        for step in replay_steps(game, log.events):
            applied = step.number
            if step.event.seat is None:
                expected = step.before.sample_chance(rng)
                ok = step.action == expected or str(step.action) == str(expected)
                checks.append(ChanceCheck(step.number, str(expected), step.event.action, ok))
            state = step.after
    except CorruptLog as exc:
        event = log.events[applied]
        why = exc.__cause__ or exc
        return checks, f"event {applied + 1} ({event.action!r} by {_who(event.seat)}) does not apply: {why}", state
    return checks, None, state


def _who(seat: int | None) -> str:
    return "the dice" if seat is None else f"seat {seat + 1}"


__all__ = [
    "MOVES_NOT_COVERED",
    "SCHEME",
    "CannotVerify",
    "ChanceCheck",
    "FairRandom",
    "FairnessError",
    "VerifyReport",
    "commitment",
    "encode_client_seeds",
    "fairness_header",
    "new_server_seed",
    "revealed_rng",
    "verify_log",
]
