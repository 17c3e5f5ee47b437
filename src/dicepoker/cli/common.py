"""What every command shares: error reporting with exit status 2, JSON output, the console."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.console import Console

from dicepoker.core.errors import ConfigError, DicePokerError
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


def print_duel(game: str, bots: str, hands: int, seed: int | None, as_json: bool) -> None:
    """The body of ``dicepoker simulate <betting game>``: a seeded heads-up duel, as text or JSON."""
    from dicepoker.arena.duel import duel, parse_bots  # lazy: keeps the command's start-up light
    from dicepoker.tui.common import pick_seed

    first, second = parse_bots(game, bots)
    report = duel(game, first, second, hands, pick_seed(seed))
    if as_json:
        print_json(report.to_json())
    else:
        console.print(report.summary(), markup=False, soft_wrap=True)


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
