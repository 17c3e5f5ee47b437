"""Dice Hold'em rules, one test (at least) per clause HE-1 … HE-16, plus DI-3 and CM-3/CM-5."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from random import Random

import pytest

from dicepoker.core import CHANCE, ConfigError, IllegalAction, Match, Resign, Timeout
from dicepoker.dice.suited import Suit
from dicepoker.games.holdem import Draw, FlopReroll, HoldemGame, HoldemState, Phase

R, B, W, Y = Suit.RED, Suit.BLACK, Suit.WHITE, Suit.YELLOW


def run(state: HoldemState, *texts: str) -> HoldemState:
    game = HoldemGame(players=state.config.players, stack=state.config.stack, ante=state.config.ante)
    for text in texts:
        state = state.apply(game.parse_action(text))
    return state


def dealt(players: int = 2, stack: int = 100, pockets: str = "", **options: int) -> HoldemState:
    """Seat 0 is the dealer (it rolls a 6, the others 1); pockets are drawn in dealing order."""
    state = HoldemGame(players=players, stack=stack, **options).initial_state()
    state = run(state, "highroll 6", *["highroll 1"] * (players - 1))
    return run(state, *(f"draw {die}" for die in pockets.split()))


def test_HE_1_players_and_stacks() -> None:
    """HE-1: 2–6 players, amounts multiples of 10, equal starting stacks (default 1,000)."""
    assert HoldemGame().initial_state().stacks == (1000, 1000)
    for bad in ({"players": 1}, {"players": 7}, {"stack": 105}, {"ante": 5}):
        with pytest.raises(ConfigError):
            HoldemGame(**bad)


def test_HE_2_highest_roller_deals_first_and_deal_passes_left() -> None:
    """HE-2 and CM-3: ties re-roll among the tied; the deal then passes to the left each hand."""
    state = HoldemGame(players=3, stack=100).initial_state()
    state = run(state, "highroll 5", "highroll 5", "highroll 2")
    assert state.phase is Phase.HIGH_ROLL and state.rolloff is not None and state.rolloff.contenders == (0, 1)
    state = run(state, "highroll 3", "highroll 4")
    assert state.dealer == 1 and state.betting is not None
    assert state.betting.order == (2, 0, 1)
    state = run(state, *["draw 1r"] * 2, *["draw 2b"] * 2, *["draw 3w"] * 2, "bet 10", "fold", "fold")
    assert state.hand == 2 and state.dealer == 2


def test_HE_3_antes_and_pocket_dice_dealt_from_dealers_left_dealer_last() -> None:
    state = dealt(players=3, pockets="6r 6b 5w 5y 1r")
    assert state.chips() == (100, 100, 100)
    assert state.betting is not None and state.betting.stacks == (90, 90, 90)
    assert state.pockets == (((1, R),), ((6, R), (6, B)), ((5, W), (5, Y)))
    assert state.is_chance
    assert state.bag == (3, 4, 4, 4)


def test_DI_3_draws_are_weighted_by_the_suits_left_in_the_bag() -> None:
    """DI-3: suit weighted by dice of that suit left, face 1/6 each; at most 24 outcomes per node."""
    state = dealt(players=3, pockets="1r 2r 3r 4r")
    outcomes = dict(state.chance_outcomes())
    assert len(outcomes) == 24
    assert outcomes[Draw((6, R))] == Fraction(1, 16 * 6)
    assert outcomes[Draw((6, B))] == Fraction(5, 16 * 6)
    assert sum(outcomes.values()) == 1
    sampled = {state.sample_chance(Random(seed)) for seed in range(300)}
    assert sampled <= set(outcomes)


def test_HE_4_betting_starts_left_of_dealer() -> None:
    state = dealt(players=3, pockets="6r 6b 5w 5y 1r 1b")
    assert state.to_act == (1,)
    assert [str(a) for a in state.legal_actions()] == ["check", "bet 10"]
    state = run(state, "bet 10", "raise 20", "call", "call")
    assert state.is_chance  # the Flop is due
    assert state.betting is not None and state.betting.round == 1


def test_HE_5_limits_10_then_10_or_20_and_three_raises() -> None:
    state = dealt(pockets="6r 6b 5w 5y")
    state = run(state, "bet 10", "raise 20", "raise 30", "raise 40")
    assert [str(a) for a in state.legal_actions()] == ["fold", "call"]
    state = run(state, "call", "draw 1r", "draw 2b", "draw 3w")
    assert [str(a) for a in state.legal_actions()] == ["check", "bet 10"]
    state = run(state, "bet 10", "call", "draw 4y")
    assert [str(a) for a in state.legal_actions()] == ["check", "bet 10", "bet 20"]
    state = run(state, "bet 20")
    assert [str(a) for a in state.legal_actions()] == ["fold", "call", "raise 30", "raise 40"]


def test_HE_6_flop_all_check_rerolls_the_flop_dice_once() -> None:
    state = dealt(pockets="6r 6b 5w 5y")
    state = run(state, "check", "check", "draw 1r", "draw 2b", "draw 3w", "check", "check")
    assert state.is_chance and state.rerolls_left == 3
    assert set(dict(state.chance_outcomes())) == {FlopReroll(face) for face in range(1, 7)}
    state = run(state, "reroll 6", "reroll 5", "reroll 4")
    assert state.board == ((6, R), (5, B), (4, W))  # same dice (suits), new faces
    assert state.is_chance and state.rerolls_left == 0  # the Turn die is due, no new Flop betting
    state = run(state, "draw 2y")
    assert state.betting is not None and state.betting.round == 2


def test_HE_6_no_reroll_after_a_bet() -> None:
    state = dealt(pockets="6r 6b 5w 5y")
    state = run(state, "check", "check", "draw 1r", "draw 2b", "draw 3w", "bet 10", "call")
    assert state.rerolls_left == 0 and len(state.board) == 3 and state.is_chance
    assert next(o for o, _ in state.chance_outcomes()) == Draw((1, R))


def test_HE_6_no_reroll_when_nobody_can_bet_on_the_flop() -> None:
    """HE-6 [decision]: all-in before the Flop, so no Flop betting takes place and the Flop is not re-rolled."""
    state = dealt(stack=20, pockets="6r 6b 5w 5y")  # 10 behind each after the ante
    state = run(state, "bet 10", "call", "draw 1r", "draw 2b", "draw 3w")
    assert state.rerolls_left == 0 and not state.flop_rerolled and state.is_chance
    assert next(o for o, _ in state.chance_outcomes()) == Draw((1, R))
    state = run(state, "draw 4y", "draw 6y")
    assert state.hand == 2 or state.is_terminal  # shown down without any re-roll


def test_HE_6_rerolls_when_two_players_check_beside_an_all_in_player() -> None:
    """HE-6: with one player all-in, the two who can still bet check the Flop: it is re-rolled."""
    start = replace(HoldemGame(players=3, stack=100).initial_state(), stacks=(20, 100, 100))
    state = run(start, "highroll 6", "highroll 1", "highroll 1", *["draw 1r", "draw 2b"] * 3)
    state = run(state, "bet 10", "call", "call")  # seat 0, the dealer, is all-in
    state = run(state, "draw 3w", "draw 4y", "draw 5r", "check", "check")
    assert state.rerolls_left == 3 and state.flop_rerolled


def test_HE_7_and_HE_8_turn_and_river_one_die_never_rerolled() -> None:
    state = dealt(pockets="6r 6b 5w 5y")
    state = run(state, "check", "check", "draw 1r", "draw 2b", "draw 3w", "bet 10", "call", "draw 4y")
    assert len(state.board) == 4
    state = run(state, "check", "check")
    assert state.rerolls_left == 0 and state.is_chance  # straight to the River die
    state = run(state, "draw 6y")
    assert len(state.board) == 5 and state.to_act == (1,)


def showdown(pockets: str, board: str, **options: int) -> HoldemState:
    state = dealt(pockets=pockets, **options)
    flop = [f"draw {d}" for d in board.split()[:3]]
    return run(
        state,
        "check",
        "check",
        *flop,
        "bet 10",
        "call",
        f"draw {board.split()[3]}",
        "check",
        "check",
        f"draw {board.split()[4]}",
        "check",
        "check",
    )


def test_HE_9_showdown_best_five_of_seven() -> None:
    """Seat 1 (dealt first) has 6-6 and makes three 6s; seat 0 plays a pair of 5s."""
    state = showdown("6r 6b 5w 1y", "6w 5r 2b 3y 1w")
    record = state.last_showdown
    assert record is not None
    assert record.payouts[0].winners == (1,)
    assert state.stacks == (80, 120)


def test_HE_9_board_plays_and_the_pot_is_split() -> None:
    state = showdown("1r 1b 1w 1y", "2r 3b 4w 5y 6w")
    assert state.stacks == (100, 100)


def test_HE_10_and_HE_11_flush_beats_straight_and_suits_break_ties() -> None:
    """HE-10 ranking used at showdown; HE-11: equal faces, more dice of one suit wins."""
    state = showdown("2r 2b 6w 6y", "3r 4r 5r 1w 1y")  # seat 1: straight 1-5; seat 0: two pair
    record = state.last_showdown
    assert record is not None
    assert record.payouts[0].winners == (1,)
    # Same faces (6 6 2 2 5) but seat 0's five hold three whites, seat 1's at most two of a suit.
    state = showdown("6r 1b 6w 1w", "6b 5w 4y 2w 2y")
    assert state.last_showdown is not None and state.last_showdown.payouts[0].winners == (0,)


def test_HE_12_yahtzee_flush_ends_the_game_at_once() -> None:
    state = showdown("3r 3r 1b 2w", "3r 3r 3r 6y 5w")
    assert state.phase is Phase.OVER
    result = state.result()
    assert result.winners == frozenset({1})
    assert "Yahtzee flush" in result.reason


def test_HE_13_all_in_and_side_pots() -> None:
    state = dealt(players=3, stack=40, pockets="6r 6b 5w 5y 1r 1b")
    state = run(state, "bet 10", "raise 20", "raise 30", "call", "call")  # seat 1 (30 behind) is all-in
    assert state.betting is not None and state.betting.stacks == (0, 0, 0)


def test_HE_13_side_pot_goes_to_best_eligible_hand() -> None:
    state = HoldemGame(players=3, stack=100).initial_state()
    state = run(state, "highroll 6", "highroll 1", "highroll 1")
    # Give seat 1 fewer chips by playing a first hand it loses: simpler to build the betting directly.
    assert state.betting is not None
    betting = state.betting
    betting = type(betting).start_hand(betting.rules, (30, 100, 100), dealer=0)
    state = HoldemState(
        config=state.config,
        stacks=(30, 100, 100),
        phase=Phase.HAND,
        dealer=0,
        hand=1,
        betting=betting,
        pockets=((), (), ()),
    )
    state = run(state, "draw 1r", "draw 2b", "draw 6r", "draw 6b", "draw 5w", "draw 5y")
    state = run(state, "bet 10", "raise 20", "call", "call")  # seat 1 now has 0 behind
    # Seat 0 (all-in) makes a 2-6 straight and wins the main pot; seat 2's three 6s win the side pot.
    state = run(
        state,
        "draw 6w",
        "draw 2r",
        "draw 3b",
        "bet 10",
        "call",
        "draw 4y",
        "check",
        "check",
        "draw 1w",
        "check",
        "check",
    )
    record = state.last_showdown
    assert record is not None
    assert [(p.pot.amount, p.winners) for p in record.payouts] == [(90, (0,)), (20, (2,))]


def test_HE_14_odd_units_to_winners_from_dealers_left() -> None:
    state = showdown("1r 1b 1w 1y", "2r 3b 4w 5y 6w", ante=20)
    assert state.chips() == (100, 100)


def test_HE_15_busted_player_is_out_and_last_with_chips_wins() -> None:
    state = dealt(stack=40, pockets="6r 6b 5w 5y")
    state = run(state, "bet 10", "raise 20", "raise 30", "call")
    state = run(state, "draw 6w", "draw 2r", "draw 3b", "draw 1y", "draw 1w")  # no betting left: all-in
    assert state.phase is Phase.OVER
    assert state.result().winners == frozenset({1})
    assert state.stacks == (0, 80)


def test_HE_16_timeout_checks_if_possible_else_folds() -> None:
    state = dealt(pockets="6r 6b 5w 5y")
    assert run(state, "timeout").betting.acted == {1}  # type: ignore[union-attr]
    state = run(state, "bet 10", "timeout")
    assert state.hand == 2 and state.stacks == (90, 110)


def test_CM_5_resign_folds_and_leaves() -> None:
    state = dealt(players=3, pockets="6r 6b 5w 5y 1r 1b")
    state = state.apply(Resign(), 0)
    state = run(state, "bet 10", "fold")
    assert state.hand == 2 and state.betting is not None and 0 not in state.betting.order


def test_CM_5_resignation_leaving_one_player_ends_the_game_at_once() -> None:
    """CM-5: heads-up, a resignation while the pocket dice are dealt ends the game: no more dice drawn."""
    for dice in ("", "6r", "6r 6b 5w"):
        state = dealt(pockets=dice).apply(Resign(), 1)
        assert state.is_terminal and state.phase is Phase.OVER
        assert state.result().winners == frozenset({0}) and sum(state.result().scores) == 200


def test_CM_5_resignation_leaving_one_in_the_hand_ends_the_hand_at_once() -> None:
    """CM-5 with three players: the hand is over when one player is left in it; the next one is dealt."""
    state = run(dealt(players=3, pockets="6r 6b 5w 5y 1r 1b"), "bet 10", "fold")
    state = state.apply(Resign(), 0)
    assert state.hand == 2 and state.betting is not None and state.betting.order == (2, 1)
    state = run(state, "draw 1r").apply(Resign(), 2)
    assert state.is_terminal and state.result().winners == frozenset({1})


def test_illegal_actions_are_rejected() -> None:
    state = dealt(pockets="6r 6b 5w 5y")
    with pytest.raises(IllegalAction):
        state.apply(Draw((1, R)))
    with pytest.raises(IllegalAction):
        state.apply(Timeout(), 0)


def test_spectators_and_others_never_see_pocket_dice() -> None:
    state = dealt(pockets="6r 6b 5w 5y")
    assert state.view(None).pocket == ()
    assert state.view(1).pocket == ((6, R), (6, B))
    assert "6r" not in str(state.view(0).to_json())


def test_chips_are_conserved_in_every_state_of_random_games() -> None:
    for seed in range(10):
        match = Match(HoldemGame(players=4, stack=100), seed=seed)
        rng = Random(seed)
        while not match.state.is_terminal:
            assert isinstance(match.state, HoldemState)
            assert sum(match.state.chips()) == 400
            view = match.state.view(None)
            assert view.pot_total + sum(view.stacks) == 400, "the view's pot is every chip not in a stack"
            assert match.state.to_act is not CHANCE
            legal = match.state.legal_actions()
            match.act(legal[rng.randrange(len(legal))])


def test_hand_history_round_trips_and_annotates() -> None:
    """Hand histories (PHH-like text): every action one line, dice included; read(write(log)) == log."""
    from dicepoker.core.log import EventLog
    from dicepoker.games.history import is_history, read_history, write_history
    from dicepoker.games.registry import replay

    for seed in range(5):
        match = Match(HoldemGame(players=3, stack=60), seed=seed)
        rng = Random(seed)
        while not match.state.is_terminal:
            legal = match.state.legal_actions()
            match.act(legal[rng.randrange(len(legal))])
        text = write_history(match.log)
        assert is_history(text)
        log = read_history(text)
        assert log == match.log
        assert replay(EventLog.from_jsonl(log.to_jsonl()))[-1] == match.state
        assert "game over" in text and "main pot" in text
