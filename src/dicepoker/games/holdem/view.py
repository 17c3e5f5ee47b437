"""What a Dice Hold'em seat may see, the public record of a showdown, and their JSON form.

Split from :mod:`.holdem` to keep each module one concern. A view holds public facts and the viewer's own
pocket dice only: nobody sees another's pocket dice before they are shown (HE-4, HE-9).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from dicepoker.core.fields import shown
from dicepoker.core.types import JSON, Seat, View
from dicepoker.dice.suited import Suit, SuitedDie
from dicepoker.games.betting import Payout, payout_from_json, payout_json
from dicepoker.games.holdem.actions import Phase


@dataclass(frozen=True, slots=True)
class Showdown:
    """The public record of how the last hand ended (who showed what, who won which pot)."""

    hand: int
    shown: tuple[tuple[Seat, tuple[SuitedDie, ...], int], ...]
    """(seat, pocket dice, best hand value) for every player who showed."""
    board: tuple[SuitedDie, ...]
    payouts: tuple[Payout, ...]


@dataclass(frozen=True, slots=True)
class HoldemView(View):
    seat: Seat | None
    players: int
    phase: Phase
    hand: int
    dealer: Seat | None
    street: str | None
    stacks: tuple[int, ...]
    bets: tuple[int, ...]
    pots: tuple[tuple[int, tuple[Seat, ...]], ...]
    in_hand: tuple[bool, ...]
    pocket: tuple[SuitedDie, ...]
    pocket_counts: tuple[int, ...]
    board: tuple[SuitedDie, ...]
    to_act: tuple[Seat, ...]
    rolling: bool
    raise_count: int
    last_showdown: Showdown | None
    resigned: frozenset[Seat]
    over: bool

    @property
    def pot_total(self) -> int:
        return sum(amount for amount, _ in self.pots)  # Betting.pots already holds this round's bets

    def to_json(self) -> dict[str, JSON]:
        return {
            "game": "holdem",
            "seat": self.seat,
            "players": self.players,
            "phase": self.phase.value,
            "hand": self.hand,
            "dealer": self.dealer,
            "street": self.street,
            "stacks": list(self.stacks),
            "bets": list(self.bets),
            "pots": [{"amount": amount, "eligible": list(seats)} for amount, seats in self.pots],
            "in_hand": list(self.in_hand),
            "pocket": dice_json(self.pocket),
            "pocket_counts": list(self.pocket_counts),
            "board": dice_json(self.board),
            "to_act": list(self.to_act),
            "rolling": self.rolling,
            "raise_count": self.raise_count,
            "last_showdown": None if self.last_showdown is None else showdown_json(self.last_showdown),
            "resigned": sorted(self.resigned),
            "over": self.over,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> HoldemView:
        """The view :meth:`to_json` wrote (a client rebuilds the views a server sends)."""
        showdown = data["last_showdown"]
        return cls(
            seat=None if data["seat"] is None else int(data["seat"]),
            players=int(data["players"]),
            phase=Phase(data["phase"]),
            hand=int(data["hand"]),
            dealer=None if data["dealer"] is None else int(data["dealer"]),
            street=None if data["street"] is None else str(data["street"]),
            stacks=_ints(data["stacks"]),
            bets=_ints(data["bets"]),
            pots=tuple((int(pot["amount"]), _ints(pot["eligible"])) for pot in data["pots"]),
            in_hand=tuple(bool(b) for b in data["in_hand"]),
            pocket=dice_from_json(data["pocket"]),
            pocket_counts=_ints(data["pocket_counts"]),
            board=dice_from_json(data["board"]),
            to_act=_ints(data["to_act"]),
            rolling=bool(data["rolling"]),
            raise_count=int(data["raise_count"]),
            last_showdown=None if showdown is None else showdown_from_json(showdown),
            resigned=frozenset(_ints(data["resigned"])),
            over=bool(data["over"]),
        )


def _ints(values: Sequence[JSON]) -> tuple[int, ...]:
    return tuple(int(v) for v in values)


def dice_json(dice: Sequence[SuitedDie]) -> list[str]:
    return [f"{face}{suit.letter}" for face, suit in dice]


def dice_from_json(words: Sequence[str]) -> tuple[SuitedDie, ...]:
    # Not parse_suited: a redrawn secret in tests may hold any dice; the bag is checked by the rules.
    for word in words:
        if not isinstance(word, str) or len(word) != 2 or word[0] not in "123456" or word[1] not in "rbwy":
            raise ValueError(f"{shown(word)} is not a suited die (a face 1-6 and a suit r, b, w or y)")
    return tuple((int(w[0]), Suit("rbwy".index(w[1]))) for w in words)


def showdown_json(showdown: Showdown) -> dict[str, JSON]:
    return {
        "hand": showdown.hand,
        "shown": [{"seat": s, "pocket": dice_json(p), "value": v} for s, p, v in showdown.shown],
        "board": dice_json(showdown.board),
        "payouts": [payout_json(p) for p in showdown.payouts],
    }


def showdown_from_json(data: Mapping[str, JSON]) -> Showdown:
    shown = tuple((int(x["seat"]), dice_from_json(x["pocket"]), int(x["value"])) for x in data["shown"])
    payouts = tuple(payout_from_json(p) for p in data["payouts"])
    return Showdown(int(data["hand"]), shown, dice_from_json(data["board"]), payouts)
