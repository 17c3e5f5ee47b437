"""Dice Hold'em hand histories: the title line and the comments of each hand (HE-9 … HE-14).

After each showdown: the board, each pocket shown with its hand, and who won which pot; at the start
of each hand: the dealer and everyone's chips.
"""

from __future__ import annotations

from dicepoker.core.log import Event
from dicepoker.dice.suited import describe, format_suited
from dicepoker.games.history.format import Variant
from dicepoker.games.holdem import HoldemState, Showdown


class HoldemHistory(Variant[HoldemState]):
    title = "# Dice Hold'em hand history (dicepoker): one line per action; 'd' is the dealer, 'pN' seat N."

    def comments(self, event: Event, before: HoldemState, after: HoldemState) -> list[str]:
        lines = []
        if after.last_showdown is not before.last_showdown and after.last_showdown is not None:
            lines += _showdown(after.last_showdown)
        if after.hand != before.hand and after.betting is not None:
            lines.append(f"hand {after.hand}: dealer p{after.dealer}, chips {' '.join(map(str, after.chips()))}")
        return lines


def _showdown(record: Showdown) -> list[str]:
    lines = [f"hand {record.hand} board: {format_suited(record.board) or '(none)'}"]
    lines += [f"p{seat} shows {format_suited(dice)}: {describe(value)}" for seat, dice, value in record.shown]
    for number, payout in enumerate(record.payouts):
        pot = "main pot" if number == 0 else f"side pot {number}"
        won = ", ".join(f"p{seat} {share}" for seat, share in zip(payout.winners, payout.shares, strict=True))
        lines.append(f"{pot} {payout.pot.amount}: {won}")
    return lines
