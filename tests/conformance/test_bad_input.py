"""Bad input never crashes a game (issue 13, CM-4): wrong seats and malformed actions built in code.

Every registered game, under every conformance config, must refuse with :class:`IllegalAction` (and
leave the state as it was) a seat that does not exist or is not a whole number, and must answer an
action whose fields have the wrong type or an impossible value with the project's own errors only,
never ``TypeError``, ``IndexError`` or ``KeyError``, through ``check``, ``is_legal``, ``apply``,
``Match`` and log replay alike.
"""

from __future__ import annotations

import contextlib
import dataclasses
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dicepoker.core import CHANCE, Action, CorruptLog, DicePokerError, IllegalAction, Match, Resign, State, Timeout
from dicepoker.core.log import Event, EventLog
from dicepoker.dice.poker import Face
from dicepoker.dice.scoring import Category
from dicepoker.dice.suited import Suit
from dicepoker.games.betting import Bet, Raise
from dicepoker.games.board.actions import OpeningRoll
from dicepoker.games.dice_turn import Reroll
from dicepoker.games.holdem.actions import Draw
from dicepoker.games.holdem.actions import HighRoll as HoldemHighRoll
from dicepoker.games.peekpoker.actions import HighRoll as PeekHighRoll
from dicepoker.games.peekpoker.actions import Rolled as PeekRolled
from dicepoker.games.registry import create, replay
from dicepoker.games.scorecard import Score
from tests.conformance.test_conformance import CASES, IDS, playout, states_of

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@cache
def sampled_states(case: int) -> tuple[State, ...]:
    """About 30 states of a seeded playout of ``CASES[case]``, the terminal one included."""
    name, config = CASES[case]
    states = states_of(playout(name, config, 21))
    return (*states[:: max(1, len(states) // 30)], states[-1])


@cache
def action_classes(case: int) -> tuple[type[Action], ...]:
    """Every action class the game uses (each class seen in a playout, chance outcomes included)."""
    seen: dict[str, type[Action]] = {}
    for state in states_of(playout(*CASES[case], 22)):
        if state.is_terminal:
            continue
        for action in state.legal_actions(None if state.to_act is CHANCE else state.to_act[0]):
            seen.setdefault(type(action).__qualname__, type(action))
    return tuple(seen.values())


def not_a_seat(players: int) -> st.SearchStrategy[Any]:
    return st.one_of(
        st.integers(max_value=-1),
        st.integers(min_value=players),
        st.sampled_from([0.0, 1.0, True, False, "0", "1", b"0", (0,), [0], 10**5000, float("nan")]),
    )


# -- seats ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("case", range(len(CASES)), ids=IDS)
@SETTINGS
@given(data=st.data())
def test_CM_4_a_seat_that_does_not_exist_is_refused(case: int, data: st.DataObject) -> None:
    """-1, ≥ players, 0.0, True, "0": IllegalAction from apply, check and view; the state is unchanged."""
    name, config = CASES[case]
    players = create(name, **config).num_players
    state = data.draw(st.sampled_from(sampled_states(case)))
    seat = data.draw(not_a_seat(players))
    before = state.to_json()
    actions: list[Action] = [Resign(), Timeout()]
    if isinstance(state.to_act, tuple) and state.to_act:
        actions += list(state.legal_actions(state.to_act[0]))[:3]
    for action in actions:
        with pytest.raises(IllegalAction):
            state.apply(action, seat)
        with pytest.raises(IllegalAction):
            state.check(action, seat)
        assert not state.is_legal(action, seat)
    with pytest.raises(IllegalAction):
        state.view(seat)
    assert state.to_json() == before


@pytest.mark.parametrize(("name", "config"), CASES, ids=IDS)
def test_CM_4_match_refuses_a_seat_that_does_not_exist(name: str, config: dict[str, Any]) -> None:
    game = create(name, **config)
    match = Match(game, seed=4)
    before, log = match.state, match.log
    for seat in (-1, game.num_players, 99, True, 0.0, "0"):
        with pytest.raises(IllegalAction):
            match.act(Resign(), seat)  # type: ignore[arg-type]
    assert match.state == before and match.log == log


@pytest.mark.parametrize(("name", "config"), CASES, ids=IDS)
def test_CM_4_a_log_with_a_seat_that_does_not_exist_does_not_replay(name: str, config: dict[str, Any]) -> None:
    """The crafted log of issue 13 (seat 99 resigns) is refused as corrupt instead of replaying."""
    game = create(name, **config)
    for seat in (99, game.num_players, -1):
        log = EventLog(name, game.config_json(), None, (Event(seat, "resign"),))
        with pytest.raises(CorruptLog, match="seat"):
            replay(EventLog.from_jsonl(log.to_jsonl()))


# -- malformed actions ------------------------------------------------------------------------------
ENUM_MEMBERS = [*Suit, *Face, *Category]
SCALARS = st.one_of(
    st.integers(min_value=-(10**6), max_value=10**6),
    st.sampled_from([10**30, -(10**30), 10**5000, 99, -1, 0, 7]),
    st.booleans(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=4),
    st.none(),
    st.sampled_from(ENUM_MEMBERS),
)
BAD_VALUES = st.one_of(
    SCALARS,
    st.tuples(SCALARS, SCALARS),
    st.lists(SCALARS, max_size=6).map(tuple),
    st.lists(SCALARS, max_size=4),
    st.lists(st.sampled_from(ENUM_MEMBERS), max_size=6).map(tuple),
)


def malformed(kind: type[Action]) -> st.SearchStrategy[Action]:
    fields = [f.name for f in dataclasses.fields(kind)]  # type: ignore[arg-type]
    if not fields:
        return st.just(kind())
    return st.fixed_dictionaries({name: BAD_VALUES for name in fields}).map(lambda values: kind(**values))


@pytest.mark.parametrize("case", range(len(CASES)), ids=IDS)
@SETTINGS
@given(data=st.data())
def test_CM_4_malformed_actions_raise_only_the_projects_errors(case: int, data: st.DataObject) -> None:
    """Score(99), Bet("10"), Raise(True), OpeningRoll(99), Rolled(("x",)) …: only DicePokerError comes out."""
    kind = data.draw(st.sampled_from(action_classes(case)))
    action = data.draw(malformed(kind))
    state = data.draw(st.sampled_from(sampled_states(case)))
    before = state.to_json()
    to_act = state.to_act
    seats: list[int | None] = [None] if to_act is CHANCE or not to_act else [None, *to_act]
    for seat in seats:
        with contextlib.suppress(DicePokerError):
            state.check(action, seat)
        state.is_legal(action, seat)
        try:
            after = state.apply(action, seat)
        except DicePokerError:
            continue
        # Accepted: then the action was a sound one, and its text form names it.
        assert create(*CASES[case][:1], **CASES[case][1]).parse_action(str(action)) == action
        assert after is not state
    assert state.to_json() == before


@pytest.mark.parametrize(
    ("name", "action"),
    [
        ("zepherin", OpeningRoll(99)),
        ("classic-board", OpeningRoll(0)),
        ("scorecard", Score(99)),  # type: ignore[arg-type]
        ("scorecard", Reroll([0, 1])),  # type: ignore[arg-type]
        ("holdem", HoldemHighRoll(7)),
        ("holdem", Draw((1, 9))),  # type: ignore[arg-type]
        ("peekpoker", PeekHighRoll((9, 1))),
        ("peekpoker", PeekRolled(("A", "K", "Q"))),  # type: ignore[arg-type]
    ],
    ids=repr,
)
def test_CM_4_the_audits_malformed_actions(name: str, action: Action) -> None:
    """The examples of issue 13, and their like, at the first state of each game and in a log."""
    game = create(name)
    with pytest.raises(IllegalAction):
        game.initial_state().apply(action)


def test_CM_4_betting_amounts_must_be_whole_numbers() -> None:
    match = Match(create("holdem", players=2), seed=1)
    for action in (Bet("10"), Bet(10.0), Bet(True), Raise(True), Raise(None), Bet(-10), Raise(10**5000)):  # type: ignore[arg-type]
        with pytest.raises(IllegalAction):
            match.act(action)
