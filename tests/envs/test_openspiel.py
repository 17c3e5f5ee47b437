"""Every game loads in OpenSpiel and passes its random simulation test (explicit chance, per-player strings)."""

from __future__ import annotations

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed: pip install -e '.[research]'")

import dicepoker.envs.openspiel  # noqa: E402  (registers the games)

CONFIGS = [
    ("python_dicepoker_scorecard", {}),
    ("python_dicepoker_scorecard", {"players": 1}),
    ("python_dicepoker_zepherin", {}),
    ("python_dicepoker_classic_board", {"runs_to_win": 1}),
    ("python_dicepoker_holdem", {"stack": 60}),
    ("python_dicepoker_peekpoker", {"stack": 10}),
    ("python_dicepoker_peekpoker", {"players": 3, "stack": 6, "blinds": True}),
]


@pytest.mark.parametrize(("name", "params"), CONFIGS, ids=lambda x: str(x))
def test_random_sim_test(name: str, params: dict[str, object]) -> None:
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_names_follow_the_documented_rule() -> None:
    assert dicepoker.envs.openspiel.spiel_name("classic-board") == "python_dicepoker_classic_board"
    game = pyspiel.load_game("python_dicepoker_classic_board")
    assert game.num_players() == 2


def test_chance_probabilities_are_exact_and_sum_to_one() -> None:
    state = pyspiel.load_game("python_dicepoker_scorecard").new_initial_state()
    state.apply_action(state.legal_actions()[0])  # roll
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 252 and abs(sum(p for _, p in outcomes) - 1) < 1e-12
