"""A Gymnasium single-agent environment per game: one learning seat, every other seat a registered bot.

``gymnasium.make("dicepoker/holdem-v0", opponent="expert", seat=0, players=2)``: the options besides
``opponent`` (a bot name, or a list of names, one per other seat) and ``seat`` (the learner's seat) are the
game's config. Observations are the learner's view encoded as in :mod:`dicepoker.envs.codec`; the legal
actions are ``info["action_mask"]`` (int8). Rewards as in :mod:`dicepoker.envs.aec`, at the end. An index
the mask forbids plays the engine's default action (CM-6) and sets ``info["illegal_action"]``.
Bots keep what they learn across the hands of one episode and start afresh at each ``reset``.
"""

from __future__ import annotations

from random import Random
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

from dicepoker.bots.base import Bot
from dicepoker.bots.registry import create_bot
from dicepoker.core.errors import ConfigError
from dicepoker.core.state import State
from dicepoker.core.types import Action, Timeout
from dicepoker.envs.aec import MAX_DECISIONS, advance, rewards_of
from dicepoker.envs.codec import Codec, codec_for
from dicepoker.games import registry


class DicePokerEnv(gymnasium.Env[np.ndarray, np.int64]):
    """One dicepoker game against bots, as a single-agent Gymnasium environment."""

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 (Gymnasium declares it a plain attribute)

    def __init__(
        self,
        name: str,
        *,
        opponent: str | list[str] = "random",
        seat: int = 0,
        render_mode: str | None = None,
        **config: Any,
    ) -> None:
        self.game = registry.create(name, **config)
        players = self.game.num_players
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
            raise ConfigError(f"seat must be a seat of the game, 0 to {players - 1}; got {seat!r}")
        names = [opponent] * (players - 1) if isinstance(opponent, str) else list(opponent)
        if len(names) != players - 1:
            raise ConfigError(f"{name} with {players} players needs {players - 1} opponent bot(s), got {len(names)}")
        for bot in names:
            create_bot(name, bot)  # fail now, with the list of bots, not at the first step
        self.name = name
        self.seat = seat
        self.opponents = names
        self.render_mode = render_mode
        self.codec: Codec = codec_for(self.game)
        self.observation_space = spaces.Box(0.0, 1.0, (self.codec.obs_size,), np.float32)
        self.action_space = spaces.Discrete(self.codec.num_actions)
        self.rng = Random()
        self.state: State = self.game.initial_state()
        self.bots: dict[int, Bot] = {}
        self.decisions = 0

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        # One stream from Gymnasium's seeded generator: reset() without a seed continues it reproducibly.
        self.rng = Random(int(self.np_random.integers(2**63)))
        others = [s for s in range(self.game.num_players) if s != self.seat]
        self.bots = {s: create_bot(self.name, bot) for s, bot in zip(others, self.opponents, strict=True)}
        self.decisions = 0
        self.state = self._play_others(self.game.initial_state())
        return self._observation(), self._info()

    def step(self, action: np.int64 | int) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        if self.state.is_terminal:
            raise gymnasium.error.ResetNeeded("the game is over: call reset()")
        view = self.state.view(self.seat)
        chosen: Action | None = self.codec.slots(view, self.state.legal_actions(self.seat)).get(int(action))
        illegal = chosen is None
        self.state = self._play_others(self.state.apply(chosen or Timeout(), self.seat))
        self.decisions += 1
        terminated = self.state.is_terminal
        truncated = not terminated and self.decisions >= MAX_DECISIONS
        reward = rewards_of(self.state, self.game.num_players)[self.seat] if terminated else 0.0
        info = self._info()
        if illegal:
            info["illegal_action"] = True
        return self._observation(), reward, terminated, truncated, info

    def render(self) -> str | None:
        return str(self.state.view(self.seat).to_json()) if self.render_mode == "ansi" else None

    # -- helpers ------------------------------------------------------------------------------------
    def _play_others(self, state: State) -> State:
        """Roll the dice and let the bots move until the learner must decide or the game ends."""
        while True:
            state = advance(state, self.rng)
            to_act = state.to_act
            if not isinstance(to_act, tuple) or not to_act or self.seat in to_act:
                return state
            seat = min(to_act)
            legal = state.legal_actions(seat)
            state = state.apply(self.bots[seat].choose(state.view(seat), legal, self.rng), seat)

    def _observation(self) -> np.ndarray:
        return self.codec.observe(self.state.view(self.seat))

    def _info(self) -> dict[str, Any]:
        legal = [] if self.state.is_terminal else list(self.state.legal_actions(self.seat))
        return {"action_mask": self.codec.mask(self.state.view(self.seat), legal)}
