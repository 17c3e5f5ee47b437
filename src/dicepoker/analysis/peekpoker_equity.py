"""PeekPoker equity tables: every own-dice × community-dice × opponent-dice pairing (56 × 56 × 56), exact.

Equity of three own dice against three opponent dice on a board of three community dice, as dealt and with
the ace re-rolls of the showdown (PK-10, crazy aces: each player re-rolls to maximise equity against a random
hand on the board, :func:`dicepoker.analysis.peekpoker_odds.plan_rerolls`). Partial boards are averaged over
the community dice still to come. The bots of :mod:`dicepoker.bots.peekpoker` decide from these; the tables
are built once per machine (a second or two, then read from the user cache or the package in milliseconds).

>>> from dicepoker.dice.poker import parse_dice
>>> round(hand_equity(parse_dice("A A A"), parse_dice("K K K"), rerolls=False), 3)  # a full house vs a random hand
0.572
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from fractions import Fraction
from functools import cache

import numpy as np
import numpy.typing as npt

from dicepoker.analysis.peekpoker_odds import hand_strength, plan_rerolls
from dicepoker.dice.poker import RANKED_KEYS, PokerDice, outcomes
from dicepoker.dice.table_cache import cached_arrays, source_version

FloatArray = npt.NDArray[np.float64]
TRIPLES: tuple[PokerDice, ...] = tuple(dice for dice, _ in outcomes(3))
TRIPLE_INDEX = {dice: i for i, dice in enumerate(TRIPLES)}
TRIPLE_P: FloatArray = np.array([float(p) for _, p in outcomes(3)])
STRENGTH_LEVELS = len(RANKED_KEYS)
COMMUNITY = 3


@cache
def equity_tables() -> tuple[FloatArray, FloatArray]:
    """Equity ``[board, own, opponent]`` of own dice vs opponent dice: as dealt, and with ace re-rolls.

    Kept in the user cache (:mod:`dicepoker.dice.table_cache`), versioned by the source of the modules
    that compute them, so only the first use on a machine pays the second or two of building.
    """
    modules = [sys.modules[__name__], sys.modules[plan_rerolls.__module__], sys.modules[outcomes.__module__]]
    arrays = cached_arrays("peekpoker-equity", source_version(modules), _build_tables)
    return np.asarray(arrays["stand"], dtype=np.float64), np.asarray(arrays["rerolled"], dtype=np.float64)


def _build_tables() -> dict[str, FloatArray]:
    n = len(TRIPLES)
    strength = np.array([[hand_strength(own, board) for own in TRIPLES] for board in TRIPLES])
    # Beat / tie matrix over strength levels.
    levels = np.arange(STRENGTH_LEVELS)
    versus = (levels[:, None] > levels[None, :]) + 0.5 * (levels[:, None] == levels[None, :])
    stand = versus[strength[:, :, None], strength[:, None, :]]
    rerolled = np.empty((n, n, n))
    for b, board in enumerate(TRIPLES):
        finals = np.zeros((n, STRENGTH_LEVELS))
        field = _field_utility(tuple(int(x) for x in strength[b]))
        for o, own in enumerate(TRIPLES):
            plan = plan_rerolls(own, board, field)
            for level, p in plan.final.items():
                finals[o, level] = float(p)
        rerolled[b] = finals @ versus @ finals.T
    return {"stand": stand, "rerolled": rerolled}


def _field_utility(dealt: tuple[int, ...]) -> Callable[[int], Fraction]:
    """Equity of a final hand against a random hand on the same board (dealt strengths given): the
    re-roll policy of the tables keeps good hands and chases with poor ones, unlike "improve at all costs"."""

    @cache
    def utility(level: int) -> Fraction:
        total = Fraction(0)
        for theirs, (_, p) in zip(dealt, outcomes(3), strict=True):
            total += p if level > theirs else p / 2 if level == theirs else 0
        return total

    return utility


def hand_equity(
    own: PokerDice, community: PokerDice, *, rerolls: bool, opponent_weights: FloatArray | None = None
) -> float:
    """Heads-up equity vs an unknown hand (weighted by ``opponent_weights``); partial boards averaged."""
    stand, rerolled = equity_tables()
    table = rerolled if rerolls else stand
    weights = TRIPLE_P if opponent_weights is None or opponent_weights.sum() <= 0 else opponent_weights
    me = TRIPLE_INDEX[tuple(sorted(own))]
    boards, chances = consistent_boards(tuple(sorted(community)))
    values = table[boards, me, :] @ weights / weights.sum()
    return float(values @ chances / chances.sum())


@cache
def consistent_boards(partial: PokerDice) -> tuple[npt.NDArray[np.int64], FloatArray]:
    """Full boards that extend ``partial`` community dice, with their chances."""
    rest = 3 - len(partial)
    indices, chances = [], []
    for extra, p in outcomes(rest):
        indices.append(TRIPLE_INDEX[tuple(sorted((*partial, *extra)))])
        chances.append(float(p))
    return np.array(indices), np.array(chances)


@cache
def strength_table() -> FloatArray:
    """``[board, hand]``: each hand's equity (ace re-rolls counted) against a random hand on that board."""
    _, rerolled = equity_tables()
    table: FloatArray = rerolled @ TRIPLE_P
    return table


@cache
def strengths(community: PokerDice) -> FloatArray:
    """Every hand's equity against a random hand, averaged over the community dice still to come."""
    boards, chances = consistent_boards(community)
    result: FloatArray = chances @ strength_table()[boards] / chances.sum()
    return result


@cache
def equities(own: PokerDice, community: PokerDice) -> FloatArray:
    """Heads-up equity of ``own`` against each possible opponent hand, with re-rolls."""
    _, rerolled = equity_tables()
    boards, chances = consistent_boards(community)
    result: FloatArray = chances @ rerolled[boards, TRIPLE_INDEX[own], :] / chances.sum()
    return result
