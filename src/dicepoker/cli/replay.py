"""``dicepoker replay FILE``: a saved game, move by move, with the final result.

The file is a JSON-lines event log (the ``--save`` of the scorecard and board games) or a hand history
of a betting game, Dice Hold'em or PeekPoker (:mod:`dicepoker.games.history`); either is recognised by
its first line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from dicepoker.cli.app import app
from dicepoker.cli.common import console, print_json, read_saved_game, user_errors
from dicepoker.core.errors import CorruptLog, DicePokerError
from dicepoker.core.log import EventLog
from dicepoker.games.registry import replay as replay_log


def read_log(text: str) -> EventLog:
    """A hand history or a JSON-lines event log; raises :class:`CorruptLog` saying what is wrong."""
    from dicepoker.games.history import is_history, read_history

    if not is_history(text):
        return EventLog.from_jsonl(text)
    try:
        return read_history(text)
    except CorruptLog:
        raise
    except (DicePokerError, ValueError, TypeError, KeyError) as exc:
        raise CorruptLog(f"damaged hand history: {exc}") from exc


@app.command("replay")
def replay(
    file: Annotated[
        Path, typer.Argument(help="A game saved with --save: a JSON-lines log or a hand history (at most 16 MiB).")
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print the events and result as JSON.")] = False,
) -> None:
    """Replay a saved game move by move and show how it ended.

    Example: dicepoker replay game.jsonl   (or a hand history of holdem or peekpoker: dicepoker replay hand.phh)
    """
    with user_errors():
        log = read_log(read_saved_game(file))
        states = replay_log(log)
        final = states[-1]
        result = final.result().to_json() if final.is_terminal else None
        if as_json:
            print_json(
                {
                    "game": log.game,
                    "config": dict(log.config),
                    "seed": log.seed,
                    "events": [e.to_json() for e in log.events],
                    "result": result,
                }
            )
            return
        console.print(f"[bold]{log.game}[/] {dict(log.config)} seed={log.seed}")
        for number, event in enumerate(log.events, start=1):
            who = "dice" if event.seat is None else f"seat {event.seat}"
            console.print(f"{number:4d}. {who:>7}: {event.action}")
        if result is None:
            console.print("[yellow]The game is unfinished.[/]")
        else:
            winners = ", ".join(f"seat {s}" for s in result["winners"]) or "nobody"
            console.print(f"[bold]Result:[/] {result['reason']}; scores {result['scores']}; won by {winners}")
