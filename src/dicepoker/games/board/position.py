"""The chips on a board and what a roll may do to them (BD-7 … BD-12), shared by the rules, views and bots.

A :class:`Position` is a value: the owner of each square (a team number, or ``None``), each team's
runs, and each team's chips left. It knows nothing of turns or seats.
"""

from __future__ import annotations

from dataclasses import dataclass

from dicepoker.dice.hands import PokerHand
from dicepoker.games.board.claims import BOUNCER_LABELS, HandReading
from dicepoker.games.board.layout import Layout, Line, Square

Team = int
Cells = tuple[Team | None, ...]


def compatible(run: Line, other: Line) -> bool:
    """BD-12: two runs of one team may share at most one square."""
    return len(set(run) & set(other)) <= 1


@dataclass(frozen=True, slots=True)
class Position:
    layout: Layout
    cells: Cells
    runs: tuple[tuple[Line, ...], ...]
    supply: tuple[int, ...]

    @classmethod
    def empty(cls, layout: Layout, teams: int, chips: int) -> Position:
        return cls(layout, (None,) * layout.size, ((),) * teams, (chips,) * teams)

    @property
    def teams(self) -> int:
        return len(self.runs)

    # -- what is where ------------------------------------------------------------------------------
    def is_open(self, square: Square) -> bool:
        """An empty square other than the free one (BD-11: no chip is ever placed on the centre)."""
        return self.cells[square] is None and square != self.layout.free

    def open_squares(self) -> tuple[Square, ...]:
        return tuple(s for s in range(self.layout.size) if self.is_open(s))

    def protected(self) -> frozenset[Square]:
        """BD-10: squares in a run are protected for the rest of the game."""
        return frozenset(s for team_runs in self.runs for run in team_runs for s in run)

    def counts_for(self, square: Square, team: Team) -> bool:
        """BD-10/BD-11: the square holds the team's chip, or is the free square (it counts for every team)."""
        return square == self.layout.free or self.cells[square] == team

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
        """BD-9: a straight (full house) with every Straight (Full House) square occupied."""
        label = BOUNCER_LABELS.get(reading.hand)
        return label is not None and not any(self.is_open(s) for s in self.layout.squares_by_label[label])

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
        """Put a chip of ``team`` on ``square`` and record the runs it completes (BD-10, BD-12)."""
        cells = (*self.cells[:square], team, *self.cells[square + 1 :])
        supply = tuple(n - 1 if t == team else n for t, n in enumerate(self.supply))
        placed = Position(self.layout, cells, self.runs, supply)
        new = placed.new_runs(square, team)
        if not new:
            return placed
        runs = tuple(r + new if t == team else r for t, r in enumerate(self.runs))
        return Position(self.layout, cells, runs, supply)

    def new_runs(self, square: Square, team: Team) -> tuple[Line, ...]:
        """Runs through ``square`` the team may record now.

        Several full lines may pass through one placement (a line of six, a cross). They are taken
        greedily, each direction from its first square on, keeping only lines that share at most one
        square with every run of the team (BD-12): so a line of nine yields its two end runs.
        """
        lines = self.layout.lines
        chosen: list[Line] = []
        existing = self.runs[team]
        for index in self.layout.lines_through[square]:
            line = lines[index]
            if all(self.counts_for(s, team) for s in line) and all(
                compatible(line, run) for run in (*existing, *chosen)
            ):
                chosen.append(line)
        return tuple(chosen)

    def remove(self, square: Square) -> Position:
        """Take a chip off; it goes back to its team's supply **[decision]**."""
        owner = self.cells[square]
        cells = (*self.cells[:square], None, *self.cells[square + 1 :])
        supply = tuple(n + 1 if t == owner else n for t, n in enumerate(self.supply))
        return Position(self.layout, cells, self.runs, supply)

    def winner(self, runs_to_win: int) -> Team | None:
        """BD-13: the team with the runs to win (only one can: the game stops at the first)."""
        return next((t for t, runs in enumerate(self.runs) if len(runs) >= runs_to_win), None)
