"""The two board games' facts for every layer above the rules (see :mod:`dicepoker.core.info`)."""

from dicepoker.core.info import BotLadder, GameInfo, PlayerRange
from dicepoker.games.board.rules import ClassicBoardGame, ZepherinGame
from dicepoker.games.board.teams import TEAMS
from dicepoker.games.board.view import BoardView

_RULES = ("Common", "Dice", "Board games")
_BOTS = BotLadder(easy="random", normal="greedy", strong="expert")


def _five_dice(players: int) -> int:
    return 252  # five dice re-rolled: C(10, 5) multisets


ZEPHERIN = GameInfo(
    name="zepherin",
    short_title="Zepherin",
    game_class=ZepherinGame,
    players=PlayerRange(min=2, max=12, default=2),
    hidden_information=False,
    betting=False,
    clock=60.0,
    summary=(
        "Two teams on a 9×9 board of poker hands. Roll five dice up to three times, then place a chip on a square "
        "labelled with your best hand. Five chips in a row make a protected run; two runs win. Five of a kind may "
        "place anywhere, or remove an opponent's chip instead."
    ),
    rules_sections=_RULES,
    rule_prefix="BD",
    view_type=BoardView,
    view_kind="board",
    dice="pip",
    sample_dice=("1", "2", "3", "4", "5"),
    bots=_BOTS,
    seat_filler="greedy",
    chance_outcomes_bound=_five_dice,
    teams=TEAMS,
)

CLASSIC_BOARD = GameInfo(
    name="classic-board",
    short_title="Classic board",
    game_class=ClassicBoardGame,
    players=PlayerRange(min=2, max=12, default=2),
    hidden_information=False,
    betting=False,
    clock=60.0,
    summary=(
        "The original dice poker board game for 2 to 12 players in two or three teams, or up to three on their own. "
        "Roll up to three times and claim a square of the hand you made (the best hand must be played), or a Lucky "
        "square when the dice add up to 7 or 11. Five chips in a row make a run; the first team with two runs wins."
    ),
    rules_sections=_RULES,
    rule_prefix="BD",
    view_type=BoardView,
    view_kind="board",
    dice="pip",
    sample_dice=("4", "4", "4", "4", "1"),
    bots=_BOTS,
    seat_filler="greedy",
    chance_outcomes_bound=_five_dice,
    teams=TEAMS,
)
