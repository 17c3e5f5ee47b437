"""The Dice Hold'em clauses RULES.md gained or extended: HE-4 (all-in is a call, bet or raise of the whole
stack), HE-6 ("every player" and timeouts at the Flop re-roll), HE-12 (what "the pot" is for a Yahtzee flush
with side pots), CM-5 (a resigner's chips stay, never a winner) and CM-7 (leaving at any time)."""

from __future__ import annotations

import pytest

from dicepoker.core import NotationError, Resign
from dicepoker.games.betting import Bet, Call, Check, Fold, Raise
from dicepoker.games.holdem import HoldemGame, HoldemState, Phase

GAME = HoldemGame()


def run(state: HoldemState, *texts: str) -> HoldemState:
    for text in texts:
        state = state.apply(GAME.parse_action(text))
    return state


def dealt(players: int = 2, stack: int = 100, pockets: str = "") -> HoldemState:
    """Seat 0 is the dealer (it rolls a 6, the others 1); pockets are drawn in dealing order."""
    state = HoldemGame(players=players, stack=stack).initial_state()
    state = run(state, "highroll 6", *["highroll 1"] * (players - 1))
    return run(state, *(f"draw {die}" for die in pockets.split()))


def three_handed(stacks: tuple[int, int, int], pockets: str) -> HoldemState:
    """Seat 0 deals with these stacks (seat 1, then seat 2, then seat 0 draw their pocket dice)."""
    game = HoldemGame(players=3, stack=100)
    state = game.initial_state()
    state = run(state, "highroll 6", "highroll 1", "highroll 1")
    assert state.betting is not None
    betting = type(state.betting).start_hand(state.betting.rules, stacks, dealer=0)
    state = HoldemState(
        config=state.config, stacks=stacks, phase=Phase.HAND, dealer=0, hand=1, betting=betting, pockets=((),) * 3
    )
    return run(state, *(f"draw {die}" for die in pockets.split()))


def legal(state: HoldemState) -> list[str]:
    return [str(a) for a in state.legal_actions()]


# -- HE-4 -------------------------------------------------------------------------------------------
def test_HE_4_all_in_is_a_call_bet_or_raise_of_the_whole_stack_not_an_action_of_its_own() -> None:
    """HE-4 [decision]: there is no all-in action; a bet, raise or call of the whole stack is all-in."""
    for text in ("all-in", "allin", "all in"):
        with pytest.raises(NotationError):
            GAME.parse_action(text)
    state = dealt(stack=20, pockets="6r 6b 5w 5y")  # 10 behind each after the ante
    assert legal(state) == ["check", "bet 10"]
    state = run(state, "bet 10")  # seat 1 bets its whole stack
    assert state.betting is not None and state.betting.stacks == (10, 0)
    assert legal(state) == ["fold", "call"]  # seat 0's call is all-in; nobody is left to call a raise
    raising = run(dealt(stack=30, pockets="6r 6b 5w 5y"), "bet 10")
    assert legal(raising) == ["fold", "call", "raise 20"]  # the raise to 20 is seat 0's whole stack
    raised = run(raising, "raise 20")
    assert raised.betting is not None and raised.betting.stacks == (0, 10)
    kinds = {type(a) for a in raised.legal_actions()}
    assert kinds <= {Fold, Check, Call, Bet, Raise}


def test_HE_4_a_call_for_less_than_the_bet_puts_the_whole_stack_in() -> None:
    """HE-4 [decision] with HE-13: seat 0 has 10 behind and faces 20: its call is its whole stack."""
    state = three_handed((20, 100, 100), "1r 1b 2w 2y 3r 3b")
    state = run(state, "bet 10", "raise 20")
    assert state.betting is not None and state.betting.to_act == 0 and state.betting.owed(0) == 10
    assert legal(state) == ["fold", "call"]
    state = run(state, "call")
    assert state.betting is not None and state.betting.stacks[0] == 0


# -- HE-6 -------------------------------------------------------------------------------------------
def test_HE_6_a_timeout_at_the_flop_counts_as_a_check_for_the_reroll() -> None:
    """HE-6 [decision]: one player times out (a check, HE-16), the other checks: the Flop is re-rolled."""
    state = run(dealt(pockets="6r 6b 5w 5y"), "check", "check", "draw 1r", "draw 2b", "draw 3w")
    state = run(state, "timeout", "check")
    assert state.rerolls_left == 3 and state.flop_rerolled
    both = run(dealt(pockets="6r 6b 5w 5y"), "check", "check", "draw 1r", "draw 2b", "draw 3w", "timeout", "timeout")
    assert both.rerolls_left == 3


def test_HE_6_every_player_means_every_player_who_can_still_bet() -> None:
    """HE-6 [decision]: a player who folded before the Flop and one who is all-in do not count: the two who
    can still bet check, and the Flop is re-rolled."""
    state = three_handed((20, 100, 100), "1r 1b 2w 2y 3r 3b")
    state = run(state, "bet 10", "call", "call")  # seat 0 (the dealer) is all-in
    state = run(state, "draw 4r", "draw 5b", "draw 6w", "check", "check")
    assert state.rerolls_left == 3
    folded = dealt(players=3, pockets="1r 1b 2w 2y 3r 3b")
    folded = run(folded, "bet 10", "call", "fold", "draw 4r", "draw 5b", "draw 6w", "check", "check")
    assert folded.rerolls_left == 3


# -- HE-12 ------------------------------------------------------------------------------------------
def test_HE_12_the_yahtzee_flush_wins_every_pot_it_contested_a_side_pot_goes_to_the_best_other_hand() -> None:
    """HE-12 [decision]: seat 0 is all-in for the main pot and shows five red 3s; the side pot between seats
    1 and 2 goes to the better of their hands (seat 2's full house, 3s over 6s), and the game ends with seat 0
    the only winner although seat 2 has more chips."""
    state = three_handed((20, 100, 100), "1b 1w 6b 6w 3r 3r")
    state = run(state, "bet 10", "raise 20", "call", "call")  # seat 0 is all-in for 20 (10 ante + 10)
    state = run(state, "draw 3r", "draw 3r", "draw 3r", "bet 10", "call")
    state = run(state, "draw 5y", "check", "check", "draw 4y", "check", "check")
    assert state.phase is Phase.OVER
    record = state.last_showdown
    assert record is not None
    assert [(p.pot.amount, p.winners) for p in record.payouts] == [(60, (0,)), (40, (2,))]
    result = state.result()
    assert result.winners == frozenset({0}) and "HE-12" in result.reason
    assert result.scores == (60, 60, 100)


# -- CM-5 / CM-7 ------------------------------------------------------------------------------------
def test_CM_5_a_resigners_chips_stay_in_the_final_scores_but_never_win() -> None:
    """CM-5 [decision]: seat 0 leaves off turn (CM-7) with 90 behind, the hand goes on between seats 1 and 2;
    when seat 2 resigns too, seat 1 wins, and both resigners' chips are in the final scores."""
    state = run(dealt(players=3, pockets="1r 1b 2w 2y 3r 3b"), "bet 10")
    state = state.apply(Resign(), 0)  # seat 2 is to act
    assert not state.is_terminal and state.betting is not None and state.betting.to_act == 2
    state = run(state, "call", "draw 4r", "draw 5b", "draw 6w")
    assert state.betting is not None and state.betting.to_act == 1
    state = state.apply(Resign(), 2)
    assert state.is_terminal
    result = state.result()
    assert result.scores == (90, 130, 80) and result.winners == frozenset({1})
