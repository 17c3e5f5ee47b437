"""``dicepoker play holdem``: seeded games against bots through stdin, hot-seat, bad commands, quitting, saving,
the turn clock.

Most games run in-process (commands from a text buffer); a few run the real command through a pipe to check
the exit status, the end of input, ``--clock`` and ``--save`` followed by ``dicepoker replay``. The clock tests
write their commands into a pipe that then stays silent (:mod:`tests.tui.silence`).
"""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

import dicepoker.cli.holdem  # noqa: F401  (registers the commands)
from dicepoker.cli.app import app
from dicepoker.dice.suited import format_suited
from dicepoker.games.betting import Bet, Call, Check
from dicepoker.games.history import read_history
from dicepoker.games.holdem import HoldemState
from dicepoker.games.registry import replay
from dicepoker.tui.common import LineReader
from dicepoker.tui.holdem import build, pot_line
from dicepoker.tui.loop import PlayLoop
from tests.tui.silence import FallsSilent, run_cli_falling_silent

CLI = "from dicepoker.cli import main; main()"
PASSIVE = "call\ncheck\n" * 400
"""Always one legal action per decision: 'call' when facing a bet, else 'check' (the other is refused)."""


def play(commands: str, **options: Any) -> tuple[PlayLoop, str, int]:
    out = io.StringIO()
    console = Console(file=out, width=200, color_system=None)
    client = build(console=console, reader=LineReader(io.StringIO(commands)), **options)
    status = client.run()
    return client, out.getvalue(), status


def run_cli(*args: str, stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", CLI, *args], input=stdin, capture_output=True, text=True, timeout=60, check=False
    )


# -- whole games ------------------------------------------------------------------------------------
def test_seeded_game_against_a_bot_to_the_end() -> None:
    """The calling station is the fixed opponent here: its play never changes as the other bots improve."""
    client, out, status = play(PASSIVE, opponents=["station"], stack=50, seed=2)
    assert status == 0
    state = client.table.state
    assert state.is_terminal or "You have no chips left" in out
    assert "Showdown of hand 1" in out
    assert "Main pot 20 -> You 20: straight 5 4 3 2 1 over Station bot's two pair 5 5 3 3 2" in out
    assert "same dice, more of one suit (HE-11)" in out
    assert "split: tied with full house 6 6 6 5 5 (HE-14)" in out
    assert "Everyone checked the Flop: its dice are re-rolled (HE-6)." in out
    # One naming scheme and its grammar (issue 13 §4): "You deal", "You show", "over your two pair".
    assert "Hand 2 · You deal" in out and "  You show " in out
    assert "Main pot 20 -> Station bot 20: full house 6 6 6 5 5 over your two pair 6 6 5 5 3" in out
    assert "seat" not in out.lower() and "You shows" not in out
    assert "Game over: Station bot won" in out
    # The same seed gives the same game: the dice come from the seed, the bot's choices from its own stream.
    assert play(PASSIVE, opponents=["station"], stack=50, seed=2)[0].table.match.log == client.table.match.log


def test_a_game_against_the_expert_is_reproducible_too() -> None:
    client, out, status = play(PASSIVE, opponents=["expert"], stack=50, seed=4)
    assert status == 0 and "Game over:" in out
    assert play(PASSIVE, opponents=["expert"], stack=50, seed=4)[0].table.match.log == client.table.match.log


def test_you_see_only_your_own_pocket_dice() -> None:
    client, out, _ = play("check\nquit\n", opponents=["random"], players=3, seed=2)
    state = client.table.state
    mine = format_suited(state.pockets[0])
    shown = [line for line in out.splitlines() if line.startswith("Your dice:")]
    assert shown and all(" ".join(line.split()[2:4]) == mine for line in shown)
    for seat in (1, 2):
        theirs = format_suited(state.pockets[seat])
        assert not any(theirs in line for line in out.splitlines() if "dice" in line.lower())


def test_six_players_against_mixed_bots() -> None:
    client, out, status = play(PASSIVE, players=6, opponents=["random,equity,expert,random,equity"], stack=30, seed=8)
    assert status == 0
    assert "Random bot 2" in out and "Equity bot 3" in out and "Expert bot" in out and "Random bot 5" in out
    assert client.table.state.is_terminal or "You have no chips left: your game is over." in out


def test_hot_seat_players_take_turns() -> None:
    client, out, status = play(PASSIVE, opponents=["human"], stack=30, seed=3)
    assert status == 0 and client.table.state.is_terminal
    assert "Player 1 > " in out and "Player 2 > " in out
    assert {event.seat for event in client.table.match.log.events} == {None, 0, 1}
    assert "Player 2, take the keyboard (everyone else, look away)" in out


# -- commands ---------------------------------------------------------------------------------------
def test_bad_commands_are_refused_and_change_nothing() -> None:
    commands = "foo\nraise 5\nbet 999\nbet\ncall\nhighroll 3\nresign\ntimeout\n\nallin\nquit\n"
    client, out, status = play(commands, opponents=["expert"], seed=1)
    assert status == 0
    assert out.count("not accepted:") == 10
    assert "cannot read action 'foo'" in out
    assert "bet above the maximum: 999 > 10" in out
    assert "bet needs one whole amount" in out
    assert "nothing to call: check instead" in out
    assert "'highroll 3' is not a betting command" in out
    assert "all-in (990) is not possible: the most you may put in now is 10 (HE-5)" in out
    assert "Legal: check, bet 10" in out
    assert not any(event.seat == 0 for event in client.table.match.log.events)
    assert "You left the game." in out


def test_help_status_and_all_in() -> None:
    client, out, _ = play("help\nstatus\nallin\nquit\n", opponents=["random"], stack=20, seed=6)
    assert "raise 20         raise to 20" in out
    assert out.count("Pot: 30; 10 of it bet this round") == 2, "no side pots: the parts are one pot"
    assert "You: call 10 (all-in)" in out
    first = next(event for event in client.table.match.log.events if event.seat == 0)
    assert client.table.match.game.parse_action(first.action) in (Bet(10), Call(), Check())


def test_quit_and_end_of_input_save_the_history(tmp_path: Path) -> None:
    path = tmp_path / "left.phh"
    client, out, status = play("check\n", opponents=["equity"], seed=5, save=path)
    assert status == 1
    assert "Game abandoned: the input ended (Ctrl-D)." in out
    assert f"The game so far is saved in {path}: continue it with 'dicepoker play holdem --resume {path}'" in out
    log = read_history(path.read_text(encoding="utf-8"))
    assert log == client.table.match.log
    assert replay(log)[-1] == client.table.state


# -- the turn clock (CM-6, HE-16) --------------------------------------------------------------------
def first_timeout(events: list[Any]) -> int:
    return next(index for index, event in enumerate(events) if event.action == "timeout")


def test_HE_16_silent_player_facing_a_bet_folds(tmp_path: Path) -> None:
    """HE-16 (CM-6): time is up while facing a bet: the engine folds for the player; the history says 'timeout'."""
    path = tmp_path / "timed.phh"
    out = io.StringIO()
    pipe = FallsSilent("\nbet 10\n\n", out)  # hot-seat: each player presses Enter to take the keyboard
    client = build(
        console=Console(file=out, width=200, color_system=None),
        reader=pipe.reader,
        opponents=["human"],
        seed=2,
        clock=0.3,
        save=path,
    )
    try:
        assert client.run() == 1, "the input ended after the timeout"
    finally:
        pipe.finish()
    text = out.getvalue()
    assert "Turn clock: 0.3 s per decision" in text
    assert "Time is up for Player" in text and "timeout: fold (HE-16)" in text
    log = read_history(path.read_text(encoding="utf-8"))
    index = first_timeout(list(log.events))
    bettor, silent = log.events[index - 1].seat, log.events[index].seat
    assert log.events[index - 1].action == "bet 10" and silent != bettor
    states = replay(log)
    after = states[index + 1]
    assert isinstance(after, HoldemState) and after.last_showdown is not None
    assert after.last_showdown.payouts[0].winners == (bettor,), "the silent player folded"
    assert f'"p{silent} timeout",' in path.read_text(encoding="utf-8")


def test_HE_16_clock_through_a_pipe_checks_when_nothing_is_owed(tmp_path: Path) -> None:
    """``play holdem --clock``: nobody types; the first decision times out and the engine checks (HE-16)."""
    path = tmp_path / "timed.phh"
    status, out, err = run_cli_falling_silent(
        "play", "holdem", "--vs", "human", "--clock", "0.5", "--seed", "1", "--save", str(path)
    )
    assert status == 1 and err == ""
    assert "timeout: check (HE-16)" in out and "Game abandoned: the input ended (Ctrl-D)." in out
    log = read_history(path.read_text(encoding="utf-8"))
    index = first_timeout(list(log.events))
    seat = log.events[index].seat
    assert seat is not None
    before, after = replay(log)[index : index + 2]
    assert isinstance(before, HoldemState) and isinstance(after, HoldemState)
    assert Check() in before.legal_actions(seat)
    assert after.betting is not None and after.betting.in_hand[seat] and after.chips() == before.chips()


# -- through a real process -------------------------------------------------------------------------
def test_full_game_through_a_pipe_then_replay(tmp_path: Path) -> None:
    path = tmp_path / "game.phh"
    game = run_cli("play", "holdem", "--stack", "50", "--seed", "4", "--save", str(path), stdin=PASSIVE)
    assert game.returncode == 0, game.stderr
    assert "Game over:" in game.stdout and game.stderr == ""
    replayed = run_cli("replay", str(path), "--json", stdin="")
    assert replayed.returncode == 0, replayed.stderr
    data = json.loads(replayed.stdout)
    assert data["game"] == "holdem" and data["seed"] == 4
    assert data["result"] == {
        "winners": [0],
        "scores": [100, 0],
        "reason": "the last player with chips wins (HE-15)",
        "ending": "last-with-chips",
    }


def test_end_of_input_through_a_pipe_exits_0(tmp_path: Path) -> None:
    path = tmp_path / "eof.phh"
    done = run_cli("play", "holdem", "--vs", "random", "--seed", "1", "--save", str(path), stdin="check\n")
    assert done.returncode == 1 and done.stderr == ""
    assert "Game abandoned: the input ended (Ctrl-D)." in done.stdout
    replayed = run_cli("replay", str(path), stdin="")
    assert replayed.returncode == 0 and "unfinished" in replayed.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--vs", "bogus"], "no opponent 'bogus'"),
        (["--players", "7"], "2 to 6 players"),
        (["--stack", "15"], "multiples of 10"),
        (["--players", "3", "--vs", "expert,random,equity"], "3 opponents for the 2 other seats"),
        (["--clock", "0"], "--clock must be a positive number of seconds"),
    ],
)
def test_bad_options_exit_2(args: list[str], message: str) -> None:
    result = CliRunner().invoke(app, ["play", "holdem", *args], input="")
    assert result.exit_code == 2
    assert result.stderr.startswith("error:") and message in " ".join(result.stderr.split())


# -- the pot line (issue 13 §4) ---------------------------------------------------------------------------
def _view(**fields: Any) -> Any:
    from dataclasses import replace

    from dicepoker.games.holdem import HoldemGame

    return replace(HoldemGame(players=3).initial_state().view(None), **fields)


def test_pot_line_without_all_in_is_one_figure() -> None:
    view = _view(pots=((60, (0, 1, 2)), (20, (0, 1))), stacks=(50, 50, 50), in_hand=(True, True, True), bets=(0, 0, 0))
    assert pot_line(view) == "Pot: 80"


def test_pot_line_with_an_all_in_player_splits_and_adds_up() -> None:
    view = _view(
        pots=((60, (0, 1, 2)), (40, (0, 1)), (10, (0,))),
        stacks=(5, 20, 0),
        in_hand=(True, True, True),
        bets=(0, 0, 0),
    )
    line = pot_line(view)
    assert line == "Pot: 110 (main 60 + side 1 40 + uncalled 10)"
    parts = [int(amount) for amount in re.findall(r"(?:main|side [0-9]+|uncalled) ([0-9]+)", line)]
    assert sum(parts) == 110, "the parts add up to the total"
