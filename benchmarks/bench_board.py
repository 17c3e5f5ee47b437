"""Board-game speed: random-bot games per second, and the expert bot's decision time per move.

Run: ``python benchmarks/bench_board.py`` (``--quick`` for a short run).
"""

from __future__ import annotations

import statistics
import sys
import time
from random import Random

from dicepoker.bots.base import RandomBot
from dicepoker.bots.board import ExpertBot, GreedyBot
from dicepoker.core.match import Match
from dicepoker.games.board.rules import ZepherinGame


def _random_games(count: int) -> tuple[float, float]:
    """Games per second and decisions per game for random bots."""
    game, bot = ZepherinGame(), RandomBot()
    decisions = 0
    started = time.perf_counter()
    for seed in range(count):
        match = Match(game, seed=seed)  # type: ignore[arg-type]
        rng = Random(seed)
        while not match.state.is_terminal:
            seat = match.state.current_seat
            match.act(bot.choose(match.state.view(seat), match.state.legal_actions(seat), rng), seat)
            decisions += 1
    seconds = time.perf_counter() - started
    return count / seconds, decisions / count


def _expert_decisions(games: int) -> list[float]:
    """Seconds per expert decision (greedy opponent), every decision after the first roll of a turn."""
    expert, greedy = ExpertBot(), GreedyBot()
    times: list[float] = []
    for seed in range(games):
        match = Match(ZepherinGame(), seed=1000 + seed)  # type: ignore[arg-type]
        rng = Random(seed)
        while not match.state.is_terminal:
            seat = match.state.current_seat
            assert seat is not None
            view, legal = match.state.view(seat), match.state.legal_actions(seat)
            if seat == 0:
                started = time.perf_counter()
                action = expert.choose(view, legal, rng)
                times.append(time.perf_counter() - started)
            else:
                action = greedy.choose(view, legal, rng)
            match.act(action, seat)
    return times


def run(quick: bool = False) -> None:
    per_second, decisions = _random_games(10 if quick else 100)
    print(f"zepherin random-bot games: {per_second:.1f} games/s ({decisions:.0f} decisions per game)")
    times = sorted(_expert_decisions(2 if quick else 20))
    median = statistics.median(times)
    p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
    print(f"expert decision over {len(times)} moves: median {median * 1e3:.2f} ms, p99 {p99 * 1e3:.1f} ms")


if __name__ == "__main__":
    run(quick="--quick" in sys.argv)
