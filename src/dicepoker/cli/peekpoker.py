"""PeekPoker commands: ``odds``, ``equity``, ``play`` and ``simulate`` for peekpoker."""

from __future__ import annotations

from typing import Annotated

import typer

from dicepoker.cli.app import equity_app, odds_app
from dicepoker.cli.common import (
    console,
    percent,
    print_json,
    print_odds,
    user_errors,
)
from dicepoker.cli.duels import duel_command
from dicepoker.cli.playing import PlayOptions, play_command
from dicepoker.core.errors import NotationError
from dicepoker.dice.poker import HandCategory, PokerDice, parse_dice
from dicepoker.games.betting import MAX_STACK


@odds_app.command("peekpoker")
def odds(
    as_json: Annotated[bool, typer.Option("--json", help="Print exact fractions and decimals as JSON.")] = False,
) -> None:
    """Exact chance of each PeekPoker hand over six dice, before and after the crazy-ace re-rolls.

    "After" assumes the player re-rolls aces to maximise the chance of beating the hand they had.

    Example: dicepoker odds peekpoker --json
    """
    from dicepoker.analysis.peekpoker_odds import odds_table

    with user_errors():
        table = odds_table()
        categories = sorted(HandCategory, reverse=True)
        if as_json:
            print_json(
                {
                    "game": "peekpoker",
                    "dice": "3 own + 3 community",
                    "reroll_policy": "maximise the chance of improving",
                    "hands": [
                        {
                            "hand": c.label,
                            "before": str(table.before[c]),
                            "before_decimal": float(table.before[c]),
                            "after": str(table.after[c]),
                            "after_decimal": float(table.after[c]),
                        }
                        for c in categories
                    ],
                    "improve_chance": str(table.improve_chance),
                    "reroll_chance": str(table.reroll_chance),
                }
            )
            return
        print_odds(
            "PeekPoker: each hand over six dice, 3 own and 3 community (exact)",
            ["Hand", "Before re-rolls", "After ace re-rolls"],
            [[c.label, percent(table.before[c]), percent(table.after[c])] for c in categories],
            note=f"Re-rolling aces to improve: re-rolls {percent(table.reroll_chance)} of hands, "
            f"improves {percent(table.improve_chance)}.",
        )


@equity_app.command("peekpoker")
def equity(
    own: Annotated[str, typer.Option("--own", help="Your three hidden dice, e.g. 'A K 9'.")],
    community: Annotated[
        str | None, typer.Option("--community", help="The three community dice (unknown if omitted).")
    ] = None,
    opponent: Annotated[
        list[str] | None,
        typer.Option("--opponent", help="An opponent's three dice; repeat for up to 3 (unknown heads-up if omitted)."),
    ] = None,
    policy: Annotated[
        str, typer.Option("--rerolls", help="Ace re-rolls: beat (the best shown hand), improve, or stand.")
    ] = "beat",
    as_json: Annotated[bool, typer.Option("--json", help="Print exact fractions as JSON.")] = False,
) -> None:
    """Exact equity of PeekPoker dice against known or unknown opponents (unknown: heads-up).

    Example: dicepoker equity peekpoker --own 'A A K' --community 'T J Q' --opponent '9 9 9'
    """
    from dicepoker.analysis.peekpoker_odds import RerollPolicy
    from dicepoker.analysis.peekpoker_odds import equity as exact_equity

    with user_errors():
        mine = parse_dice(own, count=3)
        board = parse_dice(community, count=3) if community else None
        others: list[PokerDice | None] = [parse_dice(o, count=3) for o in opponent] if opponent else [None]
        try:
            rerolls = RerollPolicy(policy)
        except ValueError:
            raise NotationError(f"unknown re-roll policy {policy!r}; choose beat, improve or stand") from None
        try:
            result = exact_equity(mine, community=board, opponents=others, policy=rerolls)
        except ValueError as exc:
            raise NotationError(str(exc)) from None
        figures = {"win": result.win, "tie": result.tie, "lose": result.lose, "equity": result.share}
        if as_json:
            print_json(
                {
                    "game": "peekpoker",
                    "own": own,
                    "community": community,
                    "opponents": opponent or None,
                    "rerolls": rerolls.value,
                    **{k: str(v) for k, v in figures.items()},
                    **{f"{k}_decimal": float(v) for k, v in figures.items()},
                }
            )
            return
        console.print(" ".join(f"{k} {float(v):.4%}" for k, v in figures.items()) + f"  (re-rolls: {rerolls.value})")


@play_command("peekpoker", clock="you check, fold or stand (PK-15)", local_only=("stack", "option"))
def play(
    options: PlayOptions,
    players: Annotated[int, typer.Option(help="Number of seats, 2 to 4; you are Player 1.")] = 2,
    vs: Annotated[
        str,
        typer.Option("--vs", help="Opponents: expert, equity, random or human, one for all or comma-separated."),
    ] = "expert",
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option", help="Optional rule (PK-14), repeatable: blinds, forced-bet, split-community, no-ace-rerolls."
        ),
    ] = None,
    stack: Annotated[
        int | None, typer.Option(help="Everyone's starting chips (PK-1; default 48).", min=2, max=MAX_STACK)
    ] = None,
) -> int:
    """Play PeekPoker Hold'em: Crazy Aces in the terminal against bots, or hot-seat with --vs human, or at a server.

    Example: dicepoker play peekpoker --players 3 --vs expert,equity --option blinds --seed 7 --save game.phh
    Online:  dicepoker play peekpoker --server http://127.0.0.1:8000 --table 3f2a9c41d0e8b7a6
    """
    from dicepoker.tui.peekpoker import build

    opponents = [name.strip() for name in vs.split(",")]
    return build(players=players, opponents=opponents, options=option or [], stack=stack, **options.at_terminal()).run()


simulate = duel_command("peekpoker", stacks="48")
