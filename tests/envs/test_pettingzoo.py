"""Every game passes PettingZoo's own API and seed tests, and observations come from views only."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from dicepoker.envs import make_aec
from dicepoker.games import registry

CONFIGS = [
    ("scorecard", {}),
    ("scorecard", {"players": 3}),
    ("zepherin", {}),
    ("classic-board", {"players": 3, "teams": 3}),
    ("holdem", {"players": 3, "stack": 200}),
    ("peekpoker", {"stack": 10}),
    ("peekpoker", {"players": 3, "stack": 8, "blinds": True}),
]


@pytest.mark.parametrize(("name", "config"), CONFIGS, ids=lambda x: str(x))
def test_api_test(name: str, config: dict[str, object]) -> None:
    api_test(make_aec(name, **config), num_cycles=300)


@pytest.mark.parametrize("name", registry.names())
def test_seed_test(name: str) -> None:
    seed_test(lambda: make_aec(name), num_cycles=200)


@pytest.mark.parametrize("name", registry.names())
def test_a_masked_random_episode_ends_with_a_result(name: str) -> None:
    env = make_aec(name)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    for agent in env.agent_iter(max_iter=200_000):
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        assert legal.size, f"{agent} must act but the mask is empty"
        env.step(int(rng.choice(legal)))
    assert env.state.is_terminal


@pytest.mark.parametrize("name", ["holdem", "peekpoker"])
def test_observations_come_from_the_view_only(name: str) -> None:
    """Redrawing another seat's hidden dice never changes what an agent observes."""
    from random import Random

    env = make_aec(name, players=3)
    env.reset(seed=11)
    rng = Random(11)
    checked = 0
    for agent in env.agent_iter(max_iter=400):
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        seat = int(agent.rsplit("_", 1)[1])
        for other in range(3):
            if other != seat and env.state.hidden_from_others(other) is not None:
                redrawn = env.state.with_other_secret(other, rng)
                assert np.array_equal(env.codec.observe(redrawn.view(seat)), observation["observation"])
                checked += 1
        env.step(int(rng.choice(list(np.flatnonzero(observation["action_mask"])))))
    assert checked > 0
