"""Dice Hold'em bots. Each decides from its view and the legal actions only (DESIGN §11).

* ``equity``: estimates its chance to win at showdown (Monte Carlo over the dice still unseen) against
  the pockets the betting of this hand leaves the opponent (:mod:`dicepoker.bots.ranges`: a round in
  which they bet or raise keeps their stronger pockets, a check their weaker ones; random pockets before
  either); bets or raises when ahead, calls when that beats the pot odds, counting half the biggest
  bets of the streets to come into the price of a call. It remembers nothing from one hand to the next.
* ``expert``: models its opponent (:mod:`dicepoker.bots.opponent`). It watches, over the hands of a
  session, how the opponent bets, and weighs each of the 300 pockets they may hold by how likely their
  betting this hand would be with it: a value bettor's raise leaves strong pockets, a random player's
  leaves all of them. It then estimates its equity against that weighted range (Monte Carlo over
  pockets drawn from it and the dice still to come) and picks the action with the most expected chips
  one street ahead, counting how often this opponent folds, calls or raises each bet size; it knows
  that a Flop everybody checks is re-rolled (HE-6). A pocket's strength on each street is its equity
  against a random pocket (exact on the river and turn, sampled boards before). With several opponents
  in the pot it plays its equity against random dice of all of them, in the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from random import Random

import numpy as np
import numpy.typing as npt

from dicepoker.bots.opponent import OpponentModel, Range, Snapshot, choose, quantiles
from dicepoker.bots.ranges import BetsFaced, implied
from dicepoker.bots.tracker import HandTracker
from dicepoker.core.types import Action, View
from dicepoker.dice.suited import BAG, CODES, best_values, code
from dicepoker.games.betting import Bet, Call, Check, Fold, Raise
from dicepoker.games.holdem import STREETS, HoldemConfig, HoldemView

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

RULES = HoldemConfig().betting_rules()
"""HE-5: the bet sizes of each round and the cap on bets and raises (the same at every table)."""
POCKETS = np.array([(a, b) for a in range(CODES) for b in range(a, CODES)], dtype=np.int64)
"""Every pocket an opponent may hold, as sorted die codes (two dice may share suit and face)."""
POCKET_INDEX = {(int(a), int(b)): i for i, (a, b) in enumerate(POCKETS)}
STRENGTH_BOARDS = {0: 400, 3: 24}
"""Random board completions a strength is averaged over, by dice on the board (the turn is enumerated)."""


def estimate_equity(view: HoldemView, samples: int, rng: Random) -> float:
    """Share of the pot this seat's dice win on average against random hidden dice of every opponent still in."""
    if view.seat is None:
        raise ValueError("a spectator has no equity")
    opponents = sum(1 for s, flag in enumerate(view.in_hand) if flag and s != view.seat)
    if opponents == 0:
        return 1.0
    known = [*view.pocket, *view.board]
    left = list(BAG)
    for _, suit in known:
        left[suit] -= 1
    suits_left = np.repeat(np.arange(4), left)
    needed = 5 - len(view.board) + 2 * opponents
    generator = np.random.default_rng(rng.getrandbits(64))
    order = np.argsort(generator.random((samples, len(suits_left))), axis=1)[:, :needed]
    drawn = suits_left[order] + 4 * generator.integers(0, 6, size=(samples, needed))
    board_known = np.array([code(d) for d in view.board], dtype=np.int64)
    board_fill = drawn[:, : 5 - len(view.board)]
    board = np.concatenate([np.broadcast_to(board_known, (samples, len(view.board))), board_fill], axis=1)
    mine = best_values(np.concatenate([np.broadcast_to([code(d) for d in view.pocket], (samples, 2)), board], 1))
    best_other = np.zeros(samples, dtype=np.int32)
    ties = np.zeros(samples, dtype=np.int32)
    for k in range(opponents):
        start = 5 - len(view.board) + 2 * k
        theirs = best_values(np.concatenate([drawn[:, start : start + 2], board], axis=1))
        ties = np.where(theirs > best_other, 1, ties + (theirs == best_other))
        best_other = np.maximum(best_other, theirs)
    win = mine > best_other
    tie = mine == best_other
    share = np.where(win, 1.0, np.where(tie, 1.0 / (ties + 1), 0.0))
    return float(share.mean())


def strength_quantile(view: HoldemView) -> float:
    """Share of the pockets an opponent may hold that are weaker than this seat's on this board (by equity
    against a random pocket, the rest of the board averaged over): 0.8 means "among the best fifth"."""
    first, second = sorted(code(d) for d in view.pocket)
    known = tuple(sorted((first, second, *(code(d) for d in view.board))))
    strength = _strengths(tuple(code(d) for d in view.board), known)
    return float(quantiles(strength, _pocket_prior(known))[POCKET_INDEX[first, second]])


class EquityBot:
    """Bets by hand equity against the pot odds it is offered, the opponent's range cut by their betting."""

    name = "equity"
    samples = 200
    value_margin = 0.05
    """Bet or raise when equity exceeds the fair share by this fraction of what is above it."""
    later = 0.5
    """Share of the biggest bets of the streets still to come counted into the price of a call."""

    def __init__(self) -> None:
        self.faced = BetsFaced()

    def choose(self, view: View, legal: Sequence[Action], rng: Random) -> Action:
        assert isinstance(view, HoldemView) and view.seat is not None
        me = view.seat
        to_call = max(view.bets) - view.bets[me]
        # With antes the dealer acts last in every round (HE-4): nothing to call there means a check to it.
        checked_to = to_call == 0 and view.dealer == me
        key, street = (view.hand, *view.pocket), STREETS.index(view.street) if view.street is not None else 0
        faced = self.faced.update(me, key, view.pot_total, street, facing=to_call > 0, checked_to=checked_to)
        opponents = sum(1 for s, flag in enumerate(view.in_hand) if flag and s != me)
        equity = estimate_equity(view, self.samples, rng) if faced == (0, 0) else self._implied(view, faced, rng)
        fair = 1.0 / (opponents + 1)
        increases = [a for a in legal if isinstance(a, (Bet, Raise))]
        if increases and equity > fair + (1 - fair) * self.value_margin:
            return max(increases, key=lambda a: a.to)
        if to_call == 0:
            return Check()
        # A call now is a call of the bets still to come too: the bettor who bet once will likely bet again.
        later = self.later * sum(r.high or r.low for r in RULES.rounds[street + 1 :])
        pot_odds = (to_call + later) / (view.pot_total + to_call + 2 * later)
        return Call() if equity >= pot_odds else Fold()

    def _implied(self, view: HoldemView, faced: tuple[int, int], rng: Random) -> float:
        """Equity against the pockets :mod:`.ranges` leaves after the bets and checks ``faced`` (and, with
        several opponents, as if each held such a pocket)."""
        opponents = sum(1 for s, flag in enumerate(view.in_hand) if flag and s != view.seat)
        known = tuple(sorted(code(d) for d in (*view.pocket, *view.board)))
        prior = _pocket_prior(known)
        weights = implied(prior, _strengths(tuple(code(d) for d in view.board), known), *faced)
        generator = np.random.default_rng(rng.getrandbits(64))
        drawn = generator.choice(len(POCKETS), size=self.samples, p=weights)
        return float(_equity_against(view, drawn, generator).mean()) ** opponents


class ExpertBot:
    """Equity against the opponent's range as their betting shapes it (:mod:`.opponent`), learnt over
    the hands of a session."""

    name = "expert"
    learns = True
    """It keeps its opponent model from game to game: simulations give each game a fresh one."""
    samples = 300
    """Opponent hands (drawn from their weighted range) and boards the equity is estimated from."""

    def __init__(self) -> None:
        self.model = OpponentModel(rounds=len(STREETS))
        # One tracker per seat: one instance may play several seats of a table (the simulator shares bots).
        self.trackers: dict[int, HandTracker] = {}

    def choose(self, view: View, legal: Sequence[Action], rng: Random) -> Action:
        assert isinstance(view, HoldemView) and view.seat is not None and view.street is not None
        tracker = self.trackers.setdefault(view.seat, HandTracker(self.model))
        opponents = [s for s, flag in enumerate(view.in_hand) if flag and s != view.seat]
        _read_showdown(view, tracker)
        snap = _snapshot(view, opponents)
        known = tuple(sorted(code(d) for d in (*view.pocket, *view.board)))
        prior = _pocket_prior(known)
        strength = _strengths(tuple(code(d) for d in view.board), known)
        tracker.observe(snap, prior, strength)
        weights = tracker.range_weights()
        assert weights is not None
        if len(opponents) == 1:
            generator = np.random.default_rng(rng.getrandbits(64))
            drawn = generator.choice(len(POCKETS), size=self.samples, p=weights)
            equity = _equity_against(view, drawn, generator)
            quantile = quantiles(strength, prior)[drawn]
            checked = None
            if view.street == "flop" and Check() in legal:
                # HE-6: a Flop checked through is re-rolled, good dice or not.
                checked = _equity_against(view, drawn, generator, reroll_flop=True)
            hands = Range(np.full(self.samples, 1.0 / self.samples), equity, quantile, checked)
        else:
            # Several opponents: no range is read; equity against random dice of all of them, as one.
            hands = Range(np.ones(1), np.array([estimate_equity(view, self.samples, rng)]), np.full(1, 0.5))
        increases = [a for a in legal if isinstance(a, (Bet, Raise))]
        sizes = RULES.rounds[snap.round]
        action = choose(snap, legal, increases, hands, self.model, (sizes.low, sizes.high or sizes.low))
        tracker.acted(action)
        return action


def _snapshot(view: HoldemView, opponents: Sequence[int]) -> Snapshot:
    """The view's betting facts; with several opponents, the biggest wager and stack stand for them."""
    assert view.seat is not None and view.street is not None
    me, round_index = view.seat, STREETS.index(view.street)
    return Snapshot(
        hand=(view.hand, me, tuple(view.pocket)),
        round=round_index,
        final_round=round_index == len(STREETS) - 1,
        pot=view.pot_total,
        my_bet=view.bets[me],
        opp_bet=max((view.bets[s] for s in opponents), default=0),
        my_chips=view.stacks[me],
        opp_chips=max((view.stacks[s] for s in opponents), default=0),
        opp_first=view.dealer == me,  # with antes the dealer acts last in every round (HE-4)
        heads_up=len(opponents) == 1,
        raises_left=None if RULES.raise_cap is None else RULES.raise_cap - view.raise_count,
    )


def _read_showdown(view: HoldemView, tracker: HandTracker) -> None:
    """In a game of many hands the view recalls the last showdown: whether there was one, and their dice."""
    record, current = view.last_showdown, tracker.current
    if record is None or current is None or current[0] != record.hand:
        return
    theirs = [pocket for seat, pocket, _ in record.shown if seat != view.seat]
    index = None
    if len(theirs) == 1:
        first, second = sorted(code(d) for d in theirs[0])
        index = POCKET_INDEX[first, second]
    tracker.settle(showdown=bool(record.shown), shown=index)


def _left(known: Sequence[int]) -> list[int]:
    """Dice of each suit still in the bag once ``known`` codes are out."""
    left = list(BAG)
    for c in known:
        left[c % 4] -= 1
    return left


@lru_cache(maxsize=256)
def _pocket_prior(known: tuple[int, ...]) -> FloatArray:
    """Chance of each pocket given the dice the bot sees: suits drawn without replacement, faces 1/6."""
    left = np.array(_left(known), dtype=np.float64)
    s1, s2 = POCKETS[:, 0] % 4, POCKETS[:, 1] % 4
    same_die = POCKETS[:, 0] == POCKETS[:, 1]
    p = np.where(same_die, 1.0, 2.0) * left[s1] * np.maximum(left[s2] - (s1 == s2), 0.0)
    result: FloatArray = p / p.sum()
    return result


def _completions(board: tuple[int, ...], known: tuple[int, ...]) -> tuple[FloatArray, IntArray]:
    """Ways the rest of the board may come (codes) with their chances: all of them for the last die,
    else a fixed sample (seeded by the dice, so a strength is the same at every decision)."""
    left = _left(known)
    missing = 5 - len(board)
    if missing == 0:
        return np.ones(1), np.zeros((1, 0), dtype=np.int64)
    if missing == 1:
        codes = np.array([c for c in range(CODES) if left[c % 4] > 0], dtype=np.int64)
        chances = np.array([left[c % 4] for c in codes], dtype=np.float64)
        return chances / chances.sum(), codes[:, None]
    count = STRENGTH_BOARDS[len(board)]
    generator = np.random.default_rng([len(board), *board, *known])
    suits = np.repeat(np.arange(4), left)
    order = np.argsort(generator.random((count, len(suits))), axis=1)[:, :missing]
    drawn = suits[order] + 4 * generator.integers(0, 6, size=(count, missing))
    return np.full(count, 1.0 / count), drawn


@lru_cache(maxsize=64)
def _strengths(board: tuple[int, ...], known: tuple[int, ...]) -> FloatArray:
    """Each pocket's equity against a random pocket on this board, the rest of the board to come
    averaged over (:func:`_completions`); the pocket chances are the bot's (``known`` dice out)."""
    if not board and known:
        return _strengths((), ())  # before the flop the bot's own dice barely matter: one table for all
    prior = _pocket_prior(known)
    chances, fills = _completions(board, known)
    fixed = np.broadcast_to(np.array(board, dtype=np.int64), (len(fills), len(POCKETS), len(board)))
    dealt = np.broadcast_to(POCKETS, (len(fills), len(POCKETS), 2))
    rest = np.broadcast_to(fills[:, None, :], (len(fills), len(POCKETS), fills.shape[1]))
    values = best_values(np.concatenate([dealt, fixed, rest], axis=2).reshape(-1, 7)).reshape(len(fills), -1)
    result: FloatArray = chances @ np.stack([quantiles(v.astype(np.float64), prior) for v in values])
    return result


def _equity_against(
    view: HoldemView, drawn: IntArray, generator: np.random.Generator, *, reroll_flop: bool = False
) -> FloatArray:
    """The bot's pot share against each drawn pocket, on a random completion of the board (dice of the
    pocket and the bot's view out of the bag); ``reroll_flop``: the Flop dice show new faces (HE-6)."""
    mine = [code(d) for d in view.pocket]
    board = [code(d) for d in view.board]
    left = _left([*mine, *board])
    suits = np.repeat(np.arange(4), left)
    starts = np.concatenate([[0], np.cumsum(left)[:-1]])
    theirs = POCKETS[drawn]
    n, missing = len(drawn), 5 - len(board)
    keys = generator.random((n, len(suits)))
    rows = np.arange(n)
    s1, s2 = theirs[:, 0] % 4, theirs[:, 1] % 4
    keys[rows, starts[s1]] = 2.0  # the pocket's dice are out of the bag: sort them last
    keys[rows, starts[s2] + (s1 == s2)] = 2.0
    order = np.argsort(keys, axis=1)[:, :missing]
    fill = suits[order] + 4 * generator.integers(0, 6, size=(n, missing))
    table = np.concatenate([np.broadcast_to(np.array(board, dtype=np.int64), (n, len(board))), fill], axis=1)
    if reroll_flop:
        table[:, :3] = table[:, :3] % 4 + 4 * generator.integers(0, 6, size=(n, 3))
    me = best_values(np.concatenate([np.broadcast_to(np.array(mine, dtype=np.int64), (n, 2)), table], axis=1))
    them = best_values(np.concatenate([theirs, table], axis=1))
    result: FloatArray = np.where(me > them, 1.0, np.where(me == them, 0.5, 0.0))
    return result
