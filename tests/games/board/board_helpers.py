"""Building board positions and states for the rule tests."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from dicepoker.games.board.position import Position
from dicepoker.games.board.rules import BoardGame, BoardState, ZepherinGame
from dicepoker.games.dice_turn import DiceTurn


def sq(state_or_game: BoardState | BoardGame, row: int, col: int) -> int:
    """1-based row and column to a square index."""
    layout = state_or_game.rules.layout
    return layout.square_at(row - 1, col - 1)


def started(game: BoardGame | None = None, seat: int = 0) -> BoardState:
    """A game past its roll-off, ``seat`` to play, nothing rolled."""
    game = game or ZepherinGame()
    return replace(game.initial_state(), opening=None, seat=seat)


def with_chips(state: BoardState, chips: Iterable[tuple[int, int, int]]) -> BoardState:
    """Place chips ``(row, col, team)`` (1-based) in order, recording runs as the rules do."""
    position: Position = state.position
    for row, col, team in chips:
        position = position.place(sq(state, row, col), team)
    return replace(state, position=position)


def rolled(state: BoardState, dice: tuple[int, ...], rolls: int = 1) -> BoardState:
    return replace(state, turn=DiceTurn(dice, rolls, ()))


def action_texts(state: BoardState) -> set[str]:
    return {str(a) for a in state.legal_actions()}


def claims(state: BoardState) -> set[str]:
    return {t for t in action_texts(state) if t.startswith("claim")}


def removals(state: BoardState) -> set[str]:
    return {t for t in action_texts(state) if t.startswith("remove")}
