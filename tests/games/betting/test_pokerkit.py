"""Differential test: our betting engine against PokerKit, step by step.

For seeded random hands of no-limit and fixed-limit hold'em with random antes, blinds, stacks and
(no limit) a minimum bet of 1 or the big blind, the big blind opening the first round (PK-14)
(small stacks on purpose, so all-ins, short all-ins and side pots are common), both engines must agree
at every decision on who acts, whether folding is allowed, the amount to call, and the raise range
(minimum and maximum "raise to"); at the end on the pots (amounts and eligible seats) and the final stacks.
PokerKit decides who wins at showdown (its own cards); we feed its ranking into ``Betting.award``.

Deliberate differences, not tested here:
* spread limit (HE-5's "10 or 20" on the Turn and River) has no PokerKit counterpart: see test_betting.py;
* the Flop re-roll after all checks (HE-6) is a game rule, not a betting rule: see test_holdem.py;
* odd chips: PokerKit gives a split pot's whole remainder to the first winner and first merges pots
  that the same players win; we split every pot on its own and deal odd units one at a time from the
  dealer's left (HE-14, PK-12). When a split leaves odd chips we check that totals agree to within one
  unit per pot and that our shares differ by at most one unit (counted in ``odd_chip_cases``).
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from random import Random
from typing import Any

import pytest

from dicepoker.games.betting import Bet, Betting, BettingRules, Call, Check, Fold, Raise

pokerkit = pytest.importorskip("pokerkit")

AUTOMATIONS = (
    pokerkit.Automation.ANTE_POSTING,
    pokerkit.Automation.BET_COLLECTION,
    pokerkit.Automation.BLIND_OR_STRADDLE_POSTING,
    pokerkit.Automation.CARD_BURNING,
    pokerkit.Automation.HOLE_DEALING,
    pokerkit.Automation.BOARD_DEALING,
)
NO_LIMIT_HANDS = 6_000
FIXED_LIMIT_HANDS = 4_000


def random_table(rng: Random) -> tuple[int, list[int], int, tuple[int, int], int]:
    players = rng.randint(2, 6)
    stacks = [rng.choice((rng.randint(1, 25), rng.randint(20, 300))) for _ in range(players)]
    ante = rng.choice((0, 0, 1, 2, 5))
    blinds = rng.choice(((1, 2), (2, 4), (5, 10), (0, 2)))
    return players, stacks, ante, blinds, rng.randrange(players)


def no_limit_state(ante: int, blinds: tuple[int, int], min_bet: int, stacks: list[int]) -> Any:
    """No-limit hold'em whose later streets open at ``min_bet`` while the big blind is the first
    street's opening bet (PK-14 **[decision]**): PokerKit's street minimum raised to the big blind."""
    game = pokerkit.NoLimitTexasHoldem(AUTOMATIONS, True, ante, blinds, min_bet)
    first, *later = game.streets
    opening = max(min_bet, *blinds)
    game.streets = (dataclasses.replace(first, min_completion_betting_or_raising_amount=opening), *later)
    return game(stacks, len(stacks))


def play_one(seed: int, no_limit: bool, stats: Counter[str]) -> None:
    rng = Random(seed)
    random.seed(seed)  # PokerKit shuffles its deck with the global RNG
    players, stacks, ante, (small, big), dealer = random_table(rng)
    # PokerKit's player i sits i+1 seats to the left of our dealer.
    seat_of = [(dealer + 1 + i) % players for i in range(players)]
    start_stacks = [0] * players
    for i, seat in enumerate(seat_of):
        start_stacks[seat] = stacks[i]
    if no_limit:
        # The rounds' minimum bet is the big blind or less (PeekPoker: blinds 1/2, minimum bet 1).
        low = rng.choice((1, big))
        pk = no_limit_state(ante, (small, big), low, stacks)
        rules = BettingRules.no_limit((low,) * 4, ante=ante, blinds=(small, big))
    else:
        pk = pokerkit.FixedLimitTexasHoldem.create_state(
            AUTOMATIONS, True, ante, (small, big), big, 2 * big, stacks, players
        )
        rules = BettingRules.fixed_limit((big, big, 2 * big, 2 * big), ante=ante, blinds=(small, big), raise_cap=4)
    ours = Betting.start_hand(rules, start_stacks, dealer)
    context: dict[str, Any] = {"seed": seed, "no_limit": no_limit}
    while True:
        while ours.to_act is None and not ours.hand_over and ours.round < 3:
            ours = ours.next_round()
        actor = None if pk.actor_index is None else seat_of[pk.actor_index]
        assert ours.to_act == actor, context
        if actor is None:
            break
        assert [pk.stacks[i] for i in range(players)] == [ours.stacks[s] for s in seat_of], context
        options = ours.options()
        low, high = pk.min_completion_betting_or_raising_to_amount, pk.max_completion_betting_or_raising_to_amount
        assert options.can_fold == pk.can_fold(), context
        assert options.call == pk.checking_or_calling_amount, context
        assert options.raise_to == (None if low is None else (low, high)), context
        roll = rng.random()
        if options.raise_to is not None and roll < 0.3:
            lo, hi = options.raise_to
            amount = rng.choice((lo, hi, rng.randint(lo, hi)))
            ours = ours.apply(Bet(amount) if options.opens else Raise(amount))
            pk.complete_bet_or_raise_to(amount)
            stats["raise"] += 1
        elif options.can_fold and roll < 0.45:
            ours = ours.apply(Fold())
            pk.fold()
        else:
            ours = ours.apply(Call() if options.call else Check())
            pk.check_or_call()
        context["last"] = str(ours)
    ours = ours.collect()
    assert ours.chips() == sum(stacks)
    ranks: dict[int, Any] = {}
    if not ours.hand_over:
        stats["showdown"] += 1
        expected = [(p.amount, tuple(sorted(seat_of[i] for i in p.player_indices))) for p in pk.pots]
        assert [(p.amount, tuple(sorted(p.eligible))) for p in ours.pots] == expected, context
        stats["side pots"] += len(expected) > 1
        while pk.can_show_or_muck_hole_cards():
            pk.show_or_muck_hole_cards(True)
        ranks = {seat_of[i]: pk.get_hand(i, 0, 0) for i in range(players) if ours.in_hand[seat_of[i]]}
        assert None not in ranks.values()
        while pk.can_kill_hand():
            pk.kill_hand()
    ours, payouts = ours.award(ranks)
    while pk.can_push_chips():
        pk.push_chips()
    while pk.can_pull_chips():
        pk.pull_chips()
    theirs, mine = [pk.stacks[i] for i in range(players)], [ours.stacks[s] for s in seat_of]
    if any((p.pot.amount // rules.unit) % len(p.winners) for p in payouts):
        stats["odd_chip_cases"] += 1
        assert all(max(p.shares) - min(p.shares) <= rules.unit for p in payouts)
        assert all(abs(a - b) <= len(payouts) * rules.unit for a, b in zip(theirs, mine, strict=True)), context
    else:
        assert theirs == mine, context
    assert sum(ours.stacks) == sum(stacks)


@pytest.mark.parametrize(("no_limit", "hands"), [(True, NO_LIMIT_HANDS), (False, FIXED_LIMIT_HANDS)])
def test_betting_agrees_with_pokerkit(no_limit: bool, hands: int) -> None:
    stats: Counter[str] = Counter()
    for seed in range(hands):
        play_one(seed, no_limit, stats)
    # The random sequences must actually reach the interesting cases.
    assert stats["showdown"] > hands // 10
    assert stats["side pots"] > hands // 50
    assert stats["raise"] > hands
