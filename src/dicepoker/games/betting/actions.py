"""The betting actions every betting game shares, and their notation (``fold``, ``bet 20``, ``raise 40``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from dicepoker.core.errors import NotationError
from dicepoker.core.fields import require_int
from dicepoker.core.notation import parse_int
from dicepoker.core.types import Action


@dataclass(frozen=True, slots=True)
class Fold(Action):
    keyword: ClassVar[str] = "fold"


@dataclass(frozen=True, slots=True)
class Check(Action):
    keyword: ClassVar[str] = "check"


@dataclass(frozen=True, slots=True)
class Call(Action):
    """Match the largest wager of the round, or put in everything when that is less (all-in)."""

    keyword: ClassVar[str] = "call"


@dataclass(frozen=True, slots=True)
class Bet(Action):
    """Open the round's betting: the player's wager becomes ``to``."""

    to: int
    keyword: ClassVar[str] = "bet"

    def check_fields(self) -> None:
        require_int("bet", self.to, low=0)


@dataclass(frozen=True, slots=True)
class Raise(Action):
    """Raise the round's largest wager: the player's wager becomes ``to`` (a total, not an increment)."""

    to: int
    keyword: ClassVar[str] = "raise"

    def check_fields(self) -> None:
        require_int("raise", self.to, low=0)


BettingAction = Fold | Check | Call | Bet | Raise


def parse_betting_action(words: Sequence[str]) -> BettingAction | None:
    """``fold``, ``check``, ``call``, ``bet 20``, ``raise 40``; ``None`` if the first word is none of these.

    >>> parse_betting_action(["raise", "40"])
    Raise(to=40)
    """
    head, rest = (words[0], list(words[1:])) if words else ("", [])
    if head in ("fold", "check", "call"):
        if rest:
            raise NotationError(f"{head} takes no amount")
        simple: dict[str, BettingAction] = {"fold": Fold(), "check": Check(), "call": Call()}
        return simple[head]
    if head in ("bet", "raise"):
        if len(rest) != 1:
            raise NotationError(f"{head} needs one whole amount (the total wager), e.g. '{head} 20'")
        amount = parse_int(rest[0], f"{head}: the amount (the total wager, e.g. '{head} 20')", low=0)
        return Bet(amount) if head == "bet" else Raise(amount)
    return None
