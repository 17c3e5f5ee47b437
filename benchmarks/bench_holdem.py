"""Dice Hold'em speed: best-of-seven evaluations per second, and random-action hands per second of the
full game against PokerKit's no-limit hold'em with random actions, measured in the same run.

Run: ``python benchmarks/bench_holdem.py [--quick]`` (or ``python benchmarks/run.py holdem``).
"""

from __future__ import annotations

import sys
import time
from random import Random

import numpy as np

from dicepoker.dice.suited import best_values, five_table
from dicepoker.games.holdem import HoldemGame, HoldemState


def _evaluations(count: int) -> float:
    five_table()
    codes = np.random.default_rng(0).integers(0, 24, size=(count, 7))
    start = time.perf_counter()
    best_values(codes)
    return count / (time.perf_counter() - start)


def _our_hands(hands: int) -> tuple[float, float]:
    """Hands and player decisions per second: whole first hands from a fresh game, roll-off included."""
    game = HoldemGame(players=2, stack=1000)
    rng = Random(1)
    decisions = 0
    start = time.perf_counter()
    for _ in range(hands):
        state: HoldemState = game.initial_state()
        while state.hand <= 1 and not state.is_terminal:
            if state.is_chance:
                state = state.apply(state.sample_chance(rng))
            else:
                legal = state.legal_actions()
                state = state.apply(legal[rng.randrange(len(legal))])
                decisions += 1
    elapsed = time.perf_counter() - start
    return hands / elapsed, decisions / elapsed


def _pokerkit_hands(hands: int) -> tuple[float, float] | None:
    try:
        import pokerkit
    except ImportError:
        return None
    automations = tuple(pokerkit.Automation)
    rng = Random(1)
    decisions = 0
    start = time.perf_counter()
    for _ in range(hands):
        state = pokerkit.NoLimitTexasHoldem.create_state(automations, True, 0, (1, 2), 2, (200, 200), 2)
        while state.status:
            choice = rng.random()
            decisions += 1
            if state.can_complete_bet_or_raise_to() and choice < 0.3:
                low = state.min_completion_betting_or_raising_to_amount
                high = state.max_completion_betting_or_raising_to_amount
                state.complete_bet_or_raise_to(rng.randint(low, high))
            elif state.can_fold() and choice < 0.45:
                state.fold()
            else:
                state.check_or_call()
    elapsed = time.perf_counter() - start
    return hands / elapsed, decisions / elapsed


def run(quick: bool = False) -> None:
    evaluations = _evaluations(100_000 if quick else 2_000_000)
    print(f"holdem best-of-seven evaluations: {evaluations:,.0f} per second (NumPy batch)")
    hands = 200 if quick else 3_000
    ours, our_decisions = _our_hands(hands)
    theirs = _pokerkit_hands(hands)
    print(f"holdem random-action hands (full game, dice and chance nodes): {ours:,.0f} per second")
    print(f"  player decisions: {our_decisions:,.0f} per second")
    if theirs is None:
        print("pokerkit not installed: no reference")
    else:
        print(
            f"pokerkit no-limit hold'em random-action hands: {theirs[0]:,.0f} per second; ratio {ours / theirs[0]:.2f}x"
        )
        print(f"  player decisions: {theirs[1]:,.0f} per second; ratio {our_decisions / theirs[1]:.2f}x")


if __name__ == "__main__":
    run(quick="--quick" in sys.argv[1:])
