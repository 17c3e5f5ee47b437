"""PeekPoker Hold'em: Crazy Aces (seed 002): hidden and community poker dice, no limit, ace re-rolls (PK-1 … PK-15)."""

from dicepoker.games.peekpoker.actions import (
    HighRoll as HighRoll,
)
from dicepoker.games.peekpoker.actions import (
    Phase as Phase,
)
from dicepoker.games.peekpoker.actions import (
    RerollAces as RerollAces,
)
from dicepoker.games.peekpoker.actions import (
    Rolled as Rolled,
)
from dicepoker.games.peekpoker.actions import (
    Stand as Stand,
)
from dicepoker.games.peekpoker.actions import (
    parse_peekpoker_action as parse_peekpoker_action,
)
from dicepoker.games.peekpoker.config import (
    COMMUNITY_DICE as COMMUNITY_DICE,
)
from dicepoker.games.peekpoker.config import (
    FORCED_BET as FORCED_BET,
)
from dicepoker.games.peekpoker.config import (
    OWN_DICE as OWN_DICE,
)
from dicepoker.games.peekpoker.config import (
    PeekPokerConfig as PeekPokerConfig,
)
from dicepoker.games.peekpoker.rules import (
    PeekPokerGame as PeekPokerGame,
)
from dicepoker.games.peekpoker.rules import (
    PeekPokerState as PeekPokerState,
)
from dicepoker.games.peekpoker.view import (
    PeekPokerView as PeekPokerView,
)
from dicepoker.games.peekpoker.view import (
    PreviousHand as PreviousHand,
)
