"""Dice Hold'em (seed 004) constants and its validated configuration (HE-1, HE-3, HE-5)."""

from __future__ import annotations

from dataclasses import dataclass

from dicepoker.core.errors import ConfigError
from dicepoker.core.fields import shown
from dicepoker.dice.suited import Suit
from dicepoker.games.betting import MAX_STACK, BettingRules

# -- constants --------------------------------------------------------------------------------------
MIN_PLAYERS, MAX_PLAYERS = 2, 6
UNIT = 10
POCKET = 2
BOARD_AFTER = (0, 3, 4, 5)
"""Community dice on the table during each betting round (Open, Flop, Turn, River)."""
STREETS = ("open", "flop", "turn", "river")
FACES = frozenset(range(1, 7))
SUITS = frozenset(Suit)


# -- config -----------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True, kw_only=True)
class HoldemConfig:
    players: int = 2
    """HE-1: 2 to 6 players."""
    stack: int = 1000
    """HE-1: every player starts with this many chips (a multiple of 10, at most ``MAX_STACK``, 10**9)."""
    ante: int = 10
    """HE-3: the ante of each hand."""

    def __post_init__(self) -> None:
        for name in ("players", "stack", "ante"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise ConfigError(f"{name} must be a whole number, got {shown(value)}")
            if value > MAX_STACK:
                raise ConfigError(f"{name} must be at most {MAX_STACK:,}, got {shown(value)}")
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise ConfigError(f"holdem is for {MIN_PLAYERS} to {MAX_PLAYERS} players, got {self.players}")
        if self.stack <= 0 or self.stack % UNIT or self.ante < 0 or self.ante % UNIT:
            raise ConfigError(f"stack and ante must be multiples of {UNIT} (HE-1), stack positive")

    def betting_rules(self) -> BettingRules:
        """HE-5: 10 in the Open and Flop, 10 or 20 in the Turn and River, at most three raises."""
        ranges = ((10, 10), (10, 10), (10, 20), (10, 20))
        return BettingRules.spread_limit(ranges, ante=self.ante, raise_cap=4, unit=UNIT)
