"""Run OpenSpiel's MCTS on the dicepoker scorecard game against OpenSpiel's uniform random bot.

    python examples/openspiel_algorithm.py --seed 0            # 60 games
    python examples/openspiel_algorithm.py --seed 0 --small    # 4 games, fewer simulations (what CI runs)

The game is ``pyspiel.load_game("python_dicepoker_scorecard")`` (registered by importing
``dicepoker.envs.openspiel``): two players, every die an explicit chance node with its exact probability.
Everything else is OpenSpiel's: ``mcts.MCTSBot`` searches (sampling the chance nodes), and
``evaluate_bots.evaluate_bots`` plays the games. Random roll-outs to the end of a 13-round game are slow
in a Python game, so the search's leaves are valued by a small ``mcts.Evaluator`` instead: the score
difference so far, squashed into (-1, 1) (both cards are public, so this reads nothing hidden). The MCTS
bot and the random bot swap seats every game; the MCTS bot's win rate is printed with a 95% interval.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import evaluate_bots, mcts
from open_spiel.python.bots import uniform_random

import dicepoker.envs.openspiel  # noqa: F401  (registers python_dicepoker_<game>)
from dicepoker.games.scorecard.rules import card_total

Z95 = 1.959963984540054


class ScoreDifference(mcts.Evaluator):  # type: ignore[misc]
    """Values a state by each player's lead in points: ``tanh((mine - theirs) / 60)``; uniform priors."""

    def evaluate(self, state: pyspiel.State) -> np.ndarray:
        if state.is_terminal():
            return np.array(state.returns())
        totals = [card_total(card) for card in state.inner.cards]
        return np.array([math.tanh((totals[p] - totals[1 - p]) / 60) for p in range(2)])

    def prior(self, state: pyspiel.State) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions()
        return [(action, 1 / len(legal)) for action in legal]


def wilson(wins: int, games: int) -> tuple[float, float]:
    p = wins / games
    denominator = 1 + Z95**2 / games
    centre = (p + Z95**2 / (2 * games)) / denominator
    half = Z95 * math.sqrt(p * (1 - p) / games + Z95**2 / (4 * games**2)) / denominator
    return centre - half, centre + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=0, help="seed of the dice, the search and the random bot")
    parser.add_argument("--small", action="store_true", help="4 games of a lighter search (CI)")
    args = parser.parse_args()
    games, simulations = (4, 8) if args.small else (60, 32)

    game = pyspiel.load_game("python_dicepoker_scorecard")
    rng = np.random.RandomState(args.seed)
    search = mcts.MCTSBot(
        game, uct_c=1.5, max_simulations=simulations, evaluator=ScoreDifference(), random_state=rng, solve=False
    )
    random_bots = [uniform_random.UniformRandomBot(seat, rng) for seat in range(2)]  # one per seat it may hold
    started = time.perf_counter()
    wins = 0
    for index in range(games):
        mcts_seat = index % 2
        bots = [search, random_bots[1]] if mcts_seat == 0 else [random_bots[0], search]
        returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
        wins += returns[mcts_seat] > 0
    low, high = wilson(wins, games)
    print(f"OpenSpiel MCTS ({simulations} simulations per move) vs uniform random, scorecard, seed {args.seed}")
    print(f"MCTS won {wins} of {games} games: {wins / games:.0%} [95% CI {low:.0%}, {high:.0%}]")
    print(f"took {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
