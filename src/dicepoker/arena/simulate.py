"""Bot-vs-bot simulation of any registered game: seeded games, per-seat statistics with 95% intervals.

Game ``i`` of a run draws its dice and its bots' choices from seeds derived from ``(seed, i)`` alone, and
the games are folded into the report in index order, so a report does not depend on how many worker
processes played them, nor on whether they ran on a Ray cluster (:mod:`dicepoker.arena.engine`). A bot that
learns over a game (``learns = True``, the opponent-modelling experts) starts every game afresh for the same
reason; the others are made once per process.

>>> report = simulate("scorecard", ["random"], games=3, seed=1)
>>> report.games, len(report.seats)
(3, 1)
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from random import Random
from typing import Any, NamedTuple

from dicepoker.arena.engine import Engine, run_chunks
from dicepoker.bots.base import Bot
from dicepoker.bots.registry import create_bot
from dicepoker.core.errors import ConfigError
from dicepoker.core.match import Match
from dicepoker.core.types import JSON, Seat
from dicepoker.games.registry import create, game_class

Z_95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""

MAX_DECISIONS = 100_000
"""A game that needs more bot decisions than this is stuck (a bot or rules bug), not long."""

ProgressCallback = Callable[[int], None]
"""Called in the calling process with the number of games finished so far."""


# -- seeds ------------------------------------------------------------------------------------------
def derive_seed(seed: int, index: int, purpose: str) -> int:
    """A 64-bit seed for game ``index`` of a run, independent for each ``purpose`` ("dice", "bots").

    A hash rather than ``seed + index`` so that runs with nearby seeds share no games.

    >>> derive_seed(1, 0, "dice") == derive_seed(1, 0, "dice") != derive_seed(1, 1, "dice")
    True
    """
    digest = hashlib.blake2b(f"{seed}:{index}:{purpose}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


# -- one game ---------------------------------------------------------------------------------------
class GameRecord(NamedTuple):
    """What the statistics need from one finished game (a tuple, so it crosses process boundaries cheaply)."""

    scores: tuple[int, ...]
    winners: frozenset[Seat]
    first_seat: Seat | None
    """The seat that made the first decision of the game (``None`` if nobody acted)."""


def play_game(
    game_name: str,
    bots: Sequence[Bot],
    seed: int,
    index: int,
    config: Mapping[str, Any] | None = None,
) -> GameRecord:
    """Play game ``index`` of a run seeded ``seed``: one bot per seat, each deciding from its view only."""
    game = create(game_name, **dict(config or {}))
    match = Match(game, seed=derive_seed(seed, index, "dice"))
    bot_rng = Random(derive_seed(seed, index, "bots"))
    first_seat: Seat | None = None
    for _ in range(MAX_DECISIONS):
        to_act = match.state.to_act
        if to_act == ():
            result = match.state.result()
            return GameRecord(tuple(result.scores), frozenset(result.winners), first_seat)
        # A Match resolves chance nodes itself, so ``to_act`` is a tuple of seats here; several seats
        # deciding at once are asked one after the other in seat order.
        seat = to_act[0]  # type: ignore[index]
        if first_seat is None:
            first_seat = seat
        state = match.state
        action = bots[seat].choose(state.view(seat), state.legal_actions(seat), bot_rng)
        match.act(action, seat)
    raise RuntimeError(f"{game_name} game {index} of seed {seed} did not end within {MAX_DECISIONS} decisions")


class Chunk(NamedTuple):
    """Games ``start`` to ``stop`` (excluded) of a run: what one worker plays at a time."""

    game_name: str
    bot_names: tuple[str, ...]
    config: dict[str, Any]
    seed: int
    start: int
    stop: int


_BOTS: dict[tuple[str, str], Bot] = {}
"""Bots already made in this process. A bot decides from its view, the legal actions and the rng it is
handed, so one instance serves every game; making one can be costly (the optimal bot loads a table)."""


def shared_bot(game_name: str, name: str) -> Bot:
    """This process's bot ``name`` for ``game_name``, made on first use."""
    key = (game_name, name)
    if key not in _BOTS:
        _BOTS[key] = create_bot(game_name, name)
    return _BOTS[key]


def game_bots(game_name: str, names: Sequence[str]) -> list[Bot]:
    """The bots of one game: this process's shared instance, or a fresh one for a bot that learns."""
    bots = [shared_bot(game_name, name) for name in names]
    return [create_bot(game_name, bot.name) if learns(bot) else bot for bot in bots]


def learns(bot: Bot) -> bool:
    """Whether ``bot`` keeps what it saw from one game to the next (then each game needs a fresh one)."""
    return bool(getattr(bot, "learns", False))


def play_chunk(chunk: Chunk) -> list[GameRecord]:
    return [
        play_game(chunk.game_name, game_bots(chunk.game_name, chunk.bot_names), chunk.seed, i, chunk.config)
        for i in range(chunk.start, chunk.stop)
    ]


# -- statistics -------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Interval:
    """A two-sided 95% confidence interval."""

    low: float
    high: float

    def to_json(self) -> list[float]:
        return [self.low, self.high]


@dataclass(frozen=True, slots=True)
class Rate:
    """How often something happened, with a Wilson 95% interval (sound near 0% and 100%)."""

    count: int
    trials: int
    interval: Interval

    @property
    def rate(self) -> float:
        return self.count / self.trials if self.trials else math.nan

    @classmethod
    def of(cls, count: int, trials: int) -> Rate:
        return cls(count, trials, wilson_interval(count, trials))

    def to_json(self) -> dict[str, JSON]:
        return {
            "count": self.count,
            "rate": _finite(self.rate),
            "ci95": [_finite(x) for x in self.interval.to_json()],
        }


def wilson_interval(successes: int, trials: int, z: float = Z_95) -> Interval:
    """Wilson score interval of a binomial proportion.

    >>> interval = wilson_interval(50, 100)
    >>> round(interval.low, 4), round(interval.high, 4)
    (0.4038, 0.5962)
    """
    if trials <= 0:
        return Interval(math.nan, math.nan)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return Interval(max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True, slots=True)
class MeanEstimate:
    """Sample mean and standard deviation with the normal-approximation 95% interval of the mean."""

    mean: float
    stdev: float
    interval: Interval

    @classmethod
    def of(cls, values: Sequence[float], z: float = Z_95) -> MeanEstimate:
        """Example:

        >>> estimate = MeanEstimate.of([1, 2, 3, 4])
        >>> estimate.mean, round(estimate.stdev, 4), round(estimate.interval.high, 4)
        (2.5, 1.291, 3.7652)
        """
        n = len(values)
        if n == 0:
            return cls(math.nan, math.nan, Interval(math.nan, math.nan))
        mean = math.fsum(values) / n
        if n == 1:
            return cls(mean, math.nan, Interval(math.nan, math.nan))
        stdev = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1))
        half = z * stdev / math.sqrt(n)
        return cls(mean, stdev, Interval(mean - half, mean + half))

    def to_json(self) -> dict[str, JSON]:
        return {
            "mean": _finite(self.mean),
            "stdev": _finite(self.stdev),
            "ci95": [_finite(x) for x in self.interval.to_json()],
        }


@dataclass(frozen=True, slots=True)
class SeatStats:
    seat: Seat
    bot: str
    score: MeanEstimate
    wins: Rate
    """Games this seat won alone."""
    ties: Rate
    """Games this seat shared the win with others (SC-13 equal totals, SC-15 and the like)."""
    losses: Rate

    def to_json(self) -> dict[str, JSON]:
        return {
            "seat": self.seat,
            "bot": self.bot,
            "score": self.score.to_json(),
            "wins": self.wins.to_json(),
            "ties": self.ties.to_json(),
            "losses": self.losses.to_json(),
        }


@dataclass(frozen=True, slots=True)
class FirstPlayerStats:
    """How the seat that made the first decision fared (it varies when the dice choose who starts)."""

    games: int
    seat_counts: tuple[int, ...]
    """How many games each seat started."""
    score: MeanEstimate
    wins: Rate
    ties: Rate

    def to_json(self) -> dict[str, JSON]:
        return {
            "games": self.games,
            "seat_counts": list(self.seat_counts),
            "score": self.score.to_json(),
            "wins": self.wins.to_json(),
            "ties": self.ties.to_json(),
        }


@dataclass(frozen=True, slots=True)
class SimulationReport:
    game: str
    config: dict[str, JSON]
    bots: tuple[str, ...]
    games: int
    seed: int
    workers: int
    seconds: float
    seats: tuple[SeatStats, ...]
    tied_games: Rate
    first_player: FirstPlayerStats

    def to_json(self) -> dict[str, JSON]:
        return {
            "game": self.game,
            "config": self.config,
            "bots": list(self.bots),
            "games": self.games,
            "seed": self.seed,
            "workers": self.workers,
            "seconds": self.seconds,
            "seats": [seat.to_json() for seat in self.seats],
            "tied_games": self.tied_games.to_json(),
            "first_player": self.first_player.to_json(),
        }


def summarize(
    game_name: str,
    bot_names: Sequence[str],
    records: Sequence[GameRecord],
    *,
    seed: int,
    config: Mapping[str, JSON] | None = None,
    workers: int = 1,
    seconds: float = 0.0,
) -> SimulationReport:
    """Fold finished games, in order, into per-seat and first-player statistics."""
    games = len(records)
    seats = []
    for seat, bot in enumerate(bot_names):
        wins = sum(1 for r in records if r.winners == {seat})
        ties = sum(1 for r in records if seat in r.winners and len(r.winners) > 1)
        seats.append(
            SeatStats(
                seat=seat,
                bot=bot,
                score=MeanEstimate.of([r.scores[seat] for r in records]),
                wins=Rate.of(wins, games),
                ties=Rate.of(ties, games),
                losses=Rate.of(games - wins - ties, games),
            )
        )
    started = [r for r in records if r.first_seat is not None]
    seat_counts = [0] * len(bot_names)
    for record in started:
        seat_counts[record.first_seat] += 1  # type: ignore[index]
    first_player = FirstPlayerStats(
        games=len(started),
        seat_counts=tuple(seat_counts),
        score=MeanEstimate.of([r.scores[r.first_seat] for r in started]),  # type: ignore[index]
        wins=Rate.of(sum(1 for r in started if r.winners == {r.first_seat}), len(started)),
        ties=Rate.of(sum(1 for r in started if r.first_seat in r.winners and len(r.winners) > 1), len(started)),
    )
    return SimulationReport(
        game=game_name,
        config=dict(config or {}),
        bots=tuple(bot_names),
        games=games,
        seed=seed,
        workers=workers,
        seconds=seconds,
        seats=tuple(seats),
        tied_games=Rate.of(sum(1 for r in records if len(r.winners) != 1), games),
        first_player=first_player,
    )


# -- the run ----------------------------------------------------------------------------------------
def simulate(
    game_name: str,
    bot_names: Sequence[str],
    games: int,
    seed: int,
    workers: int = 1,
    config: Mapping[str, Any] | None = None,
    progress: ProgressCallback | None = None,
    engine: Engine | None = None,
) -> SimulationReport:
    """Play ``games`` seeded games of ``game_name`` with one named bot per seat and report the statistics.

    When ``config`` does not say how many players and the game has a ``players`` option, the number of
    bots sets it. ``engine`` (default: local, ``workers`` processes) says where the games run; it never
    changes the figures. Raises :class:`ConfigError` for an unknown game or bot, or a bot count that does
    not fit.
    """
    if games < 1:
        raise ConfigError(f"the number of games must be at least 1, got {games}")
    engine = engine or Engine("local", workers)
    if not bot_names:
        raise ConfigError("name at least one bot, one per seat")
    options = with_player_count(game_name, dict(config or {}), len(bot_names))
    game = create(game_name, **options)
    if game.num_players != len(bot_names):
        raise ConfigError(
            f"{game_name} with {options} has {game.num_players} seats but {len(bot_names)} bots were named"
        )
    # Making the bots here checks their names before any worker starts, and forked workers inherit
    # them (and any table they loaded) instead of each loading its own.
    for name in bot_names:
        shared_bot(game_name, name)

    started = time.perf_counter()
    records: list[GameRecord] = []
    chunks = _chunks(game_name, tuple(bot_names), options, seed, games, engine.parallelism)
    for chunk_records in run_chunks(play_chunk, chunks, engine):
        records.extend(chunk_records)
        if progress is not None:
            progress(len(records))
    return summarize(
        game_name,
        bot_names,
        records,
        seed=seed,
        config=game.config_json(),
        workers=engine.workers,
        seconds=time.perf_counter() - started,
    )


def with_player_count(game_name: str, options: dict[str, Any], bots: int) -> dict[str, Any]:
    config_fields = {f.name for f in dataclasses.fields(game_class(game_name).config_type)}
    if "players" in config_fields and "players" not in options:
        options["players"] = bots
    return options


def _chunks(
    game_name: str, bot_names: tuple[str, ...], config: dict[str, Any], seed: int, games: int, workers: int
) -> list[Chunk]:
    # Several chunks per worker keep the workers busy to the end and the progress bar moving.
    size = max(1, min(100, math.ceil(games / (workers * 8))))
    return [
        Chunk(game_name, bot_names, config, seed, start, min(games, start + size)) for start in range(0, games, size)
    ]


def _finite(value: float) -> float | None:
    return None if math.isnan(value) else value
