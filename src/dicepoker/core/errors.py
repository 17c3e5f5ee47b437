"""Exceptions shared by every game.

Rule errors and parsing errors are different things: a malformed ``"reroll x"`` is a
:class:`NotationError`, a well-formed ``"reroll 1"`` at the wrong moment is an :class:`IllegalAction`.
"""


class DicePokerError(Exception):
    """Base class of every error this package raises on purpose."""


class IllegalAction(DicePokerError):
    """The action is well-formed but the rules forbid it here (CM-4). The state is unchanged."""


class NotationError(DicePokerError, ValueError):
    """Text that should name dice, an action or a config could not be parsed."""


class ConfigError(DicePokerError, ValueError):
    """A game was configured with options it does not accept."""


class CorruptLog(DicePokerError):
    """A saved event log cannot be read or does not replay."""
