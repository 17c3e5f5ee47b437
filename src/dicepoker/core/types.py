"""The small vocabulary of the core protocol: seats, whose turn it is, actions, results, views."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, TypeAlias

Seat: TypeAlias = int
JSON: TypeAlias = Any
"""A value made of dicts, lists, str, int, float, bool and None only."""


class Chance(enum.Enum):
    """Marks a state where the dice, not a player, decide what happens next."""

    CHANCE = "chance"

    def __repr__(self) -> str:
        return "CHANCE"


CHANCE = Chance.CHANCE

ToAct: TypeAlias = tuple[Seat, ...] | Chance
"""Seats to decide now (one, several for simultaneous decisions, none when over), or :data:`CHANCE`."""


class Action:
    """Base class of every action. Subclasses are frozen dataclasses whose ``str`` is their text form.

    The text form is context-free and round-trips through the game's ``parse_action``. By default it is
    the class's ``keyword`` followed by each field's value (``bet 20``); actions written another way
    (``claim 3 4`` for row 2, column 3) override ``__str__``.
    """

    __slots__ = ()
    keyword: ClassVar[str]

    def check_fields(self) -> None:
        """Raise :class:`~dicepoker.core.errors.IllegalAction` if a field has the wrong type or a value no
        state could accept (``Score(99)``, ``Bet("10")``, ``OpeningRoll(7)``).

        Actions with fields override this; :meth:`State.check` calls it before any rule looks at them.
        """

    def __str__(self) -> str:
        fields: tuple[str, ...] = getattr(type(self), "__match_args__", ())
        return " ".join([self.keyword, *(str(getattr(self, name)) for name in fields)])


class ChanceAction(Action):
    """An outcome drawn by the dice; only legal at a chance node."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Timeout(Action):
    """Time is up for the seat that must act: the game applies its default action (CM-6)."""

    keyword: ClassVar[str] = "timeout"


@dataclass(frozen=True, slots=True)
class Resign(Action):
    """The seat gives up (CM-5); legal at any time while the game runs, even off turn."""

    keyword: ClassVar[str] = "resign"


class Ending(enum.Enum):
    """Why a game ended, for programs (``Result.reason`` says it in words, for people): clients branch on this,
    never on the prose."""

    COMPLETED = "completed"
    """The game ran its course: 13 rounds scored (SC-13), a team's runs (BD-13)."""
    RESIGNATION = "resignation"
    """Everyone else resigned or conceded (CM-5)."""
    TIMEOUT = "timeout"
    """Nobody started the game: every first turn ran out of time (SC-15)."""
    BLOCKED = "blocked"
    """Nothing could change any more: no square to claim and no chip to remove (board games)."""
    YAHTZEE_FLUSH = "yahtzee-flush"
    """A Yahtzee flush at a showdown wins the game at once (HE-12)."""
    LAST_WITH_CHIPS = "last-with-chips"
    """One player holds every chip left in play (HE-15, PK-13)."""


@dataclass(frozen=True, slots=True)
class Result:
    """How a finished game ended.

    ``winners`` holds every seat that won or shares the win; a tie is any outcome with more than one winner
    (or none, when a game ends with nobody winning). ``scores`` is the game's own figure per seat (points or chips).
    ``reason`` says in words why the game ended; ``ending`` says it as a value.
    """

    winners: frozenset[Seat]
    scores: tuple[int, ...]
    reason: str
    ending: Ending

    @property
    def is_tie(self) -> bool:
        return len(self.winners) != 1

    def to_json(self) -> dict[str, JSON]:
        return {
            "winners": sorted(self.winners),
            "scores": list(self.scores),
            "reason": self.reason,
            "ending": self.ending.value,
        }


class View:
    """What one seat (or a spectator, seat ``None``) may see of a state. Subclasses are frozen dataclasses."""

    __slots__ = ()

    def to_json(self) -> dict[str, JSON]:
        raise NotImplementedError

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> View:
        """The view that :meth:`to_json` wrote: its exact inverse (a client rebuilds the views a server sends).

        Raises ``KeyError``, ``TypeError`` or ``ValueError`` for data that no view wrote."""
        raise NotImplementedError


def jsonable(value: Any) -> JSON:
    """Turn tuples, frozensets, enums and nested dataclass fields into plain JSON values."""
    if isinstance(value, enum.Enum):
        return jsonable(value.value)
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (frozenset, set)):
        return sorted(jsonable(v) for v in value)
    if isinstance(value, (tuple, list)):
        return [jsonable(v) for v in value]
    return value
