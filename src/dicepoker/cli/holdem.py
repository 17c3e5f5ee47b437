"""Dice Hold'em commands: ``odds``, ``equity``, ``hand``, ``play`` and ``simulate`` for holdem."""

from __future__ import annotations

from typing import Annotated

import typer

from dicepoker.cli.app import equity_app, hand_app, odds_app, simulate_app
from dicepoker.cli.common import (
    MAX_GAMES,
    MAX_SAMPLES,
    MIN_SAMPLES,
    AddressOption,
    EngineOption,
    WorkersOption,
    console,
    percent,
    print_duel,
    print_json,
    print_odds,
    user_errors,
)
from dicepoker.cli.playing import PlayOptions, play_command
from dicepoker.core.errors import NotationError
from dicepoker.dice.suited import best_value, category_of, describe, parse_suited
from dicepoker.games.betting import MAX_STACK


@hand_app.command("holdem")
def hand(
    dice: Annotated[list[str], typer.Argument(help="Five to seven suited dice, e.g. 6r 6b 2w 3y 6w 2r 5y")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """The best five-dice hand of up to seven suited dice (HE-9 … HE-11).

    Example: dicepoker hand holdem 6r 6b 2w 3y 6w 2r 5y
    """
    with user_errors():
        parsed = parse_suited(" ".join(dice))
        if not 5 <= len(parsed) <= 7:
            raise NotationError(f"give five to seven dice, got {len(parsed)}")
        value = best_value(parsed)
        if as_json:
            print_json({"category": category_of(value).label, "hand": describe(value), "value": value})
        else:
            console.print(describe(value))


@odds_app.command("holdem")
def odds(as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False) -> None:
    """Exact probability of each best-hand category over seven dice drawn from the bag.

    Example: dicepoker odds holdem --json
    """
    with user_errors():
        from dicepoker.analysis.holdem_odds import category_probabilities  # lazy: keeps start-up light

        table = category_probabilities()
        ordered = sorted(table.items(), key=lambda item: -int(item[0]))
        if as_json:
            print_json({c.label: {"fraction": str(p), "probability": float(p)} for c, p in ordered})
            return
        print_odds(
            "Dice Hold'em: the best hand of seven dice drawn from the bag (exact)",
            ["Hand", "Fraction", "Percent"],
            [[category.label, str(probability), percent(probability)] for category, probability in ordered],
        )


@equity_app.command("holdem")
def equity_command(
    pocket: Annotated[str, typer.Option("--pocket", help="Your two pocket dice, e.g. '6r 6b'.")],
    versus: Annotated[str | None, typer.Option("--vs", help="The opponent's two dice (default: random).")] = None,
    board: Annotated[str, typer.Option("--board", help="Community dice already rolled (0-5).")] = "",
    samples: Annotated[
        int, typer.Option(help="Monte Carlo samples when not exact.", min=MIN_SAMPLES, max=MAX_SAMPLES)
    ] = 200_000,
    seed: Annotated[int, typer.Option(help="Seed of the Monte Carlo sample.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Win and tie probability of pocket dice: exact against known dice, else Monte Carlo with its error.

    Example: dicepoker equity holdem --pocket "6r 6b" --vs "2w 3y"
    """
    with user_errors():
        from dicepoker.analysis.holdem_odds import equity  # lazy: keeps start-up light

        result = equity(
            parse_suited(pocket, count=2),
            None if versus is None else parse_suited(versus, count=2),
            parse_suited(board),
            samples=samples,
            seed=seed,
        )
        data = {
            "win": result.win,
            "tie": result.tie,
            "equity": result.win + result.tie / 2,
            "exact": None if result.exact is None else str(result.exact),
            "error95": result.error,
            "method": result.method,
            "outcomes": result.samples,
        }
        if as_json:
            print_json(data)
            return
        margin = "" if result.exact is not None else f" ± {result.error:.4f} (95%)"
        console.print(f"win {result.win:.4f}, tie {result.tie:.4f}, equity {data['equity']:.4f}{margin}")
        console.print(f"{result.method} over {result.samples:,} outcomes")


@simulate_app.command("holdem")
def simulate(
    bots: Annotated[str, typer.Option(help="Two bots, comma-separated: expert, equity, random.")] = "expert,equity",
    vs: Annotated[
        str | None, typer.Option(help="Opponents (e.g. station,maniac,tight,lag): a table, each of --bots vs each.")
    ] = None,
    hands: Annotated[
        int, typer.Option(help="How many independent heads-up hands to play.", min=1, max=MAX_GAMES)
    ] = 1000,
    seed: Annotated[int | None, typer.Option(help="Seed of the run; hand i is seeded from (seed, i).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
    session: Annotated[
        int | None,
        typer.Option(help="Fresh bots every N hands, so sessions can run in parallel; default: one session."),
    ] = None,
    workers: WorkersOption = 1,
    engine: EngineOption = "local",
    address: AddressOption = None,
) -> None:
    """Heads-up duel: chips per hand the first bot wins from the second, with a 95% interval.

    Hands are independent games at the default stacks (1,000); the bots swap seats every hand. The bots
    learn over a session; --session N splits the hands into sessions that --workers or --engine ray run
    in parallel (the same --session gives the same figures everywhere).

    Example: dicepoker simulate holdem --bots expert,equity --hands 2000 --seed 1

    Against the opponent styles: dicepoker simulate holdem --bots expert,equity --vs station,maniac,tight,lag
    """
    with user_errors():
        print_duel(
            "holdem",
            bots,
            hands,
            seed,
            as_json,
            vs=vs,
            session=session,
            engine=engine,
            workers=workers,
            address=address,
        )


@play_command("holdem", clock="you check, or fold (HE-16)")
def play(
    options: PlayOptions,
    players: Annotated[int, typer.Option(help="Number of seats, 2 to 6; you are Player 1.")] = 2,
    vs: Annotated[
        str,
        typer.Option(
            "--vs", help="Opponents: expert, equity, random or human (hot-seat); one for all or comma-separated."
        ),
    ] = "expert",
    stack: Annotated[
        int, typer.Option(help="Everyone's starting chips, a multiple of 10 up to 10**9 (HE-1).", min=10, max=MAX_STACK)
    ] = 1000,
) -> int:
    """Play Dice Hold'em in the terminal against bots, or hot-seat with --vs human (saved as a hand history),
    or at a server.

    Example: dicepoker play holdem --players 3 --vs expert --stack 200 --seed 7 --clock 60 --save game.phh
    Online:  dicepoker play holdem --server http://127.0.0.1:8000 --table 3f2a9c41d0e8b7a6
    """
    from dicepoker.tui.holdem import play as play_holdem

    return play_holdem(
        players=players,
        opponents=vs.split(","),
        stack=stack,
        seed=options.seed,
        clock=options.clock,
        save=options.save,
        force=options.force,
        resume=options.resume,
    )
