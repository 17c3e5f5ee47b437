"""Every game's views survive their JSON: ``View.from_json`` is the exact inverse of ``to_json``.

A client of the server (the terminal client online) sees only the JSON of its seat's view and rebuilds the
view from it, so every field a screen reads must come back equal, for every seat and for a spectator.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicepoker.core.types import View
from dicepoker.games.registry import create
from tests.conformance.test_conformance import CASES, IDS, playout, states_of


def round_trips(view: View) -> None:
    data = json.loads(json.dumps(view.to_json()))  # exactly what travels: plain JSON, no tuples
    again = type(view).from_json(data)
    assert again == view, f"{type(view).__name__} differs after its JSON: {data}"
    assert again.to_json() == data


def check_playout(name: str, config: dict[str, Any], seed: int, every: int = 1) -> int:
    """Every ``every``-th state of a seeded random game (and its last), seen from each seat and a spectator."""
    states = states_of(playout(name, config, seed))
    seats = create(name, **config).num_players
    checked = 0
    for state in [*states[::every], states[-1]]:
        for viewer in [None, *range(seats)]:
            round_trips(state.view(viewer))
            checked += 1
    return checked


@pytest.mark.parametrize(("name", "config"), CASES, ids=IDS)
def test_every_view_of_random_games_round_trips(name: str, config: dict[str, Any]) -> None:
    assert sum(check_playout(name, config, seed, every=3) for seed in range(3)) > 50


@settings(max_examples=25, deadline=None)
@given(case=st.sampled_from(CASES), seed=st.integers(0, 2**32 - 1))
def test_property_views_round_trip(case: tuple[str, dict[str, Any]], seed: int) -> None:
    check_playout(*case, seed, every=7)


def test_bad_data_is_refused_with_a_value_error() -> None:
    from dicepoker.games.board.view import BoardView

    view = create("zepherin").initial_state().view(None)
    data = view.to_json()
    with pytest.raises(ValueError, match="not a board game"):
        BoardView.from_json({**data, "game": "chess"})
