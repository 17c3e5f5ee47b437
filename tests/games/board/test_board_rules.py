"""The board-game rules BD-2 … BD-14 and CM-3/CM-5, each test naming its clause."""

from __future__ import annotations

from dataclasses import replace

import pytest
from board_helpers import action_texts, claims, removals, rolled, sq, started, with_chips

from dicepoker.core import CHANCE, ConfigError, IllegalAction, Resign, Timeout
from dicepoker.games.board.actions import Claim, Forfeit, OpeningRoll, Remove
from dicepoker.games.board.rules import BoardState, ClassicBoardGame, ZepherinGame
from dicepoker.games.dice_turn import Reroll, Roll, Rolled

FULL_HOUSE_SQUARES = {
    (2, 2),
    (2, 8),
    (3, 3),
    (3, 7),
    (4, 4),
    (4, 6),
    (6, 4),
    (6, 6),
    (7, 3),
    (7, 7),
    (8, 2),
    (8, 8),
}
STRAIGHT_SQUARES = {(1, 1), (1, 9), (9, 1), (9, 9)}


def texts(verb: str, squares: set[tuple[int, int]]) -> set[str]:
    return {f"{verb} {r} {c}" for r, c in squares}


# -- BD-2 sides, seating, chips -------------------------------------------------------------------
def test_BD_2_seating_alternates_teams() -> None:
    assert [ClassicBoardGame(players=6, teams=3).rules.team_of(s) for s in range(6)] == [0, 1, 2, 0, 1, 2]
    assert [ZepherinGame(players=4).rules.team_of(s) for s in range(4)] == [0, 1, 0, 1]


@pytest.mark.parametrize("players", [2, 3, 4, 6, 8, 9, 10, 12])
def test_BD_2_classic_player_counts(players: int) -> None:
    game = ClassicBoardGame(players=players)
    assert game.config.teams == (2 if players % 2 == 0 else 3)


@pytest.mark.parametrize(
    ("game", "options"),
    [
        (ClassicBoardGame, {"players": 5}),
        (ClassicBoardGame, {"players": 7}),
        (ClassicBoardGame, {"players": 4, "teams": 3}),
        (ClassicBoardGame, {"players": 6, "teams": 4}),
        (ZepherinGame, {"players": 3}),
        (ZepherinGame, {"players": 6, "teams": 3}),
        (ZepherinGame, {"chips": 0}),
    ],
)
def test_BD_2_bad_sides_are_rejected(game: type[ZepherinGame], options: dict[str, int]) -> None:
    with pytest.raises(ConfigError):
        game(**options)


def test_BD_2_chip_supply_and_a_team_without_chips_cannot_place() -> None:
    state = started(ZepherinGame(chips=1))
    state = rolled(state, (3, 3, 3, 5, 5))
    state = state.apply(Claim(1, 1))
    assert state.position.supply == (0, 1)
    state = rolled(replace(state, seat=0), (3, 3, 3, 5, 5))
    assert not claims(state)
    assert "forfeit" in action_texts(state)


# -- BD-3 / CM-3 opening -------------------------------------------------------------------------
def test_BD_3_CM_3_highest_roller_starts() -> None:
    state = ZepherinGame().initial_state()
    assert state.to_act is CHANCE
    state = state.apply(OpeningRoll(3)).apply(OpeningRoll(5))
    assert state.to_act == (1,)


def test_CM_3_tied_highest_roll_again_among_themselves() -> None:
    state = ClassicBoardGame(players=3).initial_state()
    for face in (6, 2, 6):
        state = state.apply(OpeningRoll(face))
    assert state.opening is not None and state.opening.contenders == (0, 2)
    state = state.apply(OpeningRoll(1)).apply(OpeningRoll(4))
    assert state.opening is None and state.to_act == (2,)


def test_BD_3_play_passes_to_the_left() -> None:
    state = rolled(started(ClassicBoardGame(players=3), seat=2), (1, 2, 3, 4, 6))
    assert state.apply(Forfeit()).to_act == (0,)


# -- BD-4 the turn ------------------------------------------------------------------------------
def test_BD_4_up_to_three_rolls_and_may_stop_after_any() -> None:
    state = started()
    assert action_texts(state) == {"roll"}
    state = state.apply(Roll()).apply(Rolled((3, 3, 3, 5, 5)))
    assert "claim 2 2" in action_texts(state) and "reroll 1" in action_texts(state)
    for _ in range(2):
        state = state.apply(Reroll((0,))).apply(Rolled((3,)))
    assert not any(t.startswith("reroll") for t in action_texts(state))
    with pytest.raises(IllegalAction):
        state.apply(Reroll((0,)))


# -- BD-5 best hand, BD-6 lucky -------------------------------------------------------------------
def test_BD_5_full_house_claims_only_full_house_squares() -> None:
    state = rolled(started(), (3, 3, 3, 5, 5))
    assert claims(state) == texts("claim", FULL_HOUSE_SQUARES)
    with pytest.raises(IllegalAction, match="cannot claim T3"):
        state.apply(Claim(3, 7))  # T3 at row 4, col 8
    with pytest.raises(IllegalAction):
        state.apply(Claim(1, 4))  # D35 at row 2, col 5


def test_BD_5_four_of_a_kind_claims_only_its_four_square() -> None:
    state = rolled(started(), (3, 3, 6, 3, 3))
    assert claims(state) == texts("claim", {(4, 3), (6, 7)})


def test_BD_6_lucky_7_is_an_option_besides_the_hand() -> None:
    state = rolled(started(), (1, 1, 1, 1, 3))
    assert claims(state) == texts("claim", {(3, 5), (7, 5), (5, 1), (5, 9)})


def test_BD_6_lucky_11_is_an_option_besides_the_hand() -> None:
    state = rolled(started(), (1, 2, 1, 3, 4))
    assert claims(state) == texts("claim", {(9, 5), (5, 3), (5, 7)})


# -- BD-7 forfeits ------------------------------------------------------------------------------
def test_BD_7_nothing_is_always_forfeited() -> None:
    state = rolled(started(), (1, 2, 3, 4, 6), rolls=3)
    assert action_texts(state) == {"forfeit"}
    after = state.apply(Forfeit())
    assert after.to_act == (1,) and after.position == state.position


def test_BD_7_taken_squares_forfeit_and_forfeit_is_illegal_while_a_claim_exists() -> None:
    state = rolled(started(), (2, 2, 4, 5, 6))  # a pair of 2s: P2 at row 1, col 5 only
    assert claims(state) == {"claim 1 5"}
    with pytest.raises(IllegalAction, match="best hand must be played"):
        state.apply(Forfeit())
    taken = rolled(with_chips(state, [(1, 5, 1)]), (2, 2, 4, 5, 6))
    assert not claims(taken) and "forfeit" in action_texts(taken)


# -- BD-8 five of a kind ------------------------------------------------------------------------
def test_BD_8_five_of_a_kind_is_wild_but_not_the_centre() -> None:
    state = rolled(with_chips(started(), [(1, 2, 1)]), (4, 4, 4, 4, 4))
    assert len(claims(state)) == 81 - 2
    with pytest.raises(IllegalAction, match="free square"):
        state.apply(Claim(4, 4))


def test_BD_8_zepherin_five_of_a_kind_may_remove_an_unprotected_opponent_chip() -> None:
    run = [(9, c, 0) for c in range(1, 6)]
    state = with_chips(started(seat=1), [*run, (1, 2, 0), (2, 1, 1)])
    state = rolled(state, (4, 4, 4, 4, 4))
    assert removals(state) == {"remove 1 2"}
    after = state.apply(Remove(0, 1))
    assert after.position.cells[sq(state, 1, 2)] is None and after.position.supply[0] == 50 - 5


def test_BD_8_removed_chip_goes_back_to_its_team_supply() -> None:
    """BD-8 [decision]: a removed chip returns to its team's supply, which may then place it again."""
    state = with_chips(started(ZepherinGame(chips=1), seat=1), [(1, 2, 0)])
    assert state.position.supply == (0, 1)
    after = rolled(state, (4, 4, 4, 4, 4)).apply(Remove(0, 1))
    assert after.position.supply == (1, 1) and after.to_act == (0,)
    assert "claim 1 2" in claims(rolled(after, (3, 3, 3, 3, 3)))


def test_BD_8_a_bounced_chip_also_goes_back_to_its_supply() -> None:
    """BD-9 removals follow BD-8's [decision]: the chip returns to its team's supply."""
    state = with_chips(started(ClassicBoardGame(), seat=1), [(r, c, 0) for r, c in sorted(STRAIGHT_SQUARES)])
    after = rolled(state, (1, 2, 3, 4, 5)).apply(Remove(0, 0))
    assert after.position.supply == (47, 50)


def test_BD_8_classic_five_of_a_kind_does_not_remove() -> None:
    state = rolled(with_chips(started(ClassicBoardGame(), seat=1), [(1, 2, 0)]), (4, 4, 4, 4, 4))
    assert not removals(state)


# -- BD-9 bouncers ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("dice", "squares"), [((2, 3, 4, 5, 6), STRAIGHT_SQUARES), ((6, 6, 4, 4, 4), FULL_HOUSE_SQUARES)]
)
def test_BD_9_bouncer_when_every_square_of_the_hand_is_taken(
    dice: tuple[int, ...], squares: set[tuple[int, int]]
) -> None:
    game = ClassicBoardGame()
    # Alternate owners so that no five of these squares make a run (runs would be protected).
    chips = [(r, c, i % 2) for i, (r, c) in enumerate(sorted(squares))]
    partial = rolled(with_chips(started(game), chips[1:]), dice)
    assert not removals(partial), "no bouncer while a square of the hand is open"
    state = rolled(with_chips(started(game), chips), dice)
    assert removals(state) == texts("remove", {(r, c) for r, c, team in chips if team == 1})
    assert "forfeit" in action_texts(state), "removing is optional"


def test_BD_9_bouncer_cannot_remove_chips_in_runs() -> None:
    state = with_chips(started(ClassicBoardGame()), [(r, c, 1) for r, c in sorted(STRAIGHT_SQUARES)])
    state = with_chips(state, [(9, c, 1) for c in range(2, 6)])  # completes a run 9,1 … 9,5
    state = rolled(state, (1, 2, 3, 4, 5))
    assert removals(state) == texts("remove", {(1, 1), (1, 9), (9, 9)})
    with pytest.raises(IllegalAction, match="protected"):
        state.apply(Remove(8, 0))


# -- BD-10 … BD-12 runs --------------------------------------------------------------------------
@pytest.mark.parametrize(
    "line",
    [
        [(2, c) for c in range(3, 8)],
        [(r, 1) for r in range(2, 7)],
        [(k, k + 1) for k in range(1, 6)],
        [(r, 9 - r) for r in range(1, 6)],
    ],
)
def test_BD_10_five_in_a_row_make_a_run(line: list[tuple[int, int]]) -> None:
    state = with_chips(started(), [(r, c, 0) for r, c in line])
    assert len(state.position.runs[0]) == 1
    assert {sq(state, r, c) for r, c in line} <= state.position.protected()


def test_BD_11_centre_counts_for_every_team_and_takes_no_chip() -> None:
    state = with_chips(started(), [(5, c, 0) for c in (1, 2, 3, 4)] + [(r, 5, 1) for r in (1, 2, 3, 4)])
    assert len(state.position.runs[0]) == 1 and len(state.position.runs[1]) == 1
    assert sq(state, 5, 5) in set(state.position.runs[0][0]) & set(state.position.runs[1][0])
    with pytest.raises(IllegalAction, match="free square"):
        rolled(started(), (5, 5, 5, 5, 5)).apply(Claim(4, 4))


def test_BD_12_a_line_of_nine_holds_two_runs() -> None:
    state = with_chips(started(), [(1, c, 0) for c in range(1, 10)])
    assert len(state.position.runs[0]) == 2


@pytest.mark.parametrize("length", [6, 7, 8])
def test_BD_12_a_line_of_six_to_eight_holds_one_run(length: int) -> None:
    state = with_chips(started(), [(1, c, 0) for c in range(1, length + 1)])
    assert len(state.position.runs[0]) == 1


def test_BD_12_second_run_may_share_one_square_across() -> None:
    across = [(3, c, 0) for c in range(1, 6)] + [(r, 3, 0) for r in (1, 2, 4, 5)]
    assert len(with_chips(started(), across).position.runs[0]) == 2


# -- BD-13 the win -------------------------------------------------------------------------------
def test_BD_13_first_team_with_two_runs_wins() -> None:
    state = with_chips(started(), [(1, c, 0) for c in range(1, 6)] + [(3, c, 0) for c in range(1, 5)])
    state = rolled(state, (6, 6, 6, 6, 6))
    final = state.apply(Claim(2, 4))
    assert final.is_terminal and final.result().winners == frozenset({0})
    assert final.result().scores == (2, 0)


def test_BD_13_runs_to_win_option() -> None:
    state = with_chips(started(ZepherinGame(runs_to_win=1)), [(1, c, 0) for c in range(1, 5)])
    final = rolled(state, (6, 6, 6, 6, 6)).apply(Claim(0, 4))
    assert final.is_terminal and final.result().winners == frozenset({0})


# -- BD-14 timeouts ------------------------------------------------------------------------------
def test_BD_14_timeout_before_rolling_rolls_then_places_by_greedy_choice() -> None:
    state = started().apply(Timeout())
    assert state.to_act is CHANCE
    after = state.apply(Rolled((3, 3, 3, 5, 5)))
    assert after.to_act == (1,)
    assert sum(1 for cell in after.position.cells if cell == 0) == 1


def test_BD_14_timeout_after_rolling_places_or_forfeits() -> None:
    placed = rolled(started(), (2, 2, 4, 5, 6)).apply(Timeout())
    assert placed.position.cells[sq(placed, 1, 5)] == 0
    forfeited = rolled(started(), (1, 2, 3, 4, 6)).apply(Timeout())
    assert forfeited.to_act == (1,) and not any(c is not None for c in forfeited.position.cells)


# -- CM-5 and the end ----------------------------------------------------------------------------
def test_CM_5_resign_concedes_for_the_whole_team() -> None:
    state = started(ZepherinGame(players=4), seat=0).apply(Resign(), 3)
    assert state.is_terminal and state.result().winners == frozenset({0, 2})


def test_CM_5_three_teams_play_on_after_one_concedes() -> None:
    state = started(ClassicBoardGame(players=3), seat=1).apply(Resign(), 1)
    assert state.to_act == (2,)
    assert state.apply(Resign(), 0).result().winners == frozenset({2})
    with pytest.raises(IllegalAction):
        state.apply(Resign(), 1)


def test_CM_5_resignation_leaving_one_team_ends_the_game_at_once() -> None:
    """CM-5: during the opening roll-off or while dice roll, the last team standing wins at once."""
    opening = ClassicBoardGame(players=3).initial_state()
    assert opening.is_chance
    state = opening.apply(Resign(), 0).apply(Resign(), 1)
    assert state.is_terminal and state.result().winners == frozenset({2})
    rolling = started(ZepherinGame(players=4)).apply(Roll())
    assert rolling.is_chance
    state = rolling.apply(Resign(), 1)
    assert state.is_terminal and state.result().winners == frozenset({0, 2})


def test_game_ends_when_nothing_can_change() -> None:
    """[decision] With no chip to place and none removable, the game ends; most runs wins."""
    # Every chip is placed and protected: team 0 a line of eight (one run), team 1 a cross through the centre.
    team_0 = [(9, c, 0) for c in range(1, 9)]
    team_1 = [(r, 5, 1) for r in (1, 2, 3, 4)] + [(5, c, 1) for c in (1, 2, 3, 4)]
    state = with_chips(started(ZepherinGame(chips=8, runs_to_win=3)), team_0 + team_1)
    final: BoardState = rolled(state, (1, 2, 3, 4, 6)).apply(Forfeit())
    assert final.is_terminal
    assert final.result().winners == frozenset({1})
    assert final.result().scores == (1, 2)
