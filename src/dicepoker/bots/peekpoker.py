"""PeekPoker bots. Each decides from a :class:`PeekPokerView` and the legal actions only.

- :class:`EquityBot`: equity of its own dice against one random hand (ace re-rolls ignored); bets a
  pot when strong, calls by pot odds, otherwise checks or folds. At the showdown it re-rolls aces to
  beat the best hand on the table as revealed.
- :class:`ExpertBot`: equity that counts the crazy aces (both players re-roll to maximise their equity
  against a random hand on the board), narrowed to
  the hands an opponent who bets or raises is likely to hold; sizes its bets to the pot, raises for
  value, bluffs now and then. At the showdown it plays a best response to the others' likely re-rolls:
  an ace may complete a straight or break one, and whether to keep it depends on what the others hold
  and will do.

The tables behind both (every own-dice × community-dice pairing, 56 × 56) are built once, in well under
a second, from the exact hand table of :mod:`dicepoker.dice.poker` and the re-roll solver of
:mod:`dicepoker.analysis.peekpoker_odds`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import cache
from random import Random

import numpy as np
import numpy.typing as npt

from dicepoker.analysis.peekpoker_odds import (
    RerollPolicy,
    beat_utility,
    final_distribution,
    hand_strength,
    plan_rerolls,
)
from dicepoker.core.types import Action, View
from dicepoker.dice.poker import RANKED_KEYS, PokerDice, outcomes
from dicepoker.games.betting import Bet, Call, Check, Fold, Raise
from dicepoker.games.peekpoker_actions import RerollAces, Stand
from dicepoker.games.peekpoker_view import PeekPokerView

FloatArray = npt.NDArray[np.float64]
TRIPLES: tuple[PokerDice, ...] = tuple(dice for dice, _ in outcomes(3))
TRIPLE_INDEX = {dice: i for i, dice in enumerate(TRIPLES)}
TRIPLE_P: FloatArray = np.array([float(p) for _, p in outcomes(3)])
STRENGTH_LEVELS = len(RANKED_KEYS)


# -- tables -----------------------------------------------------------------------------------------
@cache
def _tables() -> tuple[FloatArray, FloatArray]:
    """Equity ``[board, own, opponent]`` of own dice vs opponent dice: as dealt, and with ace re-rolls."""
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
    return stand, rerolled


def _field_utility(strengths: tuple[int, ...]) -> Callable[[int], Fraction]:
    """Equity of a final hand against a random hand on the same board (dealt strengths given): the
    re-roll policy of the tables keeps good hands and chases with poor ones, unlike "improve at all costs"."""

    @cache
    def utility(level: int) -> Fraction:
        total = Fraction(0)
        for theirs, (_, p) in zip(strengths, outcomes(3), strict=True):
            total += p if level > theirs else p / 2 if level == theirs else 0
        return total

    return utility


def hand_equity(
    own: PokerDice, community: PokerDice, *, rerolls: bool, opponent_weights: FloatArray | None = None
) -> float:
    """Heads-up equity vs an unknown hand (weighted by ``opponent_weights``); partial boards averaged."""
    stand, rerolled = _tables()
    table = rerolled if rerolls else stand
    weights = TRIPLE_P if opponent_weights is None or opponent_weights.sum() <= 0 else opponent_weights
    me = TRIPLE_INDEX[tuple(sorted(own))]
    boards, chances = _consistent_boards(tuple(sorted(community)))
    values = table[boards, me, :] @ weights / weights.sum()
    return float(values @ chances / chances.sum())


@cache
def _consistent_boards(partial: PokerDice) -> tuple[npt.NDArray[np.int64], FloatArray]:
    """Full boards that extend ``partial`` community dice, with their chances."""
    rest = 3 - len(partial)
    indices, chances = [], []
    for extra, p in outcomes(rest):
        indices.append(TRIPLE_INDEX[tuple(sorted((*partial, *extra)))])
        chances.append(float(p))
    return np.array(indices), np.array(chances)


@cache
def opponent_range(community: PokerDice, threshold: float) -> FloatArray:
    """Chance weights of opponent dice whose own equity (with re-rolls) is at least ``threshold``."""
    equities = np.array([hand_equity(dice, community, rerolls=True) for dice in TRIPLES])
    return np.where(equities >= threshold, TRIPLE_P, 0.0)


# -- shared betting helpers -------------------------------------------------------------------------
def _amount_action(legal: Sequence[Action], target: int) -> Action | None:
    """The legal bet or raise closest to ``target`` (a total wager), or ``None`` if none is legal."""
    sized = [a for a in legal if isinstance(a, (Bet, Raise))]
    if not sized:
        return None
    return min(sized, key=lambda a: abs(a.to - target))


def _passive(legal: Sequence[Action], equity: float, view: PeekPokerView) -> Action:
    """Check when free; call when the pot odds pay; otherwise fold."""
    if Check() in legal:
        return Check()
    to_call = view.to_call()
    if Call() in legal and equity >= to_call / (view.pot + to_call):
        return Call()
    return Fold() if Fold() in legal else legal[0]


def _opponents(view: PeekPokerView) -> int:
    return max(1, sum(view.in_hand) - 1)


# -- bots -------------------------------------------------------------------------------------------
class EquityBot:
    name = "equity"

    def choose(self, view: View, legal: Sequence[Action], rng: Random) -> Action:
        assert isinstance(view, PeekPokerView) and view.seat is not None
        if any(isinstance(a, (Stand, RerollAces)) for a in legal):
            return _beat_the_table(view, legal)
        equity = hand_equity(view.own, view.community, rerolls=False) ** _opponents(view)
        if equity > 0.65:
            sized = _amount_action(legal, max(view.bets) + view.pot)
            if sized is not None:
                return sized
            return Call() if Call() in legal else Check() if Check() in legal else legal[0]
        if equity > 0.5 and Call() in legal:
            return Call()
        return _passive(legal, equity, view)


class ExpertBot:
    name = "expert"

    def choose(self, view: View, legal: Sequence[Action], rng: Random) -> Action:
        assert isinstance(view, PeekPokerView) and view.seat is not None
        if any(isinstance(a, (Stand, RerollAces)) for a in legal):
            return _best_response_rerolls(view, legal)
        facing = view.to_call() > 0
        # A bet tells something: against one, count only the hands that would make it.
        weights = None
        if facing:
            pressure = view.to_call() / max(1, view.pot)
            weights = opponent_range(view.community, min(0.75, 0.5 + 0.25 * pressure))
        equity = hand_equity(view.own, view.community, rerolls=True, opponent_weights=weights)
        equity **= _opponents(view)
        last_round = view.betting_round is not None and len(view.community) == 3
        if equity > 0.72 or (equity > 0.6 and not facing):
            fraction = 1.0 if equity > 0.85 else 0.6
            target = max(view.bets) + round(fraction * (view.pot + view.to_call()))
            sized = _amount_action(legal, max(target, 1))
            if sized is not None:
                return sized
        if not facing and last_round and equity < 0.25 and rng.random() < 0.15:
            bluff = _amount_action(legal, max(1, view.pot // 2))
            if bluff is not None:
                return bluff
        return _passive(legal, equity, view)


# -- ace decisions ----------------------------------------------------------------------------------
def _choice(legal: Sequence[Action], count: int) -> Action:
    wanted: Action = RerollAces(count) if count else Stand()
    return wanted if wanted in legal else legal[0]


def _shown(view: PeekPokerView) -> dict[int, PokerDice]:
    return {s: d for s, d in enumerate(view.dice) if d is not None and view.in_hand[s] and s != view.seat}


def _beat_the_table(view: PeekPokerView, legal: Sequence[Action]) -> Action:
    """Re-roll to beat the best hand revealed, as if the others stand."""
    others = _shown(view)
    target = max((hand_strength(d, view.community) for d in others.values()), default=0)
    return _choice(legal, plan_rerolls(view.own, view.community, beat_utility(target)).aces_to_reroll)


def _best_response_rerolls(view: PeekPokerView, legal: Sequence[Action]) -> Action:
    """Best response to the others' likely re-rolls: each other player still deciding is assumed to
    re-roll to beat the best other hand on the table; those who are done keep their hands."""
    assert view.seat is not None
    board = view.community
    mine = hand_strength(view.own, board)
    others = _shown(view)
    current = {s: hand_strength(d, board) for s, d in others.items()}
    finals = []
    for seat, dice in others.items():
        if seat in view.to_act:
            best_other = max([mine, *(v for s, v in current.items() if s != seat)])
            finals.append(final_distribution(dice, board, best_other, RerollPolicy.BEAT))
        else:
            finals.append({current[seat]: Fraction(1)})

    @cache
    def share(level: int) -> Fraction:
        # Pot share with a final hand of strength ``level`` against independent opponents' finals.
        ways = {0: Fraction(1)}
        for dist in finals:
            below = sum((p for s, p in dist.items() if s < level), Fraction(0))
            equal = dist.get(level, Fraction(0))
            step: dict[int, Fraction] = {}
            for ties, p in ways.items():
                step[ties] = step.get(ties, Fraction(0)) + p * below
                step[ties + 1] = step.get(ties + 1, Fraction(0)) + p * equal
            ways = step
        return sum((p / (1 + ties) for ties, p in ways.items()), Fraction(0))

    return _choice(legal, plan_rerolls(view.own, board, share).aces_to_reroll)
