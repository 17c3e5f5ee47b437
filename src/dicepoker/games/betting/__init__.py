"""One betting engine for every dice poker game: fixed, spread and no limit; antes, blinds, caps, side pots.

A :class:`Betting` value is the money of one hand: stacks, this round's wagers, what earlier rounds
collected, who is still in, and whose turn it is. It knows nothing about dice: a game (``holdem``,
``peekpoker``) keeps one inside its state, deals between rounds, and hands it the showdown ranking.
Everything is an integer number of chips, and ``sum(stacks) + sum(bets) + sum(contributed)`` never
changes within a hand (:meth:`Betting.chips`).

The life of a hand::

    betting = Betting.start_hand(rules, stacks, dealer)   # antes and blinds posted, round 0 open
    while not over:
        betting.to_act / betting.options() / betting.legal_actions()
        betting = betting.apply(action)                   # raises IllegalAction, changes nothing
        if betting.round_over: betting = betting.next_round()   # collect, open the next round
    betting = betting.collect()                            # after the last round
    betting, payouts = betting.award(ranks)                # ranks: seat -> comparable hand value

Rules, chosen to agree with PokerKit (checked action by action in ``tests/games/betting/test_pokerkit.py``):

* Seats are ordered from the dealer's left (CM-1). Heads-up the dealer posts the small blind, acts
  first in round 0 and last afterwards. Blinds go to the first seats after the dealer otherwise.
* A short ante or blind puts the player all-in for what they have. Antes are collected like a
  round of bets (the uncalled part of an ante is returned).
* A bet or raise names the total a player's wager reaches this round (``raise 40`` = raise *to* 40).
  No limit: at least the round's minimum and at least the largest raise so far this round, unless
  it is all-in. With blinds the big blind is the first round's opening bet: the first raise adds at
  least the big blind (blinds 1/2: a raise to 4, PK-14), as PokerKit's street minimum does.
  Fixed limit: exactly the round's size (less when all-in). Spread limit: any multiple
  of the unit from the round's minimum to its maximum increment; no minimum-raise rule there, on
  purpose (HE-5 reads "a bet or raise is 10 or 20").
* ``raise_cap`` bounds the bets and raises of a round, the opening bet included (HE-5's "three
  raises" is a cap of 4). Blinds do not count.
* A short all-in raise does not reopen betting for players who already acted; several consecutive
  short all-ins that together reach a full raise do. A player who cannot cover the call may only call
  (all-in) or fold. Nobody may raise once everyone else is all-in or folded.
* Folding is legal only when facing a bet (checking is free).
* At the end of a round the part of the largest wager nobody matched is returned.
* Pots are built level by level from what each player put in; each goes to the best hand among the
  players still in who reached that level. Odd units go one at a time to winners from the dealer's
  left (HE-14, PK-12).

>>> rules = BettingRules.fixed_limit((10, 10, 20, 20), ante=10, raise_cap=4, unit=10)
>>> betting = Betting.start_hand(rules, stacks=(100, 100, 100), dealer=2)
>>> betting.to_act, [str(a) for a in betting.legal_actions()]
(0, ['check', 'bet 10'])
>>> betting = betting.apply(Bet(10)).apply(Raise(20)).apply(Call()).apply(Call())
>>> betting.round_over, betting.stacks
(True, (70, 70, 70))
>>> betting = betting.next_round()
>>> betting.pots
(Pot(amount=90, eligible=(0, 1, 2)),)
>>> betting = betting.apply(Bet(10)).apply(Fold()).apply(Call())
>>> betting = betting.next_round().apply(Check()).apply(Check())
>>> betting = betting.next_round().apply(Check()).apply(Check()).collect()
>>> betting, payouts = betting.award({0: 5, 2: 9})
>>> betting.stacks, payouts[0].winners
((60, 70, 170), (2,))
"""

from dicepoker.games.betting.actions import Bet, BettingAction, Call, Check, Fold, Raise, parse_betting_action
from dicepoker.games.betting.engine import Betting, next_dealer, seats_with_chips
from dicepoker.games.betting.rules import (
    MAX_STACK,
    BettingRules,
    Comparable,
    Limit,
    Options,
    Payout,
    Pot,
    RoundLimit,
    payout_from_json,
    payout_json,
)

__all__ = [
    "MAX_STACK",
    "Bet",
    "Betting",
    "BettingAction",
    "BettingRules",
    "Call",
    "Check",
    "Comparable",
    "Fold",
    "Limit",
    "Options",
    "Payout",
    "Pot",
    "Raise",
    "RoundLimit",
    "next_dealer",
    "parse_betting_action",
    "payout_from_json",
    "payout_json",
    "seats_with_chips",
]
