"""Research interfaces (extra ``[research]``): PettingZoo, Gymnasium and OpenSpiel adapters over the rules.

Adapters only: observations are built from a seat's view, never the full state, and the rules do not
know these libraries exist.

- ``dicepoker.envs.make_aec(name, **config)``: the PettingZoo AEC environment of a game.
- Importing this package registers the Gymnasium ids ``dicepoker/<name>-v0`` for every game
  (``gymnasium.make("dicepoker/holdem-v0", opponent="expert")``).
- Importing :mod:`dicepoker.envs.openspiel` registers ``python_dicepoker_<name>`` with OpenSpiel.
"""

from __future__ import annotations

import gymnasium

from dicepoker.envs.aec import DicePokerAEC, make_aec
from dicepoker.envs.codec import Codec, codec_for
from dicepoker.envs.single import DicePokerEnv
from dicepoker.games import registry

__all__ = ["Codec", "DicePokerAEC", "DicePokerEnv", "codec_for", "gym_id", "make_aec"]


def gym_id(name: str) -> str:
    """The Gymnasium id of a game: ``dicepoker/<name>-v0``."""
    return f"dicepoker/{name}-v0"


for _name in registry.names():
    if gym_id(_name) not in gymnasium.registry:
        gymnasium.register(id=gym_id(_name), entry_point="dicepoker.envs.single:DicePokerEnv", kwargs={"name": _name})
