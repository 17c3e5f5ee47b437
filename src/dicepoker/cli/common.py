"""What every command shares: error reporting with exit status 2, JSON output, the console."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated, TypeVar

import typer
from rich.console import Console
from rich.markup import escape

from dicepoker.core.errors import DicePokerError
from dicepoker.core.types import JSON

if TYPE_CHECKING:
    from dicepoker.arena.engine import Engine

T = TypeVar("T")

console = Console(highlight=False)
error_console = Console(stderr=True, highlight=False)

USAGE_ERROR = 2


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn the package's own errors into a clear message and exit status 2, never a traceback."""
    try:
        yield
    except DicePokerError as exc:
        error_console.print(f"[bold red]error:[/] {escape(str(exc))}")  # "[research]" is text, not markup
        raise typer.Exit(USAGE_ERROR) from None
    except OSError as exc:
        error_console.print(f"[bold red]error:[/] {exc.strerror or exc}: {exc.filename or ''}".rstrip(": "))
        raise typer.Exit(USAGE_ERROR) from None


def print_json(data: JSON) -> None:
    sys.stdout.write(json.dumps(data, indent=2, sort_keys=False) + "\n")


EngineOption = Annotated[
    str,
    typer.Option(
        "--engine",
        help="Where the games run: local (processes on this machine) or ray (a Ray cluster; "
        "pip install 'dicepoker[distributed]'). The figures do not depend on it.",
    ),
]
AddressOption = Annotated[
    str | None,
    typer.Option(
        "--address",
        help="With --engine ray: the address of a running cluster (ray start --head prints it); default: a local one.",
    ),
]
WorkersOption = Annotated[
    int, typer.Option(help="Worker processes (with --engine ray: the CPUs of the local cluster); never the figures.")
]


def make_engine(kind: str, workers: int, address: str | None) -> Engine:
    """The engine the ``--engine``, ``--workers`` and ``--address`` options name (checked)."""
    from dicepoker.arena.engine import Engine, import_ray  # lazy: keeps the command's start-up light

    engine = Engine(kind, workers, address)
    if engine.kind == "ray":
        import_ray()  # a missing extra is reported before any game is played
    return engine


def with_progress(label: str, total: int, run: Callable[[Callable[[int], None] | None], T], show: bool) -> T:
    """``run(progress)`` with a progress bar of ``total`` steps when ``show`` and the console is a terminal."""
    if not show or not console.is_terminal:
        return run(None)
    from dicepoker.tui.progress import BuildProgress

    with BuildProgress(console, label) as bar:
        return run(lambda done: bar.update(done, total))


def print_duel(
    game: str,
    bots: str,
    hands: int,
    seed: int | None,
    as_json: bool,
    *,
    session: int | None = None,
    engine: str = "local",
    workers: int = 1,
    address: str | None = None,
) -> None:
    """The body of ``dicepoker simulate <betting game>``: a seeded heads-up duel, as text or JSON."""
    from dicepoker.arena.duel import duel_named, parse_bot_names  # lazy: keeps the command's start-up light
    from dicepoker.tui.common import pick_seed

    names = parse_bot_names(game, bots)
    where = make_engine(engine, workers, address)
    run_seed = pick_seed(seed)
    report = with_progress(
        "hands",
        hands,
        lambda progress: duel_named(game, names, hands, run_seed, session=session, engine=where, progress=progress),
        show=not as_json,
    )
    if as_json:
        print_json(report.to_json())
    else:
        console.print(report.summary(), markup=False, soft_wrap=True)
