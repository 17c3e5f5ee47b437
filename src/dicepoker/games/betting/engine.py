"""The betting state of one hand (:class:`Betting`) and the dealer's move between hands; see the package doc."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from dicepoker.core.errors import IllegalAction
from dicepoker.core.frozen import evolve
from dicepoker.core.types import JSON, Action, Seat
from dicepoker.games.betting.actions import Bet, BettingAction, Call, Check, Fold, Raise
from dicepoker.games.betting.rules import BettingRules, Limit, Options, Payout, Pot, RoundLimit

FOLD, CHECK, CALL = Fold(), Check(), Call()


# No slots: evolve() copies a state as one dict, the fastest way to build the many states of a hand.
@dataclass(frozen=True)
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
        return evolve(self, stacks=tuple(stacks), bets=tuple(bets))

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
        state = evolve(self, round=index, queue=queue, acted=frozenset(), raise_size=0, raise_count=0, short_all_ins=())
        return state if state.players_in > 1 else evolve(state, queue=())

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
        if self._options is None:
            raise IllegalAction("nobody is to act: the betting round is over")
        return self._options

    @cached_property  # asked by legal_actions and again by check: computed once per betting state
    def _options(self) -> Options | None:
        seat = self.to_act
        if seat is None:
            return None
        call = self.owed(seat)
        return Options(seat, call > 0, call, self._raise_range(seat), self.current_bet == 0, self.rules.unit)

    def legal_actions(self) -> tuple[BettingAction, ...]:
        """Every legal action of the seat to act (each raise amount, in units)."""
        return self._legal_actions

    @cached_property
    def _legal_actions(self) -> tuple[BettingAction, ...]:
        opts = self._options
        if opts is None:
            return ()
        actions: list[BettingAction] = [FOLD, CALL] if opts.can_fold else [CHECK]
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
        # The big blind is round 0's opening bet (PK-14): facing blinds 1/2 a raise is to at least 4.
        opening = max(self.rules.blinds, default=0) if self.round == 0 else 0
        if self.rules.limit is Limit.SPREAD:
            assert limit.high is not None
            increment = max(limit.low, min(opening, limit.high))
        else:
            increment = max(self.raise_size, limit.low, opening)
        low = min(most, top + increment)
        if self.rules.limit is Limit.NO_LIMIT:
            return low, most
        if self.rules.limit is Limit.FIXED:
            return low, low
        assert limit.high is not None
        return low, min(most, top + max(limit.high, increment))

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
        options = self._options
        assert options is not None
        if options.raise_to is None:
            raise IllegalAction(f"cannot {word}: {self._raise_refusal(seat)}")
        low, high = options.raise_to
        if action.to < low:
            raise IllegalAction(f"{word} below the minimum: {action.to} < {low}")
        if action.to > high:
            raise IllegalAction(f"{word} above the maximum: {action.to} > {high}")
        if action.to != high and (action.to - low) % self.rules.unit:
            raise IllegalAction(f"{word} must be in steps of {self.rules.unit}")

    def apply(self, action: Action) -> Betting:
        """The betting after ``action`` by the seat to act; raises :class:`IllegalAction` if illegal."""
        self.check(action)
        return self.apply_checked(action)

    def apply_checked(self, action: Action) -> Betting:
        """:meth:`apply` for an action that already passed :meth:`check` (a game's own check)."""
        seat = self.queue[0]
        acted = self.acted | {seat}
        queue = self.queue[1:]
        if isinstance(action, Fold):
            in_hand = tuple(False if s == seat else flag for s, flag in enumerate(self.in_hand))
            if sum(in_hand) <= 1:
                queue = ()
            return evolve(self, in_hand=in_hand, acted=acted, queue=queue)
        if isinstance(action, (Check, Call)):
            # One copy instead of three (post, mark acted, pass the turn): this is the hottest path.
            owed = self.owed(seat)
            stacks, bets = self.stacks, self.bets
            if owed:
                stacks = (*stacks[:seat], stacks[seat] - owed, *stacks[seat + 1 :])
                bets = (*bets[:seat], bets[seat] + owed, *bets[seat + 1 :])
            return evolve(self, stacks=stacks, bets=bets, acted=acted, queue=queue if self.players_in > 1 else ())
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
        state = evolve(
            moved, acted=acted, raise_size=raise_size, raise_count=self.raise_count + 1, short_all_ins=shorts
        )
        if shorts and sum(shorts) >= state._full_raise():
            state = evolve(state, short_all_ins=())
        return state._after_action(queue)

    def _after_action(self, queue: tuple[Seat, ...]) -> Betting:
        if not queue or self.players_in <= 1:
            queue = ()
        return evolve(self, queue=queue)

    def fold_seat(self, seat: Seat) -> Betting:
        """Take ``seat`` out of the hand even off turn (CM-5 resignation; a timeout folds on turn)."""
        if not self.in_hand[seat]:
            return self
        in_hand = tuple(False if s == seat else flag for s, flag in enumerate(self.in_hand))
        queue = tuple(s for s in self.queue if s != seat)
        return evolve(self, in_hand=in_hand, acted=self.acted | {seat})._after_action(queue)

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
            raise IllegalAction(f"seat {self.queue[0] + 1} is still to act")
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
        return evolve(self, stacks=tuple(stacks), bets=zero, contributed=tuple(contributed))

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
        return evolve(self, stacks=tuple(stacks), contributed=zero, queue=()), tuple(payouts)


# -- sessions of many hands -------------------------------------------------------------------------


def seats_with_chips(stacks: Sequence[int]) -> tuple[Seat, ...]:
    return tuple(s for s, chips in enumerate(stacks) if chips > 0)


def next_dealer(stacks: Sequence[int], dealer: Seat, skip: Collection[Seat] = ()) -> Seat:
    """The deal passes to the left, skipping seats out of chips (busted players leave) and ``skip``
    (players who resigned).

    >>> next_dealer((50, 0, 30), 0), next_dealer((50, 0, 30), 0, skip={2})
    (2, 0)
    """
    seats = len(stacks)
    for step in range(1, seats + 1):
        seat = (dealer + step) % seats
        if stacks[seat] > 0 and seat not in skip:
            return seat
    raise IllegalAction("nobody has chips left")
