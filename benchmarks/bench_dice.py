"""Hand evaluation speed, one call at a time and in NumPy batches, beside eval7 measured in the same run.

* Dice Hold'em: the best five of seven suited dice (HE-9 … HE-11). Per call, ``best_value(dice)`` is one
  lookup in the table of all 2,035,800 seven-dice multisets; ``seven_code_value`` is the same lookup for a
  caller that keeps dice as codes (as eval7 keeps cards as ``Card`` objects). Both run in the optional C
  accelerator (``dice/_fast.c``) when it was built; the pure-Python path is timed beside it, as an install
  without a compiler runs it (sorting seven ``(face, suit)`` pairs in Python alone takes about as long as an
  eval7 call). The previous per-call path (the best of the 21 five-dice subsets) is timed too, on fewer hands.
* PeekPoker: the strength of six poker dice, ``strength(dice)``: one lookup by face counts; the previous
  path (validate, sort, dict lookup) is timed too.
* Reference: eval7's ``evaluate`` of seven (and six) pre-built cards, per call; eval7 has no batch call.

Tables are loaded (or built) before timing: this measures evaluation, not start-up (see bench_startup).
Run: ``python benchmarks/bench_dice.py [--quick]`` (or ``python benchmarks/run.py dice``).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from itertools import combinations
from random import Random
from typing import Any

import numpy as np

from dicepoker.dice import poker, suited


def _per_second(function: Callable[[Any], object], items: Sequence[Any], repeats: int) -> float:
    """Calls per second of ``function`` over ``items``, best of ``repeats`` passes (a shared machine is noisy)."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for item in items:
            function(item)
        best = min(best, time.perf_counter() - start)
    return len(items) / best


def _batch_per_second(function: Callable[[Any], object], batch: Any, repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        function(batch)
        best = min(best, time.perf_counter() - start)
    return len(batch) / best


def _old_best_value(dice: Sequence[suited.SuitedDie]) -> int:
    """The per-call path before issue 13: the best of the 21 five-dice subsets, each a table lookup."""
    table = suited.five_table()
    codes = sorted(suited.code(d) for d in dice)
    return max(int(table[suited._multiset_index([codes[i] for i in subset])]) for subset in combinations(range(7), 5))


def _old_strength(dice: Sequence[poker.Face]) -> int:
    """The per-call path before issue 13: validate every die, sort, then a dict lookup."""
    return poker.STRENGTHS[tuple(sorted(poker.Face(d) for d in dice))]


def _eval7_hands(count: int, size: int, rng: Random) -> list[Any] | None:
    try:
        import eval7
    except ImportError:
        return None
    deck = [eval7.Card(rank + suit) for rank in "23456789TJQKA" for suit in "cdhs"]
    return [rng.sample(deck, size) for _ in range(count)]


def _row(name: str, rate: float, reference: float | None) -> None:
    ratio = f"   {rate / reference:5.2f}x eval7" if reference else ""
    print(f"  {name:<58} {rate:>12,.0f} /s{ratio}")


def run(quick: bool = False) -> None:
    count, repeats = (20_000, 2) if quick else (200_000, 5)
    rng = Random(13)
    generator = np.random.default_rng(13)
    seven_codes = generator.integers(0, suited.CODES, size=(count, 7))
    seven_dice = [tuple(suited.die_of(int(c)) for c in row) for row in seven_codes]
    code_lists = [row.tolist() for row in seven_codes]
    six_faces = generator.integers(int(poker.Face.NINE), int(poker.Face.ACE) + 1, size=(count, 6))
    six_dice = [tuple(poker.Face(int(f)) for f in row) for row in six_faces]
    suited.best_value(seven_dice[0])  # load (or build) the tables outside the timings
    poker.strength(six_dice[0])

    seven_cards, six_cards = _eval7_hands(count, 7, rng), _eval7_hands(count, 6, rng)
    if seven_cards is None or six_cards is None:
        print("  eval7 NOT INSTALLED: no reference figures (pip install eval7, or the project's dev extra)")
        reference7 = reference6 = None
    else:
        import eval7

        reference7 = _per_second(eval7.evaluate, seven_cards, repeats)
        reference6 = _per_second(eval7.evaluate, six_cards, repeats)
        _row("eval7.evaluate, 7 cards (reference)", reference7, reference7)
        _row("eval7.evaluate, 6 cards (reference)", reference6, reference7)
    print(f" Dice Hold'em, best five of seven suited dice (per-call path: {suited.IMPLEMENTATION}):")
    _row("per call: best_value(dice)", _per_second(suited.best_value, seven_dice, repeats), reference7)
    _row("per call: seven_code_value(codes)", _per_second(suited.seven_code_value, code_lists, repeats), reference7)
    if suited.IMPLEMENTATION == "C":  # the pure-Python path, as on an install without a C compiler
        _row(
            "per call, pure Python: python_best_value(dice)",
            _per_second(suited.python_best_value, seven_dice, repeats),
            reference7,
        )
        pure_codes = _per_second(suited.python_seven_code_value, code_lists, repeats)
        _row("per call, pure Python: python_seven_code_value(codes)", pure_codes, reference7)
    few = seven_dice[: max(1, count // 20)]
    _row("per call, before issue 13: best of 21 five-dice lookups", _per_second(_old_best_value, few, 1), reference7)
    _row("batch: best_values(codes) (NumPy)", _batch_per_second(suited.best_values, seven_codes, repeats), reference7)
    print(" PeekPoker, strength of six poker dice:")
    _row("per call: strength(dice)", _per_second(poker.strength, six_dice, repeats), reference7)
    _row("per call, before issue 13: validate, sort, dict lookup", _per_second(_old_strength, six_dice, 1), reference7)
    batch = _batch_per_second(poker.strength_batch, six_faces, repeats)
    _row("batch: strength_batch(faces) (NumPy)", batch, reference7)


if __name__ == "__main__":
    run(quick="--quick" in sys.argv[1:])
