"""Play ``zepherin`` and ``classic-board`` in the terminal: people (hot-seat) and bots in any seat.

The board shows each team's chips as its letter (readable without colour, ``NO_COLOR``) in its colour,
runs in brackets, the last move between arrows, the free square dimmed and the squares the current dice
could claim marked with ``*``; a legend says so. ``--clock`` limits each decision (BD-14). Rules stay in
:mod:`dicepoker.games.board`; the client only shows views and sends actions to a :class:`Match`.
"""

from __future__ import annotations

from collections.abc import Sequence, Set
from random import Random
from typing import Any, Unpack

from rich.console import Console
from rich.text import Text

from dicepoker.bots.registry import bot_names, create_bot
from dicepoker.core.errors import ConfigError, IllegalAction, NotationError
from dicepoker.core.game import Game
from dicepoker.core.types import Action, Resign, Result, Seat, Timeout
from dicepoker.games.board.actions import Claim, Forfeit, Remove
from dicepoker.games.board.claims import read_hand
from dicepoker.games.board.layout import FREE, Layout, Square
from dicepoker.games.board.rules import BoardGame
from dicepoker.games.board.teams import TEAMS
from dicepoker.games.board.view import BoardView
from dicepoker.games.dice_turn import DICE, Reroll, Roll, parse_positions
from dicepoker.tui.common import LineReader, dice_text
from dicepoker.tui.loop import Ask, Names, PlayLoop, Screen
from dicepoker.tui.screens import LocalOptions, local_game
from dicepoker.tui.table import Change, Table

# The colours the game declares (GameInfo.teams): the same team is the same colour here and in the browser.
TEAM_STYLES = tuple(team.terminal for team in TEAMS)
TEAM_NAMES = tuple(team.name for team in TEAMS)
CELL = 5

HELP = """\
Commands (rows and columns count from 1, top left):
  roll            roll all five dice (Enter does the same)
  reroll 2 4 5    re-roll the dice at positions 2, 4 and 5;  keep 1 3  keeps those and re-rolls the rest
  claim 3 4       place a chip on row 3, column 4 (squares marked * can be claimed)
  remove 3 4      take an opponent chip off (five of a kind in zepherin, or a bouncer)
  forfeit         end the turn without placing (only when nothing can be claimed)
  hint            what the expert bot would do;  board  draws the board again
  resign          your team concedes;  quit  leaves (with --save the game is saved as you play)"""


TEAM_LETTERS = tuple(name[0] for name in TEAM_NAMES)
LEGEND = (
    f"Legend: {' '.join(f'({letter})' for letter in TEAM_LETTERS)} a team's chip · [{TEAM_LETTERS[0]}] a chip in a run"
    f" · >{TEAM_LETTERS[0]}< the last move · "
    "* a square the dice may claim · ** free square"
)


def seat_kinds(game: BoardGame, vs: str) -> list[str | None]:
    """``--vs expert``: you in seat 1, that bot elsewhere; ``--vs human,expert,…``: one entry per seat."""
    known = [*bot_names(game.name), "human"]
    names = [n.strip() for n in vs.split(",") if n.strip()]
    players = game.num_players
    if len(names) == 1:
        names = ["human"] + names * (players - 1)
    if len(names) != players:
        raise ConfigError(f"--vs names one opponent, or one player per seat ({players} here); got {vs!r}")
    for name in names:
        if name not in known:
            raise ConfigError(f"unknown player {name!r}; choose from: {', '.join(known)}")
    return [None if name == "human" else name for name in names]


def board_text(view: BoardView, last: Square | None = None) -> Text:
    """The board with coordinates: chips as team letters (readable without colour, ``NO_COLOR``), runs in
    brackets, the last move between arrows, the free square dimmed and claimable squares marked ``*``."""
    position = view.position
    layout: Layout = position.layout
    in_runs = position.protected()
    marked = set(view.claimable) | set(view.removable)
    text = Text("    " + "".join(str(c + 1).center(CELL) for c in range(layout.width)) + "\n")
    for row in range(layout.height):
        text.append(f"{row + 1:>3} ")
        for col in range(layout.width):
            square = layout.square_at(row, col)
            label, owner = layout.labels[square], position.cells[square]
            style = "dim" if label == FREE else ""
            cell = label + ("*" if square in marked else "")
            if owner is not None:
                letter = TEAM_LETTERS[owner]
                cell = f"[{letter}]" if square in in_runs else f"({letter})"
                style = TEAM_STYLES[owner] + (" reverse" if square in in_runs else "")
            elif square in marked:
                style = "bold black on yellow"
            if square == last:
                cell = f">{cell.strip('()[]')}<"
                style += " underline"
            text.append(cell.center(CELL), style=style.strip())
        text.append("\n")
    return text


class BoardScreen(Screen):
    help_text = HELP
    command = ""

    def __init__(self, table: Table, names: Names, console: Console) -> None:
        super().__init__(table, names, console)
        self.command = table.game.name
        self.last: Square | None = None
        self._shown: tuple[int, int] | None = None

    def view(self, seat: Seat | None) -> BoardView:
        view = self.table.view(seat)
        assert isinstance(view, BoardView)
        return view

    def intro(self) -> None:
        self.console.print(f"[bold]{self.table.game.title}[/] — {self.dice_source()}. Type 'help' for commands.")
        self.console.print(f"Players: {', '.join(self.names.labels)}.", markup=False)
        clock = getattr(self.table, "clock", None)
        if clock is not None:
            self.console.print(
                f"Turn clock: {clock:g} s per decision; on expiry the engine completes the turn (BD-14)."
            )
        view = self.view(None)
        history = getattr(self.table, "changes", None)  # a local table's past; a remote one shows the start only
        rolls = [c.action for c in history(0, None) if c.action.startswith("opening")] if history else []
        if rolls:
            self.console.print(f"Roll-off for the first turn (CM-3): {', '.join(rolls)}.", markup=False)
        self.console.print(f"{self.names.says(view.to_play, 'starts')}.", markup=False)

    def prompt(self, seat: Seat) -> str:
        return f"{self.names[seat]} — roll {self.view(seat).rolls_used} of 3> "

    def situation(self, seat: Seat) -> None:
        view = self.view(seat)
        shown = (self.table.version, view.rolls_used)
        if view.rolls_used and shown != self._shown:
            self._shown = shown
            self.console.print(board_text(view, self.last))
            self.console.print(LEGEND, markup=False, highlight=False)
            self.console.print(dice_text(list(view.dice)))
            self.console.print(f"Hand: {read_hand(view.dice).describe()}; rolls left: {view.rolls_left}.")

    def refused(self, error: Exception, seat: Seat) -> None:
        self.console.print(f"[red]{error}[/]", highlight=False)

    def time_up(self, seat: Seat) -> None:
        self.console.print(f"[yellow]Time is up for {self.names[seat]}: the engine completes the turn (BD-14).[/]")

    def interpret(self, line: str, seat: Seat, ask: Ask) -> Action | None:
        words = line.strip().lower().split()
        view = self.view(seat)
        if not words:
            if view.rolls_used:
                raise NotationError("type a command (help lists them)")
            return Roll()
        head, rest = words[0], list(words[1:])
        if head == "board":
            self.console.print(board_text(view, self.last))
            self.console.print(LEGEND, markup=False, highlight=False)
            return None
        if head == "hint":
            bot = create_bot(self.table.game.name, "expert")
            legal = [self.table.game.parse_action(text) for text in self.table.legal(seat)]
            self.console.print(f"The expert bot would play: [bold]{bot.choose(view, legal, Random(0))}[/]")
            return None
        if head == "keep":
            kept = parse_positions(rest) if rest else ()
            return Reroll(tuple(p for p in range(DICE) if p not in kept))
        if head == "resign":
            return Resign()
        action: Action = self.table.game.parse_action(" ".join(words))
        if isinstance(action, Claim) and view.rolls_used and not view.claimable and not view.removable:
            raise IllegalAction("nothing can be claimed with these dice: forfeit")
        return action

    def narrate(self, change: Change) -> None:
        if change.seat is None:
            return
        before = change.before
        assert isinstance(before, BoardView)
        action = self.table.game.parse_action(change.action)
        seat, dice = change.seat, before.dice
        hand = f" ({read_hand(dice).describe()})" if dice else ""
        rolled = f"{self.names.says(seat, 'rolled')} {' '.join(map(str, dice))}{hand}"
        if isinstance(action, (Claim, Remove)):
            self.last = before.position.layout.square_at(action.row, action.col)
        if isinstance(action, Claim):
            self.console.print(f"{rolled} and claims {action.row + 1} {action.col + 1}.", markup=False)
        elif isinstance(action, Remove):
            self.console.print(f"{rolled} and removes the chip at {action.row + 1} {action.col + 1}.", markup=False)
        elif isinstance(action, Forfeit):
            self.console.print(f"{rolled} and forfeits.", markup=False)
        elif isinstance(action, Timeout):
            self.console.print(f"{self.names[seat]}: time is up; the engine completes the turn (BD-14).")
        elif isinstance(action, Resign):
            self.console.print(f"{self.names.says(seat, 'resigns')}.", markup=False)

    def finish(self, result: Result) -> None:
        self.console.print(board_text(self.view(None), self.last))
        self.console.print(LEGEND, markup=False, highlight=False)
        winners = " and ".join(self.names[s] for s in sorted(result.winners)) or "nobody"
        self.console.print(f"[bold]Game over:[/] {result.reason}. Winner(s): {winners}.")


def screen(table: Table, names: Sequence[str], console: Console, *, bots: Set[Seat], reader: LineReader) -> Screen:
    """The board games' screen (:data:`dicepoker.tui.screens.SCREENS`): each player named with their team."""
    game = table.game
    assert isinstance(game, BoardGame)
    labels = [f"{name} ({TEAM_NAMES[game.rules.team_of(seat)]})" for seat, name in enumerate(names)]
    return BoardScreen(table, Names(names, labels), console)


def build(
    game: BoardGame,
    *,
    vs: str = "expert",
    **options: Unpack[LocalOptions],
) -> PlayLoop:
    """A board game at this terminal, ready to ``run()``; ``resume`` continues a saved one (``game`` only names it)."""

    def kinds(played: Game[Any, Any]) -> list[str | None]:
        assert isinstance(played, BoardGame)
        return seat_kinds(played, vs)

    return local_game(
        game.name,
        lambda: game,
        kinds,
        **options,
    )
