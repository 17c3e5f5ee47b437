"""The opponent model shared by the betting games' expert bots: what it learns from an opponent's
actions, what it reads from the views between two decisions, and how it acts on the weighted range."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from random import Random

import numpy as np
import pytest

from dicepoker.bots.opponent import Kind, Observation, OpponentModel, Range, Situation, Snapshot, choose
from dicepoker.bots.tracker import HandTracker
from dicepoker.games.betting import Bet, Call, Check, Fold, Raise

HANDS = 60
PRIOR = np.full(HANDS, 1.0 / HANDS)
STRENGTH = np.linspace(0.0, 1.0, HANDS)
"""A toy game: hand ``i`` has strength ``i / 59`` on every round."""
STRENGTHS = {0: STRENGTH, 1: STRENGTH}

Policy = Callable[[float, Random], Kind]


def always_bets(strength: float, rng: Random) -> Kind:
    return Kind.SMALL


def value_bets(strength: float, rng: Random) -> Kind:
    return Kind.SMALL if strength > 0.7 else Kind.PASSIVE


def random_bets(strength: float, rng: Random) -> Kind:
    return Kind.SMALL if rng.random() < 0.5 else Kind.PASSIVE


def learn(policy: Policy, hands: int = 300, seed: int = 0) -> OpponentModel:
    """A model that watched ``hands`` hands of an opponent opening both rounds by ``policy``."""
    model, rng = OpponentModel(rounds=2), Random(seed)
    for _ in range(hands):
        strength = STRENGTH[rng.randrange(HANDS)]
        observations: list[Observation] = []
        for round_index in (0, 1):
            obs = Observation(round_index, Situation.OPEN, (policy(strength, rng),), 0.5)
            model.count(obs, model.weights(observations, PRIOR, STRENGTHS), STRENGTH)
            observations.append(obs)
        model.learn_hand(observations, PRIOR, STRENGTHS)
    return model


BET = [Observation(0, Situation.OPEN, (Kind.SMALL,), 0.5)]


def strong_share(weights: np.ndarray) -> float:
    """How much of a range is in the strongest 30% of hands."""
    return float(weights[STRENGTH > 0.7].sum())


def test_the_prior_reads_a_bet_as_some_strength() -> None:
    model = OpponentModel(rounds=2)
    assert 0.4 < model.informativeness < 0.8
    assert model.frequencies(0, Situation.OPEN).sum() == pytest.approx(1.0)
    assert model.frequencies(0, Situation.OPEN)[Kind.FOLD] == 0  # nobody folds when checking is free
    assert strong_share(model.weights(BET, PRIOR, STRENGTHS)) > 0.45  # 0.3 without the bet


def test_an_always_betting_opponent_widens_the_range_of_a_bet() -> None:
    fresh = OpponentModel(rounds=2).weights(BET, PRIOR, STRENGTHS)
    learnt = learn(always_bets).weights(BET, PRIOR, STRENGTHS)
    assert learn(always_bets).frequencies(0, Situation.OPEN)[Kind.SMALL] > 0.95
    assert strong_share(learnt) < strong_share(fresh)
    assert np.abs(learnt - PRIOR).max() < 0.25 / HANDS  # a bet from them says next to nothing


def test_a_value_bettor_is_read_as_consistent_and_its_bet_narrows_the_range() -> None:
    model = learn(value_bets)
    assert model.informativeness > 0.8
    # 0.3 before the bet, about 0.55 by the prior's reading; not 1: strengths are estimates.
    assert strong_share(model.weights(BET, PRIOR, STRENGTHS)) > 0.75
    check = [Observation(0, Situation.OPEN, (Kind.PASSIVE,))]
    assert strong_share(model.weights(check, PRIOR, STRENGTHS)) < 0.1


def test_a_random_bettor_is_read_as_uninformative() -> None:
    model = learn(random_bets, hands=600)
    assert model.informativeness < 0.2
    weights = model.weights(BET, PRIOR, STRENGTHS)
    assert float(weights @ STRENGTH) == pytest.approx(0.5, abs=0.05)


def test_a_shown_hand_teaches_more_than_a_hidden_one() -> None:
    """Hands turned over at the showdown are scored exactly: a strong hand that bet twice is evidence
    for consistency, a weak one that bet twice against it."""
    consistent, inconsistent = learn(value_bets, hands=50), learn(value_bets, hands=50)
    bets = [Observation(r, Situation.OPEN, (Kind.SMALL,), 0.5) for r in (0, 1)]
    for _ in range(20):
        consistent.learn_hand(bets, PRIOR, STRENGTHS, shown=HANDS - 1)
        inconsistent.learn_hand(bets, PRIOR, STRENGTHS, shown=0)
    assert consistent.informativeness > 0.8 > 0.2 > inconsistent.informativeness


# -- reading actions from snapshots ----------------------------------------------------------------
def snapshot(**changes: object) -> Snapshot:
    """Heads-up, first to act, round 0 of two, 100 chips each behind, antes of 10 in the pot."""
    base = Snapshot(
        hand=(1, 0, "pocket"),
        round=0,
        final_round=False,
        pot=20,
        my_bet=0,
        opp_bet=0,
        my_chips=100,
        opp_chips=100,
        opp_first=False,
        heads_up=True,
    )
    return replace(base, **changes)  # type: ignore[arg-type]


def tracker() -> HandTracker:
    return HandTracker(OpponentModel(rounds=2))


def decide(t: HandTracker, snap: Snapshot, action: Check | Bet | Raise | Call | Fold) -> None:
    t.observe(snap, PRIOR, STRENGTH)
    t.acted(action)


def test_a_bet_over_a_check_is_read_as_a_bet_of_its_size() -> None:
    t = tracker()
    decide(t, snapshot(), Check())
    t.observe(snapshot(pot=40, opp_bet=20), PRIOR, STRENGTH)
    assert t.observations == [Observation(0, Situation.OPEN, (Kind.MEDIUM,), 1.0)]


def test_a_round_that_moves_on_after_a_bet_was_a_call_and_a_raise_is_seen() -> None:
    t = tracker()
    decide(t, snapshot(), Bet(10))
    decide(t, snapshot(round=1, pot=40), Bet(10))
    t.observe(snapshot(round=1, pot=80, my_bet=10, opp_bet=30), PRIOR, STRENGTH)
    assert [(o.round, o.situation, o.kinds) for o in t.observations] == [
        (0, Situation.SMALL, (Kind.PASSIVE,)),
        (1, Situation.SMALL, (Kind.SMALL,)),
    ]


def test_the_dealer_sees_the_opponent_check_or_bet_first() -> None:
    t = tracker()
    t.observe(snapshot(opp_first=True, pot=30, opp_bet=10), PRIOR, STRENGTH)
    assert t.observations[0].kinds == (Kind.SMALL,)
    t = tracker()
    t.observe(snapshot(opp_first=True), PRIOR, STRENGTH)
    assert t.observations[0].kinds == (Kind.PASSIVE,)


def test_a_hand_that_ends_after_a_bet_was_folded_unless_it_may_have_been_called() -> None:
    folded = tracker()
    decide(folded, snapshot(), Bet(10))
    folded.finish()
    assert folded.model.counts[0, Situation.SMALL, Kind.FOLD] == 1
    unseen = tracker()
    decide(unseen, snapshot(round=1, final_round=True), Bet(10))
    unseen.finish()  # a river bet may have been called: counted as part fold, part call
    assert 0 < unseen.model.counts[1, Situation.SMALL, Kind.FOLD] < 1
    seen = tracker()
    decide(seen, snapshot(round=1, final_round=True, sees_showdown=True), Bet(10))
    seen.finish()  # any showdown would have shown: folded
    assert seen.model.counts[1, Situation.SMALL, Kind.FOLD] == 1
    called = tracker()
    decide(called, snapshot(round=1, final_round=True), Bet(10))
    called.settle(showdown=True, shown=HANDS - 1)
    called.finish()
    assert called.model.counts[1, Situation.SMALL, Kind.PASSIVE] == 1


def test_a_new_hand_is_told_from_the_same_one() -> None:
    t = tracker()
    decide(t, snapshot(), Bet(10))
    # Same seat, dice and round but the bot's wager is gone: a new hand; the old one ended in a fold.
    t.observe(snapshot(), PRIOR, STRENGTH)
    assert t.model.counts[0, Situation.SMALL, Kind.FOLD] == 1
    assert t.observations == []


def test_multiway_pots_are_not_read() -> None:
    t = tracker()
    decide(t, snapshot(heads_up=False), Check())
    t.observe(snapshot(heads_up=False, pot=40, opp_bet=20), PRIOR, STRENGTH)
    assert t.observations == []
    assert t.range_weights() == pytest.approx(PRIOR)


# -- acting on the range ---------------------------------------------------------------------------
def responding(kind: Kind, times: int = 200) -> OpponentModel:
    """A model of an opponent who answers every bet with ``kind``."""
    model = OpponentModel(rounds=2)
    for _ in range(times):
        for situation in (Situation.SMALL, Situation.MEDIUM, Situation.LARGE):
            model.count(Observation(0, situation, (kind,)))
    return model


def against(equity: float) -> Range:
    return Range(PRIOR, np.full(HANDS, equity), STRENGTH)


OPEN_LEGAL = [Check(), Bet(10), Bet(20)]


def test_value_bets_into_a_caller_and_does_not_bluff_it() -> None:
    caller = responding(Kind.PASSIVE)
    assert isinstance(choose(snapshot(), OPEN_LEGAL, [Bet(10), Bet(20)], against(0.8), caller, (10, 20)), Bet)
    assert choose(snapshot(), OPEN_LEGAL, [Bet(10), Bet(20)], against(0.1), caller, (10, 20)) == Check()


def test_bluffs_an_opponent_who_folds() -> None:
    folder = responding(Kind.FOLD)
    assert isinstance(choose(snapshot(), OPEN_LEGAL, [Bet(10), Bet(20)], against(0.1), folder, (10, 20)), Bet)


def test_calls_by_pot_odds_against_the_range() -> None:
    facing = snapshot(opp_first=True, pot=120, opp_bet=100)  # 100 to call into 120: needs 100/220
    legal = [Fold(), Call()]
    model = OpponentModel(rounds=2)
    assert choose(facing, legal, [], against(0.5), model, (10, 20)) == Call()
    assert choose(facing, legal, [], against(0.4), model, (10, 20)) == Fold()
