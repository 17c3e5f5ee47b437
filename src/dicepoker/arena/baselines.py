"""Bots of a betting game against a fixed set of opponent styles (:mod:`dicepoker.bots.styles`).

Each pairing is a seeded heads-up :func:`~dicepoker.arena.duel.duel`: the bots swap seats every hand,
so both seat orders count equally, and hand ``i`` of every pairing draws the same dice (common random
numbers make the rows comparable). The figure is chips per hand won by the row's bot, with its 95%
confidence interval.

>>> table = vs_table("peekpoker", ["equity"], ["station"], hands=10, seed=1)
>>> table.command
'dicepoker simulate peekpoker --bots equity --vs station --hands 10 --seed 1'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from dicepoker.arena.duel import DuelReport, duel
from dicepoker.bots.registry import bot_names, create_bot
from dicepoker.bots.styles import STYLES
from dicepoker.core.errors import ConfigError
from dicepoker.core.types import JSON

DEFAULT_VS = tuple(STYLES)
"""The documented opponent styles: station, maniac, tight, lag."""


@dataclass(frozen=True, slots=True)
class VsTable:
    """One duel report per (bot, opponent) pair, bots in rows and opponents in columns."""

    game: str
    bots: tuple[str, ...]
    opponents: tuple[str, ...]
    hands: int
    seed: int
    reports: tuple[DuelReport, ...]
    """Row by row: every opponent for the first bot, then for the second, and so on."""

    @property
    def command(self) -> str:
        """The command line that reproduces this table."""
        return (
            f"dicepoker simulate {self.game} --bots {','.join(self.bots)} --vs {','.join(self.opponents)} "
            f"--hands {self.hands} --seed {self.seed}"
        )

    def report(self, bot: str, opponent: str) -> DuelReport:
        return self.reports[self.bots.index(bot) * len(self.opponents) + self.opponents.index(opponent)]

    def markdown(self) -> str:
        """The table as Markdown: chips per hand with the 95% interval, then the command."""
        lines = [
            f"| {self.game}, chips/hand (95% CI) | " + " | ".join(f"vs `{o}`" for o in self.opponents) + " |",
            "|---|" + "---|" * len(self.opponents),
        ]
        for bot in self.bots:
            cells = []
            for opponent in self.opponents:
                report = self.report(bot, opponent)
                low, high = report.interval
                cells.append(f"{report.mean:+.2f} [{low:+.2f}, {high:+.2f}]")
            lines.append(f"| `{bot}` | " + " | ".join(cells) + " |")
        lines.append("")
        lines.append(
            f"{self.hands:,} heads-up hands per pairing, seats swapped every hand; reproduce: `{self.command}`"
        )
        return "\n".join(lines)

    def to_json(self) -> dict[str, JSON]:
        return {
            "game": self.game,
            "bots": list(self.bots),
            "vs": list(self.opponents),
            "hands": self.hands,
            "seed": self.seed,
            "command": self.command,
            "duels": [report.to_json() for report in self.reports],
        }


def parse_names(game: str, text: str, option: str) -> tuple[str, ...]:
    """``"expert,equity"`` -> the names, checked against the bots of ``game`` (:class:`ConfigError`)."""
    names = tuple(name.strip() for name in text.split(",") if name.strip())
    known = bot_names(game)
    if not names:
        raise ConfigError(f"{option} needs at least one bot (choose from: {', '.join(known)})")
    for name in names:
        if name not in known:
            raise ConfigError(f"no bot {name!r} for {game}; choose one of: {', '.join(known)}")
    return names


def vs_table(game: str, bots: Sequence[str], opponents: Sequence[str], hands: int, seed: int) -> VsTable:
    """Duel every bot of ``bots`` against every one of ``opponents`` (fresh bots for each pairing, so
    that what a learning bot reads of one opponent does not carry over to the next)."""
    reports = tuple(
        duel(game, create_bot(game, bot), create_bot(game, opponent), hands, seed)
        for bot in bots
        for opponent in opponents
    )
    return VsTable(game, tuple(bots), tuple(opponents), hands, seed, reports)
