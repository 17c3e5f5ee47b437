"""``dicepoker ladder GAME``: a seeded round-robin of a game's bots, rated with OpenSkill, drawn on request.

The arena, OpenSkill and matplotlib are imported inside the command so that ``dicepoker --help`` stays quick.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table

from dicepoker.cli.app import app
from dicepoker.cli.common import (
    AddressOption,
    EngineOption,
    WorkersOption,
    console,
    make_engine,
    print_json,
    user_errors,
    with_progress,
)
from dicepoker.core.errors import ConfigError

if TYPE_CHECKING:
    from dicepoker.arena.ladder import LadderReport

INSTALL_MATPLOTLIB = "--plot draws with matplotlib: pip install 'dicepoker[research]'"


@app.command("ladder")
def ladder_command(
    game: Annotated[str, typer.Argument(help="The game: scorecard, zepherin, classic-board, holdem, peekpoker.")],
    bots: Annotated[
        str | None, typer.Option(help="Bots to rank, comma-separated; default: every bot of the game.")
    ] = None,
    games: Annotated[int, typer.Option(help="Games per pair of bots and seat order.")] = 20,
    seed: Annotated[int | None, typer.Option(help="Seed of the run; the same seed gives the same ladder.")] = None,
    option: Annotated[
        list[str] | None,
        typer.Option("--set", help="A game option KEY=VALUE (VALUE read as JSON), e.g. --set stack=100; repeatable."),
    ] = None,
    plot: Annotated[Path | None, typer.Option(help="Also draw the ladder into this PNG file.")] = None,
    workers: WorkersOption = 1,
    engine: EngineOption = "local",
    address: AddressOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
) -> None:
    """Round-robin of a game's bots (both seat orders, heads-up): OpenSkill ratings with 95% intervals and
    the head-to-head table.

    Example: dicepoker ladder scorecard --games 50 --seed 1 --plot ladder.png
    """
    with user_errors():
        from dicepoker.arena.ladder import ladder
        from dicepoker.tui.common import pick_seed

        names = [name.strip() for name in bots.split(",") if name.strip()] if bots else None
        config = parse_options(option or [])
        run_seed = pick_seed(seed)
        where = make_engine(engine, workers, address)
        if plot is not None:
            _matplotlib()  # a missing extra is reported before the games are played
        total = _total(game, names, games)
        report = with_progress(
            "ladder",
            total,
            lambda progress: ladder(game, names, games, run_seed, config=config, engine=where, progress=progress),
            show=not as_json,
        )
        if plot is not None:
            draw(report, plot)
        if as_json:
            print_json(report.to_json())
            return
        print_ladder(report, command(report, option or []))
        if plot is not None:
            console.print(f"Plot: {plot}")


def parse_options(items: list[str]) -> dict[str, Any]:
    """``["stack=100", "board=..."]`` -> ``{"stack": 100, ...}``; a value that is not JSON stays text.

    >>> parse_options(["stack=100", "name=x"])
    {'stack': 100, 'name': 'x'}
    """
    options: dict[str, Any] = {}
    for item in items:
        key, sep, text = item.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"--set takes KEY=VALUE, e.g. --set stack=100; got {item!r}")
        try:
            options[key.strip()] = json.loads(text)
        except json.JSONDecodeError:
            options[key.strip()] = text
    return options


def command(report: LadderReport, options: list[str]) -> str:
    """The command line that reproduces ``report``."""
    sets = "".join(f" --set {item}" for item in options)
    bots = ",".join(report.bots)
    return f"dicepoker ladder {report.game} --bots {bots} --games {report.games} --seed {report.seed}{sets}"


def print_ladder(report: LadderReport, reproduce: str) -> None:
    console.print(
        f"{report.game} ladder: {len(report.bots)} bots, {report.games} games per pairing and seat order "
        f"({report.total_games:,} games), seed {report.seed}, {report.seconds:.1f} s"
    )
    ratings = Table(title="OpenSkill ratings (95% CI: mu ± 1.96 sigma)")
    for heading in ("Rank", "Bot", "Rating", "95% CI", "Sigma"):
        ratings.add_column(heading, justify="left" if heading == "Bot" else "right")
    for rank, rating in enumerate(report.ratings, start=1):
        ratings.add_row(
            str(rank), rating.bot, f"{rating.mu:.1f}", f"[{rating.low:.1f}, {rating.high:.1f}]", f"{rating.sigma:.2f}"
        )
    console.print(ratings)
    order = [rating.bot for rating in report.ratings]
    table = Table(title="Head to head: row beats column (95% CI)")
    table.add_column("")
    for bot in order:
        table.add_column(bot, justify="right")
    for bot in order:
        cells = []
        for opponent in order:
            if bot == opponent:
                cells.append("—")
                continue
            wins = report.head_to_head[(bot, opponent)].wins
            cells.append(f"{wins.rate:.0%} [{wins.interval.low:.0%}, {wins.interval.high:.0%}]")
        table.add_row(bot, *cells)
    console.print(table)
    console.print(f"reproduce: {reproduce}", markup=False, soft_wrap=True)


def draw(report: LadderReport, path: Path) -> None:
    """Ratings with their intervals beside the head-to-head win rates, as a PNG."""
    from dicepoker.arena.simulate import Z_95

    plt = _matplotlib()
    order = [rating.bot for rating in report.ratings]
    figure, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    mus = [rating.mu for rating in report.ratings]
    errors = [Z_95 * rating.sigma for rating in report.ratings]
    positions = list(range(len(order)))[::-1]
    left.errorbar(mus, positions, xerr=errors, fmt="o", capsize=4)
    left.set_yticks(positions, order)
    left.set_xlabel("OpenSkill rating (mu, 95% interval)")
    left.set_title(f"{report.game}: ratings")
    rates = [[float("nan") if a == b else report.head_to_head[(a, b)].wins.rate for b in order] for a in order]
    image = right.imshow(rates, vmin=0, vmax=1, cmap="RdYlGn")
    right.set_xticks(range(len(order)), order, rotation=30, ha="right")
    right.set_yticks(range(len(order)), order)
    for i, row in enumerate(rates):
        for j, value in enumerate(row):
            if i != j:
                right.text(j, i, f"{value:.0%}", ha="center", va="center")
    right.set_title("row beats column")
    figure.colorbar(image, ax=right, fraction=0.046)
    figure.suptitle(f"{report.total_games:,} games, seed {report.seed}")
    figure.tight_layout()
    try:
        figure.savefig(path, dpi=110)
    finally:
        plt.close(figure)


def _matplotlib() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise ConfigError(INSTALL_MATPLOTLIB) from None
    matplotlib.use("Agg")  # files only: no window, no display needed
    import matplotlib.pyplot as plt

    return plt


def _total(game: str, names: list[str] | None, games: int) -> int:
    from dicepoker.bots.registry import bot_names

    count = len(names) if names else len(bot_names(game))
    return max(1, count * (count - 1) * games)
