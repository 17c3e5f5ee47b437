"""Dice Hold'em commands: ``odds``, ``equity``, ``hand``, ``play`` and ``simulate`` for holdem."""

from __future__ import annotations

from typing import Annotated

import typer

from dicepoker.cli.app import equity_app, hand_app, odds_app
from dicepoker.cli.common import (
    MAX_SAMPLES,
    MIN_SAMPLES,
    console,
    percent,
    print_json,
    print_odds,
    user_errors,
)
from dicepoker.cli.duels import duel_command
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


simulate = duel_command("holdem", stacks="1,000")


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
    from dicepoker.tui.holdem import build

    return build(players=players, opponents=vs.split(","), stack=stack, **options.at_terminal()).run()
