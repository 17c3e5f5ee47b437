"""The chips on a board and what a roll may do to them (BD-7 … BD-12), shared by the rules, views and bots.

A :class:`Position` is a value: the owner of each square (a team number, or ``None``) and each team's
chips left. Everything about runs is derived from the squares alone, never from the order the chips
were placed in (BD-12 **[decision]**): every line of five a team holds is *held* and protected, and the
team's *runs* are the largest set of its held lines no two of which share more than one square.

Two lines of five share two or more squares only when they lie on the same row, column or diagonal
(lines in different directions cross at one square at most), so the largest set is found exactly by
taking held lines in order of their first square and keeping each one that shares at most one square
with those kept (interval scheduling along each line of the board).

>>> from dicepoker.games.board.layout import default_layout
>>> position = Position.empty(default_layout(), 2, 50)
>>> for col in (3, 4, 6, 7, 8, 5, 2, 1, 0):   # a row of nine, in the order of issue 13
...     position = position.place(col, 0)
>>> len(position.held[0]), [list(run) for run in position.runs[0]]
(5, [[0, 1, 2, 3, 4], [4, 5, 6, 7, 8]])
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from dicepoker.dice.hands import PokerHand
from dicepoker.games.board.claims import BOUNCER_LABELS, HandReading
from dicepoker.games.board.layout import Layout, Line, Square

Team = int
Cells = tuple[Team | None, ...]
Lines = tuple[Line, ...]


def compatible(run: Sequence[Square], other: Sequence[Square]) -> bool:
    """BD-12: two runs of one team may share at most one square."""
    return len(set(run) & set(other)) <= 1


def most_runs(held: Iterable[Line]) -> Lines:
    """BD-12: the largest set of ``held`` lines no two of which share more than one square.

    Lines sharing two squares are collinear, so along each row, column and diagonal this is interval
    scheduling of equal intervals: taking them by first square, each one that fits, is optimal. Ties
    between equally large sets go to the earlier lines (a line of nine gives its two end runs).
    """
    chosen: list[Line] = []
    for line in sorted(held):
        if all(compatible(line, run) for run in chosen):
            chosen.append(line)
    return tuple(chosen)


@dataclass(frozen=True, slots=True)
class Position:
    """Build with :meth:`empty` or :meth:`from_cells`, change with :meth:`place` and :meth:`remove`:
    they keep ``held`` and ``runs`` derived from ``cells``."""

    layout: Layout
    cells: Cells
    supply: tuple[int, ...]
    held: tuple[Lines, ...]
    """Per team, every line of five all of whose squares count for it (BD-10, BD-11), sorted."""
    runs: tuple[Lines, ...]
    """Per team, the runs it is credited with: :func:`most_runs` of its held lines (BD-12)."""

    @classmethod
    def empty(cls, layout: Layout, teams: int, chips: int) -> Position:
        return cls(layout, (None,) * layout.size, (chips,) * teams, ((),) * teams, ((),) * teams)

    @classmethod
    def from_cells(cls, layout: Layout, cells: Cells, supply: tuple[int, ...]) -> Position:
        """A position with these chips, its runs found from the squares alone."""
        teams = len(supply)
        held = tuple(tuple(line for line in layout.lines if _holds(layout, cells, line, team)) for team in range(teams))
        return cls(layout, cells, supply, held, tuple(most_runs(lines) for lines in held))

    @property
    def teams(self) -> int:
        return len(self.supply)

    # -- what is where ------------------------------------------------------------------------------
    def is_open(self, square: Square) -> bool:
        """An empty square other than the free one (BD-11: no chip is ever placed on the centre)."""
        return self.cells[square] is None and square != self.layout.free

    def open_squares(self) -> tuple[Square, ...]:
        return tuple(s for s in range(self.layout.size) if self.is_open(s))

    def protected(self) -> frozenset[Square]:
        """BD-10, BD-12: squares of every line of five a team holds are protected for the rest of the game."""
        return frozenset(s for team_lines in self.held for line in team_lines for s in line)

    def counts_for(self, square: Square, team: Team) -> bool:
        """BD-10/BD-11: the square holds the team's chip, or is the free square (it counts for every team)."""
        return square == self.layout.free or self.cells[square] == team

    def would_add_run(self, line: Line, team: Team) -> bool:
        """Whether holding ``line`` too would raise the team's number of runs (BD-12)."""
        held = self.held[team]
        if line in held:
            return False
        if all(compatible(line, other) for other in held):
            return True
        return len(most_runs((*held, line))) > len(self.runs[team])

    # -- what a roll may do -------------------------------------------------------------------------
    def claimable(self, reading: HandReading, team: Team) -> tuple[Square, ...]:
        """BD-5 … BD-8: open squares the roll may take (none if the team has no chips left, BD-2)."""
        if not self.supply[team]:
            return ()
        if reading.wild:
            return self.open_squares()
        squares = self.layout.squares_by_label
        return tuple(sorted(s for label in reading.labels for s in squares[label] if self.is_open(s)))

    def bounces(self, reading: HandReading) -> bool:
        """BD-9: a straight (full house) with every Straight (Full House) square occupied.

        The bouncer replaces a forfeit, and BD-7 **[decision]** forfeits a roll only when no matching square
        is open: a full house summing to 7 or 11 with its Lucky square open must claim that square instead.
        """
        label = BOUNCER_LABELS.get(reading.hand)
        if label is None:
            return False
        squares = self.layout.squares_by_label
        matching = (label,) if reading.lucky is None else (label, reading.lucky)
        return not any(self.is_open(s) for name in matching for s in squares[name])

    def removable(self, reading: HandReading, team: Team, *, five_kind_removal: bool) -> tuple[Square, ...]:
        """BD-8 (zepherin) and BD-9: opponent chips outside runs that the roll may remove."""
        may_remove = (reading.hand is PokerHand.FIVE_KIND and five_kind_removal) or self.bounces(reading)
        if not may_remove:
            return ()
        protected = self.protected()
        return tuple(
            s for s, owner in enumerate(self.cells) if owner is not None and owner != team and s not in protected
        )

    def can_change(self) -> bool:
        """Whether any chip can ever be placed or removed again (else the game is stuck)."""
        chips_left = any(self.supply)
        if chips_left and any(self.is_open(s) for s in range(self.layout.size)):
            return True
        protected = self.protected()
        return any(owner is not None and s not in protected for s, owner in enumerate(self.cells))

    # -- changes ------------------------------------------------------------------------------------
    def place(self, square: Square, team: Team) -> Position:
        """Put a chip of ``team`` on ``square``; lines it completes become held (BD-10, BD-12)."""
        cells = (*self.cells[:square], team, *self.cells[square + 1 :])
        supply = tuple(n - 1 if t == team else n for t, n in enumerate(self.supply))
        layout = self.layout
        completed = [
            line
            for line in (layout.lines[i] for i in layout.lines_through[square])
            if _holds(layout, cells, line, team) and line not in self.held[team]
        ]
        if not completed:
            return Position(layout, cells, supply, self.held, self.runs)
        team_held = tuple(sorted((*self.held[team], *completed)))
        held = tuple(team_held if t == team else lines for t, lines in enumerate(self.held))
        runs = tuple(most_runs(team_held) if t == team else r for t, r in enumerate(self.runs))
        return Position(layout, cells, supply, held, runs)

    def remove(self, square: Square) -> Position:
        """Take a chip off; it goes back to its team's supply (BD-8 **[decision]**).

        Only chips outside held lines may be removed, but a removal is correct for any chip: the
        lines through the square stop being held by its owner.
        """
        owner = self.cells[square]
        cells = (*self.cells[:square], None, *self.cells[square + 1 :])
        supply = tuple(n + 1 if t == owner else n for t, n in enumerate(self.supply))
        if owner is None or not any(square in line for line in self.held[owner]):
            return Position(self.layout, cells, supply, self.held, self.runs)
        owner_held = tuple(line for line in self.held[owner] if square not in line)
        held = tuple(owner_held if t == owner else lines for t, lines in enumerate(self.held))
        runs = tuple(most_runs(owner_held) if t == owner else r for t, r in enumerate(self.runs))
        return Position(self.layout, cells, supply, held, runs)

    def winner(self, runs_to_win: int) -> Team | None:
        """BD-13: the team with the runs to win (only one can: the game stops at the first)."""
        return next((t for t, runs in enumerate(self.runs) if len(runs) >= runs_to_win), None)


def _holds(layout: Layout, cells: Cells, line: Line, team: Team) -> bool:
    free = layout.free
    return all(square == free or cells[square] == team for square in line)
