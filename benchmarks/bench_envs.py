"""Research throughput: PettingZoo environment steps per second for every game, next to PettingZoo's own
``texas_holdem_no_limit_v6`` (RLCard) measured in the same run; and simulated games per second in this
process, in a local process pool and on a local Ray cluster.

Every environment is driven the same way: a uniformly random legal action from the ``action_mask``, the
next episode started as soon as one ends, steps counted until the time is up.

Run: ``python benchmarks/bench_envs.py [--quick]`` (or ``python benchmarks/run.py envs``). Needs the
``research`` extra (and ``distributed`` for the Ray line; the ``bench`` extra, rlcard and pygame, for the reference).
"""

from __future__ import annotations

import os
import sys
import time
import warnings
from typing import Any

import numpy as np

GAMES = ("scorecard", "zepherin", "classic-board", "holdem", "peekpoker")


def _steps_per_second(env: Any, seconds: float, seed: int = 0) -> tuple[float, int]:
    """Random legal actions for ``seconds``; steps per second and episodes finished."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    steps = episodes = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            done = terminated or truncated
            env.step(None if done else int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            steps += 1
            del agent
        episodes += 1
        env.reset(seed=seed + episodes)
    return steps / (time.perf_counter() - start), episodes


def _reference() -> Any | None:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # PettingZoo's classic games import pygame
    try:
        from pettingzoo.classic import texas_holdem_no_limit_v6
    except ImportError:  # rlcard or pygame missing: pip install -e '.[bench]'
        return None
    with warnings.catch_warnings():  # its Box spaces warn about float64 bounds: not ours to fix
        warnings.simplefilter("ignore")
        return texas_holdem_no_limit_v6.env()


def _simulation_speed(quick: bool) -> list[tuple[str, float, float]]:
    """(engine, games per second, seconds) for the same seeded run; Ray's start-up is not counted."""
    from dicepoker.arena.engine import Engine, connect
    from dicepoker.arena.simulate import simulate

    games = 200 if quick else 1_000
    bots = ["greedy", "random"]
    rows = []
    engines = [("this process", Engine()), ("process pool, 2 workers", Engine("local", 2))]
    engines.append(("Ray local cluster, 2 CPUs", Engine("ray", 2)))
    reports = []
    for label, engine in engines:
        if engine.kind == "ray":  # after the pool: a process forked from a Ray driver inherits its handlers
            try:
                connect(engine)
                simulate("zepherin", bots, 8, 0, engine=engine)  # start the workers: start-up is not counted
            except Exception as exc:  # no ray: say so, keep the other lines
                print(f"  (no Ray line: {exc})")
                continue
        start = time.perf_counter()
        reports.append(simulate("zepherin", bots, games, 1, engine=engine))
        seconds = time.perf_counter() - start
        rows.append((label, games / seconds, seconds))
    same = len({str(r.seats) for r in reports}) == 1
    print(f"  zepherin greedy vs random, {games:,} games, seed 1: identical reports on every engine: {same}")
    return rows


def run(quick: bool = False) -> None:
    seconds = 1.0 if quick else 6.0
    from dicepoker.envs import make_aec

    print(f"PettingZoo AEC steps per second (random legal actions, {seconds:.0f} s each):")
    print(f"  {'environment':<34} {'steps/s':>9} {'episodes':>9}")
    for name in GAMES:
        rate, episodes = _steps_per_second(make_aec(name), seconds)
        print(f"  {'dicepoker ' + name:<34} {rate:>9,.0f} {episodes:>9,}")
    reference = _reference()
    if reference is None:
        print("  texas_holdem_no_limit_v6: rlcard not installed, no reference")
    else:
        rate, episodes = _steps_per_second(reference, seconds)
        print(f"  {'pettingzoo texas_holdem_no_limit_v6':<34} {rate:>9,.0f} {episodes:>9,}")
    print("Simulated games per second:")
    for label, rate, elapsed in _simulation_speed(quick):
        print(f"  {label:<34} {rate:>9,.1f} games/s ({elapsed:.1f} s)")


if __name__ == "__main__":
    run(quick="--quick" in sys.argv[1:])
