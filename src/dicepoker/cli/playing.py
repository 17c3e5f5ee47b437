"""``dicepoker play <game>``: the options every game shares, declared once, and the run every game shares.

Every ``play`` command takes the same eight options: ``--seed``, ``--clock``, ``--save``, ``--force``,
``--resume``, ``--server``, ``--table`` and ``--name``. A game's module declares only its own (``--vs``,
``--players``, ``--stack``...) and how it starts a local game; :func:`play_command` adds the eight to the
command Typer sees, refuses local-only options with ``--server`` (and ``--table``/``--name`` without it),
plays online when asked, and exits with the game's status (:func:`~dicepoker.cli.common.play_game`).

What the clock does when it runs out differs by game, so each game says it (``clock=...``) in the help.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from dicepoker.cli.app import play_app
from dicepoker.cli.common import (
    PLAY_NOTES,
    ForceOption,
    NameOption,
    ResumeOption,
    SaveOption,
    ServerOption,
    TableOption,
    check_clock,
    play_game,
    play_online_if_asked,
)

if TYPE_CHECKING:
    from dicepoker.tui.screens import LocalOptions

SeedOption = Annotated[int | None, typer.Option(help="Seed of the dice; the same seed replays the same dice.")]


@dataclass(frozen=True, slots=True)
class PlayOptions:
    """The options every ``play`` command takes (the local ones are refused with ``--server``)."""

    seed: int | None = None
    clock: float | None = None
    save: Path | None = None
    force: bool = False
    resume: Path | None = None
    server: str | None = None
    table: str | None = None
    name: str | None = None

    def local(self) -> dict[str, object]:
        """The options of local play: at a server the dice, the clock and the log are the server's."""
        return {"seed": self.seed, "clock": self.clock, "save": self.save, "resume": self.resume}

    def at_terminal(self) -> LocalOptions:
        """The options a game at this terminal takes (:func:`dicepoker.tui.screens.local_game`)."""
        return {"seed": self.seed, "clock": self.clock, "save": self.save, "force": self.force, "resume": self.resume}


def _clock_option(when_out: str) -> object:
    return Annotated[
        float | None,
        typer.Option(help=f"Seconds per decision (up to 3600); when they run out {when_out}.", callback=check_clock),
    ]


_SHARED: dict[str, tuple[object, object]] = {
    "seed": (SeedOption, None),
    "clock": (None, None),  # per game: see _clock_option
    "save": (SaveOption, None),
    "force": (ForceOption, False),
    "resume": (ResumeOption, None),
    "server": (ServerOption, None),
    "table": (TableOption, None),
    "name": (NameOption, None),
}
assert list(_SHARED) == [f.name for f in fields(PlayOptions)]


def play_command(
    game: str, *, clock: str, local_only: Sequence[str] = ()
) -> Callable[[Callable[..., int]], Callable[..., None]]:
    """Register ``start`` as ``dicepoker play <game>``.

    ``start(options, **own)`` plays a local game and returns its exit status; its parameters after the first are
    the game's own options (Typer ``Annotated`` ones), shown first in ``--help``. ``clock`` ends the sentence
    "when they run out ..." of the ``--clock`` help; ``local_only`` names own options that only local play takes.
    """

    def register(start: Callable[..., int]) -> Callable[..., None]:
        own = list(inspect.signature(start, eval_str=True).parameters.values())[1:]
        shared = [
            inspect.Parameter(
                name,
                inspect.Parameter.KEYWORD_ONLY,
                default=default,
                annotation=_clock_option(clock) if name == "clock" else annotation,
            )
            for name, (annotation, default) in _SHARED.items()
        ]
        parameters = [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in own] + shared

        @functools.wraps(start)
        def command(**values: Any) -> None:
            options = PlayOptions(**{name: values.pop(name) for name in _SHARED})

            def run() -> int:
                local = options.local() | {name: values[name] for name in local_only}
                online = play_online_if_asked(game, options.server, options.table, options.name, local)
                return online if online is not None else start(options, **values)

            play_game(run, seed=options.seed, resume=options.resume)

        command.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
        command.__annotations__ = {p.name: p.annotation for p in parameters}
        play_app.command(game, epilog=PLAY_NOTES)(command)
        return command

    return register
