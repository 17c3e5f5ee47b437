"""Exact odds for the board games: each hand in one roll, and within a turn of three rolls (BD-4) under the
best re-roll plan for that hand; the same for each square label a roll may claim (BD-5, BD-6).

>>> row = next(r for r in hand_odds() if r.name == "five of a kind")
>>> row.one_roll, row.in_turn
(Fraction(1, 1296), Fraction(347897, 7558272))
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from dicepoker.analysis.board_planning import reach_probability
from dicepoker.core.types import JSON
from dicepoker.dice.hands import PokerHand
from dicepoker.dice.table_cache import cached_fractions, source_version
from dicepoker.games.board.claims import READINGS
from dicepoker.games.board.layout import HAND_LABELS, describe_label


@dataclass(frozen=True, slots=True)
class OddsRow:
    key: str
    """The hand (``full-house``) or the square label (``D36``)."""
    name: str
    one_roll: Fraction
    in_turn: Fraction
    """Within three rolls, re-rolling by the plan that maximises the chance of this hand."""

    def to_json(self) -> dict[str, JSON]:
        return {
            "key": self.key,
            "name": self.name,
            "one_roll": str(self.one_roll),
            "one_roll_float": float(self.one_roll),
            "in_turn": str(self.in_turn),
            "in_turn_float": float(self.in_turn),
        }


_SOURCES = (
    __name__,
    "dicepoker.analysis.board_planning",
    "dicepoker.games.board.claims",
    "dicepoker.games.board.layout",
    "dicepoker.dice.hands",
    "dicepoker.dice.standard",
    "dicepoker.games.dice_turn",
)
"""The modules whose code the exact odds depend on: editing any of them recomputes the cached odds."""


def _rows(name: str, targets: list[tuple[str, str, frozenset[int]]]) -> tuple[OddsRow, ...]:
    """The rows of ``targets`` (key, name, winning readings); the exact sums (seconds of Fraction arithmetic)
    are computed once per machine and code version, then read from the user cache."""

    def compute() -> list[Fraction]:
        return [p for _, _, target in targets for p in reach_probability(target)]

    modules = [sys.modules[name] for name in _SOURCES]
    values = cached_fractions(name, source_version(modules), compute)
    return tuple(OddsRow(key, label, values[2 * i], values[2 * i + 1]) for i, (key, label, _) in enumerate(targets))


@cache
def hand_odds() -> tuple[OddsRow, ...]:
    """Each hand of BD-5, best first: exactly that hand (the best category the dice make)."""
    targets = []
    for hand in sorted(PokerHand, reverse=True):
        target = frozenset(i for i, r in enumerate(READINGS) if r.hand is hand)
        targets.append((hand.label.replace(" ", "-"), hand.label, target))
    return _rows("board-hand-odds", targets)


@cache
def label_odds() -> tuple[OddsRow, ...]:
    """Each square label: the chance of a roll that may claim it, by its hand or as a lucky sum (BD-6).

    Five of a kind (wild, BD-8) is not counted here: add the ``five-of-a-kind`` row for "any square".
    """
    targets = []
    for label in HAND_LABELS:
        target = frozenset(i for i, r in enumerate(READINGS) if label in r.labels)
        targets.append((label, describe_label(label), target))
    return _rows("board-label-odds", targets)


def odds_json(game: str) -> dict[str, JSON]:
    return {
        "game": game,
        "rolls_per_turn": 3,
        "hands": [row.to_json() for row in hand_odds()],
        "labels": [row.to_json() for row in label_odds()],
    }
