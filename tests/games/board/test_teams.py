"""BD-2: the team colours are declared once (``GameInfo.teams``): the rules, the browser's facts and the terminal
name team 0 the same (issue 21 §4: it was Red in the terminal and Blue in the browser, and "team 1" in the result)."""

from __future__ import annotations

from random import Random

import pytest

from dicepoker.core.types import Ending
from dicepoker.games.board.teams import TEAMS, team_name
from dicepoker.games.registry import create, info
from dicepoker.tui.board import LEGEND, TEAM_NAMES, TEAM_STYLES


@pytest.mark.parametrize("game", ["zepherin", "classic-board"])
def test_bd2_the_board_games_declare_one_colour_per_team(game: str) -> None:
    facts = info(game)
    assert [t.name for t in facts.teams] == ["Blue", "Orange", "Green"]
    assert facts.to_json()["teams"] == [{"name": t.name, "colour": t.css} for t in TEAMS]


def test_games_without_teams_declare_none() -> None:
    assert info("holdem").to_json()["teams"] == []


def test_bd2_the_terminal_uses_the_declared_colours() -> None:
    assert TEAM_NAMES == ("Blue", "Orange", "Green")
    assert "blue" in TEAM_STYLES[0] and "orange" in TEAM_STYLES[1]
    assert LEGEND.startswith("Legend: (B) (O) (G)")


def test_bd13_the_winning_team_is_named_by_its_colour() -> None:
    """BD-13: "Orange made 2 runs", not "team 1 made 2 runs" (people read colours; seats and teams count from 0)."""
    rng = Random(5)
    state = create("zepherin", players=2).initial_state()
    while not state.is_terminal:
        if state.is_chance:
            state = state.apply(state.sample_chance(rng))
            continue
        to_act = state.to_act
        assert isinstance(to_act, tuple)
        seat = to_act[0]
        state = state.apply(rng.choice(list(state.legal_actions(seat))), seat)
    result = state.result()
    assert result.ending is Ending.COMPLETED  # seed 5 plays to two runs
    (winner,) = {s % 2 for s in result.winners}
    assert result.reason == f"{team_name(winner)} made 2 runs (BD-13)"
    assert "team" not in result.reason


def test_team_name_beyond_the_declared_colours() -> None:
    assert team_name(0) == "Blue" and team_name(5) == "team 6"
