"""BD-10 … BD-12: runs are read from the position, never from the order the chips were placed in."""

from __future__ import annotations

from itertools import combinations

from board_helpers import removals, rolled, sq, started, with_chips
from hypothesis import given, settings
from hypothesis import strategies as st

from dicepoker.games.board.actions import Claim, Forfeit
from dicepoker.games.board.layout import Line, default_layout
from dicepoker.games.board.position import Position, compatible, most_runs
from dicepoker.games.board.rules import BoardState, ZepherinGame

LAYOUT = default_layout()
ISSUE_ORDER = (3, 4, 6, 7, 8, 5, 2, 1, 0)
"""Issue 13: a row filled in this order (0-based columns) used to hold a single run."""


def placed(columns: tuple[int, ...] | list[int], row: int = 0, team: int = 0) -> Position:
    position = Position.empty(LAYOUT, 2, 50)
    for col in columns:
        position = position.place(LAYOUT.square_at(row, col), team)
    return position


def test_BD_12_line_of_nine_in_the_issue_order_holds_two_runs() -> None:
    position = placed(ISSUE_ORDER)
    assert len(position.runs[0]) == 2
    assert position.runs[0] == ((0, 1, 2, 3, 4), (4, 5, 6, 7, 8))
    assert position.winner(2) == 0


def test_BD_12_issue_order_played_through_the_rules_wins_on_the_ninth_chip() -> None:
    """Each chip claimed with a wild five of a kind (BD-8); the ninth completes the second run (BD-13)."""
    state: BoardState = started()
    for col in ISSUE_ORDER:
        assert not state.is_terminal
        state = rolled(state, (6, 6, 6, 6, 6)).apply(Claim(0, col))
        if not state.is_terminal:
            state = _opponent_forfeits(state)
    assert state.is_terminal
    assert state.result().winners == frozenset({0})
    assert state.result().scores == (2, 0)


def _opponent_forfeits(state: BoardState) -> BoardState:
    assert state.to_act == (1,)
    return rolled(state, (1, 2, 3, 4, 6)).apply(Forfeit())


@settings(max_examples=200, deadline=None)
@given(st.permutations(range(9)))
def test_BD_12_a_line_of_nine_holds_two_runs_whatever_the_order(order: list[int]) -> None:
    position = placed(order, row=0)
    assert len(position.runs[0]) == 2
    assert position.protected() == frozenset(range(9))


@settings(max_examples=100, deadline=None)
@given(st.integers(6, 8).flatmap(lambda n: st.permutations(range(n))))
def test_BD_12_a_line_of_six_to_eight_holds_one_run_whatever_the_order(order: list[int]) -> None:
    position = placed(order, row=8)
    assert len(position.runs[0]) == 1
    assert len(position.held[0]) == len(order) - 4


def test_BD_12_every_line_of_five_held_is_protected() -> None:
    """A line of six placed left to right: the chip on its sixth square is in a held line, so protected."""
    chips = [(9, c, 1) for c in range(1, 7)]
    state = rolled(with_chips(started(), chips), (6, 6, 6, 6, 6))  # zepherin: five of a kind may remove
    assert {sq(state, 9, c) for c in range(1, 7)} <= state.position.protected()
    assert not removals(state)


def test_BD_12_protection_ends_when_a_line_is_no_longer_held() -> None:
    """A chip of a line that is not yet complete stays removable (BD-8, BD-9 "not part of a run")."""
    state = rolled(with_chips(started(), [(9, c, 1) for c in range(1, 5)]), (6, 6, 6, 6, 6))
    assert removals(state) == {f"remove 9 {c}" for c in range(1, 5)}


def _brute_force_runs(lines: list[Line]) -> int:
    for size in range(len(lines), 0, -1):
        for subset in combinations(lines, size):
            if all(compatible(a, b) for a, b in combinations(subset, 2)):
                return size
    return 0


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(LAYOUT.lines), max_size=10, unique=True))
def test_BD_12_most_runs_is_the_largest_set_sharing_at_most_one_square(lines: list[Line]) -> None:
    chosen = most_runs(lines)
    assert all(compatible(a, b) for a, b in combinations(chosen, 2))
    assert len(chosen) == _brute_force_runs(lines)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 80), st.integers(0, 1)), max_size=60))
def test_BD_12_runs_depend_on_the_squares_only(placements: list[tuple[int, int]]) -> None:
    """Placing chips one by one gives the same held lines and runs as reading the finished squares."""
    position = Position.empty(LAYOUT, 2, 100)
    for square, team in placements:
        if position.is_open(square):
            position = position.place(square, team)
    assert position == Position.from_cells(LAYOUT, position.cells, position.supply)


def test_BD_12_removing_a_chip_keeps_runs_derived_from_the_squares() -> None:
    position = placed(range(5))
    removed = position.remove(LAYOUT.square_at(0, 2))
    assert removed.runs[0] == () and removed.held[0] == ()
    assert removed == Position.from_cells(LAYOUT, removed.cells, removed.supply)


def test_BD_12_old_states_with_stored_runs_still_load() -> None:
    """A saved state from before BD-12 was decided stored runs; they are recomputed from the squares."""
    game = ZepherinGame()
    state = with_chips(started(game), [(1, c, 0) for c in ISSUE_ORDER[:-1]])
    data = state.to_json()
    data["runs"] = [[[3, 4, 5, 6, 7]], []]
    data.pop("held")
    loaded = game.state_from_json(data)
    assert loaded.position == state.position
    assert len(loaded.position.runs[0]) == 1 and len(loaded.position.held[0]) == 4
