"""Every game as a single-agent Gymnasium env passes Gymnasium's env checker; ids and options work."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import dicepoker.envs  # registers the ids
from dicepoker.core.errors import ConfigError
from dicepoker.games import registry


@pytest.mark.parametrize("name", registry.names())
def test_check_env(name: str) -> None:
    env = gymnasium.make(dicepoker.envs.gym_id(name), opponent="random")
    check_env(env.unwrapped, skip_render_check=True)


def test_holdem_against_the_expert_with_options() -> None:
    env = gymnasium.make("dicepoker/holdem-v0", opponent="expert", players=3, stack=100)
    _, info = env.reset(seed=5)
    rng = np.random.default_rng(5)
    done = False
    steps = 0
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _observation, reward, terminated, truncated, info = env.step(action)
        done = terminated or truncated
        steps += 1
    assert reward in (-1.0, 0.0, 1.0) and steps > 0


def test_a_masked_out_index_plays_the_default_action() -> None:
    env = gymnasium.make("dicepoker/scorecard-v0", players=2)
    _, info = env.reset(seed=1)
    forbidden = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, _, _, _, info = env.step(forbidden)
    assert info["illegal_action"] is True


def test_bad_options_are_refused_with_reasons() -> None:
    with pytest.raises(ConfigError, match="opponent"):
        gymnasium.make("dicepoker/holdem-v0", opponent=["expert", "expert"], players=2)
    with pytest.raises(ConfigError, match="no bot"):
        gymnasium.make("dicepoker/holdem-v0", opponent="grandmaster")
    with pytest.raises(ConfigError, match="seat"):
        gymnasium.make("dicepoker/holdem-v0", seat=5)


def test_every_declared_view_type_has_a_codec() -> None:
    """Issue 18: codecs are keyed by the view type a game declares, so games that share a view share a codec."""
    from dicepoker.envs.codec import CODECS, codec_for

    for facts in registry.infos():
        assert facts.view_type in CODECS
        assert type(codec_for(registry.create(facts.name))) is CODECS[facts.view_type]
