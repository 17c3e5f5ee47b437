"""The game-agnostic core: the protocol every game implements, chance, event logs and matches.

It has no I/O, no clock, no asyncio and no global randomness (a test enforces this).
"""

from dicepoker.core.chance import sample_exact
from dicepoker.core.errors import ConfigError, CorruptLog, DicePokerError, IllegalAction, NotationError
from dicepoker.core.game import Game
from dicepoker.core.info import BotLadder, GameInfo, PlayerRange
from dicepoker.core.log import Event, EventLog, replay_states
from dicepoker.core.match import Match
from dicepoker.core.notation import parse_int
from dicepoker.core.state import State
from dicepoker.core.steps import Step, replay_steps, roll_chance, settle_chance
from dicepoker.core.types import (
    CHANCE,
    JSON,
    Action,
    Chance,
    ChanceAction,
    Ending,
    Resign,
    Result,
    Seat,
    Timeout,
    ToAct,
    View,
    jsonable,
)

__all__ = [
    "CHANCE",
    "JSON",
    "Action",
    "BotLadder",
    "Chance",
    "ChanceAction",
    "ConfigError",
    "CorruptLog",
    "DicePokerError",
    "Ending",
    "Event",
    "EventLog",
    "Game",
    "GameInfo",
    "IllegalAction",
    "Match",
    "NotationError",
    "PlayerRange",
    "Resign",
    "Result",
    "Seat",
    "State",
    "Step",
    "Timeout",
    "ToAct",
    "View",
    "jsonable",
    "parse_int",
    "replay_states",
    "replay_steps",
    "roll_chance",
    "sample_exact",
    "settle_chance",
]
