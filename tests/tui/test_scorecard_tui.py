"""``dicepoker play scorecard``: whole games through stdin, hot-seat, bad commands, hints, the clock, saving.

Most games run in-process (commands from a text buffer); a few run the real command through a pipe and
through a pseudo-terminal (pexpect) to check what only a real process shows: EOF handling, the clock.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pexpect
import pytest
from rich.console import Console
from typer.testing import CliRunner

import dicepoker.cli.scorecard  # noqa: F401  (registers the commands)
from dicepoker.analysis.scorecard_review import describe, review_decisions
from dicepoker.analysis.scorecard_solver import Strategy, load_strategy
from dicepoker.cli.app import app
from dicepoker.core.log import EventLog
from dicepoker.core.match import Match
from dicepoker.core.types import Timeout
from dicepoker.games.registry import create, replay
from dicepoker.games.scorecard import Score, ScorecardState, default_category
from dicepoker.tui.common import LineReader
from dicepoker.tui.loop import PlayLoop
from dicepoker.tui.scorecard import build
from dicepoker.tui.table import LocalTable

CLI = "from dicepoker.cli import main; main()"
EVERY_BOX = "".join(f"roll\nscore {box}\n" for box in range(1, 14))
"""A human's whole game that is legal whatever the dice: roll once, fill the boxes in card order."""


@pytest.fixture(scope="module", autouse=True)
def strategy() -> Strategy:
    """Load (or build once) the optimal table before any game needs it, so processes never race to build."""
    return load_strategy().strategy


def play(commands: str, **options: Any) -> tuple[PlayLoop, str, int]:
    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None)
    client = build(console=console, reader=LineReader(io.StringIO(commands)), **options)
    status = client.run()
    return client, out.getvalue(), status


def table_of(client: PlayLoop) -> LocalTable:
    assert isinstance(client.table, LocalTable)
    return client.table


def state_of(client: PlayLoop) -> ScorecardState:
    state = table_of(client).state
    assert isinstance(state, ScorecardState)
    return state


# -- whole games ------------------------------------------------------------------------------------
def test_full_game_against_the_optimal_bot_is_reviewed(strategy: Strategy) -> None:
    client, out, status = play(EVERY_BOX, opponent="optimal", seed=11)
    assert status == 0
    state = state_of(client)
    assert state.is_terminal and all(None not in card for card in state.cards)
    assert "Game over:" in out
    assert "Optimal bot: every decision was optimal." in out
    assert f"averages {strategy.expected_score:.2f}" in out
    decisions = review_decisions(table_of(client).match.log, strategy)
    assert len([d for d in decisions if d.seat == 0]) == 13
    assert sum(d.loss for d in decisions if d.seat == 1) < 1e-6
    assert "You: costliest decisions" in out
    # The same seed gives the same game: dice come from the seed, the bot is deterministic.
    assert play(EVERY_BOX, opponent="optimal", seed=11)[0].table.match.log == table_of(client).match.log


def test_hot_seat_two_humans_take_turns() -> None:
    both = "".join(f"roll\nscore {box}\nroll\nscore {14 - box}\n" for box in range(1, 14))
    client, out, status = play(both, opponent="human", seed=2)
    assert status == 0 and state_of(client).is_terminal
    assert "Player 1 — roll>" in out and "Player 2 — roll>" in out
    log_seats = {event.seat for event in table_of(client).match.log.events}
    assert log_seats == {None, 0, 1}
    assert "Player 2: every decision was optimal." not in out  # filling boxes blindly is not optimal


def test_solo_game_with_one_player() -> None:
    client, _, status = play(EVERY_BOX, players=1, seed=4)
    assert status == 0 and state_of(client).is_terminal
    assert client.screen.names.labels == ["You"]


def test_keep_rerolls_the_other_positions_and_keep_alone_asks_which() -> None:
    """Issue 13 §4: ``keep`` with no positions asks which dice instead of re-rolling all five; a blank
    answer goes back to the prompt and changes nothing."""
    client, out, _ = play("roll\nkeep 1 3\nkeep\n\nkeep\n2 4\nscore chance\n", opponent="random", seed=1)
    actions = [event.action for event in table_of(client).match.log.events if event.seat == 0]
    assert actions[:4] == ["roll", "reroll 2 4 5", "reroll 1 3 5", "score chance"]
    assert out.count("Keep which dice?") == 2


def test_box_names_in_any_spelling_and_zero_needs_confirmation() -> None:
    """Issue 13 §4: box names in any spacing and case; scoring 0 while another box would score asks first."""
    # Seed 3: the first roll is 2 3 4 4 4 (full house scores 0 there, three of a kind 17).
    client, out, _ = play(
        "roll\nscore FullHouse\nno\nscore Full  House\ny\n", opponent="greedy", seed=3, confirm_zero=True
    )
    assert out.count("Full house scores 0 with these dice") == 2 and "Not scored." in out
    assert [e.action for e in table_of(client).match.log.events if e.seat == 0] == ["roll", "score full-house"]
    for spelling in ("fullhouse", "full-house", "Full House", "FULL_HOUSE", "9"):
        client, out, _ = play(f"roll\nscore {spelling}\n", opponent="greedy", seed=3)
        assert state_of(client).cards[0][8] == 0, spelling
    client, out, _ = play("roll\nscore three of a kind\n", opponent="greedy", seed=3, confirm_zero=True)
    assert state_of(client).cards[0][6] == 17 and "scores 0" not in out


def test_resign_ends_a_two_player_game() -> None:
    client, out, status = play("resign\n", opponent="greedy", seed=1)
    assert status == 0
    assert state_of(client).result().winners == {1}
    assert "You resigned." in out


# -- bad commands -----------------------------------------------------------------------------------
def test_bad_commands_explain_and_change_nothing() -> None:
    bad = ["bogus", "keep 9", "keep 1 1", "reroll", "score 42", "score", "roll", "keep 1 2 3 4 5", ""]
    bad += ["card", "help"]
    client, out, status = play("roll\n" + "\n".join(bad) + "\n", opponent="greedy", seed=6)
    assert status == 1, "the input ended in the middle of the game"
    assert table_of(client).match.log.events[0].action == "roll"
    assert len(table_of(client).match.log.events) == 2, "only the roll and its dice: every bad command was rejected"
    assert "unknown command 'bogus'" in out
    assert "'9' is not a die position" in out
    assert "position 1 named twice" in out
    assert "name at least one die position" in out
    assert "unknown category '42'" in out
    assert "say which box" in out
    assert "not allowed: the dice are already rolled" in out
    assert "keeping all five dice ends the rolling" in out
    assert "Commands (dice positions are 1 to 5" in out
    assert "Game abandoned: the input ended (Ctrl-D)." in out


def test_no_rolls_left_after_the_third() -> None:
    client, out, _ = play("roll\nreroll 1\nreroll 1\nreroll 1\nscore 13\n", opponent="random", seed=8)
    assert "not allowed: no rolls left" in out
    assert state_of(client).cards[0][12] is not None


def test_unknown_opponent_and_bad_clock_exit_2() -> None:
    runner = CliRunner()
    for args, message in [
        (["--vs", "wizard"], "unknown opponent 'wizard'"),
        (["--clock", "0"], "--clock must be a positive"),
        (["--players", "9"], "1 to 6 players"),
    ]:
        result = runner.invoke(app, ["play", "scorecard", *args], input="")
        assert result.exit_code == 2, result.output
        assert message in result.stderr


# -- hints ------------------------------------------------------------------------------------------
def test_hint_fits_a_24_line_terminal_and_speaks_of_values(strategy: Strategy) -> None:
    """Issue 13 §4: the best line comes last (visible on a 24-line terminal) and choices name dice values only."""
    client, out, _ = play("roll\nhint\n", opponent="greedy", seed=21)
    state = state_of(client)
    values = strategy.action_values(state.cards[0], state.turn.dice, 1)
    best, best_value = values[0]
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Expected final total"))
    end = next(i for i, line in enumerate(lines) if line.startswith("Best: "))
    assert end - start + 1 <= 23, "the hint and the prompt after it fit 24 lines"
    assert lines[end].startswith(f"Best: {describe(best, state.turn.dice)} (expected total {best_value:.2f})")
    assert not any("position" in line or "reroll" in line for line in lines[start : end + 1])
    assert len(table_of(client).match.log.events) == 2, "a hint is not a move"


def test_describe_speaks_of_values() -> None:
    from dicepoker.dice.scoring import Category
    from dicepoker.games.dice_turn import Reroll

    assert describe(Reroll((0, 2)), (6, 3, 1, 6, 6)) == "keep 3 6 6"
    assert describe(Reroll((0, 1, 2, 3, 4)), (6, 3, 1, 6, 6)) == "re-roll all five"
    assert describe(Score(Category.FULL_HOUSE), (2, 2, 3, 3, 3)) == "score full-house (25)"


def test_hint_before_rolling_says_there_is_nothing_to_decide() -> None:
    _, out, _ = play("hint\n", opponent="greedy", seed=1)
    assert "Nothing to decide yet" in out


# -- end of input, quitting, saving -----------------------------------------------------------------
def test_quit_saves_an_unfinished_game(tmp_path: Path) -> None:
    path = tmp_path / "unfinished.jsonl"
    client, out, status = play("roll\nscore 1\nquit\n", opponent="greedy", seed=3, save=path)
    assert status == 0 and "You left the game." in out
    log = EventLog.from_jsonl(path.read_text(encoding="utf-8"))
    assert log == table_of(client).match.log
    assert not replay(log)[-1].is_terminal


def test_review_judges_timeouts_as_the_engines_choice(strategy: Strategy) -> None:
    """SC-14: a timeout rolls once if the player has not rolled, then fills the best immediate box."""
    match = Match(create("scorecard", players=1), seed=5)
    # The first turn rolls before its timeout: an idle first turn would end a solo game (SC-15).
    match.act_text("roll")
    match.act(Timeout())
    assert isinstance(match.state, ScorecardState)
    card_after_first_turn = match.state.cards[0]
    match.act(Timeout())
    decisions = review_decisions(match.log, strategy)
    assert [(d.round, d.rolls_used, d.timed_out) for d in decisions] == [(1, 1, True), (2, 1, True)]
    for decision, card in zip(decisions, [(None,) * 13, card_after_first_turn], strict=True):
        assert decision.chosen == Score(default_category(card, decision.dice))


# -- through a real process -------------------------------------------------------------------------
def run_cli(*args: str, stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", CLI, *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_full_game_through_a_pipe_then_replay(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    game = run_cli("play", "scorecard", "--vs", "greedy", "--seed", "9", "--save", str(path), stdin=EVERY_BOX)
    assert game.returncode == 0, game.stderr
    assert "Game over:" in game.stdout and "Traceback" not in game.stderr
    replayed = run_cli("replay", str(path), "--json", stdin="")
    assert replayed.returncode == 0, replayed.stderr
    result = json.loads(replayed.stdout)["result"]
    final = replay(EventLog.from_jsonl(path.read_text(encoding="utf-8")))[-1]
    assert result == final.result().to_json()
    assert f"Saved the game to {path}" in game.stdout


def test_end_of_input_quits_cleanly() -> None:
    done = run_cli("play", "scorecard", "--vs", "random", "--seed", "1", stdin="roll\n")
    assert done.returncode == 1
    assert "Game abandoned: the input ended (Ctrl-D)." in done.stdout
    assert done.stderr == ""


def spawn(*args: str) -> pexpect.spawn:
    return pexpect.spawn(sys.executable, ["-c", CLI, *args], encoding="utf-8", timeout=30, dimensions=(60, 160))


def test_SC_15_clock_expiry_for_both_openers_ends_in_a_tie() -> None:
    """CM-6 / SC-14 / SC-15: nobody types; each first turn times out and the game ends at once as a tie."""
    child = spawn("play", "scorecard", "--vs", "human", "--clock", "0.5", "--seed", "1")
    child.expect("Time is up for Player 1")
    child.expect("Player 1: the engine scores")
    child.expect("Time is up for Player 2")
    child.expect("neither player started the game")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_SC_14_clock_expiry_after_a_roll_scores_the_best_box(tmp_path: Path) -> None:
    path = tmp_path / "timed.jsonl"
    child = spawn("play", "scorecard", "--vs", "greedy", "--clock", "2", "--seed", "4", "--save", str(path))
    child.expect("You — roll>")
    child.sendline("roll")
    child.expect("You — roll 1 of 3>")
    child.expect("Time is up for You")
    child.expect("You: the engine scores")
    child.expect("You — roll>")  # round 2, after the bot's turn
    child.sendline("quit")
    child.expect("You left the game.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    log = EventLog.from_jsonl(path.read_text(encoding="utf-8"))
    states = replay(log)
    timeout_at = next(i for i, event in enumerate(log.events) if event.action == "timeout")
    before, after = states[timeout_at], states[timeout_at + 1]
    assert isinstance(before, ScorecardState) and isinstance(after, ScorecardState)
    category = default_category(before.cards[0], before.turn.dice)
    assert after.cards[0][category] is not None
