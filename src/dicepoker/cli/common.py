"""What every command shares: error reporting with exit status 2, JSON output, the console, and the ranges
of the numeric options (one place, so ``--help`` and the checks agree).

Ranges (a value outside exits with status 2 and says the range; ``--help`` shows it too):

* ``simulate ... --games`` / ``--hands``: 1 to 1,000,000 (every game's record is kept for the report).
* ``simulate ... --workers``: 1 to 64.
* ``equity holdem --samples``: 100 to 1,000,000 (a million samples take about 450 MB; error about ±0.001).
* ``play ... --clock``: more than 0 and at most 3,600 seconds; omitted means no clock.
* ``play holdem --stack`` and PeekPoker stacks: at most 10**9 (the game config checks it).
* ``equity peekpoker --opponent``: at most 3 (PeekPoker is for 2 to 4 players).
* Custom ``--board`` files: at most 1 MiB, 15×15 squares, and no more open squares than the teams have chips.
* ``replay FILE``: at most 16 MiB.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn, TypeVar

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from dicepoker.core.errors import ConfigError, DicePokerError
from dicepoker.core.types import JSON

if TYPE_CHECKING:
    from dicepoker.arena.engine import Engine
    from dicepoker.arena.simulate import SimulationReport

T = TypeVar("T")

console = Console(highlight=False)
error_console = Console(stderr=True, highlight=False)

USAGE_ERROR = 2
MAX_GAMES = 1_000_000
MAX_WORKERS = 64
MIN_SAMPLES, MAX_SAMPLES = 100, 1_000_000
MAX_CLOCK = 3600.0


def check_clock(value: float | None) -> float | None:
    """The ``callback`` of every ``--clock`` option: omitted (no clock), or more than 0 and at most an hour.

    Checked while the options are read, before any game starts; reported like every other error (exit 2).

    >>> check_clock(None), check_clock(30.0)
    (None, 30.0)
    """
    if value is not None and not (math.isfinite(value) and 0 < value <= MAX_CLOCK):
        _report(f"--clock must be a positive number of seconds, at most {MAX_CLOCK:g}; got {value:g}")
        raise typer.Exit(USAGE_ERROR)
    return value


MAX_MESSAGE = 2000
"""Characters of an error message printed: messages quote bad input, and Rich wraps a long word slowly."""


def _report(message: str) -> None:
    # Escaped: a message quoting '[/x]' from a file must not be read as Rich markup (MarkupError).
    if len(message) > MAX_MESSAGE:
        message = message[:MAX_MESSAGE] + "…"
    error_console.print(f"[bold red]error:[/] {escape(message)}")


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn the package's own errors into a clear message and exit status 2, never a traceback."""
    try:
        yield
    except DicePokerError as exc:
        _report(str(exc))
        raise typer.Exit(USAGE_ERROR) from None
    except OSError as exc:
        _report(f"{exc.strerror or exc}: {exc.filename or ''}".rstrip(": "))
        raise typer.Exit(USAGE_ERROR) from None


def percent(probability: Fraction | float) -> str:
    """How every ``odds`` table writes a probability: a percentage to four decimals (``3.8580%``)."""
    return f"{float(probability):.4%}"


def print_odds(
    title: str,
    headings: Sequence[str],
    rows: Iterable[Sequence[str]],
    *,
    labels: int = 1,
    note: str | None = None,
) -> None:
    """The one renderer of every game's ``odds`` table, so that all games look alike.

    ``title`` reads ``<Game>: <what is counted> (exact)``; the first ``labels`` columns name hands and are
    left-aligned, the others (figures, :func:`percent`) right-aligned; ``note`` is printed under the table.
    """
    table = Table(title=title, title_justify="left", title_style="bold")
    for index, heading in enumerate(headings):
        table.add_column(heading, justify="left" if index < labels else "right")
    for row in rows:
        table.add_row(*row)
    console.print(table)
    if note:
        console.print(note, markup=False)


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
    int,
    typer.Option(
        help="Worker processes (with --engine ray: the CPUs of the local cluster); never the figures.",
        min=1,
        max=MAX_WORKERS,
    ),
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
    vs: str | None = None,
) -> None:
    """The body of ``dicepoker simulate <betting game>``: a seeded heads-up duel, as text or JSON; with
    ``vs``, every bot of ``bots`` against every opponent of ``vs``, as a Markdown table (run here)."""
    from dicepoker.arena.duel import duel_named, parse_bot_names  # lazy: keeps the command's start-up light
    from dicepoker.tui.common import pick_seed

    if vs is not None:
        from dicepoker.arena.baselines import parse_names, vs_table

        table = vs_table(game, parse_names(game, bots, "--bots"), parse_names(game, vs, "--vs"), hands, pick_seed(seed))
        if as_json:
            print_json(table.to_json())
        else:
            console.print(table.markdown(), markup=False, soft_wrap=True)
        return

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


def simulate_report(
    game: str,
    bots: Sequence[str],
    games: int,
    seed: int | None,
    *,
    config: Mapping[str, object] | None = None,
    engine: str,
    workers: int,
    address: str | None,
    as_json: bool,
) -> SimulationReport | None:
    """The body of ``dicepoker simulate <game>`` for the scorecard and board games: ``games`` seeded games on
    the engine asked for, with a progress bar; the report as JSON (then ``None``), else returned for printing."""
    from dicepoker.arena.simulate import simulate  # lazy: keeps the command's start-up light
    from dicepoker.tui.common import pick_seed

    run_seed, where = pick_seed(seed), make_engine(engine, workers, address)
    report = with_progress(
        "simulating",
        games,
        lambda progress: simulate(game, list(bots), games, run_seed, config=config, progress=progress, engine=where),
        show=not as_json,
    )
    if not as_json:
        return report
    print_json(report.to_json())
    return None


# -- playing at the terminal ----------------------------------------------------------------------------
PLAY_NOTES = (
    "Bots keep what they learned about the other players across the hands of a game. "
    "--save FILE writes the game as it is played (every action, flushed at once), so a closed terminal "
    "loses nothing; an existing FILE is refused unless --force. --resume FILE continues a saved game: "
    "the game, its options and its dice come from the file (with a seed in the file the dice go on exactly "
    "as they would have; without one they are fresh); the other seats are filled again as --vs says, and "
    "those bots start with no memory of the earlier hands and new random choices. "
    "Exit status: 0 when the game ends or you quit, 1 when the input ends (Ctrl-D), 130 after Ctrl-C, "
    "2 for bad options. Ctrl-C and Ctrl-D say 'game abandoned' and keep the saved file."
)

SaveOption = Annotated[
    Path | None, typer.Option(help="Write the game to this file as it is played, for 'replay' and '--resume'.")
]
ForceOption = Annotated[bool, typer.Option("--force", help="Let --save overwrite an existing file.")]
ResumeOption = Annotated[
    Path | None,
    typer.Option("--resume", help="Continue the game saved in this file (and keep writing to it unless --save)."),
]
INTERRUPTED = 130

ServerOption = Annotated[
    str | None, typer.Option(help="Play at a dicepoker server (http://host:port) instead of locally.")
]
TableOption = Annotated[
    str | None, typer.Option(help="With --server: the table to join (default: the server's play-now table).")
]
NameOption = Annotated[str | None, typer.Option(help="With --server: your name at the table.")]


def play_online_if_asked(
    game: str, server: str | None, table: str | None, name: str | None, local: Mapping[str, object]
) -> int | None:
    """With ``--server``: play ``game`` at that server and return the exit status; without: ``None`` (play here).

    ``local`` holds the options of local play that were given (not ``None``): the server rolls the dice, keeps
    the log and sets the clock, so they are refused with ``--server`` rather than silently ignored; and
    ``--table``/``--name`` without ``--server`` are refused too.
    """
    if server is None:
        if table is not None or name is not None:
            raise ConfigError("--table and --name are for playing at a server: give --server URL too")
        return None
    given = [f"--{option}" for option, value in local.items() if value is not None]
    if given:
        raise ConfigError(
            f"{', '.join(given)} {'is' if len(given) == 1 else 'are'} for local play: at a server the table's "
            "options, dice, clock and log are the server's"
        )
    from dicepoker.cli.online import play_online  # lazy: the network client is not needed for --help

    return play_online(game, server=server, table=table, name=name)


def play_game(start: Callable[[], int], *, seed: int | None = None, resume: Path | None = None) -> NoReturn:
    """Run a terminal game and exit with its status; Ctrl-C before the game loop (a table loading) is 130 too."""
    with user_errors():
        if resume is not None and seed is not None:
            raise ConfigError("--seed cannot be given with --resume: the game's seed comes from the file")
        try:
            status = start()
        except KeyboardInterrupt:
            console.print("\nGame abandoned: interrupted (Ctrl-C).")
            status = INTERRUPTED
    raise typer.Exit(status)
