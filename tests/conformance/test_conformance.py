"""The conformance suite: every registered game obeys the core contract (DESIGN, "The core contract").

New games join by registering in ``dicepoker.games.registry`` (and, optionally, listing configs in
``configs.py``). Playouts are seeded random games that also time out and resign now and then.
"""

from __future__ import annotations

import json
from fractions import Fraction
from random import Random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicepoker.core import CHANCE, Action, IllegalAction, Match, Resign, State, Timeout
from dicepoker.core.log import EventLog
from dicepoker.games.registry import create, names, replay
from tests.conformance.configs import CONFIGS

MAX_STEPS = 5_000
CASES = [(name, config) for name in names() for config in CONFIGS.get(name, [{}])]
IDS = [f"{name}-{'-'.join(f'{k}={v}' for k, v in config.items()) or 'default'}" for name, config in CASES]


def playout(name: str, config: dict[str, Any], seed: int, *, platform_actions: bool = True) -> Match:
    """A seeded random game. Returns the finished (or step-capped) match."""
    game = create(name, **config)
    match = Match(game, seed=seed)
    rng = Random(seed ^ 0x5EED)
    steps = 0
    while not match.state.is_terminal and steps < MAX_STEPS:
        steps += 1
        to_act = match.state.to_act
        assert to_act is not CHANCE, "a match resolves chance nodes itself"
        seat = to_act[rng.randrange(len(to_act))]
        roll = rng.random()
        if platform_actions and roll < 0.03:
            match.act(Timeout(), seat)
        elif platform_actions and roll < 0.032:
            match.act(Resign(), seat)
        else:
            legal = match.state.legal_actions(seat)
            assert legal, f"seat {seat} must act but has no legal action in {match.state.to_json()}"
            match.act(legal[rng.randrange(len(legal))], seat)
    assert match.state.is_terminal, f"{name} did not finish within {MAX_STEPS} decisions"
    return match


def states_of(match: Match) -> list[State]:
    return replay(EventLog.from_jsonl(match.log.to_jsonl()))


@pytest.mark.parametrize(("name", "config"), CASES, ids=IDS)
def test_CM_2_log_replays_to_identical_state(name: str, config: dict[str, Any]) -> None:
    """CM-2: name + config + actions (chance included) replay to the identical state, via JSON lines."""
    for seed in range(5):
        match = playout(name, config, seed)
        assert states_of(match)[-1] == match.state


@pytest.mark.parametrize(("name", "config"), CASES, ids=IDS)
def test_same_seed_same_game(name: str, config: dict[str, Any]) -> None:
    assert playout(name, config, 11).log == playout(name, config, 11).log


@pytest.mark.parametrize(("name", "config"), CASES, ids=IDS)
def test_CM_4_legal_actions_apply_and_illegal_ones_raise(name: str, config: dict[str, Any]) -> None:
    """CM-4: every listed action applies; actions seen elsewhere but not listed raise and change nothing."""
    game = create(name, **config)
    pool: dict[str, Action] = {}
    states = states_of(playout(name, config, 3))
    for state in states:
        for action in state.legal_actions() if not state.is_terminal else []:
            pool.setdefault(str(action), action)
    rng = Random(3)
    for state in states[:: max(1, len(states) // 60)]:
        before = state.to_json()
        if state.is_terminal:
            with pytest.raises(IllegalAction):
                state.apply(Timeout())
            continue
        to_act = state.to_act
        seats = [None] if to_act is CHANCE else list(to_act)
        for seat in seats:
            legal = list(state.legal_actions(seat))
            legal_text = {str(a) for a in legal}
            for action in rng.sample(legal, min(8, len(legal))):
                state.apply(action, seat)
                assert game.parse_action(str(action)) == action, "action text must round-trip"
            for text, action in pool.items():
                if text not in legal_text:
                    with pytest.raises(IllegalAction):
                        state.apply(action, seat)
            if seat is not None:
                others = [s for s in range(game.num_players) if s not in to_act]
                for other in others[:2]:
                    if legal:
                        with pytest.raises(IllegalAction):
                            state.apply(legal[0], other)
        assert state.to_json() == before


@pytest.mark.parametrize(("name", "config"), CASES, ids=IDS)
def test_CM_2_chance_outcomes_are_exact(name: str, config: dict[str, Any]) -> None:
    """CM-2: at every chance node the outcomes are distinct, legal, and their probabilities sum to 1."""
    for state in states_of(playout(name, config, 5)):
        if state.to_act is CHANCE:
            outcomes = state.chance_outcomes()
            assert sum((p for _, p in outcomes), Fraction(0)) == 1
            assert all(p > 0 for _, p in outcomes)
            assert len({str(o) for o, _ in outcomes}) == len(outcomes)
            assert state.sample_chance(Random(0)) in {o for o, _ in outcomes}
        else:
            assert not state.chance_outcomes()


@pytest.mark.parametrize(("name", "config"), CASES, ids=IDS)
def test_state_json_round_trips(name: str, config: dict[str, Any]) -> None:
    game = create(name, **config)
    for state in states_of(playout(name, config, 7)):
        data = json.loads(json.dumps(state.to_json()))
        assert game.state_from_json(data) == state


@pytest.mark.parametrize(("name", "config"), CASES, ids=IDS)
def test_views_never_show_other_seats_secrets(name: str, config: dict[str, Any]) -> None:
    """No view (seat or spectator) changes when another seat's hidden information is redrawn."""
    game = create(name, **config)
    rng = Random(9)
    for state in states_of(playout(name, config, 9)):
        viewers: list[int | None] = [None, *range(game.num_players)]
        for viewer in viewers:
            view = state.view(viewer)
            json.dumps(view.to_json())
            for owner in range(game.num_players):
                if owner == viewer or state.hidden_from_others(owner) is None:
                    continue
                assert state.with_other_secret(owner, rng).view(viewer) == view


@pytest.mark.parametrize(("name", "config"), CASES, ids=IDS)
def test_finished_game_has_winner_or_tie(name: str, config: dict[str, Any]) -> None:
    for seed in range(5):
        state = playout(name, config, seed).state
        result = state.result()
        assert result.winners or result.is_tie
        assert len(result.scores) == create(name, **config).num_players


@settings(max_examples=15, deadline=None)
@given(case=st.sampled_from(CASES), seed=st.integers(min_value=0, max_value=2**32))
def test_property_replay_and_determinism(case: tuple[str, dict[str, Any]], seed: int) -> None:
    """Property: for any seed, a playout's log replays to its final state."""
    name, config = case
    match = playout(name, config, seed)
    assert states_of(match)[-1] == match.state


def side_of(state: State, seat: int) -> int:
    """The side a seat plays for: its team in the board games, itself elsewhere."""
    rules = getattr(state, "rules", None)
    return int(rules.team_of(seat)) if rules is not None else seat


@pytest.mark.parametrize(("name", "config"), CASES, ids=IDS)
def test_CM_5_resignations_leaving_one_side_end_the_game_at_once(name: str, config: dict[str, Any]) -> None:
    """CM-5: in any state, chance nodes included, once every other side has resigned the game is over:
    no further dice are drawn, and nobody who resigned wins."""
    game = create(name, **config)
    if game.num_players < 2:
        pytest.skip("one player: nobody else can resign")
    # Seed 14: random board play may need more than MAX_STEPS decisions (about one classic-board game in five).
    states = [s for s in states_of(playout(name, config, 14, platform_actions=False)) if not s.is_terminal]
    for index, state in enumerate(states[:: max(1, len(states) // 40)]):
        survivor = index % game.num_players
        resigned: set[int] = set()
        for seat in range(game.num_players):
            if side_of(state, seat) == side_of(state, survivor) or state.is_terminal:
                continue
            try:
                state = state.apply(Resign(), seat)
            except IllegalAction:
                continue  # already resigned (or its team conceded)
            resigned.add(seat)
        assert state.is_terminal, f"{name}: still {state.to_act} after every side but seat {survivor}'s resigned"
        assert not state.result().winners & resigned
