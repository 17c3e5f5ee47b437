"""PeekPoker's phases and its own actions (the betting actions come from :mod:`.betting`)."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from dicepoker.core.errors import NotationError
from dicepoker.core.fields import require_int, require_ints, require_members
from dicepoker.core.notation import quote
from dicepoker.core.types import Action, ChanceAction
from dicepoker.dice.poker import Face, PokerDice, format_dice, parse_dice

MAX_CONTENDERS = 4
"""PK-1: at most 4 players roll for the first deal."""
MAX_ROLLED = 3
"""PK-4, PK-6, PK-8: at most three poker dice land at once (hidden, community or re-rolled aces)."""


class Phase(enum.Enum):
    HIGH_ROLL = "high-roll"  # CM-3 / PK-2: chance, who deals first
    DEAL = "deal"  # PK-4: chance, the next player's hidden dice
    BET = "bet"  # PK-5 / PK-7: the seat to act bets
    COMMUNITY = "community"  # PK-6: chance, the community dice
    ACES = "aces"  # PK-8: simultaneous ace decisions
    REROLL = "reroll"  # PK-8: chance, the next re-roller's dice
    OVER = "over"  # PK-13


# -- actions ----------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class HighRoll(ChanceAction):
    """CM-3: one standard die per contender for the deal, in seat order: ``high-roll 3 6``."""

    dice: tuple[int, ...]
    keyword: ClassVar[str] = "high-roll"

    def check_fields(self) -> None:
        require_ints("high-roll", self.dice, low=1, high=6, max_len=MAX_CONTENDERS)

    def __str__(self) -> str:
        return "high-roll " + " ".join(str(d) for d in self.dice)


@dataclass(frozen=True, slots=True)
class Rolled(ChanceAction):
    """Poker dice that landed (hidden, community or re-rolled), ascending: ``rolled 9 K A``."""

    dice: PokerDice
    keyword: ClassVar[str] = "rolled"

    def check_fields(self) -> None:
        require_members("rolled", self.dice, Face, max_len=MAX_ROLLED)

    def __str__(self) -> str:
        return f"rolled {format_dice(self.dice)}".rstrip()


@dataclass(frozen=True, slots=True)
class Stand(Action):
    """PK-8: keep the hand as it is."""

    keyword: ClassVar[str] = "stand"


@dataclass(frozen=True, slots=True)
class RerollAces(Action):
    """PK-8: re-roll this many of one's aces (aces are alike, so the number says it all): ``reroll A A``."""

    count: int
    keyword: ClassVar[str] = "reroll"

    def check_fields(self) -> None:
        require_int("reroll: the number of aces", self.count, low=1, high=MAX_ROLLED)

    def __str__(self) -> str:
        return "reroll" + " A" * self.count


def parse_peekpoker_action(words: Sequence[str], text: str) -> Action | None:
    """PeekPoker's own notation (``high-roll 3 6``, ``rolled 9 A A``, ``stand``, ``reroll A A``); ``None``
    when the words are none of these (a betting action, perhaps)."""
    head, rest = (words[0], list(words[1:])) if words else ("", [])
    if head == "high-roll":
        if not rest or not all(w in "123456" and len(w) == 1 for w in rest):
            raise NotationError(f"high-roll needs standard dice 1-6, got {quote(text)}")
        return HighRoll(tuple(int(w) for w in rest))
    if head == "rolled":
        return Rolled(tuple(sorted(parse_dice(" ".join(rest)))))
    if head == "stand" and not rest:
        return Stand()
    if head == "reroll":
        if not rest or any(w.upper() != "A" for w in rest):
            raise NotationError("only aces are re-rolled: write 'reroll A' or 'reroll A A' (PK-8)")
        return RerollAces(len(rest))
    return None
