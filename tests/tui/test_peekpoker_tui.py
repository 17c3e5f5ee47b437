"""``dicepoker play peekpoker``: the turn clock (CM-6, PK-15), the end of input and ``--save`` as a hand history.

Hot-seat games (``--vs human``) keep the bots out of it: the dice come from the seed, every decision from the
script. The clock tests write the script into a pipe that then stays silent (:mod:`tests.tui.silence`).
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from rich.console import Console
from typer.testing import CliRunner

import dicepoker.cli.replay  # noqa: F401  (registers the command)
from dicepoker.cli.app import app
from dicepoker.dice.poker import Face
from dicepoker.games.betting import Check
from dicepoker.games.history import is_history, read_history
from dicepoker.games.peekpoker import PeekPokerState, Phase
from dicepoker.games.registry import replay
from dicepoker.tui.common import LineReader
from dicepoker.tui.peekpoker import PeekPokerClient
from tests.tui.silence import FallsSilent, run_cli_falling_silent


def client(reader: LineReader, out: io.StringIO, **options: Any) -> PeekPokerClient:
    settings: dict[str, Any] = {"players": 2, "opponents": ["human"], "options": {}, "seed": 1, "save": None}
    settings.update(options)
    return PeekPokerClient(console=Console(file=out, width=200, color_system=None), reader=reader, **settings)


def play_until_time_is_up(script: str, **options: Any) -> tuple[PeekPokerClient, str]:
    """``script`` through a pipe that then stays silent: the next decision times out, then input ends."""
    out = io.StringIO()
    pipe = FallsSilent(script, out)
    game = client(pipe.reader, out, clock=0.3, **options)
    try:
        assert game.run() == 0
    finally:
        pipe.finish()
    return game, out.getvalue()


def timed_out(game: PeekPokerClient) -> tuple[int, PeekPokerState, PeekPokerState]:
    """The seat of the first timeout and the states just before and after it."""
    log = game.match.log
    index = next(i for i, event in enumerate(log.events) if event.action == "timeout")
    seat = log.events[index].seat
    before, after = replay(log)[index : index + 2]
    assert seat is not None and isinstance(before, PeekPokerState) and isinstance(after, PeekPokerState)
    return seat, before, after


def test_PK_15_silent_player_checks_when_nothing_is_owed() -> None:
    """PK-15 (CM-6): time is up with nothing to call: the engine checks for the player."""
    game, out = play_until_time_is_up("")
    assert "Turn clock: 0.3 s per decision" in out and "timeout: check (PK-15)" in out
    seat, before, after = timed_out(game)
    assert before.phase is Phase.BET and Check() in before.legal_actions(seat)
    assert after.betting is not None and after.betting.in_hand[seat] and after.chips() == before.chips()
    assert "End of input: leaving the game unfinished." in out


def test_PK_15_silent_player_stands_at_an_ace_decision() -> None:
    """PK-15 / PK-8: time is up at the showdown's ace decision: the player stands, keeping the aces."""
    game, out = play_until_time_is_up("check\n" * 4, seed=2)
    seat, before, after = timed_out(game)
    assert before.phase is Phase.ACES and Face.ACE in before.hidden[seat]
    assert f"{game.names[seat]} decided." in out and f"{game.names[seat]} stands" in out
    if after.phase is Phase.ACES:
        assert after.choices[seat] == 0
    else:
        assert after.previous is not None and after.previous.shown[seat] == before.hidden[seat]


def test_PK_15_clock_through_a_pipe_folds_facing_a_bet_then_replay(tmp_path: Path) -> None:
    """``play peekpoker --clock --save``: the second player stays silent facing a bet and folds (PK-15, PK-11);
    the hand history replays with ``dicepoker replay`` (CM-2)."""
    path = tmp_path / "timed.phh"
    args = ["play", "peekpoker", "--vs", "human", "--clock", "0.5", "--seed", "3", "--save", str(path)]
    status, out, err = run_cli_falling_silent(*args, script="bet 2\n")
    assert status == 0 and err == ""
    assert "timeout: fold (PK-15)" in out and f"Saved the hand history to {path}" in out
    text = path.read_text(encoding="utf-8")
    assert is_history(text) and "(the others folded, PK-11)" in text
    log = read_history(text)
    index = next(i for i, event in enumerate(log.events) if event.action == "timeout")
    assert log.events[index - 1].action == "bet 2" and log.events[index].seat != log.events[index - 1].seat
    after = replay(log)[index + 1]
    assert isinstance(after, PeekPokerState) and after.previous is not None
    assert after.previous.won[log.events[index - 1].seat or 0] > 0, "the bettor took the pot"
    replayed = CliRunner().invoke(app, ["replay", str(path), "--json"])
    assert replayed.exit_code == 0, replayed.output
    assert json.loads(replayed.stdout)["events"] == [event.to_json() for event in log.events]


def test_quit_saves_the_hand_history(tmp_path: Path) -> None:
    path = tmp_path / "left.phh"
    out = io.StringIO()
    game = client(LineReader(io.StringIO("check\ncheck\nquit\n")), out, save=path)
    assert game.run() == 0
    assert "You left the table." in out.getvalue()
    log = read_history(path.read_text(encoding="utf-8"))
    assert log == game.match.log and replay(log)[-1] == game.state


def test_end_of_input_leaves_cleanly() -> None:
    out = io.StringIO()
    game = client(LineReader(io.StringIO("check\n")), out)
    assert game.run() == 0
    assert "End of input: leaving the game unfinished." in out.getvalue()
    assert not game.state.is_terminal
