"""Issue 18 §4: one helper rolls chance until someone must decide, one re-applies a logged event list."""

from __future__ import annotations

from random import Random

import pytest

from dicepoker.core import CorruptLog, Event, Match, replay_states, replay_steps, roll_chance, settle_chance
from dicepoker.games.registry import create


def test_replay_steps_hand_back_each_state_before_and_after() -> None:
    match = Match(create("holdem", stack=30), seed=4)
    for _ in range(6):
        match.act(match.state.legal_actions()[0])
    game, log = match.game, match.log
    steps = list(replay_steps(game, log.events))
    assert [s.number for s in steps] == list(range(1, len(log.events) + 1))
    assert [s.event for s in steps] == list(log.events)
    assert [s.before for s in steps[1:]] == [s.after for s in steps[:-1]]
    assert replay_states(game, log.events) == [steps[0].before, *(s.after for s in steps)]
    assert steps[-1].after == match.state


def test_replay_steps_name_the_first_bad_event_and_yield_those_before() -> None:
    game = create("scorecard", players=1)
    events = [Event(0, "roll"), Event(None, "rolled 1 2 3 4 5"), Event(0, "score five-kind"), Event(0, "fly")]
    seen = []
    with pytest.raises(CorruptLog, match=r"event 4 .*fly"):
        seen.extend(replay_steps(game, events))
    assert len(seen) == 3


def test_replay_steps_go_on_from_a_given_state() -> None:
    game = create("scorecard", players=1)
    start = game.initial_state().apply(game.parse_action("roll"), 0)
    (step,) = replay_steps(game, [Event(None, "rolled 6 6 6 6 6")], start=start)
    assert step.before is start and step.after.view(0).dice == (6, 6, 6, 6, 6)  # type: ignore[attr-defined]


def test_roll_chance_draws_until_a_player_must_decide() -> None:
    game = create("peekpoker", players=2)
    state = game.initial_state()
    assert state.is_chance
    rolled = list(roll_chance(state, Random(2)))
    assert rolled and not rolled[-1][1].is_chance and all(s.is_chance for _, s in rolled[:-1])
    assert settle_chance(state, Random(2)) == rolled[-1][1]
    decided = rolled[-1][1]
    assert list(roll_chance(decided, Random(2))) == [] and settle_chance(decided, Random(2)) is decided


def test_match_play_hands_back_the_states_it_passed_through() -> None:
    match = Match(create("scorecard", players=1), seed=9)
    before = match.state
    steps = match.play(match.game.parse_action("roll"), 0)
    assert [str(s.action).split()[0] for s in steps] == ["roll", "rolled"]
    assert steps[0].before == before and steps[-1].after == match.state
    assert [s.number for s in steps] == [1, 2] and [s.event for s in steps] == list(match.log.events)


def test_a_resumed_match_checks_the_dice_follow_the_seed() -> None:
    match = Match(create("scorecard", players=1), seed=3)
    match.act_text("roll")
    log = match.log
    assert Match.resume(match.game, log).state == match.state
    forged = log.__class__(log.game, log.config, log.seed, (log.events[0], Event(None, "rolled 1 1 1 1 1")))
    with pytest.raises(CorruptLog, match=r"event 2 .*do not follow from seed 3"):
        Match.resume(match.game, forged)
