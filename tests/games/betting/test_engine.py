"""Unit tests of the betting engine: the rules PokerKit cannot check for us, and readable examples of the rest."""

from __future__ import annotations

from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicepoker.core.errors import ConfigError, IllegalAction, NotationError
from dicepoker.games.betting import (
    Bet,
    Betting,
    BettingRules,
    Call,
    Check,
    Fold,
    Raise,
    next_dealer,
    parse_betting_action,
)

HOLDEM = BettingRules.spread_limit(((10, 10), (10, 10), (10, 20), (10, 20)), ante=10, raise_cap=4, unit=10)


def play(betting: Betting, *actions: str) -> Betting:
    for text in actions:
        action = parse_betting_action(text.split())
        assert action is not None
        betting = betting.apply(action)
    return betting


def test_action_text_round_trips() -> None:
    for action in (Fold(), Check(), Call(), Bet(20), Raise(40)):
        assert parse_betting_action(str(action).split()) == action
    with pytest.raises(NotationError):
        parse_betting_action(["raise", "lots"])
    assert parse_betting_action(["roll"]) is None


def test_rules_are_validated() -> None:
    with pytest.raises(ConfigError):
        BettingRules.fixed_limit((10, 15), unit=10)
    with pytest.raises(ConfigError):
        BettingRules.no_limit((0,))


def test_antes_are_collected_and_first_seat_left_of_dealer_opens() -> None:
    betting = Betting.start_hand(HOLDEM, (100, 100, 100), dealer=1)
    assert betting.to_act == 2
    assert betting.contributed == (10, 10, 10)
    assert [str(a) for a in betting.legal_actions()] == ["check", "bet 10"]


def test_short_ante_goes_all_in_and_is_eligible_only_for_its_level() -> None:
    rules = BettingRules.no_limit((2,), ante=5)
    betting = Betting.start_hand(rules, (3, 50, 50), dealer=2)
    assert betting.stacks == (0, 45, 45)
    betting = play(betting, "bet 10", "call").collect()
    assert [(p.amount, p.eligible) for p in betting.pots] == [(9, (0, 1, 2)), (24, (1, 2))]


def test_spread_limit_turn_bets_are_10_or_20() -> None:
    """HE-5 on the Turn: a bet or raise is 10 or 20, not 15 (unit 10) and not 30."""
    betting = Betting.start_hand(HOLDEM, (200, 200), dealer=1)
    betting = play(betting, "check", "check").next_round()
    betting = play(betting, "check", "check").next_round()
    assert [str(a) for a in betting.legal_actions()] == ["check", "bet 10", "bet 20"]
    betting = play(betting, "bet 20")
    assert [str(a) for a in betting.legal_actions()] == ["fold", "call", "raise 30", "raise 40"]
    with pytest.raises(IllegalAction, match="above the maximum"):
        betting.apply(Raise(50))
    with pytest.raises(IllegalAction, match="steps of 10"):
        betting.apply(Raise(35))
    # No minimum-raise rule in spread limit: a raise of 10 after a raise of 20 is allowed.
    betting = play(betting, "raise 40")
    assert "raise 50" in [str(a) for a in betting.legal_actions()]


def test_raise_cap_counts_the_opening_bet() -> None:
    """HE-5: at most three raises per round, the opening bet not being a raise (cap 4)."""
    betting = Betting.start_hand(HOLDEM, (500, 500), dealer=1)
    betting = play(betting, "bet 10", "raise 20", "raise 30", "raise 40")
    assert [str(a) for a in betting.legal_actions()] == ["fold", "call"]
    with pytest.raises(IllegalAction, match="at most 4"):
        betting.apply(Raise(50))


def test_no_limit_minimum_raise_is_the_largest_raise_so_far() -> None:
    rules = BettingRules.no_limit((2, 2), blinds=(1, 2))
    betting = Betting.start_hand(rules, (100, 100, 100), dealer=2)
    assert betting.to_act == 2  # left of the big blind
    betting = play(betting, "raise 10")
    assert betting.options().raise_to == (18, 100)
    with pytest.raises(IllegalAction, match="below the minimum: 17 < 18"):
        betting.apply(Raise(17))


def test_heads_up_dealer_posts_small_blind_acts_first_then_last() -> None:
    rules = BettingRules.no_limit((2, 2), blinds=(1, 2))
    betting = Betting.start_hand(rules, (100, 100), dealer=0)
    assert betting.bets == (1, 2)
    assert betting.to_act == 0
    betting = play(betting, "call", "check").next_round()
    assert betting.to_act == 1


@pytest.mark.parametrize(("players", "dealer", "first"), [(3, 2, 2), (2, 0, 0)])
def test_PK_14_big_blind_is_the_opening_bet(players: int, dealer: int, first: int) -> None:
    """PK-14: facing blinds 1/2 with a minimum bet of 1, the minimum raise is to 4 (3 players and heads-up)."""
    rules = BettingRules.no_limit((1, 1), blinds=(1, 2))
    betting = Betting.start_hand(rules, (50,) * players, dealer=dealer)
    assert betting.to_act == first
    assert betting.options().raise_to == (4, 50)
    with pytest.raises(IllegalAction, match="below the minimum: 3 < 4"):
        betting.apply(Raise(3))
    # Later rounds open at the round's own minimum again.
    betting = play(betting, *["call"] * (players - 1), "check").next_round()
    assert betting.options().raise_to == (1, 48) and betting.options().opens


def test_PK_14_big_blind_is_the_opening_bet_in_spread_and_fixed_limits() -> None:
    spread = Betting.start_hand(BettingRules.spread_limit([(1, 5)], blinds=(1, 2)), (50, 50, 50), dealer=2)
    assert spread.options().raise_to == (4, 7)
    fixed = Betting.start_hand(BettingRules.fixed_limit([2], blinds=(1, 2)), (50, 50, 50), dealer=2)
    assert fixed.options().raise_to == (4, 4)


def test_PK_14_small_blind_may_still_raise_a_called_big_blind() -> None:
    rules = BettingRules.no_limit((1,), blinds=(1, 2))
    betting = play(Betting.start_hand(rules, (50, 50, 50), dealer=2), "call")
    assert betting.to_act == 0 and betting.options().raise_to == (4, 50)


def test_uncalled_bet_is_returned() -> None:
    rules = BettingRules.no_limit((2,))
    betting = Betting.start_hand(rules, (30, 100, 100), dealer=2)
    betting = play(betting, "bet 30", "raise 80", "fold").collect()
    assert betting.stacks == (0, 70, 100)
    assert betting.pots[0].amount == 60


def test_everyone_folds_winner_takes_pot_without_showdown() -> None:
    betting = Betting.start_hand(HOLDEM, (100, 100, 100), dealer=2)
    betting = play(betting, "bet 10", "fold", "fold")
    assert betting.hand_over and betting.round_over
    betting, payouts = betting.collect().award({})
    assert betting.stacks == (120, 90, 90)
    assert payouts[0].winners == (0,)


def test_short_all_in_raise_does_not_reopen_betting() -> None:
    rules = BettingRules.no_limit((10,))
    betting = Betting.start_hand(rules, (200, 15, 200), dealer=2)
    betting = play(betting, "bet 10", "raise 15")  # seat 1 all-in for a raise of 5 < 10
    assert betting.options().raise_to is not None  # seat 2 has not acted: may raise
    betting = play(betting, "call")
    assert betting.to_act == 0
    assert [str(a) for a in betting.legal_actions()] == ["fold", "call"]


def test_call_for_less_is_all_in_and_side_pot_forms() -> None:
    """HE-13: chips beyond what an all-in player can match form a side pot."""
    betting = Betting.start_hand(HOLDEM, (30, 200, 200), dealer=2)
    betting = play(betting, "bet 10", "raise 20", "raise 30", "call", "call")
    assert betting.stacks == (0, 160, 160)
    betting = betting.next_round()
    assert betting.to_act == 1  # the all-in seat 0 no longer acts
    betting = play(betting, "bet 10", "call").collect()
    assert [(p.amount, p.eligible) for p in betting.pots] == [(90, (0, 1, 2)), (40, (1, 2))]
    betting, payouts = betting.award({0: 3, 1: 2, 2: 1})
    assert betting.stacks == (90, 190, 150)
    assert [p.winners for p in payouts] == [(0,), (1,)]


def test_HE_14_odd_units_go_one_at_a_time_from_dealers_left() -> None:
    """HE-14: a pot of 70 split three ways: 30, 20, 20, the extra 10 to the first winner left of the dealer."""
    rules = BettingRules.fixed_limit((10,), ante=10, unit=10)
    betting = Betting.start_hand(rules, (100, 100, 100, 100, 100, 100, 100), dealer=3)
    betting = play(betting, *["check"] * 7).collect()
    betting, payouts = betting.award({seat: (1 if seat in (1, 2, 5) else 0) for seat in range(7)})
    assert payouts[0].winners == (5, 1, 2)
    assert payouts[0].shares == (30, 20, 20)
    assert betting.stacks == (90, 110, 110, 90, 90, 120, 90)


def test_busted_players_are_dealt_out_and_dealer_moves_left() -> None:
    assert next_dealer((10, 0, 0, 5), 0) == 3
    assert next_dealer((10, 0, 0, 5), 3) == 0
    betting = Betting.start_hand(HOLDEM, (100, 0, 100), dealer=0)
    assert betting.order == (2, 0)
    with pytest.raises(IllegalAction):
        Betting.start_hand(HOLDEM, (100, 0, 0), dealer=0)


def test_illegal_actions_say_why_and_change_nothing() -> None:
    betting = Betting.start_hand(HOLDEM, (100, 100), dealer=1)
    for action, reason in ((Fold(), "check instead"), (Call(), "nothing to call"), (Raise(20), "bet instead")):
        with pytest.raises(IllegalAction, match=reason):
            betting.apply(action)
    betting = play(betting, "check", "check")
    with pytest.raises(IllegalAction, match="round is over"):
        betting.apply(Check())


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    stacks=st.lists(st.integers(0, 30).map(lambda n: n * 10), min_size=2, max_size=6),
)
def test_chips_are_conserved_in_every_state(seed: int, stacks: list[int]) -> None:
    if sum(1 for s in stacks if s) < 2:
        return
    rng = Random(seed)
    betting = Betting.start_hand(HOLDEM, stacks, dealer=rng.randrange(len(stacks)))
    total = sum(stacks)
    while True:
        assert betting.chips() == total
        assert min(betting.stacks) >= 0
        if betting.to_act is None:
            if betting.hand_over or betting.round == 3:
                break
            betting = betting.next_round()
            continue
        legal = betting.legal_actions()
        betting = betting.apply(legal[rng.randrange(len(legal))])
    betting = betting.collect()
    ranks = {s: rng.randrange(3) for s in range(len(stacks)) if betting.in_hand[s]}
    betting, _ = betting.award(ranks)
    assert sum(betting.stacks) == total
    assert all(s % 10 == 0 for s in betting.stacks)
