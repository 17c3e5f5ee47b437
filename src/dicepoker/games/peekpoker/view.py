"""What a PeekPoker seat may see, and the public record of the last hand.

Split from :mod:`.peekpoker` to keep each module one concern. A view carries only public facts plus
the viewer's own dice: other players' dice appear only once revealed at the showdown (PK-4, PK-8),
and a pending ace choice never appears, only the fact that the seat has decided.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from dicepoker.core.types import JSON, Seat, View
from dicepoker.dice.poker import PokerDice, format_dice, parse_dice
from dicepoker.games.betting import Payout, payout_from_json, payout_json


@dataclass(frozen=True, slots=True)
class PreviousHand:
    """The public outcome of the last finished hand: dice shown at the showdown and chips won."""

    number: int
    community: PokerDice
    shown: tuple[PokerDice | None, ...]
    won: tuple[int, ...]
    payouts: tuple[Payout, ...] = ()
    """Who won which pot (main pot first), as the betting engine shared them (PK-11, PK-12)."""

    def to_json(self) -> dict[str, JSON]:
        return {
            "number": self.number,
            "community": format_dice(self.community),
            "shown": [None if dice is None else format_dice(dice) for dice in self.shown],
            "won": list(self.won),
            "payouts": [payout_json(p) for p in self.payouts],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> PreviousHand:
        return cls(
            int(data["number"]),
            parse_dice(data["community"]),
            tuple(None if d is None else parse_dice(d) for d in data["shown"]),
            tuple(int(w) for w in data["won"]),
            tuple(payout_from_json(p) for p in data["payouts"]),
        )


@dataclass(frozen=True, slots=True)
class PeekPokerView(View):
    seat: Seat | None
    players: int
    phase: str
    hand: int
    dealer: Seat | None
    chips: tuple[int, ...]
    """Each seat's chips behind (not in the pot)."""
    bets: tuple[int, ...]
    """Wagers of the current betting round."""
    pot: int
    """Everything in the middle: earlier rounds plus the current wagers."""
    in_hand: tuple[bool, ...]
    betting_round: int | None
    to_act: tuple[Seat, ...]
    dice: tuple[PokerDice | None, ...]
    """Own dice for the viewer, others' once revealed; ``None`` when not visible or not dealt."""
    community: PokerDice
    rerolling: tuple[tuple[Seat, int], ...]
    """At a re-roll: who re-rolls how many aces (public, the dice are in the air)."""
    forced_bet_due: bool
    resigned: frozenset[Seat]
    previous: PreviousHand | None
    over: bool

    @property
    def hand_number(self) -> int:
        """The old name of :attr:`hand`, kept importable."""
        return self.hand

    @property
    def own(self) -> PokerDice:
        return (self.dice[self.seat] or ()) if self.seat is not None else ()

    def to_call(self) -> int:
        if self.seat is None:
            return 0
        return min(self.chips[self.seat], max(self.bets) - self.bets[self.seat])

    def to_json(self) -> dict[str, JSON]:
        return {
            "game": "peekpoker",
            "seat": self.seat,
            "players": self.players,
            "phase": self.phase,
            "hand": self.hand,
            "dealer": self.dealer,
            "chips": list(self.chips),
            "bets": list(self.bets),
            "pot": self.pot,
            "in_hand": list(self.in_hand),
            "betting_round": self.betting_round,
            "to_act": list(self.to_act),
            "dice": [None if d is None else format_dice(d) for d in self.dice],
            "community": format_dice(self.community),
            "rerolling": [list(r) for r in self.rerolling],
            "forced_bet_due": self.forced_bet_due,
            "resigned": sorted(self.resigned),
            "previous": None if self.previous is None else self.previous.to_json(),
            "over": self.over,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> PeekPokerView:
        """The view :meth:`to_json` wrote (a client rebuilds the views a server sends)."""
        previous = data["previous"]
        return cls(
            seat=_seat(data["seat"]),
            players=int(data["players"]),
            phase=str(data["phase"]),
            hand=int(data["hand"] if "hand" in data else data["hand_number"]),  # "hand_number" before issue 18
            dealer=_seat(data["dealer"]),
            chips=_ints(data["chips"]),
            bets=_ints(data["bets"]),
            pot=int(data["pot"]),
            in_hand=tuple(bool(b) for b in data["in_hand"]),
            betting_round=None if data["betting_round"] is None else int(data["betting_round"]),
            to_act=_ints(data["to_act"]),
            dice=tuple(None if d is None else parse_dice(d) for d in data["dice"]),
            community=parse_dice(data["community"]),
            rerolling=tuple((int(seat), int(count)) for seat, count in data["rerolling"]),
            forced_bet_due=bool(data["forced_bet_due"]),
            resigned=frozenset(_ints(data["resigned"])),
            previous=None if previous is None else PreviousHand.from_json(previous),
            over=bool(data["over"]),
        )


def _seat(value: JSON) -> Seat | None:
    return None if value is None else int(value)


def _ints(values: Sequence[JSON]) -> tuple[int, ...]:
    return tuple(int(v) for v in values)
