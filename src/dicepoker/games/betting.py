"""One betting engine for every dice poker game: fixed, spread and no limit; antes, blinds, caps, side pots.

A :class:`Betting` value is the money of one hand: stacks, this round's wagers, what earlier rounds
collected, who is still in, and whose turn it is. It knows nothing about dice: a game (``holdem``,
``peekpoker``) keeps one inside its state, deals between rounds, and hands it the showdown ranking.
Everything is an integer number of chips, and ``sum(stacks) + sum(bets) + sum(contributed)`` never
changes within a hand (:meth:`Betting.chips`).

The life of a hand::

    betting = Betting.start_hand(rules, stacks, dealer)   # antes and blinds posted, round 0 open
    while not over:
        betting.to_act / betting.options() / betting.legal_actions()
        betting = betting.apply(action)                   # raises IllegalAction, changes nothing
        if betting.round_over: betting = betting.next_round()   # collect, open the next round
    betting = betting.collect()                            # after the last round
    betting, payouts = betting.award(ranks)                # ranks: seat -> comparable hand value

Rules, chosen to agree with PokerKit (checked action by action in ``tests/games/test_betting_pokerkit.py``):

* Seats are ordered from the dealer's left (CM-1). Heads-up the dealer posts the small blind, acts
  first in round 0 and last afterwards. Blinds go to the first seats after the dealer otherwise.
* A short ante or blind puts the player all-in for what they have. Antes are collected like a
  round of bets (the uncalled part of an ante is returned).
* A bet or raise names the total a player's wager reaches this round (``raise 40`` = raise *to* 40).
  No limit: at least the round's minimum and at least the largest raise so far this round, unless
  it is all-in. Fixed limit: exactly the round's size (less when all-in). Spread limit: any multiple
  of the unit from the round's minimum to its maximum increment; no minimum-raise rule there, on
  purpose (HE-5 reads "a bet or raise is 10 or 20").
* ``raise_cap`` bounds the bets and raises of a round, the opening bet included (HE-5's "three
  raises" is a cap of 4). Blinds do not count.
* A short all-in raise does not reopen betting for players who already acted; several consecutive
  short all-ins that together reach a full raise do. A player who cannot cover the call may only call
  (all-in) or fold. Nobody may raise once everyone else is all-in or folded.
* Folding is legal only when facing a bet (checking is free).
* At the end of a round the part of the largest wager nobody matched is returned.
* Pots are built level by level from what each player put in; each goes to the best hand among the
  players still in who reached that level. Odd units go one at a time to winners from the dealer's
  left (HE-14, PK-12).

>>> rules = BettingRules.fixed_limit((10, 10, 20, 20), ante=10, raise_cap=4, unit=10)
>>> betting = Betting.start_hand(rules, stacks=(100, 100, 100), dealer=2)
>>> betting.to_act, [str(a) for a in betting.legal_actions()]
(0, ['check', 'bet 10'])
>>> betting = betting.apply(Bet(10)).apply(Raise(20)).apply(Call()).apply(Call())
>>> betting.round_over, betting.stacks
(True, (70, 70, 70))
>>> betting = betting.next_round()
>>> betting.pots
(Pot(amount=90, eligible=(0, 1, 2)),)
>>> betting = betting.apply(Bet(10)).apply(Fold()).apply(Call())
>>> betting = betting.next_round().apply(Check()).apply(Check())
>>> betting = betting.next_round().apply(Check()).apply(Check()).collect()
>>> betting, payouts = betting.award({0: 5, 2: 9})
>>> betting.stacks, payouts[0].winners
((60, 70, 170), (2,))
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar, Protocol

from dicepoker.core.errors import ConfigError, IllegalAction, NotationError
from dicepoker.core.types import JSON, Action, Seat

# -- actions ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Fold(Action):
    keyword: ClassVar[str] = "fold"

    def __str__(self) -> str:
        return "fold"


@dataclass(frozen=True, slots=True)
class Check(Action):
    keyword: ClassVar[str] = "check"

    def __str__(self) -> str:
        return "check"


@dataclass(frozen=True, slots=True)
class Call(Action):
    """Match the largest wager of the round, or put in everything when that is less (all-in)."""

    keyword: ClassVar[str] = "call"

    def __str__(self) -> str:
        return "call"


@dataclass(frozen=True, slots=True)
class Bet(Action):
    """Open the round's betting: the player's wager becomes ``to``."""

    to: int
    keyword: ClassVar[str] = "bet"

    def __str__(self) -> str:
        return f"bet {self.to}"


@dataclass(frozen=True, slots=True)
class Raise(Action):
    """Raise the round's largest wager: the player's wager becomes ``to`` (a total, not an increment)."""

    to: int
    keyword: ClassVar[str] = "raise"

    def __str__(self) -> str:
        return f"raise {self.to}"


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
        if len(rest) != 1 or not rest[0].isdigit():
            raise NotationError(f"{head} needs one whole amount (the total wager), e.g. '{head} 20'")
        return Bet(int(rest[0])) if head == "bet" else Raise(int(rest[0]))
    return None


# -- rules ------------------------------------------------------------------------------------------


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


class Comparable(Protocol):
    """A showdown hand value: anything ordered by ``<`` (ints, tuples, PokerKit hands)."""

    def __lt__(self, other: Any, /) -> bool: ...


# -- the betting state ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Betting:
    """The money of one hand. Build it with :meth:`start_hand`; every method returns a new value."""

    rules: BettingRules
    dealer: Seat
    order: tuple[Seat, ...]
    """Seats dealt in, from the dealer's left; the dealer is last."""
    stacks: tuple[int, ...]
    bets: tuple[int, ...]
    contributed: tuple[int, ...]
    in_hand: tuple[bool, ...]
    round: int
    queue: tuple[Seat, ...]
    """Seats still to act this round, next first; empty once the round is over."""
    acted: frozenset[Seat] = frozenset()
    raise_size: int = 0
    raise_count: int = 0
    short_all_ins: tuple[int, ...] = ()

    # -- starting -----------------------------------------------------------------------------------
    @classmethod
    def start_hand(cls, rules: BettingRules, stacks: Sequence[int], dealer: Seat) -> Betting:
        """Deal in every seat with chips, post antes (collected) and blinds, and open round 0."""
        seats = len(stacks)
        order = tuple(s % seats for s in range(dealer + 1, dealer + 1 + seats) if stacks[s % seats] > 0)
        if len(order) < 2:
            raise IllegalAction("a hand needs at least two players with chips")
        zero = (0,) * seats
        in_hand = tuple(s in order for s in range(seats))
        betting = cls(rules, dealer, order, tuple(stacks), zero, zero, in_hand, 0, ())
        if rules.ante:
            betting = betting._post({seat: rules.ante for seat in order})._collected()
        blinds = rules.blinds[::-1] if len(order) == 2 else rules.blinds
        return betting._post(dict(zip(order, blinds, strict=False)))._open_round(0)

    def _post(self, amounts: Mapping[Seat, int]) -> Betting:
        stacks, bets = list(self.stacks), list(self.bets)
        for seat, amount in amounts.items():
            paid = min(amount, stacks[seat])
            stacks[seat] -= paid
            bets[seat] += paid
        return replace(self, stacks=tuple(stacks), bets=tuple(bets))

    def _open_round(self, index: int) -> Betting:
        order, bets = self.order, self.bets
        opener = 0
        if index == 0 and self.rules.blinds:
            blinds = self.rules.blinds[::-1] if len(order) == 2 else self.rules.blinds
            blind_at = [blinds[p] if p < len(blinds) else 0 for p in range(len(order))]
            keys = [((bets[seat] if blind_at[p] else 0), p) for p, seat in enumerate(order)]
            opener = (max(keys)[1] + 1) % len(order)
        rotated = order[opener:] + order[:opener]
        queue = tuple(s for s in rotated if self.in_hand[s] and self.stacks[s] and self._effective_stack(s))
        if len(queue) == 1 and bets[queue[0]] >= max(bets):
            queue = ()
        state = replace(
            self, round=index, queue=queue, acted=frozenset(), raise_size=0, raise_count=0, short_all_ins=()
        )
        return state if state.players_in > 1 else replace(state, queue=())

    def _effective_stack(self, seat: Seat) -> int:
        """What ``seat`` can still lose to the others (PokerKit's definition)."""
        totals = sorted(self.bets[s] + self.stacks[s] for s in self.order if self.in_hand[s])
        return min(self.stacks[seat], max(0, totals[-2] - self.bets[seat]))

    # -- queries ------------------------------------------------------------------------------------
    @property
    def to_act(self) -> Seat | None:
        return self.queue[0] if self.queue else None

    @property
    def round_over(self) -> bool:
        return not self.queue

    @property
    def players_in(self) -> int:
        return sum(self.in_hand)

    @property
    def hand_over(self) -> bool:
        """Everyone but one has folded: that player wins without a showdown."""
        return self.players_in <= 1

    @property
    def action_closed(self) -> bool:
        """At most one player still in has chips: later rounds have no betting (deal out and show down)."""
        return sum(1 for s in self.order if self.in_hand[s] and self.stacks[s]) <= 1

    @property
    def current_bet(self) -> int:
        return max(self.bets)

    def chips(self) -> int:
        """All chips at the table; constant through a hand."""
        return sum(self.stacks) + sum(self.bets) + sum(self.contributed)

    def owed(self, seat: Seat) -> int:
        return min(self.stacks[seat], self.current_bet - self.bets[seat])

    def options(self) -> Options:
        """The kinds and amounts open to the seat to act; raises :class:`IllegalAction` between rounds."""
        seat = self.to_act
        if seat is None:
            raise IllegalAction("nobody is to act: the betting round is over")
        call = self.owed(seat)
        return Options(seat, call > 0, call, self._raise_range(seat), self.current_bet == 0, self.rules.unit)

    def legal_actions(self) -> tuple[BettingAction, ...]:
        """Every legal action of the seat to act (each raise amount, in units)."""
        if self.to_act is None:
            return ()
        opts = self.options()
        actions: list[BettingAction] = [Fold(), Call()] if opts.can_fold else [Check()]
        if opts.raise_to is not None:
            low, high = opts.raise_to
            amounts = [*range(low, high, opts.step), high]
            actions.extend(Bet(a) if opts.opens else Raise(a) for a in amounts)
        return tuple(actions)

    def _round_limit(self) -> RoundLimit:
        return self.rules.rounds[min(self.round, len(self.rules.rounds) - 1)]

    def _full_raise(self) -> int:
        """The increment that counts as a full raise (reopens betting)."""
        if self.rules.limit is Limit.SPREAD:
            return min(self.raise_size, self._round_limit().low)
        return self.raise_size

    def _raise_refusal(self, seat: Seat) -> str | None:
        """Why ``seat`` may not bet or raise now, or ``None`` if it may."""
        full = self._full_raise()
        if self.owed(seat) < full:
            return "a short all-in does not reopen the betting for you"
        if self.rules.raise_cap is not None and self.raise_count >= self.rules.raise_cap:
            return f"at most {self.rules.raise_cap} bets and raises per round"
        if self.short_all_ins and sum(self.short_all_ins) < full and seat in self.acted:
            return "you already acted and a short all-in does not reopen the betting"
        if self.stacks[seat] <= self.current_bet - self.bets[seat]:
            return "you can only call: your chips do not cover more than the call"
        top = self.current_bet
        if not any(s != seat and self.in_hand[s] and self.stacks[s] + self.bets[s] > top for s in self.order):
            return "nobody is left to call a raise"
        return None

    def _raise_range(self, seat: Seat) -> tuple[int, int] | None:
        if self._raise_refusal(seat) is not None:
            return None
        limit, top, most = self._round_limit(), self.current_bet, self.stacks[seat] + self.bets[seat]
        increment = limit.low if self.rules.limit is Limit.SPREAD else max(self.raise_size, limit.low)
        low = min(most, top + increment)
        if self.rules.limit is Limit.NO_LIMIT:
            return low, most
        if self.rules.limit is Limit.FIXED:
            return low, low
        assert limit.high is not None
        return low, min(most, top + limit.high)

    # -- checking and applying ----------------------------------------------------------------------
    def check(self, action: Action) -> None:
        """Raise :class:`IllegalAction` with the reason if ``action`` is not legal for the seat to act."""
        seat = self.to_act
        if seat is None:
            raise IllegalAction("nobody is to act: the betting round is over")
        owed = self.owed(seat)
        if isinstance(action, Fold):
            if not owed:
                raise IllegalAction("no bet to fold to: check instead")
        elif isinstance(action, Check):
            if owed:
                raise IllegalAction(f"cannot check: {owed} to call")
        elif isinstance(action, Call):
            if not owed:
                raise IllegalAction("nothing to call: check instead")
        elif isinstance(action, (Bet, Raise)):
            self._check_raise(seat, action)
        else:
            raise IllegalAction(f"{action} is not a betting action")

    def _check_raise(self, seat: Seat, action: Bet | Raise) -> None:
        word = "bet" if self.current_bet == 0 else "raise"
        if isinstance(action, Bet) != (word == "bet"):
            raise IllegalAction(f"{action.keyword} is not possible here: {word} instead")
        refusal = self._raise_refusal(seat)
        if refusal is not None:
            raise IllegalAction(f"cannot {word}: {refusal}")
        low, high = self._raise_range(seat) or (0, 0)
        if action.to < low:
            raise IllegalAction(f"{word} below the minimum: {action.to} < {low}")
        if action.to > high:
            raise IllegalAction(f"{word} above the maximum: {action.to} > {high}")
        if action.to != high and (action.to - low) % self.rules.unit:
            raise IllegalAction(f"{word} must be in steps of {self.rules.unit}")

    def apply(self, action: Action) -> Betting:
        """The betting after ``action`` by the seat to act; raises :class:`IllegalAction` if illegal."""
        self.check(action)
        seat = self.queue[0]
        acted = self.acted | {seat}
        if isinstance(action, Fold):
            in_hand = tuple(False if s == seat else flag for s, flag in enumerate(self.in_hand))
            return replace(self, in_hand=in_hand, acted=acted)._after_action(self.queue[1:])
        if isinstance(action, (Check, Call)):
            moved = self._post({seat: self.owed(seat)})
            return replace(moved, acted=acted)._after_action(self.queue[1:])
        assert isinstance(action, (Bet, Raise))
        return self._raise(seat, action.to, acted)

    def _raise(self, seat: Seat, to: int, acted: frozenset[Seat]) -> Betting:
        increment = to - self.current_bet
        moved = self._post({seat: to - self.bets[seat]})
        where = self.order.index(seat)
        rotated = self.order[where + 1 :] + self.order[:where]
        queue = tuple(s for s in rotated if moved.in_hand[s] and moved.stacks[s])
        if increment >= self._full_raise():
            acted = frozenset((seat,))
        raise_size = max(self.raise_size, increment)
        shorts = () if moved.stacks[seat] else (*self.short_all_ins, increment)
        state = replace(
            moved, acted=acted, raise_size=raise_size, raise_count=self.raise_count + 1, short_all_ins=shorts
        )
        if shorts and sum(shorts) >= state._full_raise():
            state = replace(state, short_all_ins=())
        return state._after_action(queue)

    def _after_action(self, queue: tuple[Seat, ...]) -> Betting:
        if not queue or self.players_in <= 1:
            queue = ()
        return replace(self, queue=queue)

    def fold_seat(self, seat: Seat) -> Betting:
        """Take ``seat`` out of the hand even off turn (CM-5 resignation; a timeout folds on turn)."""
        if not self.in_hand[seat]:
            return self
        in_hand = tuple(False if s == seat else flag for s, flag in enumerate(self.in_hand))
        queue = tuple(s for s in self.queue if s != seat)
        return replace(self, in_hand=in_hand, acted=self.acted | {seat})._after_action(queue)

    # -- persistence --------------------------------------------------------------------------------
    def to_json(self) -> dict[str, JSON]:
        """Every field but the rules (the game's config decides those); :meth:`from_json` reads it back."""
        return {
            "dealer": self.dealer,
            "order": list(self.order),
            "stacks": list(self.stacks),
            "bets": list(self.bets),
            "contributed": list(self.contributed),
            "in_hand": list(self.in_hand),
            "round": self.round,
            "queue": list(self.queue),
            "acted": sorted(self.acted),
            "raise_size": self.raise_size,
            "raise_count": self.raise_count,
            "short_all_ins": list(self.short_all_ins),
        }

    @classmethod
    def from_json(cls, rules: BettingRules, data: Mapping[str, JSON]) -> Betting:
        def ints(key: str) -> tuple[int, ...]:
            return tuple(int(v) for v in data[key])

        return cls(
            rules,
            int(data["dealer"]),
            ints("order"),
            ints("stacks"),
            ints("bets"),
            ints("contributed"),
            tuple(bool(v) for v in data["in_hand"]),
            int(data["round"]),
            ints("queue"),
            frozenset(ints("acted")),
            int(data["raise_size"]),
            int(data["raise_count"]),
            ints("short_all_ins"),
        )

    # -- between rounds and at the end --------------------------------------------------------------
    def collect(self) -> Betting:
        """Move the round's wagers into the pot, returning what nobody matched."""
        if self.queue:
            raise IllegalAction(f"seat {self.queue[0]} is still to act")
        return self._collected()

    def _collected(self) -> Betting:
        bets, stacks, contributed = list(self.bets), list(self.stacks), list(self.contributed)
        if self.players_in == 1:
            winner = self.in_hand.index(True)
            stacks[winner] += bets[winner]
            bets[winner] = 0
        cutoff = sorted(self.bets)[-2]
        for seat, bet in enumerate(bets):
            kept = min(bet, cutoff)
            stacks[seat] += bet - kept
            contributed[seat] += kept
        zero = (0,) * len(bets)
        return replace(self, stacks=tuple(stacks), bets=zero, contributed=tuple(contributed))

    def next_round(self) -> Betting:
        """Collect this round and open the next one (whose queue is empty when nobody can bet)."""
        if self.round + 1 >= len(self.rules.rounds):
            raise IllegalAction("that was the last betting round")
        return self.collect()._open_round(self.round + 1)

    @property
    def pots(self) -> tuple[Pot, ...]:
        """Main pot first, then side pots; each with the seats still in that may win it."""
        put_in = [c + b for c, b in zip(self.contributed, self.bets, strict=True)]
        pots: list[Pot] = []
        previous = 0
        for level in sorted({put_in[s] for s in self.order}):
            amount = sum(min(p, level) - min(p, previous) for p in put_in)
            eligible = tuple(s for s in self.order if self.in_hand[s] and put_in[s] >= level)
            if pots and pots[-1].eligible == eligible:
                amount += pots.pop().amount
            if amount:
                pots.append(Pot(amount, eligible))
            previous = level
        return tuple(pots)

    def award(self, ranks: Mapping[Seat, Any]) -> tuple[Betting, tuple[Payout, ...]]:
        """Share every pot (HE-13/14); ``ranks`` gives each showing seat a value, higher is better.

        When one player is left, ``ranks`` may be empty. Returns the betting with chips moved to the
        stacks (nothing left in the pot) and how each pot was shared.
        """
        if self.bets and any(self.bets):
            raise IllegalAction("collect the round's wagers before sharing the pots")
        stacks = list(self.stacks)
        payouts = []
        unit = self.rules.unit
        for pot in self.pots:
            if self.hand_over:
                winners: tuple[Seat, ...] = (self.in_hand.index(True),)
            else:
                contenders = [s for s in pot.eligible if s in ranks]
                if not contenders:
                    raise IllegalAction(f"no ranked hand may win the pot of {pot.amount}")
                best = max(contenders, key=lambda s: ranks[s])
                winners = tuple(s for s in contenders if not ranks[s] < ranks[best])
            units, odd = divmod(pot.amount, unit)
            share, extra = divmod(units, len(winners))
            shares = tuple((share + (i < extra)) * unit for i in range(len(winners)))
            shares = (shares[0] + odd, *shares[1:])
            for seat, amount in zip(winners, shares, strict=True):
                stacks[seat] += amount
            payouts.append(Payout(pot, winners, shares))
        zero = (0,) * len(stacks)
        return replace(self, stacks=tuple(stacks), contributed=zero, queue=()), tuple(payouts)


# -- sessions of many hands -------------------------------------------------------------------------


def seats_with_chips(stacks: Sequence[int]) -> tuple[Seat, ...]:
    return tuple(s for s, chips in enumerate(stacks) if chips > 0)


def next_dealer(stacks: Sequence[int], dealer: Seat) -> Seat:
    """The deal passes to the left, skipping seats that are out of chips (busted players leave).

    >>> next_dealer((50, 0, 30), 0)
    2
    """
    seats = len(stacks)
    for step in range(1, seats + 1):
        seat = (dealer + step) % seats
        if stacks[seat] > 0:
            return seat
    raise IllegalAction("nobody has chips left")
