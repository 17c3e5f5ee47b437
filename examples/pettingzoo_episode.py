"""Play one PettingZoo AEC episode of a dicepoker game with two of the package's bots.

    python examples/pettingzoo_episode.py --seed 0                  # Dice Hold'em, expert vs random
    python examples/pettingzoo_episode.py --seed 0 --small          # short stacks: a few hands (what CI runs)
    python examples/pettingzoo_episode.py --game peekpoker --bots equity,expert

The loop is PettingZoo's own (``env.agent_iter()`` / ``env.last()`` / ``env.step(index)``). A dicepoker bot
decides from its seat's *view* and the legal actions, the same inputs it gets at a table; the environment's
codec (``env.codec.slots``) says which flat action index stands for the bot's choice, and that index is
what goes to ``env.step``. The dice are rolled inside ``step`` from ``reset(seed=...)``, so a seed replays
the same episode.
"""

from __future__ import annotations

import argparse
from random import Random

from dicepoker.bots.registry import create_bot
from dicepoker.envs import make_aec


def play_episode(game: str, bot_names: list[str], seed: int, **config: object) -> dict[str, float]:
    """One episode; prints every decision and returns each agent's total reward."""
    env = make_aec(game, players=len(bot_names), **config)
    env.reset(seed=seed)
    bots = {agent: create_bot(game, name) for agent, name in zip(env.possible_agents, bot_names, strict=True)}
    rng = Random(seed)  # the bots' own randomness
    totals = dict.fromkeys(env.possible_agents, 0.0)
    decisions = 0
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        seat = int(agent.rsplit("_", 1)[1])
        view = env.state.view(seat)
        legal = env.state.legal_actions(seat)
        choice = bots[agent].choose(view, legal, rng)
        index = {action: i for i, action in env.codec.slots(view, legal).items()}[choice]
        assert observation["action_mask"][index] == 1  # the bot's choice is a legal index
        decisions += 1
        if decisions <= 12:
            print(f"  {agent} ({bots[agent].name}): {choice}  -> action index {index}")
        env.step(index)
    print(f"  ... {decisions} decisions in all")
    env.close()
    return totals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=0, help="seed of the dice and of the bots' choices")
    parser.add_argument("--game", default="holdem", help="holdem, peekpoker, scorecard, zepherin or classic-board")
    parser.add_argument("--bots", default="expert,random", help="two bots, comma-separated")
    parser.add_argument("--small", action="store_true", help="short stacks (holdem: 100 chips): a shorter episode")
    args = parser.parse_args()
    names = [name.strip() for name in args.bots.split(",")]
    config = {"stack": 100} if args.small and args.game == "holdem" else {}
    print(f"{args.game}: {' vs '.join(names)}, seed {args.seed}{', stack 100' if config else ''}")
    totals = play_episode(args.game, names, args.seed, **config)
    winners = [agent for agent, total in totals.items() if total > 0]
    print(f"rewards: {totals}")
    print(f"winner: {winners[0] if winners else 'none'}")


if __name__ == "__main__":
    main()
