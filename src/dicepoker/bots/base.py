"""The bot protocol: a bot decides from a view and the legal actions, nothing else (DESIGN §11)."""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import Protocol

from dicepoker.core.types import Action, View


class Bot(Protocol):
    """Chooses one of ``legal`` given what its seat may see. ``rng`` is its only source of randomness."""

    name: str

    def choose(self, view: View, legal: Sequence[Action], rng: Random) -> Action: ...


class RandomBot:
    """Uniformly random legal action: the baseline every other bot must beat."""

    name = "random"

    def choose(self, view: View, legal: Sequence[Action], rng: Random) -> Action:
        return legal[rng.randrange(len(legal))]
