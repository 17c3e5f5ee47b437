"""Dice Hold'em's chance actions (the roll-off, drawing a die from the bag, the Flop re-roll) and phases."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar

from dicepoker.core.types import ChanceAction
from dicepoker.dice.suited import SuitedDie


class Phase(enum.Enum):
    HIGH_ROLL = "high-roll"
    HAND = "hand"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class HighRoll(ChanceAction):
    """CM-3: the next contender for the first deal rolls one die."""

    face: int
    keyword: ClassVar[str] = "highroll"


@dataclass(frozen=True, slots=True)
class Draw(ChanceAction):
    """DI-3: one die drawn from the bag (its suit) and rolled (its face)."""

    die: SuitedDie
    keyword: ClassVar[str] = "draw"

    def __str__(self) -> str:
        return f"draw {self.die[0]}{self.die[1].letter}"


@dataclass(frozen=True, slots=True)
class FlopReroll(ChanceAction):
    """HE-6: the next Flop die is re-rolled (same die, new face)."""

    face: int
    keyword: ClassVar[str] = "reroll"


HIGH_ROLLS = tuple((HighRoll(face), Fraction(1, 6)) for face in range(1, 7))
FLOP_REROLLS = tuple((FlopReroll(face), Fraction(1, 6)) for face in range(1, 7))
