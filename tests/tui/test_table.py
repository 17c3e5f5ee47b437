"""The local table (issue 13 §6): bots and the clock act inside ``wait``, changes carry the observer's views."""

from __future__ import annotations

from random import Random

from dicepoker.bots.registry import create_bot
from dicepoker.core.match import Match
from dicepoker.games.registry import create
from dicepoker.games.scorecard import ScorecardView
from dicepoker.tui.table import LocalTable, Table


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_local_table_is_a_table() -> None:
    table: Table = LocalTable(Match(create("scorecard", players=1), seed=1), bots={}, bot_rng=Random(0))
    assert table.to_act == (0,) and "roll" in table.legal(0)
    assert table.result() is None and table.deadline(0) is None


def test_the_clock_times_out_a_person_inside_wait() -> None:
    clock = FakeClock()
    table = LocalTable(Match(create("scorecard", players=2), seed=1), bots={}, bot_rng=Random(0), clock=30, now=clock)
    assert table.deadline(0) == 130
    assert table.wait(table.version, None) == [], "nothing happens before the deadline"
    table.submit(0, "roll")
    assert table.deadline(0) == 130, "the clock starts again at each decision"
    clock.now = 131
    version = table.version
    changes = table.wait(version, 0)
    assert changes[0].seat == 0 and changes[0].action == "timeout"
    assert all(isinstance(c.after, ScorecardView) and c.after.seat == 0 for c in changes)
    assert [c.version for c in changes] == list(range(version + 1, table.version + 1))
    assert table.to_act == (1,) and table.deadline(1) == 161


def test_bots_move_one_decision_per_wait_and_changes_are_views() -> None:
    bots = {1: create_bot("holdem", "random")}
    table = LocalTable(Match(create("holdem", stack=30), seed=3), bots=bots, bot_rng=Random(0))
    while 1 not in table.to_act:
        table.submit(0, "check" if "check" in table.legal(0) else "call")
    version = table.version
    changes = table.wait(version, 0)
    assert changes and changes[0].seat == 1
    assert all(
        c.after.pocket == table.state.view(0).pocket or c.after.hand != table.state.view(0).hand for c in changes
    )  # type: ignore[attr-defined]
    assert all(getattr(c.after, "seat", None) == 0 for c in changes), "the observer's views, never the bot's"


def test_a_submitted_action_is_applied_once_the_dice_after_it_too() -> None:
    """Issue 18 §4: the table takes the states the match passed through instead of re-applying its log."""
    match = Match(create("scorecard", players=1), seed=1)
    table = LocalTable(match, bots={}, bot_rng=Random(0))
    parsed: list[str] = []
    parse = match.game.parse_action
    match.game.parse_action = lambda text: parsed.append(text) or parse(text)  # type: ignore[method-assign]
    table.submit(0, "roll")
    assert parsed == ["roll"], "only the typed command is parsed: no logged event is parsed and applied again"
    changes = table.changes(0, 0)
    assert [c.action.split()[0] for c in changes] == ["roll", "rolled"]
    assert changes[-1].after == match.state.view(0)
