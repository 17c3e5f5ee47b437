"""The turn of the five-dice games (SC-2, BD-4): up to three rolls, re-rolling chosen positions.

Shared by ``scorecard`` and the board games. Dice keep their positions between rolls so a player can
say which ones to re-roll; an outcome for ``k`` re-rolled dice is a sorted multiset of ``k`` faces
assigned to those positions in ascending order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from random import Random
from typing import ClassVar

from dicepoker.core.errors import IllegalAction, NotationError
from dicepoker.core.fields import require_ints
from dicepoker.core.notation import is_ascii_number, quote
from dicepoker.core.types import Action, ChanceAction
from dicepoker.dice.standard import FACES, Dice, format_dice, outcomes, parse_dice

DICE = 5
MAX_ROLLS = 3


@dataclass(frozen=True, slots=True)
class Roll(Action):
    """The first roll of a turn: all five dice."""

    keyword: ClassVar[str] = "roll"


@dataclass(frozen=True, slots=True)
class Reroll(Action):
    """Re-roll the dice at these positions (0-based inside, 1-based in text: ``reroll 1 3 5``)."""

    positions: tuple[int, ...]
    keyword: ClassVar[str] = "reroll"

    def check_fields(self) -> None:
        require_ints("reroll", self.positions, low=0, high=DICE - 1, max_len=DICE)

    def __str__(self) -> str:
        return "reroll " + " ".join(str(p + 1) for p in self.positions)


@dataclass(frozen=True, slots=True)
class Rolled(ChanceAction):
    """Chance outcome: the faces that landed on the re-rolled positions, ascending."""

    dice: Dice
    keyword: ClassVar[str] = "rolled"

    def check_fields(self) -> None:
        require_ints("rolled", self.dice, low=1, high=6, max_len=DICE)

    def __str__(self) -> str:
        return "rolled " + format_dice(self.dice)


ALL_REROLLS: tuple[Reroll, ...] = tuple(
    Reroll(combo) for size in range(1, DICE + 1) for combo in combinations(range(DICE), size)
)
_REROLL_BY_POSITIONS = {r.positions: r for r in ALL_REROLLS}
_OUTCOME_ACTIONS = {
    count: tuple((Rolled(dice), probability) for dice, probability in outcomes(count)) for count in range(1, 6)
}


def parse_turn_action(words: Sequence[str]) -> Action | None:
    """``roll``, ``reroll 1 3``, ``rolled 2 5``; ``None`` if the first word is none of these."""
    head, rest = words[0] if words else "", list(words[1:])
    if head == "roll" and not rest:
        return Roll()
    if head == "reroll":
        return Reroll(parse_positions(rest))
    if head == "rolled":
        return Rolled(tuple(sorted(parse_dice(" ".join(rest), count=None))))
    return None


def parse_positions(words: Sequence[str]) -> tuple[int, ...]:
    """1-based dice positions to a sorted 0-based tuple.

    >>> parse_positions(["5", "1"])
    (0, 4)
    """
    if not words:
        raise NotationError("name at least one die position (1-5)")
    positions = set()
    for word in words:
        if not is_ascii_number(word) or not 1 <= int(word) <= DICE:
            raise NotationError(f"{quote(word)} is not a die position: positions are 1 to {DICE}")
        if int(word) - 1 in positions:
            raise NotationError(f"position {word} named twice")
        positions.add(int(word) - 1)
    return tuple(sorted(positions))


@dataclass(frozen=True, slots=True)
class DiceTurn:
    """Where a player is within their turn."""

    dice: Dice = ()
    rolls: int = 0
    pending: tuple[int, ...] = ()

    @property
    def has_rolled(self) -> bool:
        return self.rolls > 0

    @property
    def awaiting_dice(self) -> bool:
        return bool(self.pending)

    @property
    def rolls_left(self) -> int:
        return MAX_ROLLS - self.rolls

    @property
    def can_reroll(self) -> bool:
        return 0 < self.rolls < MAX_ROLLS and not self.pending

    def legal_rolls(self) -> Sequence[Action]:
        if self.pending:
            return ()
        if not self.rolls:
            return (Roll(),)
        return ALL_REROLLS if self.rolls < MAX_ROLLS else ()

    def check(self, action: Action) -> None:
        if isinstance(action, Roll):
            if self.rolls:
                raise IllegalAction("the dice are already rolled this turn; reroll chosen positions instead")
        elif isinstance(action, Reroll):
            if not self.rolls:
                raise IllegalAction("roll first: there are no dice to re-roll yet")
            if self.rolls >= MAX_ROLLS:
                raise IllegalAction(f"no rolls left: a turn has at most {MAX_ROLLS} rolls")
            if action.positions not in _REROLL_BY_POSITIONS:
                raise IllegalAction(f"cannot re-roll positions {action}: choose 1 to {DICE} distinct positions")
        elif isinstance(action, Rolled):
            if len(action.dice) != len(self.pending):
                raise IllegalAction(f"{len(self.pending)} dice are rolling, the outcome shows {len(action.dice)}")
            if list(action.dice) != sorted(action.dice) or not all(1 <= d <= 6 for d in action.dice):
                raise IllegalAction(f"{action} is not a sorted outcome of standard dice")

    def after(self, action: Action) -> DiceTurn:
        if isinstance(action, Roll):
            return DiceTurn((), 0, tuple(range(DICE)))
        if isinstance(action, Reroll):
            return DiceTurn(self.dice, self.rolls, action.positions)
        if isinstance(action, Rolled):
            dice = list(self.dice) if self.dice else [0] * DICE
            for position, face in zip(self.pending, action.dice, strict=True):
                dice[position] = face
            return DiceTurn(tuple(dice), self.rolls + 1, ())
        raise IllegalAction(f"{action} is not a dice action")

    def chance_outcomes(self) -> Sequence[tuple[ChanceAction, Fraction]]:
        return _OUTCOME_ACTIONS[len(self.pending)] if self.pending else ()

    def sample(self, rng: Random) -> Rolled:
        """Same distribution as :meth:`chance_outcomes`: ordered throws, sorted."""
        return Rolled(tuple(sorted(rng.choices(FACES, k=len(self.pending)))))
