"""The board clauses RULES.md gained or extended: BD-7 (a lone Lucky match must be claimed), BD-14 (a timeout
never removes a chip), CM-5 (a conceding team's chips stay; it never wins) and CM-7 (leaving is conceding)."""

from __future__ import annotations

import pytest
from board_helpers import action_texts, claims, removals, rolled, sq, started, with_chips

from dicepoker.core import IllegalAction, Resign, Timeout
from dicepoker.games.board.actions import Forfeit, Remove
from dicepoker.games.board.rules import ClassicBoardGame, ZepherinGame

FULL_HOUSE_SQUARES = [(2, 2), (2, 8), (3, 3), (3, 7), (4, 4), (4, 6), (6, 4), (6, 6), (7, 3), (7, 7), (8, 2), (8, 8)]
STRAIGHT_SQUARES = [(1, 1), (1, 9), (9, 1), (9, 9)]
LUCKY_7_SQUARES = {"claim 5 1", "claim 5 9"}


def _full_house_squares_taken(game: ClassicBoardGame | ZepherinGame) -> list[tuple[int, int, int]]:
    """Every Full House square taken, owners alternating so that no five of them make a run."""
    return [(r, c, i % 2) for i, (r, c) in enumerate(FULL_HOUSE_SQUARES)]


# -- BD-7 -------------------------------------------------------------------------------------------
def test_BD_7_a_lone_lucky_square_match_must_be_claimed_not_forfeited() -> None:
    """BD-7 [decision]: four 1s summing to 7 with both "four 1s" squares taken: the Lucky 7 must be claimed."""
    state = rolled(with_chips(started(), [(3, 5, 1), (7, 5, 1)]), (1, 1, 1, 1, 3), rolls=3)
    assert claims(state) == LUCKY_7_SQUARES
    assert "forfeit" not in action_texts(state)
    before = state.to_json()
    with pytest.raises(IllegalAction, match="must be played"):
        state.apply(Forfeit())
    assert state.to_json() == before


def test_BD_7_a_full_house_with_an_open_lucky_square_claims_it_and_bounces_nothing() -> None:
    """BD-7 [decision] with BD-9: 1-1-1-2-2 (sum 7) when every Full House square is taken is not forfeited,
    so the bouncer (a removal instead of forfeiting) does not apply: the Lucky 7 square must be claimed."""
    game = ClassicBoardGame()
    state = rolled(with_chips(started(game), _full_house_squares_taken(game)), (1, 1, 1, 2, 2))
    assert claims(state) == LUCKY_7_SQUARES
    assert not removals(state) and "forfeit" not in action_texts(state)
    with pytest.raises(IllegalAction):
        state.apply(Remove(1, 7))  # (2, 8) holds a team-1 chip
    # Once the Lucky 7 squares are taken too, nothing matches: the bouncer applies (or the roll is forfeited).
    lucky_taken = with_chips(started(game), [*_full_house_squares_taken(game), (5, 1, 1), (5, 9, 1)])
    bouncing = rolled(lucky_taken, (1, 1, 1, 2, 2))
    assert not claims(bouncing) and "forfeit" in action_texts(bouncing)
    assert "remove 5 1" in removals(bouncing)


def test_BD_7_timeout_claims_a_lone_lucky_square() -> None:
    """BD-7 with BD-14: the timeout default places on the Lucky square rather than forfeiting."""
    state = rolled(with_chips(started(), [(3, 5, 1), (7, 5, 1)]), (1, 1, 1, 1, 3), rolls=1)
    after = state.apply(Timeout())
    assert {after.position.cells[sq(after, 5, 1)], after.position.cells[sq(after, 5, 9)]} == {0, None}


# -- BD-14 ------------------------------------------------------------------------------------------
def test_BD_14_timeout_never_removes_a_chip_even_when_a_bouncer_could() -> None:
    """BD-14 [decision]: a straight with every Straight square taken could bounce a chip; a timeout forfeits."""
    state = rolled(with_chips(started(ClassicBoardGame()), [(r, c, 1) for r, c in STRAIGHT_SQUARES]), (1, 2, 3, 4, 5))
    assert removals(state) and not claims(state)
    after = state.apply(Timeout())
    assert after.position == state.position and after.to_act == (1,)


def test_BD_14_timeout_never_removes_a_chip_with_zepherins_five_of_a_kind() -> None:
    """BD-14 [decision]: a team out of chips rolls five of a kind (zepherin: may remove); a timeout forfeits."""
    state = with_chips(started(ZepherinGame(chips=1)), [(1, 2, 0), (2, 1, 1)])
    state = rolled(state, (4, 4, 4, 4, 4))
    assert removals(state) == {"remove 2 1"} and not claims(state)
    after = state.apply(Timeout())
    assert after.position == state.position and after.to_act == (1,)


# -- CM-5 / CM-7 ------------------------------------------------------------------------------------
def test_CM_5_a_conceding_team_keeps_its_chips_and_runs_but_never_wins() -> None:
    """CM-5 [decision]: with three teams one concession goes on without that team; its chips stay on the
    board and its runs in the final scores, and it is not among the winners even with the most runs."""
    game = ClassicBoardGame(players=3)
    run = [(1, c, 0) for c in range(2, 7)]
    state = with_chips(started(game, seat=1), [*run, (2, 1, 1)])
    assert len(state.position.runs[0]) == 1
    state = state.apply(Resign(), 0)
    assert not state.is_terminal and state.to_act == (1,)
    assert [state.position.cells[sq(state, r, c)] for r, c, _ in run] == [0] * 5
    over = state.apply(Resign(), 2)
    result = over.result()
    assert over.is_terminal and result.winners == frozenset({1})
    assert result.scores == (1, 0, 0)


def test_CM_7_leaving_off_turn_is_conceding_and_play_skips_the_team() -> None:
    """CM-7: a player may leave at any time, off turn included; leaving is resigning (CM-5)."""
    state = started(ClassicBoardGame(players=3), seat=0).apply(Resign(), 1)
    assert state.to_act == (0,) and state.conceded == frozenset({1})
    state = rolled(state, (1, 2, 3, 4, 6)).apply(Forfeit())
    assert state.to_act == (2,)
