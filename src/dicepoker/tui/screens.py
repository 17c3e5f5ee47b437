"""One screen registry: each game's terminal screen, for a local table and a server's alike, and the one way
a game is set up at this terminal.

A game's module (``tui/<game>.py``) defines ``screen(table, names, console, bots=..., reader=...)``;
:data:`SCREENS` names it by the game's view type (a fact each game declares: the two board games share one
screen), so the online client (:mod:`dicepoker.cli.online`) and local play
(:func:`local_game`) build the same screen, and a game's module is imported only when that game is played.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence, Set
from pathlib import Path
from typing import Any, Protocol, TypedDict, Unpack

from rich.console import Console

from dicepoker.bots.base import Bot
from dicepoker.bots.registry import create_bot
from dicepoker.core.errors import ConfigError
from dicepoker.core.game import Game
from dicepoker.core.types import Seat
from dicepoker.games.registry import info
from dicepoker.tui.common import LineReader, TurnClock, pick_seed
from dicepoker.tui.loop import PlayLoop, Screen, seat_names
from dicepoker.tui.saving import check_save_path, local_loop, start_match
from dicepoker.tui.table import Table

SCREENS: dict[str, str] = {
    "ScorecardView": "dicepoker.tui.scorecard:screen",
    "HoldemView": "dicepoker.tui.holdem:screen",
    "PeekPokerView": "dicepoker.tui.peekpoker:screen",
    "BoardView": "dicepoker.tui.board:screen",
}
"""Screen makers by the name of the view type a game declares (``GameInfo.view_type``), as ``module:function``
so that a game's module is imported only when that game is played."""


class ScreenMaker(Protocol):
    """How a game's module builds its screen: the table, the players' names (seat order), the console, the seats
    bots play (they are not asked for input) and the reader (whether a person types at a terminal)."""

    def __call__(
        self, table: Table, names: Sequence[str], console: Console, *, bots: Set[Seat], reader: LineReader
    ) -> Screen: ...


def screen_maker(game: str) -> ScreenMaker:
    """The screen maker of ``game``; raises :class:`ConfigError` for a game without a terminal screen."""
    try:
        module_name, name = SCREENS[info(game).view_type.__name__].split(":")
    except KeyError:
        raise ConfigError(f"no terminal screen for {game!r}; view types with one: {', '.join(SCREENS)}") from None
    maker: ScreenMaker = getattr(importlib.import_module(module_name), name)
    return maker


def make_screen(table: Table, names: Sequence[str], console: Console, *, bots: Set[Seat], reader: LineReader) -> Screen:
    """The screen of the game at ``table`` (looked up by its view type in :data:`SCREENS`)."""
    return screen_maker(table.game.name)(table, names, console, bots=bots, reader=reader)


SeatBots = Callable[[Game[Any, Any], Sequence[str | None], Console], Mapping[Seat, Bot]]


def _registered_bots(game: Game[Any, Any], kinds: Sequence[str | None], console: Console) -> Mapping[Seat, Bot]:
    return {seat: create_bot(game.name, kind) for seat, kind in enumerate(kinds) if kind is not None}


class LocalOptions(TypedDict, total=False):
    """The options of every game at this terminal (``dicepoker play <game>`` gives the first five)."""

    seed: int | None
    """Seed of the dice (default: a fresh one, shown to the player)."""
    clock: float | None
    """Seconds per decision of a person (CM-6); ``None``: no clock."""
    save: Path | None
    """Write the game here as it is played."""
    force: bool
    """Let ``save`` overwrite an existing file."""
    resume: Path | None
    """Go on with the game saved here."""
    console: Console | None
    reader: LineReader | None


def local_game(
    name: str,
    new_game: Callable[[], Game[Any, Any]],
    seat_kinds: Callable[[Game[Any, Any]], list[str | None]],
    *,
    bots: SeatBots = _registered_bots,
    screen: ScreenMaker | None = None,
    **options: Unpack[LocalOptions],
) -> PlayLoop:
    """A game of ``name`` at this terminal, ready to ``run()``: every game's ``build`` in one.

    ``new_game()`` makes a new game, unless ``resume`` names a saved one to go on with. ``seat_kinds(game)``
    says who sits where (``None``: a person, else a bot kind); ``bots`` seats them (default: the bot registry);
    ``screen`` overrides the registered screen (a game that shares state between its bots and its screen).
    The clock, the save path and the options are checked before anything starts.
    """
    clock, save, resume = options.get("clock"), options.get("save"), options.get("resume")
    force = options.get("force", False)
    TurnClock(clock)
    if save is not None:
        check_save_path(save, force=force)
    # Soft wrap: messages keep their lines (and paths) whole when the output goes to a pipe or a file.
    console = options.get("console") or Console(highlight=False, soft_wrap=True)
    reader = options.get("reader") or LineReader()
    match = start_match(new_game, name, seed=pick_seed(options.get("seed")), resume=resume)
    kinds = seat_kinds(match.game)
    seated = bots(match.game, kinds, console)
    names = seat_names(kinds)
    maker = screen or screen_maker(name)
    return local_loop(
        match,
        kinds,
        seated,
        lambda table: maker(table, names, console, bots=set(seated), reader=reader),
        clock=clock,
        console=console,
        reader=reader,
        save=save,
        resume=resume,
        force=force,
    )
