"""The one play loop (issue 13 §2, §3, §4): naming, leaving (Ctrl-C, Ctrl-D, a killed terminal and ``--resume``),
the live clock, text typed after a timeout, the hot-seat handover. Real terminals through pexpect; kept short."""

from __future__ import annotations

import io
import re
import signal
import sys
from pathlib import Path

import pexpect
import pytest
from rich.console import Console
from typer.testing import CliRunner

import dicepoker.cli.board
import dicepoker.cli.holdem
import dicepoker.cli.peekpoker
import dicepoker.cli.replay
import dicepoker.cli.scorecard  # noqa: F401  (registers the commands)
from dicepoker.analysis.scorecard_solver import load_strategy
from dicepoker.cli.app import app
from dicepoker.core.log import EventLog
from dicepoker.tui.common import LineReader
from dicepoker.tui.loop import Names, seat_names
from dicepoker.tui.saving import read_saved
from dicepoker.tui.scorecard import build
from dicepoker.tui.table import LocalTable

CLI = "from dicepoker.cli import main; main()"


@pytest.fixture(scope="module", autouse=True)
def strategy_cached() -> None:
    load_strategy()  # the scorecard review needs the table: built once before any process races to build it


def spawn(*args: str) -> pexpect.spawn:
    return pexpect.spawn(sys.executable, ["-c", CLI, *args], encoding="utf-8", timeout=30, dimensions=(40, 160))


# -- naming -------------------------------------------------------------------------------------------
def test_one_naming_scheme_and_the_grammar_of_you() -> None:
    assert seat_names([None, "optimal"]) == ["You", "Optimal bot"]
    assert seat_names([None, None, "expert"]) == ["Player 1", "Player 2", "Expert bot"]
    assert seat_names([None, "random", "random"]) == ["You", "Random bot 2", "Random bot 3"]
    names = Names(["You", "Greedy bot"])
    assert [names.says(0, v) for v in ("deals", "re-rolls 2 ace(s)", "has decided", "shows", "stands")] == [
        "You deal",
        "You re-roll 2 ace(s)",
        "You have decided",
        "You show",
        "You stand",
    ]
    assert names.says(1, "deals") == "Greedy bot deals" and names.whose(0) == "your"


def test_play_help_says_what_bots_remember_and_what_resuming_restores() -> None:
    for game in ("scorecard", "holdem", "peekpoker", "zepherin", "classic-board"):
        text = " ".join(CliRunner().invoke(app, ["play", game, "--help"]).stdout.split())
        assert "Bots keep what they learned" in text and "across the hands of a game" in text, game
        assert "--resume" in text and "with a seed in the file the dice go on exactly" in text, game
        assert "130 after Ctrl-C" in text, game


# -- leaving --------------------------------------------------------------------------------------------
def test_ctrl_c_abandons_with_130_and_keeps_the_save(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    child = spawn("play", "scorecard", "--vs", "greedy", "--seed", "2", "--save", str(path))
    child.expect("You — roll>")
    child.sendline("roll")
    child.expect("You — roll 1 of 3>")
    child.sendintr()
    child.expect("Game abandoned: interrupted \\(Ctrl-C\\)")
    child.expect("--resume")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert [e.action for e in read_saved(path).events][:1] == ["roll"]


def test_ctrl_d_abandons_with_status_1() -> None:
    child = spawn("play", "scorecard", "--vs", "greedy", "--seed", "2")
    child.expect("You — roll>")
    child.sendeof()
    child.expect("Game abandoned: the input ended \\(Ctrl-D\\)")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1


def play_rounds(child: pexpect.spawn, boxes: range) -> None:
    """Fill ``boxes`` one round each: roll once, score the box (confirming a zero when asked)."""
    for box in boxes:
        child.expect(r"— roll> $")
        child.sendline("roll")
        child.expect(r"roll 1 of 3> $")
        child.sendline(f"score {box}")
        if child.expect([r"\[y/N\] $", r"Round \d+ of 13|Game over"]) == 0:
            child.sendline("y")


def test_a_killed_terminal_leaves_a_file_that_replays_and_resumes(tmp_path: Path) -> None:
    """§3: kill -9 mid-game; ``replay`` reads the file and ``--resume`` finishes the game with the seed's dice:
    the same game as one never interrupted."""
    path = tmp_path / "game.jsonl"
    child = spawn("play", "scorecard", "--players", "1", "--seed", "8", "--save", str(path))
    play_rounds(child, range(1, 4))
    child.expect(r"— roll> $")
    child.kill(signal.SIGKILL)
    child.close()
    assert child.signalstatus == signal.SIGKILL
    replayed = CliRunner().invoke(app, ["replay", str(path)])
    assert replayed.exit_code == 0 and "unfinished" in replayed.stdout
    saved = read_saved(path)
    assert [e.action for e in saved.events if e.seat is not None] == [
        action for box in ("ones", "twos", "threes") for action in ("roll", f"score {box}")
    ]

    resumed = spawn("play", "scorecard", "--resume", str(path))
    resumed.expect("Seed 8")
    play_rounds(resumed, range(4, 14))
    resumed.expect(pexpect.EOF)
    resumed.close()
    assert resumed.exitstatus == 0
    finished = read_saved(path)
    # The same commands in one sitting, from the same seed: the same dice, the same log.
    script = "".join(f"roll\nscore {box}\n" for box in range(1, 14))
    whole = build(players=1, seed=8, console=Console(file=io.StringIO()), reader=LineReader(io.StringIO(script)))
    assert whole.run() == 0
    assert isinstance(whole.table, LocalTable)
    assert finished == whole.table.match.log
    assert finished.events[: len(saved.events)] == saved.events


def test_resume_refuses_a_seed_and_a_save_that_exists(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    path.write_text(EventLog("scorecard", {"players": 1}, 4).to_jsonl(), encoding="utf-8")
    result = CliRunner().invoke(app, ["play", "scorecard", "--resume", str(path), "--seed", "3"])
    assert result.exit_code == 2 and "--seed cannot be given with --resume" in result.stderr
    result = CliRunner().invoke(app, ["play", "scorecard", "--resume", str(path), "--save", str(path)])
    assert result.exit_code == 2 and "--force" in result.stderr.replace("\n", " ")


# -- the clock ---------------------------------------------------------------------------------------------
def test_the_clock_counts_down_live_and_text_typed_before_a_timeout_is_discarded() -> None:
    """§4: the seconds left are redrawn in place at the start of the prompt line; a line begun before the
    timeout (here 'resign') is not played at the next prompt."""
    child = spawn("play", "scorecard", "--vs", "human", "--clock", "2.5", "--seed", "1")
    child.expect_exact("[  3s] Player 1 — roll> ")
    # save cursor, rewrite the clock, restore the cursor (which second shows depends on the machine's load)
    child.expect(r"\x1b7\r\[  [12]s\]\x1b8")
    child.send("resign")  # typed, never sent
    child.expect("Time is up for Player 1")
    child.expect("Player 2 — roll> ")
    child.sendline("")  # Enter: Player 2 rolls (had 'resign' survived, Player 2 would resign)
    child.expect("Player 2 — roll 1 of 3> ")
    assert "resigned" not in child.before
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


# -- hot-seat with hidden dice -----------------------------------------------------------------------------
def test_hot_seat_hands_the_keyboard_over_on_a_cleared_screen() -> None:
    """§4: before a player's hidden dice are shown the screen is cleared and they confirm they have the
    keyboard: no screen (the text between two clears) holds two players' pocket dice."""
    log = io.StringIO()
    child = spawn("play", "holdem", "--vs", "human", "--seed", "3")
    child.logfile_read = log
    for _ in range(2):
        child.expect("take the keyboard")
        child.sendline("")
        child.expect("> $")
        child.sendline("check")
    child.expect("take the keyboard")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    screens = re.split(r"\x1b\[2J", log.getvalue())
    pockets = [screen.count("'s dice:") for screen in screens]
    assert len(screens) >= 4 and max(pockets) == 1 and sum(pockets) == 2
