"""Dice Hold'em's facts for every layer above the rules (see :mod:`dicepoker.core.info`)."""

from dicepoker.core.info import BotLadder, GameInfo, PlayerRange
from dicepoker.games.holdem.rules import HoldemGame
from dicepoker.games.holdem.view import HoldemView

INFO = GameInfo(
    name="holdem",
    short_title="Dice Hold'em",
    game_class=HoldemGame,
    players=PlayerRange(min=2, max=6, default=2),
    hidden_information=True,
    betting=True,
    clock=60.0,
    summary=(
        "Texas hold'em with suited dice drawn from a bag. Everyone antes, rolls two hidden pocket dice, and bets "
        "over a Flop of three community dice, then a Turn and a River, in fixed limits of 10 and 20. The best five "
        "of your seven dice take the pot; a Yahtzee flush ends the game at once. The last player with chips wins."
    ),
    rules_sections=("Common", "Dice", "Dice Hold'em"),
    rule_prefix="HE",
    view_type=HoldemView,
    view_kind="holdem",
    dice="suited",
    sample_dice=("6r", "6b", "3y", "3w", "6w"),
    bots=BotLadder(easy="random", normal="equity", strong="expert"),
    seat_filler="random",
    chance_outcomes_bound=lambda players: 252,
)
