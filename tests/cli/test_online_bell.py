"""Issue 21 §3: the terminal online client rings the bell (``\\a``) exactly when the turn passes to its seat
after someone else's move: not at every frame, not after its own move, not for a redraw of the same turn."""

from __future__ import annotations

import io
from types import SimpleNamespace
from typing import Any

from dicepoker.cli.online import RemoteTable, _ring, turn_came
from dicepoker.client import StateFrame
from dicepoker.games.registry import create

ME, BOT = 0, 1


def frame(version: int, to_act: list[int], last: tuple[int | None, str] | None, *, seat: int = ME) -> StateFrame:
    """A scorecard state frame for ``seat``; legal actions only when it is that seat's turn (as the server does)."""
    view = create("scorecard").initial_state().view(seat).to_json()
    data: dict[str, Any] = {
        "type": "state",
        "table": "t1",
        "seat": seat,
        "version": version,
        "status": "playing",
        "view": view,
        "to_act": to_act,
        "legal_actions": ["roll"] if seat in to_act else [],
        "last": None if last is None else {"seat": last[0], "action": last[1]},
    }
    return StateFrame(**data)


def test_the_turn_comes_after_the_opponents_move() -> None:
    assert turn_came(frame(5, [BOT], (ME, "score chance")), frame(7, [ME], (BOT, "score ones")))


def test_no_bell_after_my_own_move_or_a_redraw_or_while_it_stays_mine() -> None:
    mine = frame(3, [ME], (BOT, "score ones"))
    assert not turn_came(mine, frame(4, [ME], (ME, "roll")))  # still my turn after my roll
    assert not turn_came(frame(4, [BOT], (BOT, "roll")), frame(4, [ME], (BOT, "roll")))  # same version: a redraw
    assert not turn_came(frame(8, [], (ME, "call")), frame(9, [ME], (ME, "call")))  # my move, then dice
    assert not turn_came(frame(5, [ME], (BOT, "x")), frame(6, [BOT], (ME, "score ones")))  # the turn left me
    assert not turn_came(frame(5, [BOT], None), frame(6, [ME], None))  # no move by anyone: the game's start
    others = frame(5, [BOT], (BOT, "roll"))
    assert not turn_came(others, frame(6, [BOT], (BOT, "score ones")))  # another's turn after another's move


class FakeConnection:
    """What RemoteTable uses of a SyncTable: the first state and the hook that hands it every later frame."""

    def __init__(self, first: StateFrame) -> None:
        self.state = first
        self.connection = SimpleNamespace(on_frame=None)

    def deliver(self, next_frame: StateFrame) -> None:
        self.connection.on_frame(next_frame)


def test_the_remote_table_rings_once_per_turn_that_comes() -> None:
    connection = FakeConnection(frame(1, [ME], (BOT, "roll")))
    table = RemoteTable(SimpleNamespace(), connection, {"id": "t1", "game": "scorecard", "config": {}})  # type: ignore[arg-type]
    console = SimpleNamespace(file=io.StringIO())
    table.on_turn = lambda: _ring(console)
    script = [
        frame(2, [ME], (ME, "roll")),  # my roll: still mine
        frame(3, [BOT], (ME, "score chance")),  # my score: the bot's turn
        frame(4, [BOT], (BOT, "roll")),
        frame(5, [ME], (BOT, "score ones")),  # the bot scored: mine again -> one bell
        frame(5, [ME], (BOT, "score ones")),  # the same frame again (a redraw): no bell
        frame(6, [ME], (ME, "roll")),
        frame(7, [BOT], (ME, "score twos")),
        frame(8, [ME], (BOT, "score threes")),  # -> a second bell
    ]
    rings = []
    for step in script:
        connection.deliver(step)
        table.wait(step.version - 1, ME, timeout=0)
        rings.append(console.file.getvalue().count("\a"))
    assert rings == [0, 0, 0, 1, 1, 1, 1, 2]
