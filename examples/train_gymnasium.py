"""Train a linear policy on the scorecard game through Gymnasium, then show that it beats ``random``.

    python examples/train_gymnasium.py --seed 0            # about 20 s of CPU
    python examples/train_gymnasium.py --seed 0 --small    # a few seconds (what CI runs)

The environment is ``gymnasium.make("dicepoker/scorecard-v0", opponent="random")``: the learner holds seat 0
of a two-player scorecard game, the other seat is the ``random`` bot, and the legal actions come in
``info["action_mask"]``. The agent is REINFORCE with a linear softmax policy over the legal actions
(NumPy only). The environment pays +1/-1 at the end of the game; to learn quickly the agent also
credits itself, at each step, with the change in its own total (read from its observation), which is the
usual shaping for this kind of game (with no discount of later points it learns more slowly). Both the
untrained policy (uniform over the legal actions: exactly the ``random`` bot) and the trained one are then
evaluated over the same seeded games against ``random``, and the win rates are printed with 95% Wilson
intervals.
"""

from __future__ import annotations

import argparse
import math
import time

import gymnasium
import numpy as np

import dicepoker.envs  # noqa: F401  (registers the dicepoker/<game>-v0 ids)

Z95 = 1.959963984540054
OWN_TOTAL = 30 + 4 + 13 + 13 + 1  # dice one-hot, rolls used, used flags, box scores, upper total: then the total
TOTAL_SCALE = 375.0
GAMMA = 0.0
"""Discount of later rewards: 0 credits each choice with the points it scores at once (learns fastest here)."""
RATE = 0.5  # the codec divides totals by this


def wilson(wins: int, games: int) -> tuple[float, float]:
    p = wins / games
    denominator = 1 + Z95**2 / games
    centre = (p + Z95**2 / (2 * games)) / denominator
    half = Z95 * math.sqrt(p * (1 - p) / games + Z95**2 / (4 * games**2)) / denominator
    return centre - half, centre + half


Step = tuple[int, np.ndarray, np.ndarray]
"""The chosen action, the features it was chosen from and the probabilities of every action."""


class LinearPolicy:
    """Softmax over the legal actions of ``weights @ [observation, 1]``."""

    def __init__(self, observations: int, actions: int) -> None:
        self.weights = np.zeros((actions, observations + 1))

    def probabilities(self, features: np.ndarray, mask: np.ndarray) -> np.ndarray:
        logits = self.weights @ features
        logits = np.where(mask.astype(bool), logits, -np.inf)
        logits -= logits.max()
        exp = np.exp(logits)
        return exp / exp.sum()

    def act(
        self, observation: np.ndarray, mask: np.ndarray, rng: np.random.Generator
    ) -> tuple[int, np.ndarray, np.ndarray]:
        features = np.append(observation, 1.0)
        probabilities = self.probabilities(features, mask)
        return int(rng.choice(len(probabilities), p=probabilities)), features, probabilities


def play(env: gymnasium.Env, policy: LinearPolicy, seed: int, rng: np.random.Generator) -> tuple[float, list]:
    """One game; the steps (features, mask, action, shaped reward) and the environment's final reward."""
    observation, info = env.reset(seed=seed)
    steps = []
    total = observation[OWN_TOTAL]
    while True:
        action, features, probabilities = policy.act(observation, info["action_mask"], rng)
        observation, reward, terminated, truncated, info = env.step(action)
        gained = (observation[OWN_TOTAL] - total) * TOTAL_SCALE / 50.0
        total = observation[OWN_TOTAL]
        steps.append((features, probabilities, action, gained))
        if terminated or truncated:
            return float(reward), steps


def discounted(rewards: list[float], gamma: float = GAMMA) -> np.ndarray:
    """Each step's reward plus the later ones, discounted: credit goes mostly to the recent choices."""
    out = np.zeros(len(rewards))
    running = 0.0
    for index in range(len(rewards) - 1, -1, -1):
        running = rewards[index] + gamma * running
        out[index] = running
    return out


def train(env: gymnasium.Env, policy: LinearPolicy, episodes: int, seed: int, rate: float = RATE) -> None:
    rng = np.random.default_rng(seed)
    batch = 16
    for start in range(0, episodes, batch):
        gradient = np.zeros_like(policy.weights)
        trajectories = [play(env, policy, seed * 1_000_003 + start + i, rng)[1] for i in range(batch)]
        returns = [discounted([s[3] for s in steps]) for steps in trajectories]
        flat = np.concatenate(returns)
        baseline, scale = flat.mean(), flat.std() + 1e-8
        for steps, to_go in zip(trajectories, returns, strict=True):
            features = np.array([s[0] for s in steps])
            scores = -np.array([s[1] for s in steps])  # d log pi(a) / d logits = onehot(a) - pi
            scores[np.arange(len(steps)), [s[2] for s in steps]] += 1.0
            advantages = (to_go - baseline) / scale
            gradient += (scores * advantages[:, None]).T @ features
        policy.weights += rate * gradient / batch


def evaluate(env: gymnasium.Env, policy: LinearPolicy, games: int, seed: int) -> tuple[int, int]:
    """Wins and ties of ``policy`` in ``games`` seeded games (the same games for any policy)."""
    rng = np.random.default_rng(seed)
    wins = ties = 0
    for index in range(games):
        reward, _ = play(env, policy, 10**9 + seed * 100_003 + index, rng)
        wins += reward > 0
        ties += reward == 0
    return wins, ties


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=0, help="seed of the training and evaluation games")
    parser.add_argument("--small", action="store_true", help="a short run (CI): fewer training and test games")
    args = parser.parse_args()
    episodes, games = (320, 100) if args.small else (2_400, 400)

    env = gymnasium.make("dicepoker/scorecard-v0", opponent="random")
    policy = LinearPolicy(env.observation_space.shape[0], int(env.action_space.n))
    started = time.perf_counter()
    before, _ = evaluate(env, policy, games, args.seed)
    train(env, policy, episodes, args.seed)
    after, ties = evaluate(env, policy, games, args.seed)
    low_before, high_before = wilson(before, games)
    low, high = wilson(after, games)
    print(f"scorecard vs random, {episodes:,} training games, {games} test games, seed {args.seed}")
    print(f"untrained (uniform = random): win rate {before / games:.1%} [95% CI {low_before:.1%}, {high_before:.1%}]")
    print(f"trained linear policy:        win rate {after / games:.1%} [95% CI {low:.1%}, {high:.1%}], ties {ties}")
    print(f"beats random: {'yes' if low > 0.5 else 'no'} (lower end of the interval above 50%)")
    print(f"took {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
