"""How a hand is bet (:class:`BettingRules`), and the values the engine answers with (options, pots, payouts)."""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from dicepoker.core.errors import ConfigError
from dicepoker.core.types import JSON, Seat

MAX_STACK = 10**9
"""The largest starting stack (and ante) a betting game accepts: far beyond any real game, small enough that
every amount stays an ordinary number in messages, views and the bots' arithmetic."""


class Limit(enum.Enum):
    FIXED = "fixed"
    SPREAD = "spread"
    NO_LIMIT = "no-limit"


@dataclass(frozen=True, slots=True)
class RoundLimit:
    """The sizes of one betting round: an increment from ``low`` to ``high`` (``None``: no limit)."""

    low: int
    high: int | None


@dataclass(frozen=True, slots=True, kw_only=True)
class BettingRules:
    """How a hand is bet. Build with :meth:`fixed_limit`, :meth:`spread_limit` or :meth:`no_limit`."""

    limit: Limit
    rounds: tuple[RoundLimit, ...]
    ante: int = 0
    blinds: tuple[int, ...] = ()
    raise_cap: int | None = None
    unit: int = 1

    def __post_init__(self) -> None:
        amounts = [
            self.ante,
            *self.blinds,
            *(r.low for r in self.rounds),
            *(r.high or 0 for r in self.rounds),
        ]
        if self.unit < 1 or any(a < 0 or a % self.unit for a in amounts):
            raise ConfigError(f"amounts must be non-negative multiples of the unit {self.unit}")
        if not self.rounds or any(r.low < self.unit or (r.high is not None and r.high < r.low) for r in self.rounds):
            raise ConfigError("every round needs a bet size of at least one unit")
        if self.raise_cap is not None and self.raise_cap < 1:
            raise ConfigError("the raise cap must allow at least the opening bet")

    @classmethod
    def fixed_limit(
        cls,
        sizes: Sequence[int],
        *,
        ante: int = 0,
        blinds: tuple[int, ...] = (),
        raise_cap: int | None = None,
        unit: int = 1,
    ) -> BettingRules:
        """Every bet and raise of round ``i`` is exactly ``sizes[i]``."""
        rounds = tuple(RoundLimit(s, s) for s in sizes)
        return cls(limit=Limit.FIXED, rounds=rounds, ante=ante, blinds=blinds, raise_cap=raise_cap, unit=unit)

    @classmethod
    def spread_limit(
        cls,
        ranges: Sequence[tuple[int, int]],
        *,
        ante: int = 0,
        blinds: tuple[int, ...] = (),
        raise_cap: int | None = None,
        unit: int = 1,
    ) -> BettingRules:
        """A bet or raise of round ``i``: a multiple of ``unit`` from ``ranges[i][0]`` to ``ranges[i][1]``."""
        rounds = tuple(RoundLimit(low, high) for low, high in ranges)
        return cls(limit=Limit.SPREAD, rounds=rounds, ante=ante, blinds=blinds, raise_cap=raise_cap, unit=unit)

    @classmethod
    def no_limit(
        cls,
        min_bets: Sequence[int],
        *,
        ante: int = 0,
        blinds: tuple[int, ...] = (),
        raise_cap: int | None = None,
        unit: int = 1,
    ) -> BettingRules:
        """Any bet from ``min_bets[i]`` up to the stack; a raise at least the largest raise so far."""
        rounds = tuple(RoundLimit(b, None) for b in min_bets)
        return cls(limit=Limit.NO_LIMIT, rounds=rounds, ante=ante, blinds=blinds, raise_cap=raise_cap, unit=unit)


# -- results of queries -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Options:
    """What the seat to act may do: ``call`` is the amount owed (0: check), ``raise_to`` a range."""

    seat: Seat
    can_fold: bool
    call: int
    raise_to: tuple[int, int] | None
    opens: bool
    """No wager yet this round: an increase is a ``bet``, not a ``raise``."""
    step: int


@dataclass(frozen=True, slots=True)
class Pot:
    amount: int
    eligible: tuple[Seat, ...]


@dataclass(frozen=True, slots=True)
class Payout:
    """How one pot was shared: ``shares[i]`` chips to ``winners[i]``."""

    pot: Pot
    winners: tuple[Seat, ...]
    shares: tuple[int, ...]


def payout_json(payout: Payout) -> dict[str, JSON]:
    return {
        "amount": payout.pot.amount,
        "eligible": list(payout.pot.eligible),
        "winners": list(payout.winners),
        "shares": list(payout.shares),
    }


def payout_from_json(data: Mapping[str, JSON]) -> Payout:
    def seats(key: str) -> tuple[int, ...]:
        return tuple(int(v) for v in data[key])

    return Payout(Pot(int(data["amount"]), seats("eligible")), seats("winners"), seats("shares"))


class Comparable(Protocol):
    """A showdown hand value: anything ordered by ``<`` (ints, tuples, PokerKit hands)."""

    def __lt__(self, other: Any, /) -> bool: ...
