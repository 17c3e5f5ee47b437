"""``dicepoker replay FILE``: a saved game, move by move, with the final result.

The file is a JSON-lines event log (the ``--save`` of the scorecard and board games) or a hand history
of a betting game, Dice Hold'em or PeekPoker (:mod:`dicepoker.games.history`); either is recognised by
its first line. A file cut off while it was written (a closed terminal) reads as far as it goes.

Players are named as in the terminal games ("Player 1" …); each roll says whose it is; running scores
are shown as they change (scorecard totals, board runs), and a betting game's per-hand notes (who dealt,
chips, the showdown) are printed where the hand history has them.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated

import typer

from dicepoker.cli.app import app
from dicepoker.cli.common import console, print_json, user_errors
from dicepoker.core.log import EventLog
from dicepoker.core.state import State
from dicepoker.core.types import JSON
from dicepoker.games.registry import info
from dicepoker.games.registry import replay as replay_log

_SEAT = re.compile(r"\bp([0-9]+)\b")


def read_log(text: str) -> EventLog:
    """A hand history or a JSON-lines event log; raises :class:`CorruptLog` saying what is wrong."""
    from dicepoker.tui.saving import parse_saved

    return parse_saved(text)


def player(seat: int) -> str:
    return f"Player {seat + 1}"


def config_text(config: dict[str, JSON]) -> str:
    """``players 2, stack 1000, blinds yes``: the config as words, not a Python dict."""
    parts = []
    for key, value in config.items():
        shown = "yes" if value is True else "no" if value is False else "default" if value is None else value
        if key == "board" and isinstance(value, (list, tuple)):
            shown = f"custom ({len(value)} rows)"
        parts.append(f"{key.replace('_', ' ')} {shown}")
    return ", ".join(parts) or "default options"


def scores_text(state: State) -> str | None:
    """The running score where the game has one between hands: scorecard totals, board runs."""
    totals = getattr(state, "totals", None)
    if callable(totals):
        return "totals " + ", ".join(f"{player(s)} {t}" for s, t in enumerate(totals()))
    position, rules = getattr(state, "position", None), getattr(state, "rules", None)
    if position is not None and rules is not None:
        return "runs " + ", ".join(f"team {team + 1} {len(runs)}" for team, runs in enumerate(position.runs))
    return None


def _whose_roll(game: str, before: State, last_actor: int | None) -> str:
    opening = getattr(before, "opening", None)
    roller = getattr(opening, "roller", None)
    if isinstance(roller, int):
        return f"{player(roller)}'s opening roll"
    if info(game).betting:
        return "the dice"  # the dealer rolls in the betting games, for nobody in particular
    return "dice" if last_actor is None else f"{player(last_actor)}'s roll"


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
        from dicepoker.tui.saving import read_saved

        log = read_saved(file)
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
        _print_replay(log, states, result)


def _print_replay(log: EventLog, states: list[State], result: dict[str, JSON] | None) -> None:
    from dicepoker.games.history import variant_names
    from dicepoker.games.history.format import HistoryWriter

    notes = HistoryWriter(log).variant if log.game in variant_names() else None
    seed = "unknown" if log.seed is None else log.seed
    console.print(f"[bold]{log.game}[/] — {config_text(dict(log.config))}; seed {seed}", markup=True)
    last_actor: int | None = None
    shown_scores = scores_text(states[0])
    for number, (event, before, after) in enumerate(zip(log.events, states, states[1:], strict=False), start=1):
        who = player(event.seat) if event.seat is not None else _whose_roll(log.game, before, last_actor)
        console.print(f"{number:4d}. {who}: {event.action}", markup=False, highlight=False)
        if event.seat is not None:
            last_actor = event.seat
        for comment in notes.comments(event, before, after) if notes is not None else []:
            console.print(f"      # {_SEAT.sub(lambda m: player(int(m[1])), comment)}", markup=False, highlight=False)
        scores = scores_text(after)
        if scores is not None and scores != shown_scores:
            console.print(f"      ({scores})", markup=False, highlight=False)
            shown_scores = scores
    if result is None:
        console.print("[yellow]The game is unfinished.[/]")
    else:
        winners = " and ".join(player(s) for s in result["winners"]) or "nobody"
        scores = ", ".join(f"{player(s)} {v}" for s, v in enumerate(result["scores"]))
        console.print(f"[bold]Result:[/] {result['reason']}; {scores}; won by {winners}.", highlight=False)
