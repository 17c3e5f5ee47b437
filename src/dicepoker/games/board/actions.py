"""Actions of the board games and their context-free text forms (rows and columns 1-based in text).

>>> [str(a) for a in (Claim(2, 3), Remove(0, 0), Forfeit(), OpeningRoll(6))]
['claim 3 4', 'remove 1 1', 'forfeit', 'opening 6']
>>> parse_board_action("claim 3 4".split(), "claim 3 4")
Claim(row=2, col=3)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from dicepoker.core.errors import NotationError
from dicepoker.core.fields import require_int
from dicepoker.core.game import unknown_action
from dicepoker.core.notation import parse_int
from dicepoker.core.types import Action, ChanceAction
from dicepoker.games.dice_turn import parse_turn_action

KNOWN = "roll, reroll <positions>, claim <row> <col>, remove <row> <col>, forfeit, timeout, resign"


@dataclass(frozen=True, slots=True)
class Claim(Action):
    """Place a chip on a square (BD-7, BD-8): ``claim 3 4`` is row 3, column 4."""

    row: int
    col: int
    keyword: ClassVar[str] = "claim"

    def check_fields(self) -> None:
        require_int("claim: the row", self.row, low=0)
        require_int("claim: the column", self.col, low=0)

    def __str__(self) -> str:
        return f"claim {self.row + 1} {self.col + 1}"


@dataclass(frozen=True, slots=True)
class Remove(Action):
    """Take an opponent chip off (BD-8 in zepherin, BD-9 bouncer): ``remove 3 4``."""

    row: int
    col: int
    keyword: ClassVar[str] = "remove"

    def check_fields(self) -> None:
        require_int("remove: the row", self.row, low=0)
        require_int("remove: the column", self.col, low=0)

    def __str__(self) -> str:
        return f"remove {self.row + 1} {self.col + 1}"


@dataclass(frozen=True, slots=True)
class Forfeit(Action):
    """End the turn without placing (BD-7: nothing to claim; BD-9: a bouncer not used)."""

    keyword: ClassVar[str] = "forfeit"


@dataclass(frozen=True, slots=True)
class OpeningRoll(ChanceAction):
    """Chance outcome: the one die a contender rolls to decide who starts (CM-3, BD-3)."""

    face: int
    keyword: ClassVar[str] = "opening"

    def check_fields(self) -> None:
        require_int("opening: the die", self.face, low=1, high=6)


OPENING_OUTCOMES = tuple(OpeningRoll(face) for face in range(1, 7))


def parse_square(words: Sequence[str], verb: str) -> tuple[int, int]:
    if len(words) != 2:
        raise NotationError(f"{verb} needs a row and a column, both from 1: e.g. '{verb} 3 4'")
    row = parse_int(words[0], f"{verb}: the row (e.g. '{verb} 3 4')", low=1)
    return row - 1, parse_int(words[1], f"{verb}: the column (e.g. '{verb} 3 4')", low=1) - 1


def parse_board_action(words: list[str], text: str) -> Action:
    head, rest = (words[0], words[1:]) if words else ("", [])
    if head == "claim":
        return Claim(*parse_square(rest, head))
    if head == "remove":
        return Remove(*parse_square(rest, head))
    if head == "forfeit" and not rest:
        return Forfeit()
    if head == "opening":
        if len(rest) != 1 or rest[0] not in {"1", "2", "3", "4", "5", "6"}:
            raise NotationError("opening needs one die face, 1 to 6: e.g. 'opening 4'")
        return OpeningRoll(int(rest[0]))
    action = parse_turn_action(words)
    if action is None:
        raise unknown_action("board game", text, KNOWN)
    return action
