"""Reading a heads-up opponent's actions from the views a bot receives (:class:`HandTracker`), for the
opponent model of :mod:`dicepoker.bots.opponent`: a wager that grew in the same round is a bet or raise of
that size, a round that moved on after the bot bet was a call, a hand that ended right after the bot bet
before the last round was a fold.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from dicepoker.bots.opponent import (
    FloatArray,
    Kind,
    Observation,
    OpponentModel,
    Situation,
    Snapshot,
    aggression,
    quantiles,
)
from dicepoker.core.types import Action
from dicepoker.games.betting import Bet, Check, Raise


@dataclass(slots=True)
class _Hand:
    snapshot: Snapshot
    reading: bool
    mine: Action | None = None
    observations: list[Observation] = field(default_factory=list)
    prior: FloatArray | None = None
    strengths: dict[int, FloatArray] = field(default_factory=dict)
    showdown: bool | None = None
    """Whether the hand was shown down (``None``: the bot did not see its end)."""
    shown: int | None = None


class HandTracker:
    """Infers the opponent's actions between the bot's decisions and feeds them to the model: call
    :meth:`observe` at each decision, :meth:`acted` with the choice, :meth:`settle` when a view tells
    how a hand ended."""

    def __init__(self, model: OpponentModel) -> None:
        self.model = model
        self.hand: _Hand | None = None

    @property
    def observations(self) -> list[Observation]:
        return self.hand.observations if self.hand is not None else []

    @property
    def current(self) -> tuple[object, ...] | None:
        """The :attr:`Snapshot.hand` of the hand being read, if any."""
        return self.hand.snapshot.hand if self.hand is not None else None

    def observe(self, snap: Snapshot, prior: FloatArray, strength: FloatArray) -> None:
        """A decision: ``snap`` its betting facts, ``prior`` the chances of the opponent's possible hands
        and ``strength`` their strengths this round (the same hands, in the same order, every time)."""
        hand = self.hand
        if hand is None or self._new_hand(hand, snap):
            self.finish()
            self.hand = hand = _Hand(snap, reading=snap.heads_up)
            hand.prior, hand.strengths[snap.round] = prior, strength
            self._round_opens(snap)
            return
        hand.prior, hand.strengths[snap.round] = prior, strength
        last, mine = hand.snapshot, hand.mine
        hand.snapshot, hand.mine = snap, None
        hand.reading = hand.reading and snap.heads_up
        if mine is None or not hand.reading:
            return
        my_bet, pot = last.after(mine)
        if snap.round == last.round:
            # Asked again in the same round: the opponent bet or raised over the bot's action.
            fraction = (snap.opp_bet - my_bet) / max(1, pot + my_bet - last.opp_bet)
            self._add(Observation(last.round, last.faced(mine), (aggression(fraction),), fraction))
            return
        if isinstance(mine, (Bet, Raise)):
            self._add(Observation(last.round, last.faced(mine), (Kind.PASSIVE,)))
        elif isinstance(mine, Check) and not last.opp_first:
            self._add(Observation(last.round, Situation.OPEN, (Kind.PASSIVE,)))
        self._round_opens(snap)

    def range_weights(self) -> FloatArray | None:
        """The opponent's range after their actions so far this hand (``None`` before :meth:`observe`)."""
        hand = self.hand
        if hand is None or hand.prior is None:
            return None
        if not hand.reading:
            uniform: FloatArray = hand.prior / hand.prior.sum()
            return uniform
        return self.model.weights(hand.observations, hand.prior, hand.strengths)

    def acted(self, action: Action) -> None:
        if self.hand is not None:
            self.hand.mine = action

    def settle(self, *, showdown: bool, shown: int | None = None) -> None:
        """How the current hand ended: shown down or not, and the index of the opponent's hand if seen.
        The first word counts (later views may show re-rolled dice)."""
        if self.hand is not None and self.hand.showdown is None:
            self.hand.showdown, self.hand.shown = showdown, shown

    def finish(self) -> None:
        """Close the current hand: read how it ended, then let the model learn from it."""
        hand, self.hand = self.hand, None
        if hand is None or not hand.reading:
            return
        last, mine = hand.snapshot, hand.mine
        if isinstance(mine, (Bet, Raise)):
            showdown = hand.showdown
            all_in = last.my_chips <= mine.to - last.my_bet or last.opp_chips <= mine.to - last.opp_bet
            if showdown is None and (last.sees_showdown or not (last.final_round or all_in)):
                showdown = False  # a call would have led to another decision or a visible showdown
            kinds = (Kind.FOLD, Kind.PASSIVE) if showdown is None else (Kind.PASSIVE if showdown else Kind.FOLD,)
            self._add(Observation(last.round, last.faced(mine), kinds), hand)
        elif isinstance(mine, Check) and not last.opp_first and last.final_round:
            self._add(Observation(last.round, Situation.OPEN, (Kind.PASSIVE,)), hand)
        if hand.prior is not None:
            self.model.learn_hand(hand.observations, hand.prior, hand.strengths, hand.shown)

    def _add(self, obs: Observation, hand: _Hand | None = None) -> None:
        """Record one action, with the range it was made from."""
        hand = hand or self.hand
        assert hand is not None
        reach = q = None
        if hand.prior is not None and obs.round in hand.strengths:
            reach = self.model.weights(hand.observations, hand.prior, hand.strengths)
            q = quantiles(hand.strengths[obs.round], hand.prior)
        hand.observations.append(obs)
        self.model.count(obs, reach, q)

    def _round_opens(self, snap: Snapshot) -> None:
        """The bot's first decision of a round: an opponent who acts first has checked or bet."""
        if self.hand is None or not self.hand.reading or not snap.opp_first:
            return
        if snap.opp_bet > snap.my_bet:
            fraction = (snap.opp_bet - snap.my_bet) / max(1, snap.pot - snap.opp_bet + snap.my_bet)
            self._add(Observation(snap.round, Situation.OPEN, (aggression(fraction),), fraction))
        else:
            self._add(Observation(snap.round, Situation.OPEN, (Kind.PASSIVE,)))

    @staticmethod
    def _new_hand(hand: _Hand, snap: Snapshot) -> bool:
        """Within a hand, rounds only move on and wagers and the pot only grow."""
        last = hand.snapshot
        if snap.hand != last.hand or snap.round < last.round:
            return True
        my_bet, pot = last.after(hand.mine) if hand.mine is not None else (last.my_bet, last.pot)
        return snap.pot < pot or (snap.round == last.round and snap.my_bet < my_bet)
