"""The board-game commands (seeds 000 and 001): ``play``, ``hand``, ``odds`` and ``simulate`` for
``zepherin`` and ``classic-board``. Every command that takes a game takes ``--board FILE``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table

from dicepoker.cli.app import hand_app, odds_app, simulate_app
from dicepoker.cli.common import (
    MAX_GAMES,
    AddressOption,
    EngineOption,
    WorkersOption,
    console,
    percent,
    print_json,
    print_odds,
    simulate_report,
    user_errors,
)
from dicepoker.cli.playing import PlayOptions, SeedOption, play_command
from dicepoker.core.errors import ConfigError
from dicepoker.dice import parse_dice
from dicepoker.games.registry import info

if TYPE_CHECKING:
    from dicepoker.arena.simulate import Rate, SimulationReport

GAMES = ("zepherin", "classic-board")

BoardOption = Annotated[
    Path | None,
    typer.Option("--board", help="A board file (TOML or JSON with 'rows'); default: the 9×9 board."),
]


def _options(board: Path | None, **options: Any) -> dict[str, Any]:
    from dicepoker.games.board.layout import load_board

    chosen = {k: v for k, v in options.items() if v is not None}
    if board is not None:
        chosen["board"] = tuple(" ".join(row) for row in load_board(board).rows)
    return chosen


def _play(name: str, options: PlayOptions, vs: str, teams: int | None, players: int | None, board: Path | None) -> int:
    from dicepoker.games.board.rules import game_for
    from dicepoker.tui.board import build

    count = players
    if count is None:
        listed = [n for n in vs.split(",") if n.strip()]
        count = len(listed) if len(listed) > 1 else (teams if teams is not None else 2)
    game = game_for(name, **_options(board, players=count, teams=teams))
    return build(game, vs=vs, **options.at_terminal()).run()


VsOption = Annotated[
    str,
    typer.Option(
        "--vs",
        help="expert, greedy, random or human for the other seats; or one name per seat "
        "(e.g. human,expert,human,greedy).",
    ),
]
TeamsOption = Annotated[int | None, typer.Option(help="2 or 3 teams (classic-board); zepherin is 2.")]
PlayersOption = Annotated[int | None, typer.Option(help="Number of seats; seating alternates teams.")]


ON_CLOCK = "the engine completes the turn (BD-14)"
LOCAL_ONLY = ("teams", "players", "board")


def _play_command(name: str, doc: str) -> Callable[..., None]:
    """Register ``dicepoker play <name>`` for a board game (both take the same options)."""

    def start(
        options: PlayOptions,
        vs: VsOption = "expert",
        teams: TeamsOption = None,
        players: PlayersOption = None,
        board: BoardOption = None,
    ) -> int:
        return _play(name, options, vs, teams, players, board)

    start.__doc__ = doc
    return play_command(name, clock=ON_CLOCK, local_only=LOCAL_ONLY)(start)


play_zepherin = _play_command(
    "zepherin",
    """Play the Zepherin board game (seed 000), or at a server with --server.

    Example: dicepoker play zepherin --vs expert --seed 7
    Online:  dicepoker play zepherin --server http://127.0.0.1:8000 --table 3f2a9c41d0e8b7a6
    """,
)
play_classic = _play_command(
    "classic-board",
    """Play the classic board game (seed 001), or at a server with --server.

    Example: dicepoker play classic-board --players 3 --vs greedy
    Online:  dicepoker play classic-board --server http://127.0.0.1:8000 --table 3f2a9c41d0e8b7a6
    """,
)


def _hand(name: str, dice: list[str], board: Path | None, as_json: bool) -> None:
    with user_errors():
        from dicepoker.games.board.claims import read_hand
        from dicepoker.games.board.layout import describe_label
        from dicepoker.games.board.rules import game_for

        rules = game_for(name, **_options(board)).rules
        layout = rules.layout
        reading = read_hand(parse_dice(" ".join(dice)))
        labels = list(reading.labels) if not reading.wild else sorted(set(layout.labels) - {"**"})
        squares = {label: [layout.square_name(s) for s in layout.squares_by_label[label]] for label in labels}
        removal = reading.wild and rules.preset.five_kind_removal  # BD-8
        bouncer = reading.hand.label in ("straight", "full house")
        if as_json:
            print_json(
                {
                    "game": name,
                    "dice": list(reading.dice),
                    "hand": reading.hand.label.replace(" ", "-"),
                    "description": reading.describe(),
                    "label": reading.label,
                    "lucky": reading.lucky,
                    "wild": reading.wild,
                    "may_remove": removal,
                    "bouncer_when_full": bouncer,
                    "claims": squares,
                }
            )
            return
        console.print(f"[bold]{reading.describe()}[/]  (dice {' '.join(map(str, reading.dice))})")
        if reading.wild:
            console.print("Wild (BD-8): any open square" + (", or remove an opponent chip." if removal else "."))
        elif not labels:
            console.print("Nothing to claim: the roll is forfeited (BD-7).")
        for label in labels if not reading.wild else []:
            console.print(f"  may claim {label} ({describe_label(label)}) at row/col {', '.join(squares[label])}")
        if bouncer:
            console.print("  bouncer (BD-9): when every such square is taken, remove an opponent chip instead.")


DiceArgument = Annotated[list[str], typer.Argument(help="Five dice showing 1 to 6: '1 1 1 1 3' or '11113'.")]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON.")]


@hand_app.command("zepherin")
def hand_zepherin(dice: DiceArgument, board: BoardOption = None, as_json: JsonOption = False) -> None:
    """The hand five dice make, its lucky option and the squares it may claim.

    Example: dicepoker hand zepherin 1 1 1 1 3
    """
    _hand("zepherin", dice, board, as_json)


@hand_app.command("classic-board")
def hand_classic(dice: DiceArgument, board: BoardOption = None, as_json: JsonOption = False) -> None:
    """The hand five dice make, its lucky option and the squares it may claim.

    Example: dicepoker hand classic-board 3 3 5 5 1
    """
    _hand("classic-board", dice, board, as_json)


def _odds(name: str, board: Path | None, as_json: bool) -> None:
    with user_errors():
        from dicepoker.analysis.board_odds import hand_odds, label_odds, odds_json
        from dicepoker.games.board.rules import game_for

        game_for(name, **_options(board))
        if as_json:
            print_json(odds_json(name))
            return
        title = info(name).short_title
        for what, rows in (("each hand", hand_odds()), ("each square label (hand or lucky sum)", label_odds())):
            print_odds(
                f"{title}: {what} in one roll, and within a turn of 3 rolls with the best re-roll plan (exact)",
                ["Key", "Hand", "One roll", "Within 3 rolls"],
                [[row.key, row.name, percent(row.one_roll), percent(row.in_turn)] for row in rows],
                labels=2,
            )


@odds_app.command("zepherin")
def odds_zepherin(board: BoardOption = None, as_json: JsonOption = False) -> None:
    """Exact hand odds in one roll and within a turn. Example: dicepoker odds zepherin --json"""
    _odds("zepherin", board, as_json)


@odds_app.command("classic-board")
def odds_classic(board: BoardOption = None, as_json: JsonOption = False) -> None:
    """Exact hand odds in one roll and within a turn. Example: dicepoker odds classic-board"""
    _odds("classic-board", board, as_json)


def _simulate(
    name: str,
    bots: str,
    games: int,
    seed: int | None,
    workers: int,
    teams: int | None,
    board: Path | None,
    as_json: bool,
    engine: str,
    address: str | None,
) -> None:
    with user_errors():
        names = [n.strip() for n in bots.split(",") if n.strip()]
        if len(names) < 2:
            raise ConfigError("--bots needs one bot per seat, at least two, e.g. --bots expert,greedy")
        config = _options(board, teams=teams)
        report = simulate_report(
            name, names, games, seed, config=config, engine=engine, workers=workers, address=address, as_json=as_json
        )
        if report is not None:
            _print_report(report)


def _print_report(report: SimulationReport) -> None:
    def rate(value: Rate) -> str:
        return f"{value.rate:.1%} [{value.interval.low:.1%}, {value.interval.high:.1%}]"

    console.print(f"{report.games:,} games, seed {report.seed}, {report.workers} worker(s), {report.seconds:.1f} s")
    table = Table()
    for heading in ("Seat", "Wins (95% CI)", "Ties", "Losses", "Mean runs"):
        table.add_column(heading, justify="left" if heading == "Seat" else "right")
    for seat in report.seats:
        table.add_row(
            f"{seat.seat + 1}: {seat.bot}",
            rate(seat.wins),
            f"{seat.ties.rate:.1%}",
            f"{seat.losses.rate:.1%}",
            f"{seat.score.mean:.2f}",
        )
    console.print(table)
    first = report.first_player
    starts = ", ".join(f"seat {s + 1}: {n}" for s, n in enumerate(first.seat_counts))
    console.print(f"First to play (won the roll-off; {starts}): wins {rate(first.wins)}, ties {rate(first.ties)}.")


BotsOption = Annotated[str, typer.Option(help="One bot per seat, comma-separated: expert, greedy, random.")]
GamesOption = Annotated[int, typer.Option(help="How many games to play.", min=1, max=MAX_GAMES)]


@simulate_app.command("zepherin")
def simulate_zepherin(
    bots: BotsOption = "expert,greedy",
    games: GamesOption = 200,
    seed: SeedOption = None,
    workers: WorkersOption = 1,
    board: BoardOption = None,
    as_json: JsonOption = False,
    engine: EngineOption = "local",
    address: AddressOption = None,
) -> None:
    """Bot-vs-bot win rates with 95% intervals; first player shown separately.

    Example: dicepoker simulate zepherin --bots expert,greedy --games 1000 --seed 1
    """
    _simulate("zepherin", bots, games, seed, workers, None, board, as_json, engine, address)


@simulate_app.command("classic-board")
def simulate_classic(
    bots: BotsOption = "expert,greedy",
    games: GamesOption = 200,
    seed: SeedOption = None,
    workers: WorkersOption = 1,
    teams: TeamsOption = None,
    board: BoardOption = None,
    as_json: JsonOption = False,
    engine: EngineOption = "local",
    address: AddressOption = None,
) -> None:
    """Bot-vs-bot win rates with 95% intervals; first player shown separately.

    Example: dicepoker simulate classic-board --bots expert,greedy,random --games 300 --seed 1
    """
    _simulate("classic-board", bots, games, seed, workers, teams, board, as_json, engine, address)
