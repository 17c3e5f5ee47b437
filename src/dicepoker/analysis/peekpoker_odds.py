"""Exact PeekPoker odds: hand probabilities with and without the crazy-ace re-rolls, and equity of given dice.

The ace re-rolls (PK-8) make each player's final hand a small Markov decision process: with ``k`` aces
among the three own dice a player re-rolls ``s`` of them (aces are alike, so only the number matters,
and ``s = 0`` stands); when the re-rolled dice show an ace again the player decides again, otherwise the
hand is final. Re-rolling ``s`` aces and getting ``s`` aces back returns to the same position, so the
value of re-rolling ``s`` for good is ``R / (1 - q)``, where ``q`` is the chance of that self-loop and
``R`` the rest; every other outcome has fewer aces, so positions are solved from few aces up. All
arithmetic is exact (:class:`~fractions.Fraction`).

Which re-roll is best depends on what the player wants, given as a *utility* of the final hand's
strength: the odds table maximises the chance of improving; equity maximises the pot share against
the other hands as revealed at the showdown ("beat the table"). Ties between choices go to re-rolling
fewer dice, so a player never re-rolls for nothing.

>>> table = odds_table()
>>> table.before[HandCategory.LARGE_STRAIGHT], table.improve_chance
(Fraction(5, 324), Fraction(340968301, 2048004000))
"""

from __future__ import annotations

import enum
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from dicepoker.dice.poker import (
    RANKED_KEYS,
    STRENGTHS,
    Face,
    HandCategory,
    PokerDice,
    category_probabilities,
    outcomes,
)
from dicepoker.dice.table_cache import cached_fractions, source_version
from dicepoker.games.peekpoker.rules import MAX_PLAYERS, MIN_PLAYERS

OWN_DICE = 3
COMMUNITY_DICE = 3
ZERO = Fraction(0)
ONE = Fraction(1)
HALF = Fraction(1, 2)

Utility = Callable[[int], Fraction]
"""What a final hand of a given strength is worth to the player deciding on re-rolls."""
Distribution = dict[int, Fraction]
"""Final strength -> exact probability."""


def hand_strength(own: Sequence[Face], community: Sequence[Face]) -> int:
    return STRENGTHS[tuple(sorted((*own, *community)))]


# -- one player's re-rolls --------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class RerollPlan:
    """The best first decision and what it leads to under the optimal policy thereafter."""

    aces_to_reroll: int
    value: Fraction
    """Expected utility of the final hand."""
    final: Distribution


def plan_rerolls(
    own: Sequence[Face], community: Sequence[Face], utility: Utility, *, allowed: bool = True
) -> RerollPlan:
    """How many of the aces among ``own`` to re-roll now (PK-8) to maximise the expected ``utility``.

    >>> from dicepoker.dice.poker import parse_dice
    >>> own, board = parse_dice("A 9 9"), parse_dice("J Q K")
    >>> plan_rerolls(own, board, improve_utility(hand_strength(own, board))).aces_to_reroll
    1
    """
    if len(own) != OWN_DICE or len(community) != COMMUNITY_DICE:
        raise ValueError(f"need {OWN_DICE} own and {COMMUNITY_DICE} community dice")
    board = tuple(community)
    memo: dict[PokerDice, RerollPlan] = {}

    def solve(hand: PokerDice) -> RerollPlan:
        if hand in memo:
            return memo[hand]
        standing = hand_strength(hand, board)
        best = RerollPlan(0, utility(standing), {standing: ONE})
        aces = hand.count(Face.ACE) if allowed else 0
        kept = tuple(face for face in hand if face is not Face.ACE)
        for count in range(1, aces + 1):
            base = (*kept, *(Face.ACE,) * (aces - count))
            value, loop = ZERO, ZERO
            final: Distribution = {}
            for rolled, probability in outcomes(count):
                after = tuple(sorted((*base, *rolled)))
                if Face.ACE not in rolled:
                    reached = hand_strength(after, board)
                    value += probability * utility(reached)
                    final[reached] = final.get(reached, ZERO) + probability
                elif after == hand:
                    loop += probability  # all re-rolled dice came up aces: same decision again
                else:
                    plan = solve(after)
                    value += probability * plan.value
                    for reached, p in plan.final.items():
                        final[reached] = final.get(reached, ZERO) + probability * p
            value /= ONE - loop
            if value > best.value:
                best = RerollPlan(count, value, {s: p / (ONE - loop) for s, p in final.items()})
        memo[hand] = best
        return best

    return solve(tuple(sorted(own)))


def improve_utility(initial: int) -> Utility:
    """1 for a final hand that beats the hand before the re-rolls, else 0."""
    return lambda final: ONE if final > initial else ZERO


@cache
def beat_utility(target: int) -> Utility:
    """Heads-up pot share against a hand of strength ``target``: 1 to beat it, ½ to tie it."""
    return lambda final: ONE if final > target else HALF if final == target else ZERO


# -- the odds table ---------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class OddsTable:
    """Category probabilities of six dice before and after the ace re-rolls (improvement-maximising)."""

    before: dict[HandCategory, Fraction]
    after: dict[HandCategory, Fraction]
    improve_chance: Fraction
    """Chance that the re-rolls end with a hand that beats the hand before them (PK-10 order)."""
    reroll_chance: Fraction
    """Chance that the policy re-rolls at least one ace."""


@cache
def odds_table() -> OddsTable:
    """Exact probability of each PK-9 category over three own and three community dice.

    Computed once per machine and code version (under a second), then read from the user cache.
    """
    modules = [sys.modules[__name__], sys.modules[outcomes.__module__]]
    values = cached_fractions("peekpoker-odds", source_version(modules), _odds_fractions)
    n = len(HandCategory)
    before, after = dict(zip(HandCategory, values[:n], strict=True)), dict(zip(HandCategory, values[n:-2], strict=True))
    return OddsTable(before, after, values[-2], values[-1])


def _odds_fractions() -> list[Fraction]:
    table = _compute_odds_table()
    return [*table.before.values(), *table.after.values(), table.improve_chance, table.reroll_chance]


def _compute_odds_table() -> OddsTable:
    after = dict.fromkeys(HandCategory, ZERO)
    improve = rerolls = ZERO
    for own, p_own in outcomes(OWN_DICE):
        for board, p_board in outcomes(COMMUNITY_DICE):
            weight = p_own * p_board
            initial = hand_strength(own, board)
            plan = plan_rerolls(own, board, improve_utility(initial))
            improve += weight * plan.value
            rerolls += weight if plan.aces_to_reroll else ZERO
            for reached, p in plan.final.items():
                after[RANKED_KEYS[reached].category] += weight * p
    return OddsTable(category_probabilities(), after, improve, rerolls)


# -- equity -----------------------------------------------------------------------------------------
class RerollPolicy(enum.Enum):
    """How every player is assumed to use the ace re-rolls when equity is computed."""

    STAND = "stand"
    """Nobody re-rolls (also the PK-14 option "aces may not be re-rolled")."""
    BEAT = "beat"
    """Each maximises their pot share against the best other hand as revealed at the showdown."""
    IMPROVE = "improve"
    """Each maximises the chance of improving their own hand."""


@dataclass(frozen=True, slots=True)
class Equity:
    win: Fraction
    """Chance of taking the whole pot."""
    tie: Fraction
    """Chance of splitting it."""
    share: Fraction
    """Expected fraction of the pot (ties split evenly)."""

    @property
    def lose(self) -> Fraction:
        return ONE - self.win - self.tie


def final_distribution(
    own: PokerDice, community: PokerDice, others_best: int | None, policy: RerollPolicy
) -> Distribution:
    """One player's final-strength distribution given the best other hand revealed at the showdown."""
    return _final(tuple(sorted(own)), tuple(sorted(community)), others_best, policy)


@cache
def _final(own: PokerDice, community: PokerDice, others_best: int | None, policy: RerollPolicy) -> Distribution:
    initial = hand_strength(own, community)
    if policy is RerollPolicy.STAND or Face.ACE not in own:
        return {initial: ONE}
    if policy is RerollPolicy.IMPROVE or others_best is None:
        return plan_rerolls(own, community, improve_utility(initial)).final
    return plan_rerolls(own, community, beat_utility(others_best)).final


def equity(
    own: PokerDice,
    *,
    community: PokerDice | None = None,
    opponents: Sequence[PokerDice | None] = (None,),
    policy: RerollPolicy = RerollPolicy.BEAT,
) -> Equity:
    """Exact equity of ``own`` against ``opponents`` (``None``: unknown dice, heads-up only).

    Unknown community dice are enumerated. Everybody's re-rolls follow ``policy``.

    >>> from dicepoker.dice.poker import parse_dice
    >>> equity(parse_dice("A A A"), community=parse_dice("A A K"), opponents=[parse_dice("K K K")]).share
    Fraction(1, 1)
    """
    _check_dice("own", own, OWN_DICE)
    if community is not None:
        _check_dice("community", community, COMMUNITY_DICE)
    if not opponents:
        raise ValueError("equity needs at least one opponent")
    if len(opponents) > MAX_PLAYERS - 1:
        raise ValueError(
            f"PeekPoker is for {MIN_PLAYERS} to {MAX_PLAYERS} players: at most {MAX_PLAYERS - 1} opponents, "
            f"got {len(opponents)}"
        )
    if None in opponents and len(opponents) > 1:
        raise ValueError("exact equity against unknown dice is heads-up only: give every opponent's dice")
    for dice in opponents:
        if dice is not None:
            _check_dice("opponent", dice, OWN_DICE)
    boards = [(tuple(sorted(community)), ONE)] if community is not None else list(outcomes(COMMUNITY_DICE))
    hands = [tuple(sorted(own))]
    win = tie = share = ZERO
    for board, p_board in boards:
        if None in opponents:
            for other, p_other in outcomes(OWN_DICE):
                w, t, s = _showdown((hands[0], other), board, policy)
                weight = p_board * p_other
                win, tie, share = win + weight * w, tie + weight * t, share + weight * s
        else:
            known = [tuple(sorted(dice)) for dice in opponents if dice is not None]
            w, t, s = _showdown((hands[0], *known), board, policy)
            win, tie, share = win + p_board * w, tie + p_board * t, share + p_board * s
    return Equity(win, tie, share)


def _check_dice(what: str, dice: Sequence[Face], count: int) -> None:
    if len(dice) != count:
        raise ValueError(f"{what} dice: expected {count}, got {len(dice)}")


@cache
def _showdown(hands: tuple[PokerDice, ...], board: PokerDice, policy: RerollPolicy) -> tuple[Fraction, ...]:
    """(win, tie, share) of ``hands[0]``; each hand re-rolls by ``policy`` against the hands as revealed.

    Decisions depend on the revealed dice only, so the players' final hands are independent.
    """
    initial = [hand_strength(hand, board) for hand in hands]
    finals = []
    for seat, hand in enumerate(hands):
        others = [s for i, s in enumerate(initial) if i != seat]
        finals.append(final_distribution(hand, board, max(others), policy))
    win = tie = share = ZERO
    for mine, p_mine in finals[0].items():
        below = [sum((p for s, p in dist.items() if s < mine), ZERO) for dist in finals[1:]]
        level = [dist.get(mine, ZERO) for dist in finals[1:]]
        # Sum over which opponents tie (the rest are below): a pot split among 1 + ties.
        ways: dict[int, Fraction] = {0: ONE}
        for b, e in zip(below, level, strict=True):
            step: dict[int, Fraction] = {}
            for ties, p in ways.items():
                step[ties] = step.get(ties, ZERO) + p * b
                step[ties + 1] = step.get(ties + 1, ZERO) + p * e
            ways = step
        win += p_mine * ways.get(0, ZERO)
        tie += p_mine * sum((p for ties, p in ways.items() if ties), ZERO)
        share += p_mine * sum((p / (1 + ties) for ties, p in ways.items()), ZERO)
    return win, tie, share
