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
from dicepoker.tui.loop import PlayLoop
from dicepoker.tui.peekpoker import build
from dicepoker.tui.table import LocalTable
from tests.tui.silence import FallsSilent, run_cli_falling_silent


def client(reader: LineReader, out: io.StringIO, **options: Any) -> PlayLoop:
    settings: dict[str, Any] = {"players": 2, "opponents": ["human"], "seed": 1}
    settings.update(options)
    return build(console=Console(file=out, width=200, color_system=None), reader=reader, **settings)


def table_of(game: PlayLoop) -> LocalTable:
    assert isinstance(game.table, LocalTable)
    return game.table


def play_until_time_is_up(script: str, **options: Any) -> tuple[PlayLoop, str]:
    """``script`` through a pipe that then stays silent: the next decision times out, then input ends."""
    out = io.StringIO()
    pipe = FallsSilent(script, out)
    game = client(pipe.reader, out, clock=0.3, **options)
    try:
        assert game.run() == 1, "the input ends after the timeout"
    finally:
        pipe.finish()
    return game, out.getvalue()


def timed_out(game: PlayLoop) -> tuple[int, PeekPokerState, PeekPokerState]:
    """The seat of the first timeout and the states just before and after it."""
    log = table_of(game).match.log
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
    assert "Game abandoned: the input ended (Ctrl-D)." in out


def test_PK_15_silent_player_stands_at_an_ace_decision() -> None:
    """PK-15 / PK-8: time is up at the showdown's ace decision: the player stands, keeping the aces."""
    game, out = play_until_time_is_up("\ncheck\n" * 4, seed=2)  # hot-seat: Enter takes the keyboard
    seat, before, after = timed_out(game)
    assert before.phase is Phase.ACES and Face.ACE in before.hidden[seat]
    name = game.screen.names[seat]
    assert f"{name} has decided." in out and f"{name} stands" in out
    assert f"{name}: re-roll which aces?" in out
    if after.phase is Phase.ACES:
        assert after.choices[seat] == 0
    else:
        assert after.previous is not None and after.previous.shown[seat] == before.hidden[seat]


def test_PK_15_clock_through_a_pipe_folds_facing_a_bet_then_replay(tmp_path: Path) -> None:
    """``play peekpoker --clock --save``: the second player stays silent facing a bet and folds (PK-15, PK-11);
    the hand history replays with ``dicepoker replay`` (CM-2)."""
    path = tmp_path / "timed.phh"
    args = ["play", "peekpoker", "--vs", "human", "--clock", "0.5", "--seed", "3", "--save", str(path)]
    status, out, err = run_cli_falling_silent(*args, script="\nbet 2\n\n")
    assert status == 1 and err == ""
    assert "timeout: fold (PK-15)" in out and f"The game so far is saved in {path}" in out
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


def test_quit_at_the_handover_saves_the_hand_history(tmp_path: Path) -> None:
    path = tmp_path / "left.phh"
    out = io.StringIO()
    game = client(LineReader(io.StringIO("\ncheck\n\ncheck\nquit\n")), out, save=path)
    assert game.run() == 0
    assert "Player 1 left the game." in out.getvalue()
    log = read_history(path.read_text(encoding="utf-8"))
    assert log == table_of(game).match.log and replay(log)[-1] == table_of(game).state


def test_end_of_input_abandons_the_game() -> None:
    out = io.StringIO()
    game = client(LineReader(io.StringIO("check\n")), out)
    assert game.run() == 1
    assert "Game abandoned: the input ended (Ctrl-D)." in out.getvalue()
    assert not table_of(game).state.is_terminal


# -- the prompt (issue 13 §4) ----------------------------------------------------------------------------
def test_commands_any_case_help_hint_allin_and_the_stack_option() -> None:
    out = io.StringIO()
    script = "HELP\nHint\nStatus\nALLIN\nquit\n"
    game = client(LineReader(io.StringIO(script)), out, opponents=["random"], stack=10, seed=1)
    assert game.run() == 0
    text = out.getvalue()
    assert "Stacks 10" in text and "allin                  put in all your chips" in text
    assert "The expert bot would play:" in text
    mine = [e.action for e in table_of(game).match.log.events if e.seat == 0]
    assert mine and mine[0] in ("bet 9", "raise 9", "call"), "allin puts in every chip"
    assert "seat 0" not in text and "\nyou" not in text and "You > " in text, "one naming scheme: You"


def test_ace_prompt_and_every_re_roll_shown_bots_included() -> None:
    """PK-8: the ace decision has its own prompt, and each re-roll's result is told, the bot's too (seed 2)."""
    out = io.StringIO()
    script = "call\ncheck\nstand\n" * 300
    game = client(LineReader(io.StringIO(script)), out, opponents=["random"], seed=2, stack=6)
    game.run()
    text = out.getvalue()
    assert "Random bot re-rolls 1 ace(s): T K A → T K K" in text
    assert "re-roll which aces?" in text or "You stand" in text
    assert table_of(game).state.is_terminal


def test_ace_answers_are_read_in_any_form() -> None:
    from dicepoker.games.peekpoker.actions import RerollAces, Stand
    from dicepoker.tui.peekpoker import PeekPokerScreen

    read = PeekPokerScreen._aces
    assert read(None, ["stand"]) == Stand() and read(None, ["0"]) == Stand()  # type: ignore[arg-type]
    assert read(None, ["2"]) == RerollAces(2) and read(None, ["a", "a"]) == RerollAces(2)  # type: ignore[arg-type]
    assert read(None, ["reroll", "a"]) == RerollAces(1)  # type: ignore[arg-type]
