"""The positional heuristic of the greedy bot, also the timeout default (BD-14): extend own lines, block
the opponents' lines, value runs.

It lives with the rules, not with the bots, because the timeout default needs it and the rules may not
import bots (imports point one way).
"""

from __future__ import annotations

from collections.abc import Sequence

from dicepoker.games.board.layout import Square
from dicepoker.games.board.position import Position, Team

EXTEND = (0.0, 1.0, 3.0, 10.0, 40.0, 400.0)
"""Value of a line of five that would then hold n of our squares (and none of theirs)."""
BLOCK = (0.0, 1.0, 3.0, 12.0, 150.0, 0.0)
"""Value of spoiling an opponent line that holds n of their squares (and none of ours)."""
WIN = 100_000.0


def line_owner_counts(position: Position, line: Sequence[Square]) -> dict[Team | None, int]:
    """How many squares of the line count for each team; the free square counts for everyone (BD-11)."""
    counts: dict[Team | None, int] = {}
    for square in line:
        owner = position.cells[square]
        counts[owner] = counts.get(owner, 0) + 1
    return counts


def line_prospect(position: Position, line: Sequence[Square], team: Team) -> int | None:
    """How many squares of the line count for ``team`` if it can still become a run for it, else ``None``.

    A line can become a run when no other team holds a square of it and holding it would raise the
    team's number of runs (BD-12: it may share at most one square with the team's runs).
    """
    cells, free = position.cells, position.layout.free
    count = 0
    for square in line:
        owner = cells[square]
        if owner == team or square == free:
            count += 1
        elif owner is not None:
            return None
    if not position.would_add_run(tuple(line), team):
        return None
    return count


def claim_score(position: Position, square: Square, team: Team, runs_to_win: int) -> float:
    """How much placing a chip of ``team`` on ``square`` helps it, by the greedy heuristic."""
    after = position.place(square, team)
    new_runs = len(after.runs[team]) - len(position.runs[team])
    if new_runs and len(after.runs[team]) >= runs_to_win:
        return WIN
    score = EXTEND[5] * new_runs
    lines = position.layout.lines
    for index in position.layout.lines_through[square]:
        line = lines[index]
        ours = line_prospect(position, line, team)
        if ours is not None:
            score += EXTEND[min(ours + 1, 4)]
        for other in range(position.teams):
            if other != team:
                theirs = line_prospect(position, line, other)
                if theirs is not None:
                    score += BLOCK[theirs]
    return score


def remove_score(position: Position, square: Square, team: Team) -> float:
    """How much taking the opponent chip on ``square`` off helps ``team``."""
    owner = position.cells[square]
    assert owner is not None and owner != team
    lines = position.layout.lines
    score = 1.0
    for index in position.layout.lines_through[square]:
        theirs = line_prospect(position, lines[index], owner)
        if theirs is not None:
            score += BLOCK[theirs]
    after = position.remove(square)
    for index in position.layout.lines_through[square]:
        ours = line_prospect(after, lines[index], team)
        if ours is not None:
            score += EXTEND[ours] / 2
    return score


def best_claim(position: Position, squares: Sequence[Square], team: Team, runs_to_win: int) -> Square | None:
    """The greedy choice among claimable squares (ties: the first square); ``None`` if there is none."""
    best: Square | None = None
    best_score = -1.0
    for square in squares:
        score = claim_score(position, square, team, runs_to_win)
        if score > best_score:
            best, best_score = square, score
    return best
