"""``dicepoker simulate <betting game>``: the heads-up duel command, declared once for Hold'em and PeekPoker."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated

import typer

from dicepoker.cli.app import simulate_app
from dicepoker.cli.common import MAX_GAMES, AddressOption, EngineOption, WorkersOption, print_duel, user_errors

DOC = """Heads-up duel: chips per hand the first bot wins from the second, with a 95% interval.

    Hands are independent games at the default stacks ({stacks}); the bots swap seats every hand. The bots
    learn over a session; --session N splits the hands into sessions that --workers or --engine ray run
    in parallel (the same --session gives the same figures everywhere).

    Example: dicepoker simulate {game} --bots expert,equity --hands 2000 --seed 1

    Against the opponent styles: dicepoker simulate {game} --bots expert,equity --vs station,maniac,tight,lag
    """


def duel_command(game: str, *, stacks: str) -> Callable[..., None]:
    """Register ``dicepoker simulate <game>`` for a betting game whose default stacks are ``stacks`` chips."""

    def simulate(
        bots: Annotated[str, typer.Option(help="Two bots, comma-separated: expert, equity, random.")] = "expert,equity",
        vs: Annotated[
            str | None,
            typer.Option(help="Opponents (e.g. station,maniac,tight,lag): a table, each of --bots vs each."),
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
        with user_errors():
            print_duel(
                game,
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

    simulate.__doc__ = DOC.format(game=game, stacks=stacks)
    return simulate_app.command(game)(simulate)
