"""Dice Hold'em's chance actions (the roll-off, drawing a die from the bag, the Flop re-roll) and phases."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar

from dicepoker.core.errors import IllegalAction
from dicepoker.core.fields import require_int, require_member, shown
from dicepoker.core.types import ChanceAction
from dicepoker.dice.suited import Suit, SuitedDie


class Phase(enum.Enum):
    HIGH_ROLL = "high-roll"
    HAND = "hand"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class HighRoll(ChanceAction):
    """CM-3: the next contender for the first deal rolls one die."""

    face: int
    keyword: ClassVar[str] = "highroll"

    def check_fields(self) -> None:
        require_int("highroll", self.face, low=1, high=6)


@dataclass(frozen=True, slots=True)
class Draw(ChanceAction):
    """DI-3: one die drawn from the bag (its suit) and rolled (its face)."""

    die: SuitedDie
    keyword: ClassVar[str] = "draw"

    def check_fields(self) -> None:
        if not isinstance(self.die, tuple) or len(self.die) != 2:
            raise IllegalAction(f"draw needs one suited die (face, suit), got {shown(self.die)}")
        require_int("draw: the face", self.die[0], low=1, high=6)
        require_member("draw: the suit", self.die[1], Suit)

    def __str__(self) -> str:
        return f"draw {self.die[0]}{self.die[1].letter}"


@dataclass(frozen=True, slots=True)
class FlopReroll(ChanceAction):
    """HE-6: the next Flop die is re-rolled (same die, new face)."""

    face: int
    keyword: ClassVar[str] = "reroll"

    def check_fields(self) -> None:
        require_int("reroll", self.face, low=1, high=6)


HIGH_ROLLS = tuple((HighRoll(face), Fraction(1, 6)) for face in range(1, 7))
FLOP_REROLLS = tuple((FlopReroll(face), Fraction(1, 6)) for face in range(1, 7))
