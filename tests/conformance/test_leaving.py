"""CM-5 and CM-7 over every registered game: leaving is resigning, for any seat, at any time.

CM-7 [decision] (leaving a table) is built on the engine's ``Resign`` of a named seat: the server's Leave and
the "two timeouts while disconnected" rule apply it for a seat that need not be the one to act, and may do
so at a chance node or during simultaneous decisions. These tests check that the engine accepts exactly
that in every state of every game, and what CM-5 [decision] says follows: with three or more sides one
resignation skips the resigner's turns and the game goes on, and a resigner is never among the winners.
"""

from __future__ import annotations

from random import Random
from typing import Any

import pytest

from dicepoker.core import CHANCE, IllegalAction, Resign, State
from dicepoker.games.registry import create
from tests.conformance.test_conformance import CASES, IDS, playout, side_of, states_of

MAX_STEPS = 2_000
SEED = 14
"""A seed whose random board games end within the playout's step limit (not every seed's do)."""


def sides(state: State, seats: range) -> set[int]:
    return {side_of(state, seat) for seat in seats}


@pytest.mark.parametrize(("name", "config"), CASES, ids=IDS)
def test_CM_7_any_seat_may_leave_in_any_state_even_off_turn_and_at_chance_nodes(
    name: str, config: dict[str, Any]
) -> None:
    """CM-7: leaving is resigning (CM-5), allowed at any time: off turn, while dice roll, during
    simultaneous decisions. A second resignation of the same seat is refused and changes nothing, so
    ``state.is_legal(Resign(), seat)`` tells whether a seat is still in play and may leave."""
    game = create(name, **config)
    states = [s for s in states_of(playout(name, config, SEED, platform_actions=False)) if not s.is_terminal]
    kinds: set[str] = set()
    for state in states[:: max(1, len(states) // 60)]:
        to_act = state.to_act
        for seat in range(game.num_players):
            kinds.add("chance" if to_act is CHANCE else "to act" if seat in to_act else "off turn")
            assert state.is_legal(Resign(), seat)
            after = state.apply(Resign(), seat)
            assert not after.is_legal(Resign(), seat)
            assert after.is_terminal or after.to_act is CHANCE or seat not in after.to_act
            if not after.is_terminal:
                before = after.to_json()
                with pytest.raises(IllegalAction):
                    after.apply(Resign(), seat)
                assert after.to_json() == before
    assert {"chance", "to act"} <= kinds and ("off turn" in kinds or game.num_players == 1)


@pytest.mark.parametrize(("name", "config"), CASES, ids=IDS)
def test_CM_5_with_three_sides_a_resignation_skips_the_resigner_and_the_game_goes_on(
    name: str, config: dict[str, Any]
) -> None:
    """CM-5 [decision]: with three or more players (sides), one resignation does not end the game; the
    resigner never acts again and is never among the winners. CM-7: the same holds for a seat that leaves."""
    game = create(name, **config)
    seats = range(game.num_players)
    first = game.initial_state()
    if len(sides(first, seats)) < 3:
        pytest.skip("fewer than three sides: a resignation ends the game (or concedes for a team)")
    states = [s for s in states_of(playout(name, config, SEED, platform_actions=False)) if not s.is_terminal]
    rng = Random(31)
    finished = 0
    for index, state in enumerate(states[:: max(1, len(states) // 12)]):
        leaver = index % game.num_players
        state = state.apply(Resign(), leaver)
        if state.is_terminal:
            # Only a betting game may end here: the hand the resigner folded out of was settled and busted
            # every other player but one.
            assert name in ("holdem", "peekpoker"), f"{name} ended on one resignation among three sides"
        resigned_side = side_of(state, leaver)
        for _ in range(MAX_STEPS):
            if state.is_terminal:
                break
            to_act = state.to_act
            if to_act is CHANCE:
                state = state.apply(state.sample_chance(rng))
                continue
            assert all(side_of(state, s) != resigned_side for s in to_act), "a resigner's turn came"
            seat = to_act[rng.randrange(len(to_act))]
            legal = state.legal_actions(seat)
            state = state.apply(legal[rng.randrange(len(legal))], seat)
        if state.is_terminal:  # random board play may go on for long: bouncers take chips off again
            finished += 1
            winners = state.result().winners
            assert all(side_of(state, s) != resigned_side for s in winners), "a resigner won"
    assert finished, "no game finished after the resignation"
