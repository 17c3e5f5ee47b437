"""PeekPoker Hold'em (seed 002) constants and its validated configuration (PK-1, PK-3, PK-5, PK-14)."""

from __future__ import annotations

from dataclasses import dataclass

from dicepoker.core.errors import ConfigError
from dicepoker.core.fields import shown
from dicepoker.games.betting import MAX_STACK, BettingRules

# -- constants --------------------------------------------------------------------------------------
OWN_DICE = 3
COMMUNITY_DICE = 3
MIN_PLAYERS, MAX_PLAYERS = 2, 4
FORCED_BET = 1


# -- config -----------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True, kw_only=True)
class PeekPokerConfig:
    players: int = 2
    """PK-1: 2 to 4 players."""
    stack: int = 48
    """PK-1: everyone's starting chips (2 to ``MAX_STACK``, 10**9)."""
    blinds: bool = False
    """PK-3/PK-14 option: blinds 1/2 instead of an ante of 1."""
    forced_bet: bool = False
    """PK-14 option: each round opens with a forced bet of 1 (post it or fold; the duty passes left)."""
    split_community: bool = False
    """PK-14 option: community dice come 2 then 1, with an extra betting round after the last one."""
    ace_rerolls: bool = True
    """PK-14 option ``False``: aces may not be re-rolled."""

    def __post_init__(self) -> None:
        for name in ("players", "stack"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise ConfigError(f"{name} must be a whole number, got {shown(value)}")
        for name in ("blinds", "forced_bet", "split_community", "ace_rerolls"):
            if not isinstance(getattr(self, name), bool):
                raise ConfigError(f"{name} must be true or false, got {getattr(self, name)!r}")
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise ConfigError(f"peekpoker is for {MIN_PLAYERS} to {MAX_PLAYERS} players, got {self.players}")
        if not 2 <= self.stack <= MAX_STACK:
            raise ConfigError(f"the starting stack must be from 2 to {MAX_STACK:,} chips, got {shown(self.stack)}")

    @property
    def community_rolls(self) -> tuple[int, ...]:
        """How many community dice land after each betting round but the last (PK-6, PK-14)."""
        return (2, 1) if self.split_community else (COMMUNITY_DICE,)

    def betting_rules(self) -> BettingRules:
        """PK-3, PK-5, PK-14: no limit, minimum bet 1, ante 1 or blinds 1/2."""
        rounds = (1,) * (len(self.community_rolls) + 1)
        if self.blinds:
            return BettingRules.no_limit(rounds, blinds=(1, 2))
        return BettingRules.no_limit(rounds, ante=1)
