"""Exact board odds: known oracles, sums, and the exact DP against the floating-point one bots use."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from dicepoker.analysis.board_odds import hand_odds, label_odds, odds_json
from dicepoker.analysis.board_planning import best_reroll, fresh_turn_value, turn_values
from dicepoker.dice.hands import PokerHand, hand_counts
from dicepoker.games.board.claims import READINGS


def test_one_roll_odds_match_the_hand_table_and_sum_to_one() -> None:
    rows = {row.key: row for row in hand_odds()}
    for hand, probability in hand_counts().items():
        assert rows[hand.label.replace(" ", "-")].one_roll == probability
    assert sum((row.one_roll for row in hand_odds()), Fraction(0)) == 1


def test_five_of_a_kind_within_three_rolls_is_the_known_yahtzee_figure() -> None:
    row = next(r for r in hand_odds() if r.key == "five-of-a-kind")
    assert row.in_turn == Fraction(2_783_176, 60_466_176)


def test_within_a_turn_is_at_least_one_roll() -> None:
    for row in (*hand_odds(), *label_odds()):
        assert row.in_turn >= row.one_roll


def test_BD_6_lucky_7_odds() -> None:
    lucky = next(r for r in label_odds() if r.key == "L7")
    assert lucky.one_roll == Fraction(5 + 10, 6**5)  # 1 1 1 1 3 (5 orders) and 1 1 1 2 2 (10 orders)


def test_float_planner_agrees_with_exact_odds() -> None:
    for row in hand_odds()[:4]:
        hand = next(h for h in PokerHand if h.label.replace(" ", "-") == row.key)
        target = np.array([1.0 if r.hand is hand else 0.0 for r in READINGS])
        assert abs(fresh_turn_value(turn_values(target)) - float(row.in_turn)) < 1e-12


def test_best_reroll_keeps_four_of_a_kind_for_five() -> None:
    target = np.array([1.0 if r.wild else 0.0 for r in READINGS])
    positions, value = best_reroll((2, 5, 5, 5, 5), 2, turn_values(target))
    assert positions == (0,) and abs(value - (1 - (5 / 6) ** 2)) < 1e-12


def test_json_has_hands_and_labels() -> None:
    data = odds_json("zepherin")
    assert len(data["hands"]) == 8 and len(data["labels"]) == 37
