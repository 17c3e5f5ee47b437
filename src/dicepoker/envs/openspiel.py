"""Every dicepoker game as an OpenSpiel Python game: ``pyspiel.load_game("python_dicepoker_<name>")``.

Importing this module registers ``python_dicepoker_scorecard``, ``python_dicepoker_zepherin``,
``python_dicepoker_classic_board``, ``python_dicepoker_holdem`` and ``python_dicepoker_peekpoker``.
Game parameters are the game's config options (``pyspiel.load_game("python_dicepoker_holdem",
{"players": 3, "stack": 200})``); a board game's ``board`` is its rows joined by ``/`` (empty: the
default board).

- Chance nodes are explicit: each outcome of :meth:`dicepoker.core.State.chance_outcomes` with its exact
  probability; a chance action id is the outcome's index in that list.
- Player actions are the flat indices of :mod:`dicepoker.envs.codec`.
- A simultaneous decision (PeekPoker's ace re-rolls) is taken one seat after the other; the views keep
  each choice hidden from the others, as at the table.
- Observation tensor: the codec's vector of the player's current view; observation string: that view
  as JSON (a board game's view without its fixed board layout). Information state (perfect recall) is a
  string: in the board games and the scorecard, where nothing is hidden, every action so far; in the
  betting games, the sequence of distinct views the player has had. No information-state tensor: a
  perfect-recall history has no fixed size in these games.
- Returns: +1 to a sole winner, -1 to each loser, 0 to those who share a win (as the PettingZoo env).
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel

from dicepoker.core.state import State
from dicepoker.core.types import Action
from dicepoker.envs.aec import rewards_of
from dicepoker.envs.codec import Codec, codec_for
from dicepoker.games import registry
from dicepoker.games.registry import AnyGame

MAX_GAME_LENGTH = 1_000_000
HIDDEN_INFORMATION = frozenset(i.name for i in registry.infos() if i.hidden_information)
"""The games that hide something (``GameInfo.hidden_information``); kept for callers of this name."""


def spiel_name(name: str) -> str:
    """``classic-board`` → ``python_dicepoker_classic_board``."""
    return "python_dicepoker_" + name.replace("-", "_")


def _defaults(name: str) -> dict[str, Any]:
    defaults: dict[str, Any] = {}
    for key, value in registry.create(name).config_json().items():
        defaults[key] = "" if value is None else value
    return defaults


def _config(name: str, params: dict[str, Any]) -> dict[str, Any]:
    config = dict(params)
    if "board" in config:
        board = config.pop("board")
        if board:
            config["board"] = [row for row in str(board).split("/") if row.strip()]
    return config


def _max_chance_outcomes(game: AnyGame) -> int:
    return registry.info(game.name).chance_outcomes_bound(game.num_players)


class DicePokerSpielGame(pyspiel.Game):  # type: ignore[misc]
    """One configured dicepoker game behind OpenSpiel's ``Game`` interface."""

    name: str

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        game_type = _GAME_TYPES[self.name]
        super().__init__(game_type, _game_info(self.name, params or {}), params or {})
        self.dicepoker = registry.create(self.name, **_config(self.name, dict(self.get_parameters())))
        self.codec: Codec = codec_for(self.dicepoker)

    def new_initial_state(self) -> DicePokerSpielState:
        return DicePokerSpielState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: dict[str, Any] | None = None
    ) -> ViewObserver:
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return ViewObserver(self.codec, perfect_recall=perfect_recall)


class DicePokerSpielState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state wrapping an immutable dicepoker state."""

    def __init__(self, game: DicePokerSpielGame) -> None:
        super().__init__(game)
        self.codec = game.codec
        self.players = game.dicepoker.num_players
        self.inner: State = game.dicepoker.initial_state()
        self.hidden_info = registry.info(game.dicepoker.name).hidden_information
        self.history_text: list[str] = []
        self.seen: list[list[str]] = [[] for _ in range(self.players)]
        self._remember_views()

    def current_player(self) -> int:
        if self.inner.is_terminal:
            return int(pyspiel.PlayerId.TERMINAL)
        if self.inner.is_chance:
            return int(pyspiel.PlayerId.CHANCE)
        return min(self.inner.to_act)  # type: ignore[arg-type]

    def _slots(self, player: int) -> dict[int, Action]:
        return self.codec.slots(self.inner.view(player), self.inner.legal_actions(player))

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self._slots(player))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(index, float(p)) for index, (_, p) in enumerate(self.inner.chance_outcomes())]

    def _apply_action(self, action: int) -> None:
        chosen: Action
        if self.inner.is_chance:
            chosen, player = self.inner.chance_outcomes()[action][0], None
        else:
            player = self.current_player()
            chosen = self._slots(player)[action]
        self.inner = self.inner.apply(chosen, player)
        self.history_text.append(f"{'chance' if player is None else player}: {chosen}")
        self._remember_views()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return str(self.inner.chance_outcomes()[action][0])
        chosen = self._slots(player).get(action)
        return str(chosen) if chosen is not None else f"action {action}"

    def is_terminal(self) -> bool:
        return self.inner.is_terminal

    def returns(self) -> list[float]:
        return rewards_of(self.inner, self.players) if self.inner.is_terminal else [0.0] * self.players

    def __str__(self) -> str:
        return json.dumps(self.inner.to_json(), sort_keys=True)

    def view_text(self, seat: int) -> str:
        data = self.inner.view(seat).to_json()
        if not self.hidden_info:
            data.pop("board", None)  # a board game's layout never changes: leave it out of every string
        return json.dumps(data, sort_keys=True)

    def information_text(self, seat: int) -> str:
        return "\n".join(self.seen[seat] if self.hidden_info else self.history_text)

    def _remember_views(self) -> None:
        if not self.hidden_info:
            return  # nothing is hidden: the history of actions is every player's information state
        for seat in range(self.players):
            text = self.view_text(seat)
            if not self.seen[seat] or self.seen[seat][-1] != text:
                self.seen[seat].append(text)


class ViewObserver:
    """OpenSpiel's PyObserver over views: the codec's tensor; a view (or the views so far) as a string."""

    def __init__(self, codec: Codec, *, perfect_recall: bool) -> None:
        self.codec = codec
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(codec.obs_size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: DicePokerSpielState, player: int) -> None:
        self.tensor[:] = self.codec.observe(state.inner.view(player))

    def string_from(self, state: DicePokerSpielState, player: int) -> str:
        return state.information_text(player) if self.perfect_recall else state.view_text(player)


def _game_type(name: str) -> pyspiel.GameType:
    game = registry.create(name)
    facts = registry.info(name)
    hidden = facts.hidden_information
    return pyspiel.GameType(
        short_name=spiel_name(name),
        long_name=f"dicepoker {game.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=(
            pyspiel.GameType.Information.IMPERFECT_INFORMATION
            if hidden
            else pyspiel.GameType.Information.PERFECT_INFORMATION
        ),
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=facts.players.max,
        min_num_players=facts.players.min,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_defaults(name),
    )


def _game_info(name: str, params: dict[str, Any]) -> pyspiel.GameInfo:
    game = registry.create(name, **_config(name, {**_defaults(name), **params}))
    return pyspiel.GameInfo(
        num_distinct_actions=codec_for(game).num_actions,
        max_chance_outcomes=_max_chance_outcomes(game),
        num_players=game.num_players,
        min_utility=-1.0,
        max_utility=1.0,
        utility_sum=None,
        max_game_length=MAX_GAME_LENGTH,
    )


_GAME_TYPES: dict[str, pyspiel.GameType] = {}
for _name in registry.names():
    _GAME_TYPES[_name] = _game_type(_name)
    _class = type(
        f"DicePokerSpiel_{_name.replace('-', '_')}",
        (DicePokerSpielGame,),
        {"name": _name, "__doc__": f"The dicepoker game {_name!r} for OpenSpiel."},
    )
    pyspiel.register_game(_GAME_TYPES[_name], _class)
