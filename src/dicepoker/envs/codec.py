"""Fixed-shape observations and flat action indices for every game, built from a seat's *view* only.

A :class:`Codec` is made for one configured game. It turns a view into a ``float32`` vector of a fixed
length (:attr:`Codec.obs_size`) and maps the legal actions of the moment onto a flat ``Discrete``
space of :attr:`Codec.num_actions` slots. :meth:`Codec.slots` is the one place that says which slot
means which concrete action *now*: the action mask is its keys, decoding an index is a lookup in it.

Seats in observations are *relative*: index 0 is the observer, then the seats to its left (CM-1).

Encodings (documented here because research code relies on them):

``scorecard`` — actions (45): 0 ``roll``; 1–31 ``reroll`` of the dice whose positions are the bits of
``index`` (bit 0 = position 1); 32–44 ``score`` box 0–12 in card order. Observation: the five dice as
one-hot faces (5×6), rolls used (one-hot 0–3), then per seat (relative): 13 used flags, 13 scores / 50,
upper total / 105, total / 375, to-play flag. In every game each feature lies in [0, 1].

``zepherin`` / ``classic-board`` — actions (1 + 31 + 2·squares + 1): ``roll``; ``reroll`` as above;
``claim`` square *s* (row-major) at ``32 + s``; ``remove`` square *s* at ``32 + squares + s``; ``forfeit``
last. Observation: per square, one-hot owner (empty, own team, other teams relative) plus free-square
flag; claimable and removable masks; dice (5×6); rolls used (4); per team (relative) supply / chips and
runs / runs-to-win (at most 1); to-play flag per team.

``holdem`` (limit) — actions (5): fold, check, call, bet-or-raise the smallest legal amount, the largest (open
only when it differs). Limit betting has at most two sizes (HE-5), so this is exact. Observation: own pocket
dice and the board (face one-hot 6 + suit one-hot 4 each, zeros where not dealt), street one-hot, raise count,
and per seat (relative): stack, wager this round, in-hand, dealer flag; the pot; amounts are divided by the
chips in play.

``peekpoker`` (no limit) — actions (12): fold, check, call; five wager sizes — the minimum legal, half the
pot, the pot, twice the pot, all-in (a size is the pot *after* calling; it is clamped into the legal range;
when two sizes name the same wager only the first slot is open); ``stand``; ``reroll`` 1, 2 or 3 aces. Pot
fractions rather than one action per chip amount: the space stays the same size whatever the stacks (an
option), and these five sizes are the ones poker agents are usually given (as in RLCard's no-limit hold'em).
Observation: own hidden dice and the community dice (face one-hot 6 each), the dice each other seat has shown
at a showdown, phase one-hot, betting round, forced-bet flag, and per seat (relative): chips, wager, in-hand,
dealer flag, deciding flag; the pot.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from dicepoker.core.types import Action, View
from dicepoker.dice.poker import Face
from dicepoker.dice.scoring import Category
from dicepoker.dice.suited import Suit
from dicepoker.games.betting import Bet, Call, Check, Fold, Raise
from dicepoker.games.board.actions import Claim, Forfeit, Remove
from dicepoker.games.board.view import BoardView
from dicepoker.games.dice_turn import Reroll, Roll
from dicepoker.games.holdem.view import HoldemView
from dicepoker.games.peekpoker.actions import Phase as PeekPhase
from dicepoker.games.peekpoker.actions import RerollAces, Stand
from dicepoker.games.peekpoker.view import PeekPokerView
from dicepoker.games.registry import AnyGame, info
from dicepoker.games.scorecard.rules import Score, ScorecardView, card_total, upper_total

Vector = npt.NDArray[np.float32]
REROLL_SLOTS = 31  # every non-empty subset of five dice positions


class Codec:
    """Observation and action encoding of one configured game (see the module docstring)."""

    num_actions: int
    obs_size: int

    def __init__(self, game: AnyGame) -> None:
        self.game = game
        self.players = game.num_players

    def __deepcopy__(self, memo: dict[int, object]) -> Codec:
        return self  # holds only the configured game: shared by every copy of an environment's state

    def observe(self, view: View) -> Vector:
        raise NotImplementedError

    def slots(self, view: View, legal: Sequence[Action]) -> dict[int, Action]:
        """Every slot open now and the concrete action it stands for."""
        raise NotImplementedError

    def mask(self, view: View, legal: Sequence[Action]) -> npt.NDArray[np.int8]:
        mask = np.zeros(self.num_actions, dtype=np.int8)
        mask[list(self.slots(view, legal))] = 1
        return mask

    def relative(self, seat: int | None, other: int) -> int:
        """Where seat ``other`` sits counted from the observer (0 = the observer itself)."""
        return (other - (seat or 0)) % self.players


def _one_hot(size: int, index: int | None) -> list[float]:
    row = [0.0] * size
    if index is not None and 0 <= index < size:
        row[index] = 1.0
    return row


def _dice_faces(dice: Sequence[int], count: int = 5) -> list[float]:
    out: list[float] = []
    for position in range(count):
        out += _one_hot(6, dice[position] - 1 if position < len(dice) else None)
    return out


def _reroll_slot(positions: Sequence[int]) -> int:
    return sum(1 << p for p in positions)  # 1..31


def _vector(values: Sequence[float], size: int) -> Vector:
    array = np.asarray(values, dtype=np.float32)
    assert array.shape == (size,), (array.shape, size)
    return array


# -- scorecard --------------------------------------------------------------------------------------
class ScorecardCodec(Codec):
    num_actions = 1 + REROLL_SLOTS + len(Category)

    def __init__(self, game: AnyGame) -> None:
        super().__init__(game)
        self.obs_size = 30 + 4 + self.players * (13 + 13 + 3)

    def observe(self, view: View) -> Vector:
        assert isinstance(view, ScorecardView)
        values = _dice_faces(view.dice) + _one_hot(4, view.rolls_used)
        for offset in range(self.players):
            seat = ((view.seat or 0) + offset) % self.players
            card = view.cards[seat]
            values += [0.0 if box is None else 1.0 for box in card]
            values += [0.0 if box is None else box / 50 for box in card]
            values += [upper_total(card) / 105, card_total(card) / 375, float(view.to_play == seat)]
        return _vector(values, self.obs_size)

    def slots(self, view: View, legal: Sequence[Action]) -> dict[int, Action]:
        out: dict[int, Action] = {}
        for action in legal:
            if isinstance(action, Roll):
                out[0] = action
            elif isinstance(action, Reroll):
                out[_reroll_slot(action.positions)] = action
            elif isinstance(action, Score):
                out[1 + REROLL_SLOTS + int(action.category)] = action
        return out


# -- board games ------------------------------------------------------------------------------------
class BoardCodec(Codec):
    def __init__(self, game: AnyGame) -> None:
        super().__init__(game)
        view = game.initial_state().view(None)
        assert isinstance(view, BoardView)
        self.squares = view.position.layout.size
        self.teams = view.rules.teams
        self.num_actions = 1 + REROLL_SLOTS + 2 * self.squares + 1
        self.obs_size = self.squares * (self.teams + 2) + 2 * self.squares + 30 + 4 + self.teams * 3

    def observe(self, view: View) -> Vector:
        assert isinstance(view, BoardView)
        position, rules = view.position, view.rules
        own = view.team if view.team is not None else rules.team_of(view.to_play)
        values: list[float] = []
        for square, owner in enumerate(position.cells):
            slot = None if owner is None else (owner - own) % self.teams
            values += [float(owner is None), *_one_hot(self.teams, slot), float(square == position.layout.free)]
        claimable, removable = set(view.claimable), set(view.removable)
        values += [float(s in claimable) for s in range(self.squares)]
        values += [float(s in removable) for s in range(self.squares)]
        values += _dice_faces(view.dice) + _one_hot(4, view.rolls_used)
        playing = rules.team_of(view.to_play)
        for offset in range(self.teams):
            team = (own + offset) % self.teams
            values += [
                position.supply[team] / max(rules.chips, 1),
                min(len(position.runs[team]) / max(rules.runs_to_win, 1), 1.0),
                float(team == playing),
            ]
        return _vector(values, self.obs_size)

    def slots(self, view: View, legal: Sequence[Action]) -> dict[int, Action]:
        out: dict[int, Action] = {}
        width = self.game_width(view)
        for action in legal:
            if isinstance(action, Roll):
                out[0] = action
            elif isinstance(action, Reroll):
                out[_reroll_slot(action.positions)] = action
            elif isinstance(action, Claim):
                out[1 + REROLL_SLOTS + action.row * width + action.col] = action
            elif isinstance(action, Remove):
                out[1 + REROLL_SLOTS + self.squares + action.row * width + action.col] = action
            elif isinstance(action, Forfeit):
                out[self.num_actions - 1] = action
        return out

    @staticmethod
    def game_width(view: View) -> int:
        assert isinstance(view, BoardView)
        return view.position.layout.width


# -- betting games ----------------------------------------------------------------------------------
def _wagers(legal: Sequence[Action]) -> list[Bet | Raise]:
    return sorted((a for a in legal if isinstance(a, (Bet, Raise))), key=lambda a: a.to)


def _basic_betting_slots(legal: Sequence[Action]) -> dict[int, Action]:
    out: dict[int, Action] = {}
    for action in legal:
        if isinstance(action, Fold):
            out[0] = action
        elif isinstance(action, Check):
            out[1] = action
        elif isinstance(action, Call):
            out[2] = action
    return out


class HoldemCodec(Codec):
    num_actions = 5
    STREETS = ("open", "flop", "turn", "river")

    def __init__(self, game: AnyGame) -> None:
        super().__init__(game)
        config: Any = game.config
        self.chips_in_play = max(config.stack * self.players, 1)
        self.obs_size = 7 * 10 + 5 + 4 + self.players * 4 + 1

    def observe(self, view: View) -> Vector:
        assert isinstance(view, HoldemView)
        values: list[float] = []
        dice = list(view.pocket[:2]) + [None] * (2 - len(view.pocket[:2])) + list(view.board[:5])
        dice += [None] * (7 - len(dice))
        for die in dice:
            values += [0.0] * 10 if die is None else _one_hot(6, die[0] - 1) + _one_hot(4, int(Suit(die[1])))
        values += _one_hot(5, self.STREETS.index(view.street) if view.street in self.STREETS else 4)
        values += _one_hot(4, min(view.raise_count, 3))
        for offset in range(self.players):
            seat = ((view.seat or 0) + offset) % self.players
            values += [
                view.stacks[seat] / self.chips_in_play,
                view.bets[seat] / self.chips_in_play,
                float(view.in_hand[seat]),
                float(view.dealer == seat),
            ]
        values.append(view.pot_total / self.chips_in_play)
        return _vector(values, self.obs_size)

    def slots(self, view: View, legal: Sequence[Action]) -> dict[int, Action]:
        out = _basic_betting_slots(legal)
        wagers = _wagers(legal)
        if wagers:
            out[3] = wagers[0]
            if wagers[-1] != wagers[0]:
                out[4] = wagers[-1]
        return out


class PeekPokerCodec(Codec):
    num_actions = 12
    FRACTIONS = (0.5, 1.0, 2.0)
    PHASES = tuple(PeekPhase)

    def __init__(self, game: AnyGame) -> None:
        super().__init__(game)
        config: Any = game.config
        self.chips_in_play = max(config.stack * self.players, 1)
        self.obs_size = self.players * 18 + 18 + len(self.PHASES) + 3 + 1 + self.players * 5 + 1

    def observe(self, view: View) -> Vector:
        assert isinstance(view, PeekPokerView)
        values: list[float] = []
        for offset in range(self.players):
            seat = ((view.seat or 0) + offset) % self.players
            values += _poker_faces(view.dice[seat], 3)
        values += _poker_faces(view.community, 3)
        values += _one_hot(len(self.PHASES), self.PHASES.index(PeekPhase(view.phase)))
        values += _one_hot(3, view.betting_round)
        values.append(float(view.forced_bet_due))
        deciding = set(view.to_act)
        for offset in range(self.players):
            seat = ((view.seat or 0) + offset) % self.players
            values += [
                view.chips[seat] / self.chips_in_play,
                view.bets[seat] / self.chips_in_play,
                float(view.in_hand[seat]),
                float(view.dealer == seat),
                float(seat in deciding),
            ]
        values.append(view.pot / self.chips_in_play)
        return _vector(values, self.obs_size)

    def slots(self, view: View, legal: Sequence[Action]) -> dict[int, Action]:
        assert isinstance(view, PeekPokerView)
        out = _basic_betting_slots(legal)
        wagers = _wagers(legal)
        if wagers:
            by_amount: Mapping[int, Action] = {a.to: a for a in wagers}
            amounts = sorted(by_amount)
            seat = view.seat or 0
            owed = max(view.bets) - view.bets[seat]
            pot_after_call = view.pot + owed
            targets = [amounts[0]]
            targets += [max(view.bets) + round(f * pot_after_call) for f in self.FRACTIONS]
            targets.append(amounts[-1])
            taken: set[int] = set()
            for slot, target in enumerate(targets, start=3):
                amount = _nearest(amounts, target)
                if amount not in taken:  # each slot open now names a different wager
                    taken.add(amount)
                    out[slot] = by_amount[amount]
        for action in legal:
            if isinstance(action, Stand):
                out[8] = action
            elif isinstance(action, RerollAces):
                out[8 + action.count] = action
        return out


def _nearest(amounts: Sequence[int], target: int) -> int:
    return min(amounts, key=lambda amount: (abs(amount - target), amount))


def _poker_faces(dice: Sequence[Face] | None, count: int) -> list[float]:
    out: list[float] = []
    dice = dice or ()
    for position in range(count):
        out += _one_hot(6, int(dice[position]) - int(Face.NINE) if position < len(dice) else None)
    return out


CODECS: dict[type[View], type[Codec]] = {
    ScorecardView: ScorecardCodec,
    BoardView: BoardCodec,
    HoldemView: HoldemCodec,
    PeekPokerView: PeekPokerCodec,
}
"""The codec of each view type (``GameInfo.view_type``): games that share a view share its codec."""


def codec_for(game: AnyGame) -> Codec:
    """The codec of a configured game."""
    return CODECS[info(game.name).view_type](game)
