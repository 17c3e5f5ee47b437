"""Exact PeekPoker odds and equity, checked against hand computations and independent brute force."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import cache
from itertools import product
from random import Random

import pytest

from dicepoker.analysis.peekpoker_odds import (
    RerollPolicy,
    beat_utility,
    equity,
    hand_strength,
    improve_utility,
    odds_table,
    plan_rerolls,
)
from dicepoker.dice.poker import FACES, Face, HandCategory, PokerDice, category_probabilities, parse_dice

ONE_ACE_CASE = (parse_dice("A 9 9"), parse_dice("J Q K"))


def test_PK_8_single_ace_improvement_by_hand() -> None:
    """PK-8: re-rolling the lone ace of A 9 9 | J Q K; an ace again means deciding again (same position).

    9 makes trips, J/Q/K two pairs, T loses the ace kicker, A repeats: P(improve) = (4/6) / (1 - 1/6) = 4/5.
    """
    own, board = ONE_ACE_CASE
    plan = plan_rerolls(own, board, improve_utility(hand_strength(own, board)))
    assert plan.aces_to_reroll == 1
    assert plan.value == Fraction(4, 5)
    assert sum(plan.final.values()) == 1
    assert len(plan.final) == 5  # 9 9 9, three two-pairs, pair of nines with K Q J kickers


def _depth_limited(board: PokerDice, utility: Callable[[int], Fraction]) -> Callable[[PokerDice, int], float]:
    """Independent check: plain recursion over re-roll rounds, cut off after ``depth`` rounds."""

    @cache
    def value(own: PokerDice, depth: int) -> float:
        stand = float(utility(hand_strength(own, board)))
        aces = own.count(Face.ACE)
        if depth == 0 or not aces:
            return stand
        kept = [f for f in own if f is not Face.ACE]
        best = stand
        for count in range(1, aces + 1):
            total = 0.0
            for rolled in product(FACES, repeat=count):
                after = tuple(sorted([*kept, *[Face.ACE] * (aces - count), *rolled]))
                if Face.ACE in rolled:
                    total += value(after, depth - 1)
                else:
                    total += float(utility(hand_strength(after, board)))
            best = max(best, total / 6**count)
        return best

    return value


@pytest.mark.parametrize("seed", range(6))
def test_PK_8_repeated_rerolls_match_brute_force(seed: int) -> None:
    """PK-8: while re-rolled dice show aces the player decides again; the exact solution matches a deep
    brute-force recursion (which converges geometrically) for hands with two or three aces."""
    rng = Random(seed)
    aces = 2 + seed % 2
    own = tuple(sorted([Face.ACE] * aces + [rng.choice(FACES) for _ in range(3 - aces)]))
    board = tuple(sorted(rng.choice(FACES) for _ in range(3)))
    target = hand_strength(parse_dice("Q Q Q Q 9 9") if seed % 3 else parse_dice("K K T T 9 J"), ())
    for utility in (improve_utility(hand_strength(own, board)), beat_utility(target)):
        exact = plan_rerolls(own, board, utility).value
        assert float(exact) == pytest.approx(_depth_limited(board, utility)(own, 12), abs=1e-6)


def test_PK_8_an_ace_makes_or_breaks_a_straight() -> None:
    """PK-8/PK-9: the aces of a straight are kept against a weaker hand, re-rolled against a stronger one."""
    own, board = parse_dice("A A K"), parse_dice("T J Q")
    assert hand_strength(own, board) == hand_strength(parse_dice("A K T"), board)  # a straight
    weaker = hand_strength(parse_dice("Q Q Q Q 9"), parse_dice("T"))
    stronger = hand_strength(parse_dice("9 T J"), parse_dice("Q K A"))  # a large straight
    assert plan_rerolls(own, board, beat_utility(weaker)).aces_to_reroll == 0
    chase = plan_rerolls(own, board, beat_utility(stronger))
    assert chase.aces_to_reroll == 1  # keep one ace for the straight, hunt the 9 with the other
    assert chase.value == Fraction(1, 2) * Fraction(1, 5)  # a 9 ties the large straight: (1/6) / (5/6)


def test_PK_14_aces_may_not_be_rerolled() -> None:
    """PK-14 option: with re-rolls forbidden the hand stands as dealt."""
    own, board = ONE_ACE_CASE
    plan = plan_rerolls(own, board, improve_utility(hand_strength(own, board)), allowed=False)
    assert plan.aces_to_reroll == 0 and plan.value == 0


def test_PK_9_odds_table_is_exact() -> None:
    """PK-9 probabilities before the re-rolls, and a distribution after them (improvement-maximising)."""
    table = odds_table()
    assert table.before == category_probabilities()
    assert sum(table.before.values()) == 1 and sum(table.after.values()) == 1
    assert table.before[HandCategory.PAIR] == Fraction(125, 648)
    assert 0 < table.reroll_chance <= 1 - Fraction(5, 6) ** 3  # only hands with an ace may re-roll
    assert 0 < table.improve_chance < table.reroll_chance
    # Re-rolling aces can only help the hands an ace is missing from: five of a kind of a lower face, etc.
    assert table.after[HandCategory.FIVE_KIND] > table.before[HandCategory.FIVE_KIND]


def test_equity_stand_matches_brute_force() -> None:
    """With no re-rolls, equity against unknown dice is a plain count over every outcome."""
    own, board = parse_dice("K K 9"), parse_dice("9 T A")
    mine = hand_strength(own, board)
    share = Fraction(0)
    for other in product(FACES, repeat=3):
        theirs = hand_strength(other, board)
        share += 1 if mine > theirs else Fraction(1, 2) if mine == theirs else 0
    result = equity(own, community=board, policy=RerollPolicy.STAND)
    assert result.share == share / 216
    assert result.win + result.tie + result.lose == 1


@pytest.mark.parametrize("policy", list(RerollPolicy))
def test_equity_is_zero_sum_heads_up(policy: RerollPolicy) -> None:
    a, b, board = parse_dice("A A 9"), parse_dice("K Q T"), parse_dice("A J 9")
    first = equity(a, community=board, opponents=[b], policy=policy)
    second = equity(b, community=board, opponents=[a], policy=policy)
    assert first.share + second.share == 1
    assert first.win == second.lose


def test_PK_12_multiway_ties_split() -> None:
    """Three identical straights split three ways."""
    board = parse_dice("T J Q")
    result = equity(
        parse_dice("K A A"),
        community=board,
        opponents=[parse_dice("K A T"), parse_dice("K A J")],
        policy=RerollPolicy.STAND,
    )
    assert (result.win, result.tie, result.share) == (0, 1, Fraction(1, 3))


def test_equity_rejects_unknown_multiway_and_bad_counts() -> None:
    with pytest.raises(ValueError, match="heads-up"):
        equity(parse_dice("A A A"), opponents=[None, None])
    with pytest.raises(ValueError, match="expected 3"):
        equity(parse_dice("A A"))
