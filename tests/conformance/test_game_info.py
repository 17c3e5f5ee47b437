"""Every game's declared facts (``GameInfo``, issue 18) are complete and true of the game itself.

A sixth game that forgets a fact, or states one its rules contradict, fails here.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from random import Random

import pytest

from dicepoker.bots.registry import bot_names, create_bot
from dicepoker.core.errors import ConfigError
from dicepoker.core.info import GameInfo
from dicepoker.core.state import State
from dicepoker.games.registry import create, game_class, info, infos, names

RULES = Path(__file__).parents[2] / "docs" / "RULES.md"
INFOS = {i.name: i for i in infos()}


def _states(game_info: GameInfo, seed: int = 1, steps: int = 400) -> list[State]:
    """The states of a random game at the default config (chance drawn, seats picking at random)."""
    rng = Random(seed)
    state: State = game_info.game_class().initial_state()
    seen = [state]
    while not state.is_terminal and len(seen) < steps:
        if state.is_chance:
            state = state.apply(state.sample_chance(rng))
        else:
            to_act = state.to_act
            assert isinstance(to_act, tuple)
            seat = to_act[0]
            state = state.apply(rng.choice(list(state.legal_actions(seat))), seat)
        seen.append(state)
    return seen


def test_the_registry_lists_one_info_per_game_under_its_own_name() -> None:
    assert [i.name for i in infos()] == names()
    for name in names():
        assert info(name).name == name == game_class(name).name
    with pytest.raises(ConfigError, match="unknown game"):
        info("chess")


@pytest.mark.parametrize("name", names())
def test_the_player_range_is_what_the_config_accepts(name: str) -> None:
    players = INFOS[name].players
    assert create(name).num_players == players.default
    assert create(name, players=players.min).num_players == players.min
    assert create(name, players=players.max).num_players == players.max
    for outside in (players.min - 1, players.max + 1):
        if outside >= 1:
            with pytest.raises(ConfigError):
                create(name, players=outside)


@pytest.mark.parametrize("name", names())
def test_hidden_information_is_declared_exactly_when_a_view_hides_something(name: str) -> None:
    game_info = INFOS[name]
    states = _states(game_info)
    hides = any(s.hidden_from_others(seat) is not None for s in states for seat in range(s.num_players))
    assert hides == game_info.hidden_information


@pytest.mark.parametrize("name", names())
def test_the_view_type_and_decoder_rebuild_every_view(name: str) -> None:
    game_info = INFOS[name]
    for state in _states(game_info, steps=120):
        for seat in (None, 0):
            view = state.view(seat)
            assert isinstance(view, game_info.view_type)
            assert game_info.decode_view(json.loads(json.dumps(view.to_json()))) == view


@pytest.mark.parametrize("name", names())
def test_chance_nodes_stay_within_the_declared_bound(name: str) -> None:
    game_info = INFOS[name]
    for state in _states(game_info):
        if state.is_chance:
            assert len(state.chance_outcomes()) <= game_info.chance_outcomes_bound(state.num_players)


@pytest.mark.parametrize("name", names())
def test_the_bot_ladder_and_seat_filler_name_bots_that_exist(name: str) -> None:
    game_info = INFOS[name]
    for bot in (*game_info.bots.names(), game_info.seat_filler):
        assert bot in bot_names(name)
    assert create_bot(name, game_info.bots.easy).name


@pytest.mark.parametrize("name", names())
def test_the_rules_sections_and_clause_prefix_are_in_rules_md(name: str) -> None:
    game_info = INFOS[name]
    headings = re.findall(r"^## (.+)$", RULES.read_text(encoding="utf-8"), flags=re.MULTILINE)
    for section in game_info.rules_sections:
        assert any(h.startswith(section) for h in headings), section
    own = [h for h in headings if h.startswith(game_info.rules_sections[-1])]
    assert own and own[0].endswith(f"({game_info.rule_prefix})")


@pytest.mark.parametrize("name", names())
def test_cm6_clock_summary_titles_and_sample(name: str) -> None:
    """CM-6: 30 s for the scorecard game, 60 s for the others; one paragraph; a sample roll of the game's dice."""
    game_info = INFOS[name]
    assert game_info.clock == (30.0 if name == "scorecard" else 60.0)
    summary = game_info.summary
    assert 150 <= len(summary) <= 500 and "\n" not in summary and summary.count(". ") >= 2
    assert game_info.title == game_class(name).title and 0 < len(game_info.short_title) <= len(game_info.title)
    faces = {"pip": r"[1-6]", "poker": r"(9|10|J|Q|K|A)", "suited": r"[1-6][rbyw]"}[game_info.dice]
    assert game_info.sample_dice and all(re.fullmatch(faces, d) for d in game_info.sample_dice)


@pytest.mark.parametrize("name", [n for n in names() if INFOS[n].betting])
def test_betting_games_share_one_state_vocabulary(name: str) -> None:
    """Issue 18: ``hand``, ``dealer`` (``None`` before the CM-3 high roll) and ``stacks`` in every betting game,
    and a first hand with a chosen dealer, so an arena needs no per-game adapter."""
    game = create(name, players=3)
    before = game.initial_state()
    assert before.hand == 0 and before.dealer is None  # type: ignore[attr-defined]
    dealt = game.start_dealt_by(2)  # type: ignore[attr-defined]
    assert dealt.hand == 1 and dealt.dealer == 2 and sum(dealt.stacks) == 3 * game.config.stack
    assert dealt.view(0).hand == 1 and dealt.view(0).dealer == 2


def test_the_facts_are_json_for_the_browser() -> None:
    for game_info in infos():
        facts = json.loads(json.dumps(game_info.to_json()))
        assert facts["name"] == game_info.name and facts["title"] == game_info.title
        assert facts["time_bank"] == game_info.betting
