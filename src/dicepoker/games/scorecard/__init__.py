"""Dice Poker scorecard (seed 003): 13 boxes, up to three rolls a turn (SC-1 … SC-15)."""

from dicepoker.games.scorecard.rules import (
    EMPTY_CARD as EMPTY_CARD,
)
from dicepoker.games.scorecard.rules import (
    MAX_PLAYERS as MAX_PLAYERS,
)
from dicepoker.games.scorecard.rules import (
    ROUNDS as ROUNDS,
)
from dicepoker.games.scorecard.rules import (
    SCORE_ACTIONS as SCORE_ACTIONS,
)
from dicepoker.games.scorecard.rules import (
    Card as Card,
)
from dicepoker.games.scorecard.rules import (
    Score as Score,
)
from dicepoker.games.scorecard.rules import (
    ScorecardConfig as ScorecardConfig,
)
from dicepoker.games.scorecard.rules import (
    ScorecardGame as ScorecardGame,
)
from dicepoker.games.scorecard.rules import (
    ScorecardState as ScorecardState,
)
from dicepoker.games.scorecard.rules import (
    ScorecardView as ScorecardView,
)
from dicepoker.games.scorecard.rules import (
    card_total as card_total,
)
from dicepoker.games.scorecard.rules import (
    default_category as default_category,
)
from dicepoker.games.scorecard.rules import (
    open_categories as open_categories,
)
from dicepoker.games.scorecard.rules import (
    upper_total as upper_total,
)
