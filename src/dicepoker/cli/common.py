"""What every command shares: error reporting with exit status 2, JSON output, the console."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import typer
from rich.console import Console

from dicepoker.core.errors import DicePokerError
from dicepoker.core.types import JSON

console = Console(highlight=False)
error_console = Console(stderr=True, highlight=False)

USAGE_ERROR = 2


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn the package's own errors into a clear message and exit status 2, never a traceback."""
    try:
        yield
    except DicePokerError as exc:
        error_console.print(f"[bold red]error:[/] {exc}")
        raise typer.Exit(USAGE_ERROR) from None
    except OSError as exc:
        error_console.print(f"[bold red]error:[/] {exc.strerror or exc}: {exc.filename or ''}".rstrip(": "))
        raise typer.Exit(USAGE_ERROR) from None


def print_json(data: JSON) -> None:
    sys.stdout.write(json.dumps(data, indent=2, sort_keys=False) + "\n")


def print_duel(game: str, bots: str, hands: int, seed: int | None, as_json: bool, vs: str | None = None) -> None:
    """The body of ``dicepoker simulate <betting game>``: a seeded heads-up duel, as text or JSON; with
    ``vs``, every bot of ``bots`` against every opponent of ``vs``, as a Markdown table."""
    from dicepoker.arena.duel import duel, parse_bots  # lazy: keeps the command's start-up light
    from dicepoker.tui.common import pick_seed

    if vs is not None:
        from dicepoker.arena.baselines import parse_names, vs_table

        table = vs_table(game, parse_names(game, bots, "--bots"), parse_names(game, vs, "--vs"), hands, pick_seed(seed))
        if as_json:
            print_json(table.to_json())
        else:
            console.print(table.markdown(), markup=False, soft_wrap=True)
        return
    first, second = parse_bots(game, bots)
    report = duel(game, first, second, hands, pick_seed(seed))
    if as_json:
        print_json(report.to_json())
    else:
        console.print(report.summary(), markup=False, soft_wrap=True)
