"""Dice Hold'em (seed 004): 20 suited dice, pocket dice, flop/turn/river, limit betting (HE-1 … HE-16)."""

from dicepoker.games.holdem.actions import (
    FLOP_REROLLS as FLOP_REROLLS,
)
from dicepoker.games.holdem.actions import (
    HIGH_ROLLS as HIGH_ROLLS,
)
from dicepoker.games.holdem.actions import (
    Draw as Draw,
)
from dicepoker.games.holdem.actions import (
    FlopReroll as FlopReroll,
)
from dicepoker.games.holdem.actions import (
    HighRoll as HighRoll,
)
from dicepoker.games.holdem.actions import (
    Phase as Phase,
)
from dicepoker.games.holdem.config import (
    BOARD_AFTER as BOARD_AFTER,
)
from dicepoker.games.holdem.config import (
    FACES as FACES,
)
from dicepoker.games.holdem.config import (
    POCKET as POCKET,
)
from dicepoker.games.holdem.config import (
    STREETS as STREETS,
)
from dicepoker.games.holdem.config import (
    SUITS as SUITS,
)
from dicepoker.games.holdem.config import (
    UNIT as UNIT,
)
from dicepoker.games.holdem.config import (
    HoldemConfig as HoldemConfig,
)
from dicepoker.games.holdem.rules import (
    HoldemGame as HoldemGame,
)
from dicepoker.games.holdem.rules import (
    HoldemState as HoldemState,
)
from dicepoker.games.holdem.view import (
    HoldemView as HoldemView,
)
from dicepoker.games.holdem.view import (
    Showdown as Showdown,
)
from dicepoker.games.holdem.view import (
    dice_from_json as dice_from_json,
)
from dicepoker.games.holdem.view import (
    dice_json as dice_json,
)
from dicepoker.games.holdem.view import (
    showdown_from_json as showdown_from_json,
)
from dicepoker.games.holdem.view import (
    showdown_json as showdown_json,
)
