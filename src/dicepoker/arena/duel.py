"""Heads-up duels of two bots at the betting games (holdem, peekpoker), one hand at a time.

Every hand is an independent heads-up game at the default stacks, stopped when its first hand is
settled, and counted on its own: the figure is the chips the first bot wins per hand, with a 95%
confidence interval (normal approximation over the hands). The bots swap seats every hand and seat 0
always deals, so each bot deals every other hand. Hand ``i`` draws its dice from ``Random(seed *
1_000_003 + i)`` and the bots' choices from ``Random(seed * 7_919 + i)``: a seed gives the same figure on
every machine, and hands can be split between processes without changing it.

:func:`duel_named` runs a duel from bot names on any :class:`~dicepoker.arena.engine.Engine`. The bots learn
over the hands they play (the experts model their opponent), so hands run in parallel only as *sessions*:
with ``session=N`` every block of ``N`` hands starts with fresh bots, and those blocks are the chunks. The
same ``session`` gives the same figures for any engine and any number of workers; the default (one session)
is the sequential duel above.

>>> from dicepoker.bots.base import RandomBot
>>> report = duel("holdem", RandomBot(), RandomBot(), hands=20, seed=1)
>>> report.hands, report.game
(20, 'holdem')
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from random import Random
from typing import NamedTuple, Protocol, cast

from dicepoker.arena.engine import Engine, run_chunks
from dicepoker.bots.base import Bot
from dicepoker.bots.registry import bot_names, create_bot
from dicepoker.core.errors import ConfigError
from dicepoker.core.state import State
from dicepoker.core.steps import roll_chance
from dicepoker.core.types import JSON, Seat
from dicepoker.games import registry
from dicepoker.games.registry import create

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the normal distribution."""
DEALER: Seat = 0


class BettingState(Protocol):
    """What the betting games' states share (issue 18: one vocabulary), all a duel reads."""

    @property
    def hand(self) -> int:
        """The number of the current hand, from 1."""

    @property
    def stacks(self) -> tuple[int, ...]:
        """Each seat's chips at the start of the current hand (after the game: at its end)."""


class BettingGame(Protocol):
    """What the betting games share: a first hand with a chosen dealer."""

    def start_dealt_by(self, dealer: Seat) -> State: ...


@dataclass(frozen=True, slots=True)
class HeadsUp:
    """How to play one heads-up hand of a betting game: its first state with seat 0 dealing (CM-3), its hand
    counter, and each seat's chips between hands."""

    start: Callable[[], State]
    hand: Callable[[State], int]
    stacks: Callable[[State], tuple[int, ...]]
    stack: int


def heads_up(name: str) -> HeadsUp:
    """The heads-up rules of a betting game (``GameInfo.betting``); :class:`ConfigError` for any other game."""
    if name not in GAMES:
        raise ConfigError(f"no heads-up duels for {name!r}; choose one of: {', '.join(GAMES)}")
    game = create(name, players=2)
    betting = cast(BettingGame, game)
    return HeadsUp(
        start=lambda: betting.start_dealt_by(DEALER),
        hand=lambda state: cast(BettingState, state).hand,
        stacks=lambda state: cast(BettingState, state).stacks,
        stack=game.config.stack,
    )


GAMES: dict[str, Callable[[], HeadsUp]] = {
    i.name: functools.partial(heads_up, i.name) for i in registry.infos() if i.betting
}
"""The games a duel plays (the betting games, ``GameInfo.betting``) -> their heads-up rules."""


@dataclass(frozen=True, slots=True)
class DuelReport:
    """Chips per hand won by the first bot from the second, with its 95% interval."""

    game: str
    bots: tuple[str, str]
    hands: int
    seed: int
    results: tuple[int, ...]
    """Chips the first bot won (negative: lost) in each hand."""
    session: int | None = None
    """Hands per session (fresh bots each session), ``None``: one session."""

    @property
    def mean(self) -> float:
        return sum(self.results) / len(self.results) if self.results else 0.0

    @property
    def stdev(self) -> float:
        n = len(self.results)
        if n < 2:
            return 0.0
        mean = self.mean
        return math.sqrt(sum((r - mean) ** 2 for r in self.results) / (n - 1))

    @property
    def half_width(self) -> float:
        """Half the width of the 95% confidence interval of :attr:`mean`."""
        return Z95 * self.stdev / math.sqrt(len(self.results)) if self.results else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return self.mean - self.half_width, self.mean + self.half_width

    @property
    def command(self) -> str:
        """The command line that reproduces this run."""
        command = f"dicepoker simulate {self.game} --bots {','.join(self.bots)} --hands {self.hands} --seed {self.seed}"
        return command if self.session is None else f"{command} --session {self.session}"

    def summary(self) -> str:
        """The result in words, with the command that reproduces it."""
        low, high = self.interval
        first, second = self.bots
        return (
            f"{self.game}: {first} vs {second} over {self.hands:,} heads-up hands (seed {self.seed})\n"
            f"{first} wins {self.mean:+.2f} chips per hand from {second} "
            f"(95% CI {low:+.2f} to {high:+.2f}; total {sum(self.results):+,})\n"
            f"reproduce: {self.command}"
        )

    def to_json(self) -> dict[str, JSON]:
        low, high = self.interval
        return {
            "game": self.game,
            "bots": list(self.bots),
            "hands": self.hands,
            "seed": self.seed,
            "chips_per_hand": self.mean,
            "ci95": [low, high],
            "half_width95": self.half_width,
            "stdev": self.stdev,
            "total_chips": sum(self.results),
            "session": self.session,
            "command": self.command,
        }


def play_hand(rules: HeadsUp, bots: Sequence[Bot], dice_rng: Random, bot_rng: Random) -> tuple[int, ...]:
    """Play one hand from ``rules.start()``; ``bots[s]`` sits in seat ``s``. Each seat's chips after it."""
    state = rules.start()
    first_hand = rules.hand(state)
    while rules.hand(state) == first_hand and not state.is_terminal:
        if state.is_chance:
            for _, rolled in roll_chance(state, dice_rng):
                state = rolled
                if rules.hand(state) != first_hand:
                    break  # the next hand's dice are not this hand's to draw
            continue
        to_act = state.to_act
        assert isinstance(to_act, tuple)
        # Simultaneous decisions (PeekPoker's aces) are all made from the same state, then applied.
        choices = [(seat, bots[seat].choose(state.view(seat), state.legal_actions(seat), bot_rng)) for seat in to_act]
        for seat, action in choices:
            state = state.apply(action, seat)
    return rules.stacks(state)


def parse_bots(game: str, bots: str) -> tuple[Bot, Bot]:
    """``"expert,equity"`` -> two fresh bots of ``game``; raises :class:`ConfigError` naming the choices."""
    first, second = parse_bot_names(game, bots)
    return create_bot(game, first), create_bot(game, second)


def parse_bot_names(game: str, bots: str) -> tuple[str, str]:
    """``"expert,equity"`` -> ``("expert", "equity")``, checked; :class:`ConfigError` names the choices."""
    names = [name.strip() for name in bots.split(",") if name.strip()]
    if len(names) != 2:
        choices = ", ".join(bot_names(game))
        raise ConfigError(f"--bots needs exactly two bots, e.g. --bots expert,equity (choose from: {choices})")
    for name in names:
        create_bot(game, name)
    return names[0], names[1]


def duel(game: str, first: Bot, second: Bot, hands: int, seed: int) -> DuelReport:
    """Play ``hands`` independent heads-up hands of ``game`` between two bots; see the module doc."""
    if game not in GAMES:
        raise ConfigError(f"no heads-up duels for {game!r}; choose one of: {', '.join(GAMES)}")
    if hands < 1:
        raise ConfigError(f"play at least one hand, got {hands}")
    rules = GAMES[game]()
    results = [_hand_result(rules, first, second, seed, index) for index in range(hands)]
    return DuelReport(game, (first.name, second.name), hands, seed, tuple(results))


def _hand_result(rules: HeadsUp, first: Bot, second: Bot, seed: int, index: int) -> int:
    """Chips the first bot wins in hand ``index`` of the duel seeded ``seed``."""
    dice_rng, bot_rng = Random(seed * 1_000_003 + index), Random(seed * 7_919 + index)
    seat = index % 2  # the first bot's seat: seat 0 deals, so it deals the even hands
    bots = (first, second) if seat == 0 else (second, first)
    stacks = play_hand(rules, bots, dice_rng, bot_rng)
    return stacks[seat] - rules.stack


class _Session(NamedTuple):
    game: str
    bots: tuple[str, str]
    seed: int
    start: int
    stop: int


def _play_session(session: _Session) -> list[int]:
    rules = GAMES[session.game]()
    first, second = (create_bot(session.game, name) for name in session.bots)
    return [_hand_result(rules, first, second, session.seed, i) for i in range(session.start, session.stop)]


def duel_named(
    game: str,
    bots: tuple[str, str],
    hands: int,
    seed: int,
    *,
    session: int | None = None,
    engine: Engine | None = None,
    progress: Callable[[int], None] | None = None,
) -> DuelReport:
    """The duel of two named bots, in sessions of ``session`` hands run on ``engine`` (see the module doc).

    ``progress`` is called with the number of hands finished so far.
    """
    if game not in GAMES:
        raise ConfigError(f"no heads-up duels for {game!r}; choose one of: {', '.join(GAMES)}")
    if hands < 1:
        raise ConfigError(f"play at least one hand, got {hands}")
    if session is not None and session < 1:
        raise ConfigError(f"a session has at least one hand, got {session}")
    size = hands if session is None else session
    sessions = [_Session(game, bots, seed, start, min(hands, start + size)) for start in range(0, hands, size)]
    results: list[int] = []
    for chunk in run_chunks(_play_session, sessions, engine or Engine()):
        results.extend(chunk)
        if progress is not None:
            progress(len(results))
    return DuelReport(game, bots, hands, seed, tuple(results), session)
