"""An opponent model for the betting games (holdem, peekpoker): how the other player bets, learnt from
the views a bot receives over the hands of a session, and what that says about their hidden dice.

Game-independent: a game's bot supplies the opponent's possible hands, their chances, and a strength
for each on every betting round. Three parts:

* :class:`~dicepoker.bots.tracker.HandTracker` reads the opponent's actions between two of the bot's
  decisions from the public betting facts (:class:`Snapshot`): a wager that grew in the same round is a
  bet or raise of that size, a round that moved on after the bot bet was a call, a hand that ended right
  after the bot bet before the last round was a fold. Only heads-up pots are read (with more players, who
  did what is unclear).
* :class:`OpponentModel` counts, per betting round and *situation* (free to bet; facing a small, medium
  or large bet; facing a bet that cannot be re-raised), how often the opponent folds, checks or calls,
  and bets small, medium or large. An action of kind ``k`` is modelled as ``(1 - λ) f_k + λ g_k(q)``:
  ``f_k`` its frequency, ``q`` the hand's strength quantile among all hands, ``g_k`` a smoothed
  indicator of the slice of quantiles a value bettor takes it with (fold < check/call < small < medium
  < large), cut so that the hands seen reaching the situation fill the slices in proportion ``f_k``.
  Whatever ``λ``, a kind is taken ``f_k`` of the time: an opponent who bets 95% of the time gets a
  95%-wide betting range even at ``λ = 1``. The *informativeness* ``λ`` has a posterior on a grid,
  updated after each hand by the likelihood of the opponent's actions in it (their hand marginalised,
  or known when shown): a random player's actions are independent of each other, a value bettor's agree
  on the dice, so a random bot drifts to ``λ ≈ 0`` (its bets mean nothing) and a tight one towards 1.
* :func:`choose` compares the expected chips of folding, checking, calling and each candidate bet
  against the weighted range, given the modelled chances that the opponent folds, calls or raises each
  size (one street ahead: later streets are not simulated). Value bets and bluffs, and their sizes,
  come out of that comparison: a bluff where this opponent folds enough, a bet sized to what they pay.

The prior, before any observation: a fairly consistent opponent (``λ`` about 0.6) who bets a third of
the time and folds more to bigger bets.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from dicepoker.core.types import Action
from dicepoker.games.betting import Bet, Call, Check, Fold, Raise

FloatArray = npt.NDArray[np.float64]


class Kind(enum.IntEnum):
    """What the opponent did, in the order a value bettor's hands would choose it."""

    FOLD = 0
    PASSIVE = 1
    """Check or call."""
    SMALL = 2
    MEDIUM = 3
    LARGE = 4


class Situation(enum.IntEnum):
    """What the opponent faced: free to bet, a bet of some size (for its pot), or an un-raisable bet."""

    OPEN = 0
    SMALL = 1
    MEDIUM = 2
    LARGE = 3
    CAPPED = 4


SIZE_EDGES = (0.6, 1.2)
"""A bet (or a raise beyond the call) as a fraction of the pot it is made into: small, medium, large."""
LAMBDAS: FloatArray = np.linspace(0.0, 0.95, 20)
"""Grid of informativeness values; never 1, so that no action is ever impossible."""
SMOOTHING = 0.25
"""Spread of the edges of a kind's slice, in log-odds of the quantile: strengths are estimates, so
slices overlap a little, less so at the extremes (the very best hand is never read as a middling one)."""
PRIOR_FREQUENCIES: dict[Situation, tuple[float, ...]] = {
    Situation.OPEN: (0.0, 0.65, 0.15, 0.12, 0.08),
    Situation.SMALL: (0.25, 0.55, 0.10, 0.06, 0.04),
    Situation.MEDIUM: (0.35, 0.50, 0.07, 0.05, 0.03),
    Situation.LARGE: (0.45, 0.45, 0.05, 0.03, 0.02),
    Situation.CAPPED: (0.40, 0.60, 0.0, 0.0, 0.0),
}
PRIOR_WEIGHT = 6.0
"""Pseudo-observations behind the prior (frequencies of a situation over all rounds, and its reach)."""
POOL_WEIGHT = 10.0
"""Pseudo-observations a round borrows from its situation over all rounds, while its own data is thin."""
BINS = 20
"""Strength quantiles are binned this finely to learn which hands reach a situation."""
BIN_EDGES: FloatArray = np.linspace(0.0, 1.0, BINS + 1)


def facing(fraction: float, *, can_raise: bool) -> Situation:
    """The situation of a player facing a bet of ``fraction`` of the pot before it."""
    return Situation(1 + sum(fraction > edge for edge in SIZE_EDGES)) if can_raise else Situation.CAPPED


def aggression(fraction: float) -> Kind:
    """The kind of a bet or raise of ``fraction`` of the pot."""
    return Kind(2 + sum(fraction > edge for edge in SIZE_EDGES))


@dataclass(frozen=True, slots=True)
class Observation:
    """One action of the opponent; two ``kinds`` when the hand ended out of sight (a fold or a call)."""

    round: int
    situation: Situation
    kinds: tuple[Kind, ...]
    fraction: float = 0.0
    """Size of an aggressive action as a fraction of the pot."""


def quantiles(strength: FloatArray, weights: FloatArray) -> FloatArray:
    """Mid-rank of each hand's strength among hands weighted by ``weights`` (equal strengths share)."""
    order = np.argsort(strength, kind="stable")
    ranked = strength[order]
    cum = np.concatenate([[0.0], np.cumsum(weights[order] / weights.sum())])
    mid = (cum[np.searchsorted(ranked, ranked, side="left")] + cum[np.searchsorted(ranked, ranked, side="right")]) / 2
    out: FloatArray = np.empty_like(mid)
    out[order] = mid
    return out


def _logit(q: FloatArray) -> FloatArray:
    p = np.clip(q, 1e-9, 1 - 1e-9)
    result: FloatArray = np.log(p / (1 - p))
    return result


def _sigmoid(x: FloatArray) -> FloatArray:
    result: FloatArray = 0.5 * (1.0 + np.tanh(0.5 * x))
    return result


# -- the model --------------------------------------------------------------------------------------
class OpponentModel:
    """How one opponent (or all of them, pooled) bets: action frequencies and their informativeness."""

    def __init__(self, rounds: int) -> None:
        self.rounds = rounds
        self.counts = np.zeros((rounds, len(Situation), len(Kind)))
        self.reach = np.zeros((rounds, len(Situation), BINS))
        """Strength quantiles of the hands that reached each round and situation (their ranges, summed)."""
        self.log_posterior: FloatArray = 1.5 * np.log(LAMBDAS + 0.05) + 0.5 * np.log(1.05 - LAMBDAS)
        self.raise_sums = np.zeros(len(Situation))
        self.raise_counts = np.zeros(len(Situation))
        self.hands_learned = 0

    def posterior(self) -> FloatArray:
        p = np.exp(self.log_posterior - self.log_posterior.max())
        result: FloatArray = p / p.sum()
        return result

    @property
    def informativeness(self) -> float:
        """Posterior mean of ``λ``: 0 for actions unrelated to the dice, near 1 for a strict value bettor."""
        return float(self.posterior() @ LAMBDAS)

    def frequencies(self, round_index: int, situation: Situation, *, pooled: bool = False) -> FloatArray:
        """Chances of each :class:`Kind` in this round and situation (over all rounds if ``pooled``)."""
        prior = np.array(PRIOR_FREQUENCIES[situation])
        return _shrunk(self.counts[:, situation], min(round_index, self.rounds - 1), prior, pooled=pooled)

    def thresholds(self, round_index: int, situation: Situation) -> FloatArray:
        """Strength quantiles (among all hands) where a value bettor's kinds meet. The frequencies are
        those of the hands that reach the situation, so the cuts follow the strengths seen reaching it:
        a bet after a check is cut from the checking range, not from all hands."""
        reach = _shrunk(self.reach[:, situation], min(round_index, self.rounds - 1), np.full(BINS, 1.0 / BINS))
        cdf = np.concatenate([[0.0], np.cumsum(reach)])
        result: FloatArray = np.interp(np.cumsum(self.frequencies(round_index, situation))[:-1], cdf, BIN_EDGES)
        return result

    def typical_raise(self, situation: Situation) -> float:
        """Mean size of the opponent's bets and raises in ``situation``, as a fraction of the pot."""
        return float((self.raise_sums[situation] + 0.8 * 3) / (self.raise_counts[situation] + 3))

    def kind_chances(
        self, round_index: int, situation: Situation, q: FloatArray, lam: FloatArray | float
    ) -> FloatArray:
        """``P(kind | strength quantile q)``, shape ``(kinds, *q.shape)``; ``lam`` broadcasts against ``q``."""
        q, lam_q = np.broadcast_arrays(q, np.asarray(lam, dtype=np.float64))
        f = self.frequencies(round_index, situation).reshape(-1, *([1] * q.ndim))
        cuts = np.concatenate([[-np.inf], _logit(self.thresholds(round_index, situation)), [np.inf]])
        below = _sigmoid((_logit(q)[None, ...] - cuts.reshape(-1, *([1] * q.ndim))) / SMOOTHING)
        slices = np.where(f > 0, below[:-1] - below[1:], 0.0)  # a kind never seen gets no slice at all
        slices /= np.maximum(slices.sum(axis=0, keepdims=True), 1e-12)
        chances: FloatArray = (1.0 - lam_q[None, ...]) * f + lam_q[None, ...] * slices
        return chances

    def weights(
        self, observations: Sequence[Observation], prior: FloatArray, strengths: Mapping[int, FloatArray]
    ) -> FloatArray:
        """The opponent's range: ``prior`` times the likelihood of their actions, averaged over ``λ``."""
        w = prior * (self.posterior() @ self._likelihood(observations, prior, strengths))
        result: FloatArray = w / w.sum() if w.sum() > 0 else prior / prior.sum()
        return result

    def _likelihood(
        self, observations: Sequence[Observation], prior: FloatArray, strengths: Mapping[int, FloatArray]
    ) -> FloatArray:
        """``P(actions | hand, λ)``, shape ``(grid, hands)``. A hand keeps its quantile among all hands
        through the hand, so actions that agree on the dice (a bet, then a raise) fit a consistent
        player better than a random one."""
        like = np.ones((len(LAMBDAS), len(prior)))
        q_by_round: dict[int, FloatArray] = {}
        for obs in observations:
            if obs.round in strengths:
                q = q_by_round.setdefault(obs.round, quantiles(strengths[obs.round], prior))
                like *= self.kind_chances(obs.round, obs.situation, q, LAMBDAS[:, None])[list(obs.kinds)].sum(axis=0)
        return like

    def count(self, obs: Observation, reach: FloatArray | None = None, q: FloatArray | None = None) -> None:
        """Add one action to the frequencies, and the range it was made from (weights ``reach`` of hands
        at quantiles ``q``) to its situation's reach. A fold-or-call out of sight is split by the odds
        of the two over all rounds (mostly seen ones): the round's own odds would only feed on themselves."""
        r = min(obs.round, self.rounds - 1)
        if reach is not None and q is not None:
            bins = np.minimum((q * BINS).astype(np.int64), BINS - 1)
            self.reach[r, obs.situation] += np.bincount(bins, weights=reach / reach.sum(), minlength=BINS)
        if len(obs.kinds) == 1:
            self.counts[r, obs.situation, obs.kinds[0]] += 1
            if obs.kinds[0] >= Kind.SMALL:
                self.raise_sums[obs.situation] += min(obs.fraction, 5.0)
                self.raise_counts[obs.situation] += 1
            return
        odds = self.frequencies(r, obs.situation, pooled=True)[list(obs.kinds)]
        for kind, share in zip(obs.kinds, odds / odds.sum(), strict=True):
            self.counts[r, obs.situation, kind] += share

    def learn_hand(
        self,
        observations: Sequence[Observation],
        prior: FloatArray,
        strengths: Mapping[int, FloatArray],
        shown: int | None = None,
    ) -> None:
        """Update the posterior of ``λ`` with one finished hand (``shown``: the opponent's hand, if seen)."""
        if not observations:
            return
        like = self._likelihood(observations, prior, strengths)
        marginal = like[:, shown] if shown is not None else like @ (prior / prior.sum())
        self.log_posterior = self.log_posterior + np.log(np.maximum(marginal, 1e-300))
        self.log_posterior -= self.log_posterior.max()
        self.hands_learned += 1


def _shrunk(counts: FloatArray, row: int, prior: FloatArray, *, pooled: bool = False) -> FloatArray:
    """Row ``row`` of ``counts`` shrunk towards all rows together, shrunk towards ``prior``."""
    all_rows = counts.sum(axis=0)
    overall: FloatArray = (all_rows + PRIOR_WEIGHT * prior) / (all_rows.sum() + PRIOR_WEIGHT)
    if pooled:
        return overall
    result: FloatArray = (counts[row] + POOL_WEIGHT * overall) / (counts[row].sum() + POOL_WEIGHT)
    return result


# -- the public facts a decision sees ---------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Snapshot:
    """The public betting facts at one of the bot's decisions, in the same terms for every game."""

    hand: tuple[object, ...]
    """Anything that differs between hands (hand number first, then e.g. seat and own dice)."""
    round: int
    final_round: bool
    pot: int
    """Everything in the middle, this round's wagers included."""
    my_bet: int
    opp_bet: int
    my_chips: int
    """Chips behind, not yet wagered."""
    opp_chips: int
    opp_first: bool
    """The opponent acts before the bot in each round."""
    heads_up: bool
    raises_left: int | None = None
    """Bets and raises still allowed this round (``None``: no cap)."""
    sees_showdown: bool = False
    """A showdown would reach the bot in a view, so a hand that ends unseen was folded."""

    @property
    def to_call(self) -> int:
        return max(0, min(self.my_chips, self.opp_bet - self.my_bet))

    def after(self, mine: Action) -> tuple[int, int]:
        """The bot's wager this round and the pot once it has made ``mine``."""
        if isinstance(mine, (Bet, Raise)):
            return mine.to, self.pot + mine.to - self.my_bet
        if isinstance(mine, Call):
            return self.my_bet + self.to_call, self.pot + self.to_call
        return self.my_bet, self.pot

    def faced(self, mine: Action) -> Situation:
        """What the opponent faces after the bot's ``mine``: a bet's size, and whether they may re-raise."""
        if not isinstance(mine, (Bet, Raise)):
            return Situation.OPEN
        owed, added = mine.to - self.opp_bet, mine.to - self.my_bet
        raisable = self.raises_left is None or self.raises_left > 1
        can_raise = self.opp_chips > owed and self.my_chips > added and raisable
        return facing(owed / max(1, self.pot + added - owed), can_raise=can_raise)


# -- deciding ---------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Range:
    """The opponent's hands as the bot sees them: weights (sum 1), the bot's pot share against each,
    and each one's strength quantile among all hands."""

    weights: FloatArray
    equity: FloatArray
    quantile: FloatArray
    checked: FloatArray | None = None
    """The pot share against each if the round is checked through, where that changes the dice (a Dice
    Hold'em Flop that everybody checks is re-rolled, HE-6)."""

    @property
    def share(self) -> float:
        return float(self.weights @ self.equity)


def choose(
    snap: Snapshot,
    legal: Sequence[Action],
    candidates: Sequence[Bet | Raise],
    hands: Range,
    model: OpponentModel,
    raise_limits: tuple[int, int],
) -> Action:
    """The legal action with the most expected chips against ``hands``, one street ahead.

    ``candidates``: the bets or raises worth weighing; ``raise_limits``: the smallest and largest
    increment the opponent may bet or raise by, to keep their modelled replies legal.
    """
    lam = model.informativeness
    w, e = hands.weights, hands.equity
    pot, owed = snap.pot, snap.to_call
    options: list[tuple[float, Action]] = []
    if Check() in legal:
        options.append((_check_value(snap, hands, model, lam, raise_limits), Check()))
    if Call() in legal:
        options.append((hands.share * (pot + owed) - owed, Call()))
    if Fold() in legal:
        options.append((0.0, Fold()))
    for action in candidates:
        to = min(action.to, snap.opp_bet + snap.opp_chips)  # what the opponent cannot cover comes back
        added, owed_them = to - snap.my_bet, to - snap.opp_bet
        showdown_pot = pot + added + owed_them
        situation = snap.faced(action)
        chances = model.kind_chances(snap.round, situation, hands.quantile, lam)
        value = float(w @ chances[Kind.FOLD]) * pot + float(w @ (chances[Kind.PASSIVE] * (e * showdown_pot - added)))
        raised = chances[Kind.SMALL :].sum(axis=0)
        if (weight := float(w @ raised)) > 1e-9:
            # Re-raised: the bot calls or folds, whichever pays, against the hands that raise.
            room = min(snap.my_chips - added, snap.opp_chips - owed_them)
            extra = _clip(model.typical_raise(situation) * showdown_pot, raise_limits, room)
            e_raised = float(w @ (raised * e)) / weight
            value += weight * max(-added, e_raised * (showdown_pot + 2 * extra) - added - extra)
        options.append((value, action))
    return max(options, key=lambda option: option[0])[1]  # ties: check, call, fold before any bet


def _check_value(
    snap: Snapshot, hands: Range, model: OpponentModel, lam: float, raise_limits: tuple[int, int]
) -> float:
    """Checking: a showdown for the pot if that ends the round; else the opponent may bet, and the bot
    then calls or folds, whichever pays."""
    w, e = hands.weights, hands.equity
    through = e if hands.checked is None else hands.checked
    if snap.opp_first:
        return float(w @ through) * snap.pot
    bets = model.kind_chances(snap.round, Situation.OPEN, hands.quantile, lam)[Kind.SMALL :].sum(axis=0)
    value = float(w @ ((1.0 - bets) * through)) * snap.pot
    if (weight := float(w @ bets)) > 1e-9:
        size = _clip(model.typical_raise(Situation.OPEN) * snap.pot, raise_limits, snap.my_chips)
        e_bet = float(w @ (bets * e)) / weight
        value += weight * max(0.0, e_bet * (snap.pot + 2 * size) - size)
    return value


def _clip(amount: float, limits: tuple[int, int], room: int) -> float:
    return max(0.0, min(max(amount, limits[0]), limits[1], room))
