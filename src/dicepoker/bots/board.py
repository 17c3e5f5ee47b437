"""Bots for the board games (``zepherin``, ``classic-board``). Each decides from a view and the legal actions.

- :class:`GreedyBot`: takes the best square by the positional heuristic (extend own lines, block the
  opponents', value runs) as soon as the dice claim anything useful; otherwise keeps its largest group.
- :class:`ExpertBot`: plans the re-rolls of the turn exactly (from the exact chance outcomes, the value of
  every roll it could end the turn with) and values each placement by looking ahead at the opponent's
  next turn: the exact chance, under their best re-roll plan, that they complete a run.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache
from random import Random

import numpy as np

from dicepoker.analysis.board_planning import FloatArray, best_reroll, fresh_turn_value, turn_values
from dicepoker.core.types import Action, View
from dicepoker.dice.standard import ROLLS
from dicepoker.games.board.actions import Claim, Forfeit, Remove
from dicepoker.games.board.claims import READINGS
from dicepoker.games.board.evaluation import claim_score, line_prospect, remove_score
from dicepoker.games.board.layout import HAND_LABELS, Layout, Square
from dicepoker.games.board.position import Position, Team
from dicepoker.games.board.view import BoardView
from dicepoker.games.dice_turn import Reroll, Roll

RUN_VALUE = 1.0
WIN_VALUE = 1_000.0
DEFENCE = 1.0
"""Weight of the opponents' prospects against our own."""


def _board_view(view: View) -> BoardView:
    if not isinstance(view, BoardView):
        raise TypeError(f"board bots play board games, got a {type(view).__name__}")
    return view


def _finishing(view: BoardView, square: Square, remove: bool) -> Action:
    row, col = view.position.layout.row_col(square)
    return Remove(row, col) if remove else Claim(row, col)


# -- greedy -----------------------------------------------------------------------------------------
class GreedyBot:
    """Myopic: the best square now by :mod:`dicepoker.games.board.evaluation`, else re-roll for a group."""

    name = "greedy"

    def choose(self, view: View, legal: Sequence[Action], rng: Random) -> Action:
        board = _board_view(view)
        if Roll() in legal:
            return Roll()
        team = board.team_to_play
        best: tuple[float, Action] | None = None
        for action in legal:
            score: float | None = None
            if isinstance(action, Claim):
                square = board.position.layout.square_at(action.row, action.col)
                score = claim_score(board.position, square, team, board.rules.runs_to_win)
            elif isinstance(action, Remove):
                score = remove_score(board.position, board.position.layout.square_at(action.row, action.col), team)
            if score is not None and (best is None or score > best[0]):
                best = (score, action)
        can_reroll = any(isinstance(a, Reroll) for a in legal)
        if best is not None and (best[0] > 1.0 or not can_reroll):
            return best[1]
        if can_reroll:
            return Reroll(_non_group_positions(board.dice))
        return best[1] if best is not None else Forfeit()


def _non_group_positions(dice: Sequence[int]) -> tuple[int, ...]:
    """Positions outside the largest group of equal faces (higher face on ties); all five if no pair."""
    counts = Counter(dice)
    face = max(counts, key=lambda f: (counts[f], f))
    if counts[face] == 1:
        return tuple(range(len(dice)))
    return tuple(i for i, d in enumerate(dice) if d != face)


# -- expert -----------------------------------------------------------------------------------------
@cache
def _label_reach() -> dict[str, float]:
    """Chance of being able to claim a square of each label within one turn (five of a kind included)."""
    reach = {}
    for label in HAND_LABELS:
        hits = np.array([1.0 if r.wild or label in r.labels else 0.0 for r in READINGS])
        reach[label] = fresh_turn_value(turn_values(hits))
    return reach


@cache
def _completion_chance(labels: frozenset[str]) -> float:
    """Chance that a player claims a square of one of ``labels`` (or rolls wild) within a turn."""
    if not labels:
        return 0.0
    hits = np.array([1.0 if r.wild or not labels.isdisjoint(r.labels) else 0.0 for r in READINGS])
    return fresh_turn_value(turn_values(hits))


class ExpertBot:
    """Exact turn planning plus a one-turn look-ahead at the opponent's reply.

    ``lookahead=False`` drops the look-ahead (a cheaper, weaker bot: the "search budget").
    """

    name = "expert"

    def __init__(self, *, lookahead: bool = True) -> None:
        self.lookahead = lookahead
        self._plan_key: object = None
        self._plan: tuple[tuple[FloatArray, ...], dict[str, float], float, float] | None = None

    def choose(self, view: View, legal: Sequence[Action], rng: Random) -> Action:
        board = _board_view(view)
        if Roll() in legal:
            return Roll()
        values, _, _, _ = self._turn_plan(board)
        positions, _ = best_reroll(board.dice, board.rolls_left, values)
        if positions is not None and Reroll(positions) in legal:
            return Reroll(positions)
        return self._best_finish(board, legal)

    # -- the plan of this turn ----------------------------------------------------------------------
    def _turn_plan(self, board: BoardView) -> tuple[tuple[FloatArray, ...], dict[str, float], float, float]:
        """Stop values of the 252 rolls here, and the re-roll values they imply (cached for the turn)."""
        position, team = board.position, board.team_to_play
        key = (position, team)
        if key == self._plan_key and self._plan is not None:
            return self._plan
        evaluator = _Evaluator(board, team, self.lookahead)
        label_best: dict[str, float] = {}
        for label in HAND_LABELS:
            squares = [s for s in position.layout.squares_by_label[label] if position.is_open(s)]
            label_best[label] = max((evaluator.place(s) for s in squares), default=-np.inf)
        has_chips = position.supply[team] > 0
        wild = max((evaluator.place(s) for s in position.open_squares()), default=-np.inf) if has_chips else -np.inf
        protected = position.protected()
        removals = [
            evaluator.remove(s)
            for s, owner in enumerate(position.cells)
            if owner is not None and owner != team and s not in protected
        ]
        removal = max(removals, default=-np.inf)
        stop = np.zeros(len(ROLLS))
        for index, reading in enumerate(READINGS):
            options = [label_best[label] for label in reading.labels] if has_chips else []
            if reading.wild:
                options.append(wild)
            claim = max(options, default=-np.inf)
            may_remove = (reading.wild and board.rules.preset.five_kind_removal) or position.bounces(reading)
            best = max(claim, removal if may_remove else -np.inf)
            # With nothing to claim the turn may end by forfeiting, which changes nothing (value 0).
            stop[index] = best if claim > -np.inf else max(best, 0.0)
        plan = (turn_values(stop), label_best, wild, removal)
        self._plan_key, self._plan = key, plan
        return plan

    def _best_finish(self, board: BoardView, legal: Sequence[Action]) -> Action:
        evaluator = _Evaluator(board, board.team_to_play, self.lookahead)
        layout = board.position.layout
        best: tuple[float, Action] | None = None
        for action in legal:
            if isinstance(action, Claim):
                value = evaluator.place(layout.square_at(action.row, action.col))
            elif isinstance(action, Remove):
                value = evaluator.remove(layout.square_at(action.row, action.col))
            elif isinstance(action, Forfeit):
                value = 0.0
            else:
                continue
            if best is None or value > best[0]:
                best = (value, action)
        return best[1] if best is not None else Forfeit()


class _Evaluator:
    """Change in our prospects when one square changes, with the opponent's reply looked ahead.

    Prospects: each line of five that can still become a run for a team is worth the product, over its
    missing squares, of the chance to claim such a square within a turn; a run is worth 1. The look-ahead
    subtracts the exact chance that the next team completes a run on its turn after our move.
    """

    def __init__(self, board: BoardView, team: Team, lookahead: bool) -> None:
        self.position = board.position
        self.team = team
        self.runs_to_win = board.rules.runs_to_win
        self.lookahead = lookahead
        self.reach = _label_reach()
        rules = board.rules
        self.next_team = rules.team_of((board.to_play + 1) % rules.players)
        self.completing = _completing_squares(self.position, self.next_team)
        self.baseline_threat = self._threat(self.position, self.completing)
        self._placed: dict[Square, float] = {}

    def place(self, square: Square) -> float:
        if square not in self._placed:
            after = self.position.place(square, self.team)
            if after.winner(self.runs_to_win) == self.team:
                self._placed[square] = WIN_VALUE
            else:
                # Our chip can only spoil the next team's lines through this square: its completing
                # squares are the old ones less this one.
                self._placed[square] = self._delta(after, square, self.completing - {square})
        return self._placed[square]

    def remove(self, square: Square) -> float:
        after = self.position.remove(square)
        return self._delta(after, square, _completing_squares(after, self.next_team))

    def _delta(self, after: Position, square: Square, completing: set[Square]) -> float:
        layout = self.position.layout
        value = RUN_VALUE * (len(after.runs[self.team]) - len(self.position.runs[self.team]))
        for index in layout.lines_through[square]:
            line = layout.lines[index]
            value += self._line_value(after, line) - self._line_value(self.position, line)
        if self.lookahead and self.next_team != self.team:
            value -= self._threat(after, completing) - self.baseline_threat
        return value

    def _line_value(self, position: Position, line: Sequence[Square]) -> float:
        total = 0.0
        for team in range(position.teams):
            if line_prospect(position, line, team) is None:
                continue
            chance = 1.0
            for square in line:
                if position.cells[square] is None and square != position.layout.free:
                    chance *= self.reach[position.layout.labels[square]]
            total += chance if team == self.team else -DEFENCE * chance
        return total

    def _threat(self, position: Position, completing: set[Square]) -> float:
        """Expected loss on the next team's turn: the chance it completes a run, times the run's worth."""
        team = self.next_team
        labels = frozenset(position.layout.labels[s] for s in completing)
        worth = WIN_VALUE if len(position.runs[team]) + 1 >= self.runs_to_win else RUN_VALUE
        return _completion_chance(labels) * worth


def _completing_squares(position: Position, team: Team) -> set[Square]:
    """Open squares that would complete a run for ``team`` (the one square missing from a line)."""
    layout: Layout = position.layout
    squares: set[Square] = set()
    for line in layout.lines:
        missing = [s for s in line if not position.counts_for(s, team)]
        if len(missing) == 1 and position.is_open(missing[0]) and line_prospect(position, line, team) is not None:
            squares.add(missing[0])
    return squares
