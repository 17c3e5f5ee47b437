"""``--save`` and ``--resume`` (issue 13 §3): the path checked first, the log appended as play goes, a cut-off
file read back, and a resumed game whose dice go on as if it had never stopped."""

from __future__ import annotations

from pathlib import Path
from random import Random

import pytest

from dicepoker.bots.registry import create_bot
from dicepoker.core.errors import ConfigError, CorruptLog
from dicepoker.core.log import EventLog
from dicepoker.core.match import Match
from dicepoker.games.registry import create
from dicepoker.tui.saving import SaveFile, check_save_path, parse_saved, read_saved, resume_match
from dicepoker.tui.table import LocalTable


def test_save_path_is_checked_before_anything_is_created(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="is a folder"):
        check_save_path(tmp_path)
    with pytest.raises(ConfigError, match="does not exist"):
        check_save_path(tmp_path / "missing" / "game.jsonl")
    existing = tmp_path / "game.jsonl"
    existing.write_text("precious", encoding="utf-8")
    with pytest.raises(ConfigError, match="--force"):
        check_save_path(existing)
    check_save_path(existing, force=True)
    check_save_path(tmp_path / "new.jsonl")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.jsonl"], "no stray file (.partial or other)"
    assert existing.read_text(encoding="utf-8") == "precious"
    with pytest.raises(FileExistsError):
        SaveFile(existing, Match(create("scorecard", players=1), seed=1).log)


@pytest.mark.parametrize(("game", "options"), [("scorecard", {"players": 2}), ("holdem", {"stack": 30})])
def test_the_log_is_on_disk_after_every_action(tmp_path: Path, game: str, options: dict[str, int]) -> None:
    """Every change is written and flushed before the next one: reading the file mid-game gives the log so far."""
    path = tmp_path / "game.save"
    match = Match(create(game, **options), seed=5)
    bots = {seat: create_bot(game, "random") for seat in range(match.game.num_players)}
    table = LocalTable(match, bots=bots, bot_rng=Random(1), sink=SaveFile(path, match.log))
    steps = 0
    while table.result() is None and steps < 60:
        assert table.wait(table.version, None)
        assert read_saved(path) == match.log, f"after step {steps}"
        steps += 1
    table.close()
    assert read_saved(path) == match.log


def test_resume_continues_the_dice_of_the_seed() -> None:
    """Match.resume draws the logged dice again from the seed: the rest of the game is the uninterrupted one's."""
    game = create("scorecard", players=1)
    whole = Match(game, seed=9)
    for box in range(1, 14):
        whole.act_text("roll")
        whole.act_text(f"score {box}")
    for cut in (0, 1, 5, 6, 17):
        resumed = Match.resume(game, EventLog(game.name, whole.log.config, 9, whole.log.events[:cut]))
        while len(resumed.log.events) < len(whole.log.events):
            event = whole.log.events[len(resumed.log.events)]
            assert event.seat is not None, f"cut {cut}: the dice must come from the seed, not the script"
            resumed.act_text(event.action, event.seat)
        assert resumed.log == whole.log


def test_resume_refuses_dice_that_do_not_follow_from_the_seed_and_takes_fresh_dice_without_one() -> None:
    game = create("scorecard", players=1)
    match = Match(game, seed=2)
    match.act_text("roll")
    forged = EventLog(game.name, match.log.config, 3, match.log.events)
    with pytest.raises(CorruptLog, match="do not follow from seed 3"):
        Match.resume(game, forged)
    unseeded = Match.resume(game, EventLog(game.name, match.log.config, None, match.log.events))
    assert unseeded.state == match.state and unseeded.seed is None
    unseeded.act_text("reroll 1 2 3 4 5")
    assert len(unseeded.log.events) == 4


def test_resume_match_checks_the_game_and_that_it_is_unfinished(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    match = Match(create("scorecard", players=1), seed=2)
    path.write_text(match.log.to_jsonl(), encoding="utf-8")
    with pytest.raises(ConfigError, match="a scorecard game, not holdem"):
        resume_match(path, "holdem")
    assert resume_match(path, "scorecard").state == match.state
    for box in range(1, 14):
        match.act_text("roll")
        match.act_text(f"score {box}")
    path.write_text(match.log.to_jsonl(), encoding="utf-8")
    with pytest.raises(ConfigError, match="that game is over"):
        resume_match(path, "scorecard")


def test_a_history_written_piece_by_piece_equals_the_whole_one(tmp_path: Path) -> None:
    from dicepoker.games.history import write_history

    match = Match(create("peekpoker", players=2, stack=6), seed=4)
    path = tmp_path / "game.phh"
    bots = {seat: create_bot("peekpoker", "random") for seat in range(2)}
    table = LocalTable(match, bots=bots, bot_rng=Random(3), sink=SaveFile(path, match.log))
    while table.result() is None:
        table.wait(table.version, None)
    table.close()
    assert path.read_text(encoding="utf-8") == write_history(match.log)
    assert parse_saved(path.read_text(encoding="utf-8")) == match.log
