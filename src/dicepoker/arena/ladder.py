"""Bot ladders: a seeded round-robin of a game's bots, OpenSkill ratings with 95% intervals, head-to-head rates.

Every pair of bots plays ``games`` games in each seat order. A ladder is heads-up: each game seats two
bots (every game of the package has a two-player configuration), so a rating says how a bot fares against
one opponent; multi-seat tables are the business of ``dicepoker simulate`` with more bots. Game ``i`` of
``a`` against ``b`` and game ``i`` of ``b`` against ``a`` roll the same dice (duplicate format: the seat swap
is the only difference, which halves the luck in a pair's score), seeded from the run's seed, the pair's
names and ``i`` alone, so adding a bot to a ladder does not change the games the others play.

Ratings come from OpenSkill's Plackett-Luce model (extra ``[research]``), updated one game at a time in a
fixed order (round ``i`` plays game ``i`` of every pairing, pairs in the order the bots were named), so a
seed gives the same ladder on any engine and with any number of workers. The interval is ``mu ± 1.96 σ``.

>>> report = ladder("peekpoker", ["random", "equity"], games=2, seed=1)
>>> [rating.bot for rating in report.ratings], report.head_to_head[("equity", "random")].trials
(['equity', 'random'], 4)
"""

from __future__ import annotations

import hashlib
import itertools
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from dicepoker.arena.engine import Engine, run_chunks
from dicepoker.arena.simulate import (
    Z_95,
    Chunk,
    GameRecord,
    ProgressCallback,
    Rate,
    play_chunk,
    shared_bot,
    with_player_count,
)
from dicepoker.bots.registry import bot_names
from dicepoker.core.errors import ConfigError
from dicepoker.core.types import JSON
from dicepoker.games.registry import create, game_class

INSTALL_OPENSKILL = "the ladder rates bots with OpenSkill: pip install 'dicepoker[research]'"


@dataclass(frozen=True, slots=True)
class BotRating:
    """A bot's OpenSkill rating: ``mu`` with its uncertainty ``sigma``; 95% interval ``mu ± 1.96 sigma``."""

    bot: str
    mu: float
    sigma: float

    @property
    def low(self) -> float:
        return self.mu - Z_95 * self.sigma

    @property
    def high(self) -> float:
        return self.mu + Z_95 * self.sigma

    def to_json(self) -> dict[str, JSON]:
        return {"bot": self.bot, "mu": self.mu, "sigma": self.sigma, "ci95": [self.low, self.high]}


@dataclass(frozen=True, slots=True)
class HeadToHead:
    """How ``bot`` fared against ``opponent`` over every game they played (both seat orders)."""

    bot: str
    opponent: str
    wins: Rate
    ties: Rate
    losses: Rate

    @property
    def trials(self) -> int:
        return self.wins.trials

    def to_json(self) -> dict[str, JSON]:
        return {
            "bot": self.bot,
            "opponent": self.opponent,
            "wins": self.wins.to_json(),
            "ties": self.ties.to_json(),
            "losses": self.losses.to_json(),
        }


@dataclass(frozen=True, slots=True)
class LadderReport:
    game: str
    config: dict[str, JSON]
    bots: tuple[str, ...]
    games: int
    """Games per pairing and seat order."""
    seed: int
    ratings: tuple[BotRating, ...]
    """Best first (by ``mu``)."""
    head_to_head: dict[tuple[str, str], HeadToHead]
    workers: int = 1
    seconds: float = 0.0

    @property
    def total_games(self) -> int:
        return len(self.bots) * (len(self.bots) - 1) * self.games

    def to_json(self) -> dict[str, JSON]:
        return {
            "game": self.game,
            "config": self.config,
            "bots": list(self.bots),
            "games_per_seat_order": self.games,
            "total_games": self.total_games,
            "seed": self.seed,
            "workers": self.workers,
            "seconds": self.seconds,
            "ratings": [rating.to_json() for rating in self.ratings],
            "head_to_head": [pair.to_json() for pair in self.head_to_head.values()],
        }


def pair_seed(seed: int, first: str, second: str) -> int:
    """The seed of every game between two bots, whichever sits first (duplicate format).

    >>> pair_seed(1, "a", "b") == pair_seed(1, "b", "a") != pair_seed(2, "a", "b")
    True
    """
    low, high = sorted((first, second))
    digest = hashlib.blake2b(f"{seed}:{low}:{high}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def ladder(
    game_name: str,
    bots: Sequence[str] | None = None,
    games: int = 20,
    seed: int = 0,
    *,
    config: Mapping[str, Any] | None = None,
    engine: Engine | None = None,
    progress: ProgressCallback | None = None,
) -> LadderReport:
    """Play the round-robin of ``bots`` (default: every bot of the game) at ``game_name`` and rate them.

    ``config`` holds the game's options (``players`` is 2). ``progress`` is called with the number of
    games finished. Raises :class:`ConfigError` for an unknown game or bot, a bot named twice, fewer than
    two bots, or a missing OpenSkill.
    """
    model = _openskill_model()
    game_class(game_name)  # an unknown game is named as such, before its bots are looked up
    names = list(bots) if bots else bot_names(game_name)
    if len(names) < 2:
        raise ConfigError("a ladder needs at least two bots, e.g. --bots random,greedy")
    if len(set(names)) != len(names):
        raise ConfigError(f"each bot once, please: {', '.join(names)}")
    if games < 1:
        raise ConfigError(f"play at least one game per pairing, got {games}")
    options = dict(config or {})
    if options.get("players", 2) != 2:
        raise ConfigError("a ladder is heads-up: every game seats two bots (leave out 'players')")
    options = with_player_count(game_name, options, 2)
    game = create(game_name, **options)
    for name in names:
        shared_bot(game_name, name)  # checks the names; forked workers inherit the bots
    engine = engine or Engine()

    pairings = [order for a, b in itertools.combinations(names, 2) for order in ((a, b), (b, a))]
    size = max(1, min(50, -(-games * len(pairings) // (engine.parallelism * 8))))
    chunks = [
        Chunk(game_name, pairing, options, pair_seed(seed, *pairing), start, min(games, start + size))
        for pairing in pairings
        for start in range(0, games, size)
    ]
    started = time.perf_counter()
    records: dict[tuple[str, ...], list[GameRecord]] = {pairing: [] for pairing in pairings}
    done = 0
    for chunk, chunk_records in zip(chunks, run_chunks(play_chunk, chunks, engine), strict=True):
        records[chunk.bot_names].extend(chunk_records)
        done += len(chunk_records)
        if progress is not None:
            progress(done)

    ratings = {name: model.rating(name=name) for name in names}
    for index in range(games):  # round by round, so no pairing's games all come first
        for first, second in pairings:
            winners = records[(first, second)][index].winners
            ranks = [1 if seat in winners else 2 for seat in (0, 1)]
            [[ratings[first]], [ratings[second]]] = model.rate([[ratings[first]], [ratings[second]]], ranks=ranks)
    ordered = sorted(names, key=lambda name: (-ratings[name].mu, names.index(name)))
    return LadderReport(
        game=game_name,
        config=game.config_json(),
        bots=tuple(names),
        games=games,
        seed=seed,
        ratings=tuple(BotRating(name, ratings[name].mu, ratings[name].sigma) for name in ordered),
        head_to_head=_head_to_head(names, records),
        workers=engine.workers,
        seconds=time.perf_counter() - started,
    )


def _head_to_head(
    names: Sequence[str], records: Mapping[tuple[str, ...], list[GameRecord]]
) -> dict[tuple[str, str], HeadToHead]:
    table = {}
    for bot, opponent in itertools.permutations(names, 2):
        wins = ties = trials = 0
        for seat, pairing in ((0, (bot, opponent)), (1, (opponent, bot))):
            for record in records[pairing]:
                trials += 1
                if record.winners == {seat}:
                    wins += 1
                elif seat in record.winners:
                    ties += 1
        table[(bot, opponent)] = HeadToHead(
            bot, opponent, Rate.of(wins, trials), Rate.of(ties, trials), Rate.of(trials - wins - ties, trials)
        )
    return table


def _openskill_model() -> Any:
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        raise ConfigError(INSTALL_OPENSKILL) from None
    return PlackettLuce()
