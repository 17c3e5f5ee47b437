"""The scorecard game's facts for every layer above the rules (see :mod:`dicepoker.core.info`)."""

from dicepoker.core.info import BotLadder, GameInfo, PlayerRange
from dicepoker.games.scorecard.rules import MAX_PLAYERS, ScorecardGame, ScorecardView

INFO = GameInfo(
    name="scorecard",
    short_title="Dice Poker scorecard",
    game_class=ScorecardGame,
    players=PlayerRange(min=1, max=MAX_PLAYERS, default=2),
    hidden_information=False,
    betting=False,
    clock=30.0,  # CM-6: 30 s for the scorecard game
    summary=(
        "Thirteen rounds of five dice, up to three rolls a turn. Keep the dice you like and re-roll the rest, then "
        "score exactly one open box of your card: the upper section (a 35-point bonus at 63), three and four of a "
        "kind, full house, straights, five of a kind or chance. Every box is used once; the highest total wins."
    ),
    rules_sections=("Common", "Dice", "Scorecard"),
    rule_prefix="SC",
    view_type=ScorecardView,
    view_kind="scorecard",
    dice="pip",
    sample_dice=("6", "6", "6", "2", "2"),
    bots=BotLadder(easy="random", normal="greedy", strong="optimal"),
    seat_filler="greedy",
    chance_outcomes_bound=lambda players: 252,  # five dice re-rolled: C(10, 5) multisets
)
