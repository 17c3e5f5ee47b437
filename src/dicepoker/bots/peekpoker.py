"""PeekPoker bots. Each decides from a :class:`PeekPokerView` and the legal actions only.

- :class:`EquityBot`: equity of its own dice (ace re-rolls counted) against the hands the betting of
  this hand leaves the opponent (:mod:`dicepoker.bots.ranges`: each bet or raise keeps their stronger
  hands, a check their weaker ones; all hands before either). It bets the pot when strong, raises only
  hands still ahead of the range that would raise again, calls by pot odds, otherwise checks or folds.
  At the showdown it re-rolls aces to beat the best hand on the table as revealed.
- :class:`ExpertBot`: models its opponent (:mod:`dicepoker.bots.opponent`). Over the hands of a session
  it learns how often the opponent checks, calls, folds and bets each size, and how far those actions
  follow their dice (from the order of their actions within hands, and from the dice they show at
  showdowns). It weighs the 56 hands they may hold by how likely their betting this hand is with each,
  takes its exact equity against that range (crazy aces counted: both players re-roll to maximise
  their equity against a random hand on the board) and picks the action, and the bet size, with the
  most expected chips one round ahead, given how this opponent answers each size. So a random bot's
  shoves are called with any hand that beats the pot odds, while a value bettor's bets are respected.
  At the showdown it plays a best response to the others' likely re-rolls: an ace may complete a
  straight or break one, and whether to keep it depends on what the others hold and will do.

The tables behind both (every own-dice × community-dice pairing, 56 × 56) are built once per machine (a
second or two, then read from the user cache in milliseconds) by :mod:`dicepoker.analysis.peekpoker_equity`.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from random import Random

from dicepoker.analysis.peekpoker_equity import (
    COMMUNITY,
    TRIPLE_INDEX,
    TRIPLE_P,
    equities,
    hand_equity,
    strengths,
)
from dicepoker.analysis.peekpoker_odds import (
    RerollPolicy,
    beat_utility,
    final_distribution,
    hand_strength,
    plan_rerolls,
)
from dicepoker.bots.opponent import OpponentModel, Range, Snapshot, choose, quantiles
from dicepoker.bots.ranges import BetsFaced, implied
from dicepoker.bots.tracker import HandTracker
from dicepoker.core.types import Action, View
from dicepoker.dice.poker import Face, PokerDice
from dicepoker.games.betting import Bet, Call, Check, Fold, Raise
from dicepoker.games.peekpoker.actions import RerollAces, Stand
from dicepoker.games.peekpoker.view import PeekPokerView


# -- shared betting helpers -------------------------------------------------------------------------
def _amount_action(legal: Sequence[Action], target: int) -> Action | None:
    """The legal bet or raise closest to ``target`` (a total wager), or ``None`` if none is legal."""
    sized = [a for a in legal if isinstance(a, (Bet, Raise))]
    if not sized:
        return None
    return min(sized, key=lambda a: abs(a.to - target))


def _passive(legal: Sequence[Action], equity: float, view: PeekPokerView) -> Action:
    """Check when free; call when the pot odds pay; otherwise fold."""
    if Check() in legal:
        return Check()
    to_call = view.to_call()
    if Call() in legal and equity >= to_call / (view.pot + to_call):
        return Call()
    return Fold() if Fold() in legal else legal[0]


def pot_sized(view: PeekPokerView, legal: Sequence[Action]) -> Action | None:
    """The legal bet or raise nearest to a pot-sized one (the pot after calling), if any is legal."""
    to_call = view.to_call()
    return _amount_action(legal, max(view.bets) + view.pot + to_call)


def _opponents(view: PeekPokerView) -> int:
    return max(1, sum(view.in_hand) - 1)


def strength_quantile(view: PeekPokerView) -> float:
    """Share of the hands an opponent may hold that are weaker than this seat's on this board (by equity
    against a random hand, ace re-rolls counted, community dice still to come averaged over)."""
    strength = strengths(tuple(sorted(view.community)))
    return float(quantiles(strength, TRIPLE_P)[TRIPLE_INDEX[tuple(sorted(view.own))]])


# -- bots -------------------------------------------------------------------------------------------
class EquityBot:
    """Equity against the hands the opponent's betting leaves (:mod:`.ranges`) against the pot odds."""

    name = "equity"
    value = 0.55
    """Bet or raise the pot with at least this equity."""
    free = 2
    """A wager of at most this much is a blind or a forced bet (PK-3, PK-14), no sign of strength."""

    def __init__(self) -> None:
        self.faced = BetsFaced()

    def choose(self, view: View, legal: Sequence[Action], rng: Random) -> Action:
        assert isinstance(view, PeekPokerView) and view.seat is not None
        if any(isinstance(a, (Stand, RerollAces)) for a in legal):
            return beat_the_table(view, legal)
        facing = view.to_call() > 0 and max(view.bets) > self.free
        # With antes the dealer acts last in every round: nothing wagered there means a check to it.
        checked_to = view.dealer == view.seat and not any(view.bets)
        key = (view.hand, *sorted(view.own))
        # No limit: each raise says more (and a maniac's raises put the bot all in before it can fold much).
        event = (view.betting_round, max(view.bets))
        faced = self.faced.update(view.seat, key, view.pot, event, facing=facing, checked_to=checked_to)
        community = tuple(sorted(view.community))
        weights = implied(TRIPLE_P, strengths(community), *faced) if faced != (0, 0) else None
        equity = hand_equity(view.own, view.community, rerolls=True, opponent_weights=weights) ** _opponents(view)
        strong = equity
        if facing:
            # Raise only hands still ahead of the range that would raise again: else a re-raise is paid.
            stronger = implied(TRIPLE_P, strengths(community), faced[0] + 1)
            strong = hand_equity(view.own, view.community, rerolls=True, opponent_weights=stronger) ** _opponents(view)
        if strong > self.value:
            sized = pot_sized(view, legal)
            if sized is not None:
                return sized
        return _passive(legal, equity, view)


class ExpertBot:
    """Equity against the opponent's range as their betting shapes it (:mod:`.opponent`), learnt over
    the hands of a session; best-response ace decisions at the showdown."""

    name = "expert"
    learns = True
    """It keeps its opponent model from game to game: simulations give each game a fresh one."""
    bet_fractions = (0.33, 0.5, 0.75, 1.0, 1.5, 2.5)
    """Candidate bet and raise sizes, as fractions of the pot after calling (plus all-in)."""

    def __init__(self) -> None:
        self.model = OpponentModel(rounds=3)  # two betting rounds, three with split community dice (PK-14)
        # One tracker per seat: one instance may play several seats of a table (the simulator shares bots).
        self.trackers: dict[int, HandTracker] = {}
        self.asked_about_aces = False
        """Whether this table re-rolls aces at all (PK-14 may forbid it): then a showdown is seen holding one."""

    def choose(self, view: View, legal: Sequence[Action], rng: Random) -> Action:
        assert isinstance(view, PeekPokerView) and view.seat is not None
        tracker = self.trackers.setdefault(view.seat, HandTracker(self.model))
        opponents = [s for s, flag in enumerate(view.in_hand) if flag and s != view.seat]
        if any(isinstance(a, (Stand, RerollAces)) for a in legal):
            self.asked_about_aces = True
            theirs = view.dice[opponents[0]] if len(opponents) == 1 else None
            tracker.settle(showdown=True, shown=None if theirs is None else TRIPLE_INDEX[tuple(sorted(theirs))])
            return _best_response_rerolls(view, legal)
        _read_previous(view, tracker)
        snap = _snapshot(view, opponents, sees_showdown=self.asked_about_aces and Face.ACE in view.own)
        strength = strengths(tuple(sorted(view.community)))
        tracker.observe(snap, TRIPLE_P, strength)
        weights = tracker.range_weights()
        assert weights is not None
        equity = equities(tuple(sorted(view.own)), tuple(sorted(view.community)))
        if len(opponents) > 1:
            # Several opponents: no range is read; the equity is against random hands of them all.
            equity = equity * hand_equity(view.own, view.community, rerolls=True) ** (len(opponents) - 1)
        hands = Range(weights, equity, quantiles(strength, TRIPLE_P))
        targets = {
            _amount_action(legal, snap.opp_bet + round(f * (snap.pot + snap.to_call))) for f in self.bet_fractions
        }
        candidates = [a for a in {*targets, _amount_action(legal, snap.my_bet + snap.my_chips)} if a is not None]
        sized = sorted((a for a in candidates if isinstance(a, (Bet, Raise))), key=lambda a: a.to)
        action = choose(snap, legal, sized, hands, self.model, (1, max(1, snap.opp_chips)))
        tracker.acted(action)
        return action


def _snapshot(view: PeekPokerView, opponents: Sequence[int], *, sees_showdown: bool) -> Snapshot:
    """The view's betting facts; with several opponents, the biggest wager and stack stand for them."""
    assert view.seat is not None and view.betting_round is not None
    me = view.seat
    return Snapshot(
        hand=(view.hand, me, tuple(sorted(view.own))),
        round=view.betting_round,
        final_round=len(view.community) == COMMUNITY,
        pot=view.pot,
        my_bet=view.bets[me],
        opp_bet=max((view.bets[s] for s in opponents), default=0),
        my_chips=view.chips[me],
        opp_chips=max((view.chips[s] for s in opponents), default=0),
        # With antes (the default) the dealer acts last in every round.
        opp_first=view.dealer == me,
        heads_up=len(opponents) == 1,
        # Holding an ace, the bot is asked about it at any showdown, and so sees that one happened.
        sees_showdown=sees_showdown,
    )


def _read_previous(view: PeekPokerView, tracker: HandTracker) -> None:
    """In a game of many hands the view recalls the last one: whether it was shown down, and their dice."""
    previous, current = view.previous, tracker.current
    if previous is None or current is None or current[0] != previous.number:
        return
    shown = [d for s, d in enumerate(previous.shown) if d is not None and s != view.seat]
    index = TRIPLE_INDEX[tuple(sorted(shown[0]))] if len(shown) == 1 else None
    tracker.settle(showdown=any(d is not None for d in previous.shown), shown=index)


# -- ace decisions ----------------------------------------------------------------------------------
def _choice(legal: Sequence[Action], count: int) -> Action:
    wanted: Action = RerollAces(count) if count else Stand()
    return wanted if wanted in legal else legal[0]


def _shown(view: PeekPokerView) -> dict[int, PokerDice]:
    return {s: d for s, d in enumerate(view.dice) if d is not None and view.in_hand[s] and s != view.seat}


def beat_the_table(view: PeekPokerView, legal: Sequence[Action]) -> Action:
    """Re-roll to beat the best hand revealed, as if the others stand."""
    others = _shown(view)
    target = max((hand_strength(d, view.community) for d in others.values()), default=0)
    return _choice(legal, plan_rerolls(view.own, view.community, beat_utility(target)).aces_to_reroll)


def _best_response_rerolls(view: PeekPokerView, legal: Sequence[Action]) -> Action:
    """Best response to the others' likely re-rolls: each other player still deciding is assumed to
    re-roll to beat the best other hand on the table; those who are done keep their hands."""
    assert view.seat is not None
    board = view.community
    mine = hand_strength(view.own, board)
    others = _shown(view)
    current = {s: hand_strength(d, board) for s, d in others.items()}
    finals = []
    for seat, dice in others.items():
        if seat in view.to_act:
            best_other = max([mine, *(v for s, v in current.items() if s != seat)])
            finals.append(final_distribution(dice, board, best_other, RerollPolicy.BEAT))
        else:
            finals.append({current[seat]: Fraction(1)})

    @cache
    def share(level: int) -> Fraction:
        # Pot share with a final hand of strength ``level`` against independent opponents' finals.
        ways = {0: Fraction(1)}
        for dist in finals:
            below = sum((p for s, p in dist.items() if s < level), Fraction(0))
            equal = dist.get(level, Fraction(0))
            step: dict[int, Fraction] = {}
            for ties, p in ways.items():
                step[ties] = step.get(ties, Fraction(0)) + p * below
                step[ties + 1] = step.get(ties + 1, Fraction(0)) + p * equal
            ways = step
        return sum((p / (1 + ties) for ties, p in ways.items()), Fraction(0))

    return _choice(legal, plan_rerolls(view.own, board, share).aces_to_reroll)
