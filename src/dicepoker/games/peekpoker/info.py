"""PeekPoker's facts for every layer above the rules (see :mod:`dicepoker.core.info`)."""

from dicepoker.core.info import BotLadder, GameInfo, PlayerRange
from dicepoker.games.peekpoker.rules import PeekPokerGame
from dicepoker.games.peekpoker.view import PeekPokerView

INFO = GameInfo(
    name="peekpoker",
    short_title="PeekPoker",
    game_class=PeekPokerGame,
    players=PlayerRange(min=2, max=4, default=2),
    hidden_information=True,
    betting=True,
    clock=60.0,
    summary=(
        "Three hidden poker dice each (9 to Ace) and three community dice, with no-limit betting from a stack of "
        "48. Peek, bet, call or fold; at the showdown the aces among your own dice may be re-rolled, and new aces "
        "rolled again. "
        "The best six-die hand takes the pot, and the last player with chips wins."
    ),
    rules_sections=("Common", "Dice", "PeekPoker"),
    rule_prefix="PK",
    view_type=PeekPokerView,
    view_kind="peekpoker",
    dice="poker",
    sample_dice=("A", "A", "K", "Q", "J", "9"),
    bots=BotLadder(easy="random", normal="equity", strong="expert"),
    seat_filler="random",
    # the opening high roll rolls one die per player at once
    chance_outcomes_bound=lambda players: max(252, 6**players),
)
