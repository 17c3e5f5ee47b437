"""The ``dicepoker`` Typer application and its command groups.

Each game adds its commands to these groups from its own module (``cli/<game>.py``), so a new
game never edits another game's commands.
"""

from __future__ import annotations

from typing import Annotated

import typer

app = typer.Typer(
    name="dicepoker",
    help="Play, study and build on dice poker games. Example: dicepoker play scorecard --vs optimal",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def package_version() -> str:
    """The installed distribution's version (``importlib.metadata``), the one ``pip`` reports."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("dicepoker")
    except PackageNotFoundError:  # running from a source tree that was never installed
        return "unknown (not installed)"


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"dicepoker {package_version()}")
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[
        bool, typer.Option("--version", callback=_print_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    """Options of ``dicepoker`` itself (the commands are the groups below)."""


def _group(name: str, help_text: str) -> typer.Typer:
    group = typer.Typer(help=help_text, no_args_is_help=True, add_completion=False)
    app.add_typer(group, name=name)
    return group


play_app = _group("play", "Play a game in the terminal against bots or hot-seat. Example: dicepoker play scorecard")
score_app = _group("score", "What dice would score. Example: dicepoker score scorecard 1 1 3 3 3")
hand_app = _group("hand", "Name the hand some dice make. Example: dicepoker hand zepherin 1 1 1 1 3")
odds_app = _group("odds", "Exact hand probabilities. Example: dicepoker odds scorecard --json")
equity_app = _group(
    "equity", "Exact or sampled equity of hidden dice. Example: dicepoker equity holdem --pocket '6r 6b'"
)
solve_app = _group("solve", "Solve a game exactly and cache the strategy. Example: dicepoker solve scorecard")
simulate_app = _group(
    "simulate", "Bot-vs-bot statistics. Example: dicepoker simulate scorecard --bots optimal,greedy --games 1000"
)
