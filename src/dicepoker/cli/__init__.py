"""The ``dicepoker`` command. Game modules register their commands on the groups of :mod:`.app`."""

from __future__ import annotations

import importlib

from dicepoker.cli.app import app

_COMMAND_MODULES = (
    "dicepoker.cli.board",
    "dicepoker.cli.holdem",
    "dicepoker.cli.ladder",
    "dicepoker.cli.peekpoker",
    "dicepoker.cli.replay",
    "dicepoker.cli.scorecard",
    "dicepoker.cli.serve",
    "dicepoker.cli.verify",
)


def main() -> None:
    for module in _COMMAND_MODULES:
        importlib.import_module(module)
    app()


__all__ = ["app", "main"]
