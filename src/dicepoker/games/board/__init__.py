"""The board games `zepherin` (seed 000) and `classic-board` (seed 001): one engine, two presets."""

from dicepoker.games.board.layout import BoardError, Layout, default_layout, load_board
from dicepoker.games.board.rules import BoardGame, BoardState, ClassicBoardGame, ZepherinGame

__all__ = [
    "BoardError",
    "BoardGame",
    "BoardState",
    "ClassicBoardGame",
    "Layout",
    "ZepherinGame",
    "default_layout",
    "load_board",
]
