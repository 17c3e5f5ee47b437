"""A PettingZoo AEC environment for every dicepoker game: ``make_aec(name, **config)``.

Agents are ``player_0 … player_{n-1}`` (seat numbers). The dice are rolled inside :meth:`step` from a
``random.Random`` seeded by ``reset(seed=)``, so a seed and a list of actions give one trajectory. At a
simultaneous decision (PeekPoker's ace re-rolls) the deciding seats act one after the other; the views
hide each one's choice from the others until the dice roll, as at the table.

Observations are ``{"observation": float32 array, "action_mask": int8 array}`` built from the agent's
*view* (see :mod:`dicepoker.envs.codec` for the layouts). Rewards come at the end of the game: +1 to the
sole winner, -1 to every loser; a shared win or a tie gives 0 to those who share it. An index the mask
forbids is not an error: the engine's default action for that seat is played instead (the same ``timeout``
a turn clock applies, CM-6) and ``infos[agent]["illegal_action"]`` says so.
"""

from __future__ import annotations

from random import Random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from dicepoker.core.state import State
from dicepoker.core.steps import settle_chance
from dicepoker.core.types import Action, Timeout
from dicepoker.envs.codec import Codec, codec_for
from dicepoker.games import registry

MAX_DECISIONS = 100_000
"""Games end by their rules; this guards research loops against a configuration that never ends."""


def rewards_of(state: State, players: int) -> list[float]:
    """+1 sole winner, -1 losers, 0 for a shared win or tie."""
    winners = state.result().winners
    if len(winners) == 1:
        return [1.0 if seat in winners else -1.0 for seat in range(players)]
    return [0.0 if seat in winners else -1.0 for seat in range(players)]


def advance(state: State, rng: Random) -> State:
    """Roll every die due until a player must decide or the game is over."""
    return settle_chance(state, rng)


class DicePokerAEC(AECEnv):  # type: ignore[misc]
    """One dicepoker game as a PettingZoo AEC environment."""

    def __init__(self, name: str, *, render_mode: str | None = None, **config: Any) -> None:
        super().__init__()
        self.game = registry.create(name, **config)
        self.codec: Codec = codec_for(self.game)
        self.metadata = {
            "name": f"dicepoker_{name.replace('-', '_')}_v0",
            "render_modes": ["ansi"],
            "is_parallelizable": False,
        }
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(self.game.num_players)]
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (self.codec.obs_size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.codec.num_actions,), np.int8),
            }
        )
        self._action_space = spaces.Discrete(self.codec.num_actions)
        self.rng = Random()
        self.state: State = self.game.initial_state()
        self.decisions = 0

    # -- spaces -------------------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Dict:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._action_space

    # -- episode ------------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.rng = Random(seed)
        self.state = advance(self.game.initial_state(), self.rng)
        self.decisions = 0
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._select()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat(agent)
        view = self.state.view(seat)
        legal = self._legal(seat)
        return {"observation": self.codec.observe(view), "action_mask": self.codec.mask(view, legal)}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._seat(agent)
        self._cumulative_rewards[agent] = 0.0
        self.infos[agent] = {}
        chosen = self.decode(seat, int(action)) if action is not None else None
        if chosen is None:
            self.infos[agent]["illegal_action"] = True
            chosen = Timeout()
        self.state = advance(self.state.apply(chosen, seat), self.rng)
        self.decisions += 1
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if self.state.is_terminal:
            for name, reward in zip(self.possible_agents, rewards_of(self.state, self.game.num_players), strict=True):
                self.rewards[name] = reward
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.decisions >= MAX_DECISIONS:
            self.truncations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        self._select()

    def decode(self, seat: int, index: int) -> Action | None:
        """The action slot ``index`` stands for now, or ``None`` if the mask forbids it."""
        return self.codec.slots(self.state.view(seat), self._legal(seat)).get(index)

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        return str(self.state.view(None).to_json())

    def close(self) -> None:
        pass

    # -- helpers ------------------------------------------------------------------------------------
    def _legal(self, seat: int) -> list[Action]:
        to_act = self.state.to_act
        if self.state.is_chance or seat not in to_act:  # type: ignore[operator]
            return []
        return list(self.state.legal_actions(seat))

    def _select(self) -> None:
        if self.state.is_terminal or any(self.truncations.values()):
            self.agent_selection = self.agents[0] if self.agents else self.possible_agents[0]
            return
        to_act = self.state.to_act
        assert isinstance(to_act, tuple) and to_act
        self.agent_selection = self.possible_agents[min(to_act)]

    @staticmethod
    def _seat(agent: str) -> int:
        return int(agent.rsplit("_", 1)[1])


def make_aec(name: str, **config: Any) -> DicePokerAEC:
    """The PettingZoo AEC environment of game ``name`` with its config options (``players=3``, …).

    ``render_mode="ansi"`` may be passed among the options.
    """
    return DicePokerAEC(name, **config)
