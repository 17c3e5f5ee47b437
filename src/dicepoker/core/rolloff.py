"""CM-3, the roll-off every game opens with: each contender rolls one standard die, and the players tied
for the highest roll again among themselves until one is highest.

One value records a roll-off in progress: the contenders of this round and the faces they rolled so
far, in seat order. Games roll the dice one chance node per die (the board games, Dice Hold'em) or all
of a round's dice in one node (PeekPoker); both settle the same way.

>>> rolloff = RollOff((0, 1, 2)).add(5).add(6).add(6)
>>> rolloff.settle()
RollOff(contenders=(1, 2), faces=())
>>> RollOff((1, 2)).add_all((2, 4)).settle()
2
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from dicepoker.core.types import JSON, Seat


@dataclass(frozen=True, slots=True)
class RollOff:
    """The seats still contending, and the faces they rolled so far this round (in order)."""

    contenders: tuple[Seat, ...]
    faces: tuple[int, ...] = ()

    @property
    def complete(self) -> bool:
        """Every contender has rolled this round."""
        return len(self.faces) == len(self.contenders)

    @property
    def roller(self) -> Seat:
        """The contender whose die is rolling now."""
        return self.contenders[len(self.faces)]

    def add(self, face: int) -> RollOff:
        """The next contender rolled ``face``."""
        return RollOff(self.contenders, (*self.faces, face))

    def add_all(self, faces: Sequence[int]) -> RollOff:
        """Every contender rolled at once (one face each, in seat order)."""
        if self.faces or len(faces) != len(self.contenders):
            raise ValueError(f"expected one face for each of {list(self.contenders)}")
        return RollOff(self.contenders, tuple(faces))

    def leaders(self) -> tuple[Seat, ...]:
        best = max(self.faces)
        return tuple(s for s, f in zip(self.contenders, self.faces, strict=True) if f == best)

    def settle(self) -> Seat | RollOff:
        """The winner once the round is complete and one seat is highest; otherwise the roll-off that goes on
        (the same one while dice are still to roll, the tied leaders once they are all rolled)."""
        if len(self.contenders) == 1:
            return self.contenders[0]
        if not self.complete:
            return self
        leaders = self.leaders()
        return leaders[0] if len(leaders) == 1 else RollOff(leaders)

    def without(self, alive: Collection[Seat]) -> RollOff:
        """The roll-off after some seats left (CM-5); everyone alive rolls again if no contender is left."""
        rolled = dict(zip(self.contenders, self.faces, strict=False))
        contenders = tuple(s for s in self.contenders if s in alive)
        if not contenders:
            return RollOff(tuple(sorted(alive)))
        # Contenders roll in order, so the ones who rolled stay a prefix of those left.
        return RollOff(contenders, tuple(rolled[s] for s in contenders if s in rolled))

    def to_json(self) -> dict[str, JSON]:
        return {"contenders": list(self.contenders), "faces": list(self.faces)}

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> RollOff:
        return cls(tuple(int(s) for s in data["contenders"]), tuple(int(f) for f in data["faces"]))
