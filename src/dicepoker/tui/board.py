"""Play ``zepherin`` and ``classic-board`` in the terminal: people (hot-seat) and bots in any seat.

The board is drawn in colour: each team's chips in its colour, runs in bold reverse, the free square
dimmed and the squares the current dice could claim marked with ``*``. Rules stay in
:mod:`dicepoker.games.board`; the client only shows views and sends actions to a :class:`Match`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from random import Random

from rich.console import Console
from rich.text import Text

from dicepoker.bots.base import Bot
from dicepoker.bots.registry import bot_names, create_bot
from dicepoker.core.errors import ConfigError, IllegalAction, NotationError
from dicepoker.core.match import Match
from dicepoker.core.types import Action, Resign, Seat
from dicepoker.games.board.actions import Claim, Forfeit, OpeningRoll, Remove
from dicepoker.games.board.claims import read_hand
from dicepoker.games.board.layout import FREE, Layout
from dicepoker.games.board.rules import BoardGame, BoardState
from dicepoker.games.board.view import BoardView
from dicepoker.games.dice_turn import DICE, Reroll, Roll, Rolled, parse_positions
from dicepoker.tui.common import QUIT_WORDS, LineReader, ask, dice_text, pick_seed, save_log

TEAM_STYLES = ("bold white on red", "bold white on blue", "bold black on green")
TEAM_NAMES = ("Red", "Blue", "Green")
CELL = 5

HELP = """\
Commands (rows and columns count from 1, top left):
  roll            roll all five dice (Enter does the same)
  reroll 2 4 5    re-roll the dice at positions 2, 4 and 5;  keep 1 3  keeps those and re-rolls the rest
  claim 3 4       place a chip on row 3, column 4 (squares marked * can be claimed)
  remove 3 4      take an opponent chip off (five of a kind in zepherin, or a bouncer)
  forfeit         end the turn without placing (only when nothing can be claimed)
  hint            what the expert bot would do;  board  draws the board again
  resign          your team concedes;  quit  leaves (saving first with --save)"""


@dataclass(frozen=True, slots=True)
class Player:
    name: str
    bot: Bot | None
    """``None``: a person at this terminal."""


def seat_players(game: BoardGame, vs: str) -> list[Player]:
    """``--vs expert``: you in seat 1, that bot elsewhere; ``--vs human,expert,…``: one entry per seat."""
    known = [*bot_names(game.name), "human"]
    names = [n.strip() for n in vs.split(",") if n.strip()]
    players = game.num_players
    if len(names) == 1:
        names = ["human"] + names * (players - 1)
    if len(names) != players:
        raise ConfigError(f"--vs names one opponent, or one player per seat ({players} here); got {vs!r}")
    seats = []
    for seat, name in enumerate(names):
        if name not in known:
            raise ConfigError(f"unknown player {name!r}; choose from: {', '.join(known)}")
        team = TEAM_NAMES[game.rules.team_of(seat)]
        label = "You" if name == "human" and names.count("human") == 1 else f"Seat {seat + 1}"
        title = f"{label} ({team}{'' if name == 'human' else ', ' + name + ' bot'})"
        seats.append(Player(title, None if name == "human" else create_bot(game.name, name)))
    return seats


def board_text(view: BoardView) -> Text:
    """The board with coordinates, chips, runs, the free square and claimable squares."""
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
            mark = "*" if square in marked else " "
            style = "dim" if label == FREE else ""
            if owner is not None:
                style = TEAM_STYLES[owner] + (" reverse underline" if square in in_runs else "")
            elif square in marked:
                style = "bold black on yellow"
            text.append((label + mark).center(CELL), style=style)
        text.append("\n")
    return text


class BoardClient:
    def __init__(
        self,
        game: BoardGame,
        *,
        vs: str,
        seed: int | None,
        save: Path | None,
        console: Console,
        reader: LineReader,
    ) -> None:
        self.game, self.console, self.reader, self.save = game, console, reader, save
        self.players = seat_players(game, vs)
        self.seed = pick_seed(seed)
        self.match = Match(game, seed=self.seed)  # type: ignore[arg-type]
        self.bot_rng = Random(self.seed ^ 0xB07)
        self._shown: object = None
        """The roll last drawn, so that commands that change nothing do not redraw the board."""

    @property
    def state(self) -> BoardState:
        state = self.match.state
        assert isinstance(state, BoardState)
        return state

    def run(self) -> int:
        self.console.print(f"[bold]{self.game.title}[/] — seed {self.seed}. Type 'help' for commands.")
        self._show_opening()
        try:
            while not self.state.is_terminal:
                seat = self.state.current_seat
                assert seat is not None
                player = self.players[seat]
                if player.bot is not None:
                    view = self.state.view(seat)
                    self._act(player.bot.choose(view, self.state.legal_actions(seat), self.bot_rng), seat)
                elif not self._human_turn(seat):
                    self._finish()
                    return 0
        except EOFError:
            self.console.print("\n[yellow]Input ended; leaving the game.[/]")
            self._finish()
            return 0
        self.console.print(board_text(self.state.view(None)))
        result = self.state.result()
        winners = ", ".join(self.players[s].name for s in sorted(result.winners)) or "nobody"
        self.console.print(f"[bold]Game over:[/] {result.reason}. Winner(s): {winners}.")
        self._finish()
        return 0

    def _finish(self) -> None:
        if self.save is not None:
            save_log(self.save, self.match.log)
            self.console.print(f"Saved to {self.save} (replay: dicepoker replay {self.save}).")

    def _show_opening(self) -> None:
        rolls = [a for e in self.match.log.events if (a := e.action).startswith("opening")]
        self.console.print(f"Roll-off for the first turn (CM-3): {', '.join(rolls)}.")
        self.console.print(f"{self.players[self.state.seat].name} starts.")

    def _human_turn(self, seat: Seat) -> bool:
        view = self.state.view(seat)
        shown = (self.match.log.events[-1:], view.rolls_used)
        if view.rolls_used and shown != self._shown:
            self._shown = shown
            self.console.print(board_text(view))
            self.console.print(dice_text(list(view.dice)))
            self.console.print(f"Hand: {read_hand(view.dice).describe()}; rolls left: {view.rolls_left}.")
        line = ask(self.console, self.reader, f"{self.players[seat].name} — roll {view.rolls_used} of 3> ")
        if line is None:
            return True
        words = line.strip().lower().split()
        if words and words[0] in QUIT_WORDS:
            return False
        try:
            action = self._interpret(words, view)
            if action is None:
                return True
            self._act(action, seat)
        except (IllegalAction, NotationError) as exc:
            self.console.print(f"[red]{exc}[/]")
        return True

    def _interpret(self, words: Sequence[str], view: BoardView) -> Action | None:
        if not words:
            return Roll() if not view.rolls_used else None
        head, rest = words[0], list(words[1:])
        if head in ("help", "?"):
            self.console.print(HELP)
            return None
        if head == "board":
            self.console.print(board_text(view))
            return None
        if head == "hint":
            bot = create_bot(self.game.name, "expert")
            seat = self.state.current_seat
            advice = bot.choose(view, self.state.legal_actions(seat), Random(0))
            self.console.print(f"The expert bot would play: [bold]{advice}[/]")
            return None
        if head == "keep":
            kept = parse_positions(rest) if rest else ()
            return Reroll(tuple(p for p in range(DICE) if p not in kept))
        if head == "resign":
            return Resign()
        return self.game.parse_action(" ".join(words))

    def _act(self, action: Action, seat: Seat) -> None:
        before = self.state
        self.match.act(action, seat)
        if self.players[seat].bot is not None:
            self._narrate(before, action, seat)

    def _narrate(self, before: BoardState, action: Action, seat: Seat) -> None:
        name = self.players[seat].name
        if isinstance(action, (Roll, Reroll)):
            return
        dice = before.turn.dice
        hand = read_hand(dice).describe() if dice else ""
        if isinstance(action, Claim):
            self.console.print(
                f"{name} rolled {' '.join(map(str, dice))} ({hand}) and claims {action.row + 1} {action.col + 1}."
            )
        elif isinstance(action, Remove):
            self.console.print(f"{name} rolled {hand} and removes the chip at {action.row + 1} {action.col + 1}.")
        elif isinstance(action, Forfeit):
            self.console.print(f"{name} rolled {' '.join(map(str, dice))} ({hand}) and forfeits.")
        elif not isinstance(action, (Rolled, OpeningRoll)):
            self.console.print(f"{name}: {action}")


def play(
    game: BoardGame,
    *,
    vs: str = "expert",
    seed: int | None = None,
    save: Path | None = None,
    console: Console | None = None,
    reader: LineReader | None = None,
) -> int:
    """Play one board game at this terminal; returns the exit status."""
    client = BoardClient(
        game,
        vs=vs,
        seed=seed,
        save=save,
        console=console or Console(highlight=False),
        reader=reader or LineReader(),
    )
    return client.run()
