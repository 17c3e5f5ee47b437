"""Scorecard benchmarks: hand classification, optimal table build, self-play speed.

References, measured in the same run:
- classification: a plain ``collections.Counter`` classifier, per call;
- table build: a plain dense NumPy dynamic program (every state, a 462x252 keep->roll matrix product
  per roll stage and a 252x32 sub-keep gather), timed on a sample of states and scaled to all of them;
- self-play: the issue's floor of 500 two-player random-bot games per second.
"""

from __future__ import annotations

import statistics
import time
from collections import Counter
from collections.abc import Callable
from itertools import combinations_with_replacement
from random import Random

import numpy as np

from dicepoker.analysis.scorecard_solver import build_strategy, load_strategy
from dicepoker.analysis.scorecard_tables import build_keep_tables
from dicepoker.bots import create_bot
from dicepoker.core.state import State
from dicepoker.dice import classify, classify_batch
from dicepoker.dice.scoring import SCORE_TABLE
from dicepoker.dice.standard import ROLLS, multiset_probability
from dicepoker.games.registry import create


def counter_classify(dice: tuple[int, ...]) -> int:
    shape = sorted(Counter(dice).values(), reverse=True)
    if shape[0] == 5:
        return 7
    if shape[0] == 4:
        return 6
    if shape == [3, 2]:
        return 5
    if sorted(dice) in ([1, 2, 3, 4, 5], [2, 3, 4, 5, 6]):
        return 4
    return {3: 3, 2: 2 if shape[1] == 2 else 1}.get(shape[0], 0)


def best_rate(func: Callable[[], int], repeats: int = 3) -> float:
    """Operations per second of the fastest of ``repeats`` runs (the least disturbed by other load)."""
    rates = []
    for _ in range(repeats):
        start = time.perf_counter()
        count = func()
        rates.append(count / (time.perf_counter() - start))
    return max(rates)


def bench_classification(quick: bool) -> None:
    n = 50_000 if quick else 500_000
    rng = np.random.default_rng(0)
    array = rng.integers(1, 7, size=(n, 5))
    rolls = [tuple(int(x) for x in row) for row in array]

    def per_call() -> int:
        for dice in rolls:
            classify(dice)
        return n

    def reference() -> int:
        for dice in rolls[: n // 10]:
            counter_classify(dice)
        return n // 10

    def batched() -> int:
        classify_batch(array)
        return n

    ours, ref, batch = best_rate(per_call), best_rate(reference), best_rate(batched)
    print(f"classify, per call:  {ours / 1e6:8.2f} M/s   ({ours / ref:5.1f}x Counter classifier)")
    print(f"classify, batched:   {batch / 1e6:8.2f} M/s   ({batch / ref:5.1f}x Counter classifier)")
    print(f"Counter classifier:  {ref / 1e6:8.2f} M/s   (reference)")


def plain_dense_dp_seconds(sample_states: int) -> float:
    """Seconds a plain dense NumPy DP would take over all 8192 x 64 states, from a timed sample."""
    tables = build_keep_tables()
    keeps = tables.keeps
    transition = np.zeros((len(keeps), len(ROLLS)))
    for k, keep in enumerate(keeps):
        for extra in combinations_with_replacement(range(1, 7), 5 - len(keep)):
            roll = tuple(sorted(keep + extra))
            transition[k, ROLLS.index(roll)] += float(multiset_probability(extra))
    sub_keeps = np.array(
        [[tables.index[tuple(sorted(r[i] for i in range(5) if m >> i & 1))] for m in range(32)] for r in ROLLS]
    )
    values = np.zeros((8192, 64))
    scores = SCORE_TABLE.astype(float)
    start = time.perf_counter()
    for state in range(sample_states):
        mask, upper = (state * 7919) % 8191, state % 64
        third = np.full(252, -1e9)
        for category in range(13):
            if not mask >> category & 1:
                np.maximum(third, scores[:, category] + values[mask | 1 << category, upper], out=third)
        second = (transition @ third)[sub_keeps].max(axis=1)
        first = (transition @ second)[sub_keeps].max(axis=1)
        float(tables.roll_probability @ first)
    return (time.perf_counter() - start) / sample_states * 8192 * 64


def bench_table_build(quick: bool) -> None:
    strategy, seconds = build_strategy()
    reference = plain_dense_dp_seconds(300 if quick else 2000)
    print(f"optimal table build: {seconds:8.2f} s     expected score {strategy.expected_score:.4f}")
    print(
        f"plain dense DP:      {reference:8.2f} s     "
        f"(reference, scaled from a sample; {reference / seconds:.1f}x slower)"
    )


def games_per_second(bot_name: str, games: int) -> tuple[float, float]:
    game = create("scorecard", players=2)
    bot = create_bot("scorecard", bot_name)
    rng = Random(1)
    totals: list[int] = []
    start = time.perf_counter()
    for seed in range(games):
        dice_rng = Random(seed)
        state: State = game.initial_state()
        while not state.is_terminal:
            if state.is_chance:
                state = state.apply(state.sample_chance(dice_rng))
            else:
                seat = state.current_seat
                state = state.apply(bot.choose(state.view(seat), state.legal_actions(seat), rng), seat)
        totals.extend(state.result().scores)
    return games / (time.perf_counter() - start), statistics.fmean(totals)


def bench_self_play(quick: bool) -> None:
    load_strategy()  # build or load the table outside the timing
    for bot_name, games in (("random", 300 if quick else 3000), ("optimal", 30 if quick else 300)):
        rate, mean = max(games_per_second(bot_name, games) for _ in range(2))
        print(
            f"self-play {bot_name:>8}: {rate:8.0f} two-player games/s "
            f"(mean score {mean:.1f}; {rate / 500:.2f}x the 500/s floor)"
        )


def run(quick: bool = False) -> None:
    bench_classification(quick)
    bench_table_build(quick)
    bench_self_play(quick)


if __name__ == "__main__":
    run()
