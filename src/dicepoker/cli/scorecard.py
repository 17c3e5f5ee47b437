"""The scorecard commands: ``play``, ``score``, ``odds``, ``solve`` and ``simulate`` for seed 003.

Heavy modules (the terminal client, the solver, the simulator) are imported inside the commands so that
``dicepoker --help`` stays quick.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from dicepoker.cli.app import odds_app, score_app, simulate_app, solve_app
from dicepoker.cli.common import (
    MAX_GAMES,
    AddressOption,
    EngineOption,
    WorkersOption,
    console,
    error_console,
    percent,
    print_json,
    print_odds,
    simulate_report,
    user_errors,
)
from dicepoker.cli.playing import PlayOptions, play_command
from dicepoker.core.errors import ConfigError
from dicepoker.dice import hand_counts, parse_dice

if TYPE_CHECKING:
    from dicepoker.arena.simulate import Rate, SimulationReport

ONE_ROLL_WAYS = 6**5
"""Ordered outcomes of one roll of five dice."""


@play_command("scorecard", clock="the engine plays (SC-14)")
def play_scorecard(
    options: PlayOptions,
    vs: Annotated[
        str,
        typer.Option("--vs", help="Who sits in the other seats: optimal, greedy, random, or human (hot-seat)."),
    ] = "optimal",
    players: Annotated[int, typer.Option(help="Number of seats, 1 to 6; you are Player 1.")] = 2,
) -> int:
    """Play the scorecard game in the terminal against a bot, or hot-seat with --vs human, or at a server.

    Example: dicepoker play scorecard --vs greedy --seed 7 --save game.jsonl
    Online:  dicepoker play scorecard --server http://127.0.0.1:8000 --table 3f2a9c41d0e8b7a6
    """
    from dicepoker.tui.scorecard import build

    return build(players=players, opponent=vs, **options.at_terminal()).run()


@score_app.command("scorecard")
def score_scorecard(
    dice: Annotated[list[str], typer.Argument(help="Five dice showing 1 to 6: '1 1 3 3 3' or '11333'.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON object: box -> score.")] = False,
) -> None:
    """What five dice would score in each box of the card (SC-4 … SC-12).

    Example: dicepoker score scorecard 1 1 3 3 3
    """
    with user_errors():
        from dicepoker.dice.scoring import Category, scores  # lazy: its table needs NumPy, --help does not

        faces = parse_dice(" ".join(dice))
        row = scores(faces)
        if as_json:
            print_json({category.slug: row[category] for category in Category})
            return
        table = Table(title=f"Dice {' '.join(map(str, faces))}", title_justify="left")
        table.add_column("#", justify="right")
        table.add_column("Box")
        table.add_column("Command")
        table.add_column("Score", justify="right")
        for category in Category:
            table.add_row(str(category + 1), category.label, f"score {category.slug}", str(row[category]))
        console.print(table)


@odds_app.command("scorecard")
def odds_scorecard(
    as_json: Annotated[bool, typer.Option("--json", help="Print exact fractions and percents as JSON.")] = False,
) -> None:
    """Exact probability of each poker-dice hand in one roll of five dice.

    Example: dicepoker odds scorecard --json
    """
    with user_errors():
        probabilities = sorted(hand_counts().items(), key=lambda item: -item[0])
        if as_json:
            print_json(
                {
                    hand.label.replace(" ", "-"): {
                        "ways": int(probability * ONE_ROLL_WAYS),
                        "fraction": str(probability),
                        "probability": float(probability),
                        "percent": float(probability * 100),
                    }
                    for hand, probability in probabilities
                }
            )
            return
        print_odds(
            "Scorecard: each hand in one roll of five dice (exact)",
            ["Hand", f"Ways of {ONE_ROLL_WAYS:,}", "Fraction", "Percent"],
            [
                [hand.label, f"{int(probability * ONE_ROLL_WAYS):,}", str(probability), percent(probability)]
                for hand, probability in probabilities
            ],
        )


@solve_app.command("scorecard")
def solve_scorecard(
    as_json: Annotated[bool, typer.Option("--json", help='Print {"expected_score": …, "seconds": …}.')] = False,
    rebuild: Annotated[bool, typer.Option(help="Build the table again even if a cached one is valid.")] = False,
) -> None:
    """Build (or load from the cache) the optimal strategy and print its expected score from an empty card.

    Example: dicepoker solve scorecard --json
    """
    with user_errors():
        from dicepoker.analysis.scorecard_solver import load_strategy
        from dicepoker.tui.progress import BuildProgress

        # On stderr, like the notes, so that --json output stays one clean JSON document.
        with BuildProgress(error_console, "Solving the scorecard (cached for next time)") as bar:
            loaded = load_strategy(rebuild=rebuild, progress=bar.update)
        if loaded.note:
            # On stderr, so that --json output stays one clean JSON document.
            error_console.print(f"[yellow]note:[/] {loaded.note}")
        expected = loaded.strategy.expected_score
        if as_json:
            print_json({"expected_score": expected, "seconds": loaded.seconds})
            return
        console.print(f"Optimal expected score from an empty card: [bold]{expected:.4f}[/]")
        how = "built" if loaded.built else "loaded from the cache"
        console.print(f"Table {how} in {loaded.seconds:.2f} s ({loaded.path}).")


@simulate_app.command("scorecard")
def simulate_scorecard(
    bots: Annotated[
        str,
        typer.Option(help="One bot per seat, comma-separated (optimal, greedy, random); one name = solo games."),
    ] = "optimal,greedy",
    games: Annotated[int, typer.Option(help="How many games to play.", min=1, max=MAX_GAMES)] = 1000,
    seed: Annotated[int | None, typer.Option(help="Seed of the run; game i is seeded from (seed, i).")] = None,
    workers: WorkersOption = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
    engine: EngineOption = "local",
    address: AddressOption = None,
) -> None:
    """Bot-vs-bot statistics: mean score per seat with 95% intervals, win and tie rates.

    Example: dicepoker simulate scorecard --bots optimal,greedy --games 1000 --seed 1 --workers 2
    """
    with user_errors():
        bot_names = [name.strip() for name in bots.split(",") if name.strip()]
        if not bot_names:
            raise ConfigError("--bots needs at least one bot name, e.g. --bots optimal,greedy")
        report = simulate_report(
            "scorecard", bot_names, games, seed, engine=engine, workers=workers, address=address, as_json=as_json
        )
        if report is not None:
            _print_report(report)


def _print_report(report: SimulationReport) -> None:
    def rate(value: Rate) -> str:
        return f"{value.rate:.1%} [{value.interval.low:.1%}, {value.interval.high:.1%}]"

    solo = len(report.seats) == 1
    title = f"{report.games:,} games, seed {report.seed}, {report.workers} worker(s), {report.seconds:.1f} s"
    console.print(title)
    table = Table()
    table.add_column("Seat")
    table.add_column("Mean score (95% CI)", justify="right")
    if not solo:
        for heading in ("Wins (95% CI)", "Ties", "Losses"):
            table.add_column(heading, justify="right")
    for seat in report.seats:
        interval = seat.score.interval
        cells = [
            f"{seat.seat + 1}: {seat.bot}",
            f"{seat.score.mean:.2f} [{interval.low:.2f}, {interval.high:.2f}]",
        ]
        if not solo:
            cells += [rate(seat.wins), f"{seat.ties.rate:.1%}", f"{seat.losses.rate:.1%}"]
        table.add_row(*cells)
    console.print(table)
    if not solo:
        first = report.first_player
        console.print(f"Tied games: {rate(report.tied_games)}.")
        console.print(f"First to play: wins {rate(first.wins)}, ties {rate(first.ties)}; mean {first.score.mean:.2f}.")
