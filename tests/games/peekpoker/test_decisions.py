"""The PeekPoker clauses RULES.md gained or extended: PK-5 (minimum raise after a short all-in), PK-7 (second
round from the dealer's left even with blinds), PK-14 (the big blind's option, a short big blind, the forced
bet's duty passing left), CM-5 (a resigner's chips stay, never a winner) and CM-7 (leaving at any time)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from dicepoker.core import IllegalAction, Resign
from dicepoker.games.peekpoker import PeekPokerGame, PeekPokerState, Phase
from tests.games.peekpoker.test_rules import run


def legal(state: PeekPokerState) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def three_handed(stacks: tuple[int, int, int] = (48, 48, 48), **options: bool) -> PeekPokerState:
    """Seat 2 deals (high roll 1 1 6): seat 0 is left of the dealer (the small blind with blinds), seat 1
    next (the big blind)."""
    start = replace(PeekPokerGame(players=3, **options).initial_state(), stacks=stacks)
    return run(start, "high-roll 1 1 6", *["rolled 9 9 T"] * 3)


def heads_up(**options: bool) -> PeekPokerState:
    """Seat 0 deals (high roll 6 1); seat 1 is the non-dealer."""
    return run(PeekPokerGame(players=2, **options).initial_state(), "high-roll 6 1", "rolled 9 9 T", "rolled J Q K")


def minimum_raise(state: PeekPokerState) -> int:
    raises = [a for a in state.legal_actions() if str(a).startswith(("raise", "bet"))]
    return min(int(str(a).split()[1]) for a in raises)


# -- PK-5 -------------------------------------------------------------------------------------------
def test_PK_5_after_a_short_all_in_raise_the_minimum_raise_stays_the_last_full_one() -> None:
    """PK-5 [decision]: bet 10, all-in to 14 (a raise of 4): the next raise is to at least 24, and after a
    full raise to 24 the next is to at least 34."""
    state = run(three_handed((48, 15, 48)), "bet 10", "raise 14")
    assert state.view(None).chips[1] == 0  # seat 1 is all-in for 14
    assert minimum_raise(state) == 24
    with pytest.raises(IllegalAction, match="23 < 24"):
        run(state, "raise 23")
    state = run(state, "raise 24")
    assert state.to_act == (0,) and minimum_raise(state) == 34  # a full raise reopens for seat 0


# -- PK-7 -------------------------------------------------------------------------------------------
def test_PK_7_second_round_starts_left_of_the_dealer_even_with_blinds() -> None:
    """PK-7: with blinds the first round starts left of the big blind (the dealer, seat 2, here); the second
    starts left of the dealer (seat 0, the small blind)."""
    state = three_handed(blinds=True)
    assert state.to_act == (2,)
    state = run(state, "call", "call", "check", "rolled 9 J Q")
    assert state.phase is Phase.BET and state.to_act == (0,)


def test_PK_7_heads_up_with_blinds_the_non_dealer_opens_the_second_round() -> None:
    """PK-7: heads-up the dealer (small blind) acts first before the community dice, the non-dealer after."""
    state = heads_up(blinds=True)
    assert state.to_act == (0,)
    state = run(state, "call", "check", "rolled 9 J Q")
    assert state.phase is Phase.BET and state.to_act == (1,)


# -- PK-14: blinds ----------------------------------------------------------------------------------
def test_PK_14_when_everyone_calls_the_big_blind_may_still_check_or_raise() -> None:
    """PK-14 [decision]: the dealer and the small blind call 2; the big blind still acts: check or raise."""
    state = run(three_handed(blinds=True), "call", "call")
    assert state.to_act == (1,)
    assert legal(state)[:2] == ["check", "raise 4"]
    raised = run(state, "raise 4")
    assert raised.to_act == (2,) and legal(raised)[:2] == ["fold", "call"]
    checked = run(state, "check")
    assert checked.phase is Phase.COMMUNITY
    heads = run(heads_up(blinds=True), "call")
    assert heads.to_act == (1,) and legal(heads)[:2] == ["check", "raise 4"]


def test_PK_14_a_big_blind_short_of_2_posts_what_it_has_and_the_others_call_that() -> None:
    """PK-14 [decision]: the big blind has 1 chip: it posts 1 (all-in); the others call 1, not 2."""
    state = three_handed((48, 1, 48), blinds=True)
    assert state.view(None).bets == (1, 1, 0) and state.view(None).chips[1] == 0
    assert state.to_act == (2,) and "call" in legal(state)
    state = run(state, "call")
    assert state.view(None).bets == (1, 1, 1)
    assert state.to_act == (0,) and legal(state)[0] == "check"  # the small blind has called it already
    state = run(state, "check")
    assert state.phase is Phase.COMMUNITY


# -- PK-14: the forced bet --------------------------------------------------------------------------
def test_PK_14_forced_bet_duty_passes_past_a_seat_that_folded() -> None:
    """PK-14 [decision]: seat 0 (left of the dealer) folded in round 1; in round 2 seat 1 has the duty."""
    state = run(three_handed(forced_bet=True), "bet 1", "raise 2", "call", "fold", "rolled 9 J Q")
    assert state.to_act == (1,) and legal(state) == ["fold", "bet 1"] and state.view(1).forced_bet_due


def test_PK_14_forced_bet_duty_passes_past_an_all_in_seat() -> None:
    """PK-14 [decision]: seat 0 is all-in after round 1; in round 2 the duty is seat 1's."""
    state = run(three_handed((5, 48, 48), forced_bet=True), "bet 1", "call", "raise 4")
    state = run(state, "call", "call", "rolled 9 J Q")
    assert state.view(None).chips[0] == 0
    assert state.to_act == (1,) and legal(state) == ["fold", "bet 1"]


def test_PK_14_forced_bet_duty_passes_left_when_refused() -> None:
    """PK-14 [decision]: a seat that refuses the forced bet folds; the next seat in with chips has the duty;
    once it is posted, the others call, raise or fold (no check)."""
    state = run(three_handed(forced_bet=True), "fold")
    assert state.to_act == (1,) and legal(state) == ["fold", "bet 1"]
    state = run(state, "bet 1")
    assert state.to_act == (2,) and legal(state)[:3] == ["fold", "call", "raise 2"]


def test_PK_14_with_blinds_the_blinds_are_round_ones_forced_bet() -> None:
    """PK-14 [decision]: blinds and forced bets together: no forced bet on top of the blinds in round 1; the
    second round opens with the forced bet from the dealer's left."""
    state = three_handed(blinds=True, forced_bet=True)
    assert state.view(None).bets == (1, 2, 0) and not state.view(2).forced_bet_due
    assert legal(state)[:3] == ["fold", "call", "raise 4"]
    state = run(state, "call", "call", "check", "rolled 9 J Q")
    assert state.to_act == (0,) and legal(state) == ["fold", "bet 1"]


# -- CM-5 / CM-7 ------------------------------------------------------------------------------------
def test_CM_5_a_resigners_chips_stay_in_the_final_scores_but_never_win() -> None:
    """CM-5 [decision]: seat 2 leaves off turn with 47 chips; the game goes on; when seat 1 resigns too,
    seat 0 wins with 12 chips, fewer than either resigner, whose chips are in the scores."""
    state = run(three_handed((10, 48, 48)), "bet 9")
    state = state.apply(Resign(), 2)  # CM-7: off turn (seat 1 is to act)
    assert not state.is_terminal and state.to_act == (1,)
    state = state.apply(Resign(), 1)
    assert state.is_terminal
    result = state.result()
    assert result.scores == (12, 47, 47) and result.winners == frozenset({0})


def test_CM_7_leaving_during_the_simultaneous_ace_decisions() -> None:
    """CM-7: a player who already chose at the ace decisions leaves: the choice is dropped, the others go on."""
    start = replace(PeekPokerGame(players=3).initial_state(), stacks=(48, 48, 48))
    state = run(start, "high-roll 1 1 6", "rolled 9 9 A", "rolled 9 T A", "rolled J J A")
    state = run(state, "check", "check", "check", "rolled Q K K", "check", "check", "check")
    assert state.phase is Phase.ACES and set(state.to_act) == {0, 1, 2}
    state = run(state, "0: reroll A")
    state = state.apply(Resign(), 0)
    assert set(state.to_act) == {1, 2} and state.resigned == frozenset({0})
    state = run(state, "1: stand", "2: stand")
    assert state.previous is not None and state.previous.won[0] == 0
