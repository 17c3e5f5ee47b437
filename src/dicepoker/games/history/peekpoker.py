"""PeekPoker hand histories: the title line and the comments of each hand (PK-6 … PK-12).

``d rolled …`` lines are the dice: each player's hidden dice in the deal order, the community dice,
each re-roll. The comments say, hand by hand: the dealer and the chips; at the showdown who shows what
and who may re-roll aces (PK-8); how each round of ace decisions went and what the re-rolled dice
became; the final hands (PK-9) and who won which pot (PK-11, PK-12).
"""

from __future__ import annotations

from dicepoker.core.log import Event
from dicepoker.dice.poker import describe, evaluate, format_dice
from dicepoker.games.history.format import Variant
from dicepoker.games.peekpoker import PeekPokerState, Phase
from dicepoker.games.peekpoker.view import PreviousHand


class PeekPokerHistory(Variant[PeekPokerState]):
    title = (
        "# PeekPoker Hold'em: Crazy Aces hand history (dicepoker): one line per action; 'd' is the dice, 'pN' seat N."
    )

    def comments(self, event: Event, before: PeekPokerState, after: PeekPokerState) -> list[str]:
        lines = []
        settled = _settled(before, after)
        if before.phase is Phase.ACES and (after.phase is not Phase.ACES or settled):
            lines.append(_decisions(before, after, settled))
        if before.phase is Phase.REROLL and event.seat is None:
            seat, count = before.rolling[0]
            dice = settled.shown[seat] if settled is not None else after.hidden[seat]
            lines.append(f"p{seat} re-rolled {count} ace(s): {format_dice(dice or ())}")
        if after.phase is Phase.ACES and (before.phase is not Phase.ACES or settled):
            seats = ", ".join(f"p{seat}" for seat in after.deciding if after.choices[seat] is None)
            if before.phase is Phase.REROLL:
                lines.append(f"{seats} rolled aces again and may re-roll them (PK-8)")
            else:
                shown = ", ".join(f"p{s} shows {format_dice(d)}" for s, d in enumerate(after.view(None).dice) if d)
                lines.append(f"showdown, community {format_dice(after.community)}: {shown}")
                lines.append(f"{seats} may re-roll aces (PK-8)")
        if settled is not None:
            lines += _settlement(settled)
        if after.hand != before.hand and after.phase is not Phase.OVER:
            lines.append(f"hand {after.hand}: dealer p{after.dealer}, chips {' '.join(map(str, after.stacks))}")
        return lines


def _settled(before: PeekPokerState, after: PeekPokerState) -> PreviousHand | None:
    """The record of the hand this action finished, if it finished one."""
    record = after.previous
    if record is None or (before.previous is not None and before.previous.number == record.number):
        return None
    return record


def _decisions(before: PeekPokerState, after: PeekPokerState, settled: PreviousHand | None) -> str:
    """PK-8: the simultaneous ace decisions, revealed together once everyone has decided."""
    rerolls = dict(after.rolling) if after.phase is Phase.REROLL and settled is None else {}
    parts = [
        f"p{seat} re-rolls {rerolls[seat]} ace(s)" if seat in rerolls else f"p{seat} stands"
        for seat in before.deciding
        if seat not in after.resigned
    ]
    return "aces: " + (", ".join(parts) or "nobody decides")


def _settlement(record: PreviousHand) -> list[str]:
    """The final hands (PK-9) and the pots (PK-11, PK-12)."""
    lines = [f"hand {record.number} community: {format_dice(record.community) or '(none)'}"]
    for seat, dice in enumerate(record.shown):
        if dice is not None:
            lines.append(f"p{seat} shows {format_dice(dice)}: {describe(evaluate((*dice, *record.community)))}")
    won = ", ".join(f"p{seat} {chips}" for seat, chips in enumerate(record.won) if chips)
    if len(lines) == 1:
        return [*lines, f"pot {sum(record.won)}: {won} (the others folded, PK-11)"]
    for number, payout in enumerate(record.payouts):
        pot = "main pot" if number == 0 else f"side pot {number}"
        shares = ", ".join(f"p{seat} {share}" for seat, share in zip(payout.winners, payout.shares, strict=True))
        lines.append(f"{pot} {payout.pot.amount}: {shares}")
    return lines
