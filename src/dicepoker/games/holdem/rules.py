"""Dice Hold'em (seed 004, rules HE-1 … HE-16): hold'em with 20 suited dice drawn from a bag.

Each hand: antes, two hidden pocket dice each, then the Open, Flop (3 dice), Turn and River betting
rounds (spread limit 10 / 10 / 10-20 / 10-20, at most three raises), then a showdown of the best five
of seven dice. Players with no chips leave; the last one with chips wins, and a Yahtzee flush at
showdown wins the game at once (HE-12). Betting is :mod:`dicepoker.games.betting`.

Every die is a chance node of its own: a draw from the bag is one outcome ``draw 6r`` (suit weighted by
the dice of that suit left, face 1/6), so a node has at most 24 outcomes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache, cached_property
from random import Random

from dicepoker.core.errors import IllegalAction, NotationError
from dicepoker.core.frozen import evolve
from dicepoker.core.game import Game, unknown_action
from dicepoker.core.rolloff import RollOff
from dicepoker.core.state import State
from dicepoker.core.types import (
    CHANCE,
    JSON,
    Action,
    ChanceAction,
    Ending,
    Resign,
    Result,
    Seat,
    Timeout,
    ToAct,
)
from dicepoker.dice.suited import BAG, HandCategory, Suit, SuitedDie, best_value, category_of, parse_suited
from dicepoker.games.betting import (
    Betting,
    BettingRules,
    Check,
    Fold,
    next_dealer,
    parse_betting_action,
)
from dicepoker.games.holdem.actions import FLOP_REROLLS, HIGH_ROLLS, Draw, FlopReroll, HighRoll, Phase
from dicepoker.games.holdem.config import BOARD_AFTER, FACES, POCKET, STREETS, SUITS, HoldemConfig
from dicepoker.games.holdem.config import MAX_PLAYERS as MAX_PLAYERS  # re-exported: its old home
from dicepoker.games.holdem.config import MIN_PLAYERS as MIN_PLAYERS  # re-exported: its old home
from dicepoker.games.holdem.config import UNIT as UNIT  # re-exported: its old home
from dicepoker.games.holdem.view import (
    HoldemView,
    Showdown,
    dice_from_json,
    dice_json,
    showdown_from_json,
    showdown_json,
)

__all__ = [
    "Draw",
    "FlopReroll",
    "HighRoll",
    "HoldemConfig",
    "HoldemGame",
    "HoldemState",
    "HoldemView",
    "Phase",
    "Showdown",
]


# -- state ------------------------------------------------------------------------------------------
# No slots: evolve() copies a state as one dict, the fastest way to build the many states of a hand.
@dataclass(frozen=True)
class HoldemState(State):
    config: HoldemConfig
    stacks: tuple[int, ...]
    phase: Phase = Phase.HIGH_ROLL
    rolloff: RollOff | None = None
    """CM-3: who is still rolling for the first deal, and what they rolled."""
    dealer: Seat | None = None
    """Who deals the current hand; ``None`` until the high roll (CM-3) has chosen the first dealer."""
    hand: int = 0
    """The number of the current hand, from 1 (0 before the first): the betting games' shared vocabulary."""
    betting: Betting | None = None
    pockets: tuple[tuple[SuitedDie, ...], ...] = ()
    board: tuple[SuitedDie, ...] = ()
    bag: tuple[int, ...] = BAG
    rerolls_left: int = 0
    flop_rerolled: bool = False
    resigned: frozenset[Seat] = frozenset()
    last_showdown: Showdown | None = None
    game_winners: frozenset[Seat] = field(default_factory=frozenset)
    reason: str = ""
    ending: Ending = Ending.COMPLETED
    """Why the game ended, as a value (read once ``phase`` is OVER)."""

    @property
    def num_players(self) -> int:
        return self.config.players

    # -- whose turn ---------------------------------------------------------------------------------
    @cached_property  # asked many times per state; evolve() drops it from the next state
    def to_act(self) -> ToAct:
        if self.phase is Phase.OVER:
            return ()
        if self.phase is Phase.HIGH_ROLL or self._dice_due():
            return CHANCE
        assert self.betting is not None and self.betting.to_act is not None
        return (self.betting.to_act,)

    def _dice_due(self) -> bool:
        assert self.betting is not None
        dealt = sum(map(len, self.pockets))
        return (
            dealt < POCKET * len(self.betting.order)
            or len(self.board) < BOARD_AFTER[self.betting.round]
            or self.rerolls_left > 0
        )

    # -- legal actions ------------------------------------------------------------------------------
    def legal_actions(self, seat: Seat | None = None) -> Sequence[Action]:
        to_act = self.to_act
        if to_act is CHANCE:
            return [outcome for outcome, _ in self.chance_outcomes()]
        if not to_act or (seat is not None and seat not in to_act):
            return []
        assert self.betting is not None
        return self.betting.legal_actions()

    def chance_outcomes(self) -> Sequence[tuple[ChanceAction, Fraction]]:
        if self.to_act is not CHANCE:
            return ()
        if self.phase is Phase.HIGH_ROLL:
            return HIGH_ROLLS
        if self.rerolls_left:
            return FLOP_REROLLS
        total = sum(self.bag) * 6
        return tuple(
            (Draw((face, suit)), Fraction(self.bag[suit], total))
            for suit in Suit
            if self.bag[suit]
            for face in range(1, 7)
        )

    def sample_chance(self, rng: Random) -> ChanceAction:
        """Same distribution as :meth:`chance_outcomes`, drawn with one ``randrange``."""
        if self.to_act is not CHANCE:
            raise IllegalAction("not a chance node")
        if self.phase is Phase.HIGH_ROLL or self.rerolls_left:
            face = rng.randrange(6) + 1
            return HighRoll(face) if self.phase is Phase.HIGH_ROLL else FlopReroll(face)
        ticket = rng.randrange(sum(self.bag) * 6)
        face, ticket = ticket % 6 + 1, ticket // 6
        for suit in Suit:
            if ticket < self.bag[suit]:
                return Draw((face, suit))
            ticket -= self.bag[suit]
        raise AssertionError("bag arithmetic")

    def _check(self, action: Action, seat: Seat | None) -> None:
        if isinstance(action, Resign):
            if seat in self.resigned:
                raise IllegalAction(f"seat {seat + 1} has already resigned")
            return
        if isinstance(action, ChanceAction):
            self._check_chance(action)
            return
        if isinstance(action, Timeout):
            return
        assert self.betting is not None
        self.betting.check(action)

    def _check_chance(self, action: ChanceAction) -> None:
        """Exactly the outcomes of :meth:`chance_outcomes`, without building them (this is the hot path)."""
        expected: type[ChanceAction]
        if self.phase is Phase.HIGH_ROLL:
            expected, word = HighRoll, "highroll"
        elif self.rerolls_left:
            expected, word = FlopReroll, "reroll"
        else:
            expected, word = Draw, "draw"
        if type(action) is not expected:
            raise IllegalAction(f"{action} is not a possible outcome here: waiting for a {word}")
        if isinstance(action, Draw):
            face, suit = action.die
            possible = face in FACES and suit in SUITS and self.bag[suit] > 0
        else:
            assert isinstance(action, (HighRoll, FlopReroll))
            possible = action.face in FACES
        if not possible:
            raise IllegalAction(f"{action} is not a possible outcome here")

    # -- apply --------------------------------------------------------------------------------------
    def _next(self, action: Action, seat: Seat | None) -> HoldemState:
        if isinstance(action, HighRoll):
            return self._high_roll(action.face)
        if isinstance(action, Draw):
            return self._draw(action.die)._advance()
        if isinstance(action, FlopReroll):
            index = len(BOARD_AFTER) - 1 - self.rerolls_left
            board = (*self.board[:index], (action.face, self.board[index][1]), *self.board[index + 1 :])
            return evolve(self, board=board, rerolls_left=self.rerolls_left - 1)._advance()
        if isinstance(action, Resign):
            assert seat is not None
            return self._resign(seat)
        assert self.betting is not None
        if isinstance(action, Timeout):
            # HE-16: check if possible, else fold.
            action = Fold() if self.betting.options().can_fold else Check()
        return evolve(self, betting=self.betting.apply_checked(action))._advance()

    def _high_roll(self, face: int) -> HoldemState:
        assert self.rolloff is not None
        return self._roll_off(self.rolloff.add(face))

    def _roll_off(self, rolloff: RollOff) -> HoldemState:
        """CM-3: the roll-off goes on, or its winner deals the first hand."""
        settled = rolloff.settle()
        if isinstance(settled, RollOff):
            return evolve(self, rolloff=settled)
        return evolve(self, rolloff=None)._start_hand(settled)

    def _draw(self, die: SuitedDie) -> HoldemState:
        suit = die[1]
        bag = (*self.bag[:suit], self.bag[suit] - 1, *self.bag[suit + 1 :])
        assert self.betting is not None
        dealt = sum(map(len, self.pockets))
        if dealt < POCKET * len(self.betting.order):
            seat = self.betting.order[dealt // POCKET]
            pockets = (*self.pockets[:seat], (*self.pockets[seat], die), *self.pockets[seat + 1 :])
            return evolve(self, pockets=pockets, bag=bag)
        return evolve(self, board=(*self.board, die), bag=bag)

    def _advance(self) -> HoldemState:
        """Close finished betting rounds until dice or a player are needed, or the hand is settled."""
        state = self
        while True:
            betting = state.betting
            if state.phase is not Phase.HAND or betting is None:
                return state
            if betting.hand_over:
                # PK-11/HE-4: one player left takes the pot at once; no more dice for a hand nobody
                # plays (CM-5: a resignation during the deal ends the hand, and the game if one is left).
                return state._settle()
            if state._dice_due() or not betting.round_over:
                return state
            if betting.round == len(STREETS) - 1:
                return state._settle()
            if betting.round == 1 and not state.flop_rerolled and betting.raise_count == 0 and betting.acted:
                # HE-6: every player checked the Flop: its dice are re-rolled once, then the Turn.
                state = evolve(state, rerolls_left=3, flop_rerolled=True)
                continue
            state = evolve(state, betting=betting.next_round())

    # -- hands ----------------------------------------------------------------------------------------
    def _start_hand(self, dealer: Seat) -> HoldemState:
        """HE-3: antes are posted and the pocket dice are due, dealer's left first."""
        dealt_in = tuple(chips if s not in self.resigned else 0 for s, chips in enumerate(self.stacks))
        betting = Betting.start_hand(_betting_rules(self.config), dealt_in, dealer)
        if self.resigned:
            # Resigned players keep their chips on the table but are never dealt in again (CM-5).
            betting = evolve(
                betting,
                stacks=tuple(
                    chips if s not in self.resigned else self.stacks[s] for s, chips in enumerate(betting.stacks)
                ),
            )
        empty: tuple[SuitedDie, ...] = ()
        return evolve(
            self,
            phase=Phase.HAND,
            dealer=dealer,
            hand=self.hand + 1,
            betting=betting,
            pockets=(empty,) * self.config.players,
            board=(),
            bag=BAG,
            rerolls_left=0,
            flop_rerolled=False,
        )

    def _settle(self) -> HoldemState:
        """HE-9 … HE-15: share the pots, record the showdown, drop busted players, deal the next hand."""
        assert self.betting is not None
        betting = self.betting.collect()
        shown: list[tuple[Seat, tuple[SuitedDie, ...], int]] = []
        if not betting.hand_over:
            for seat in betting.order:
                if betting.in_hand[seat]:
                    shown.append((seat, self.pockets[seat], best_value(self.pockets[seat] + self.board)))
        betting, payouts = betting.award({seat: value for seat, _, value in shown})
        record = Showdown(self.hand, tuple(shown), self.board, payouts)
        stacks = betting.stacks
        state = evolve(self, stacks=stacks, betting=None, last_showdown=record, pockets=(), board=())
        flushes = frozenset(s for s, _, v in shown if category_of(v) is HandCategory.YAHTZEE_FLUSH)
        if flushes:
            return state._over(flushes, "a Yahtzee flush at showdown wins the game (HE-12)", Ending.YAHTZEE_FLUSH)
        alive = [s for s in range(self.config.players) if stacks[s] > 0 and s not in self.resigned]
        if len(alive) <= 1:
            # The prose stays HE-15's; as a value, a game that everyone else left by resigning is a resignation.
            left = self.config.players - len(self.resigned)
            ending = Ending.RESIGNATION if left == 1 else Ending.LAST_WITH_CHIPS
            return state._over(frozenset(alive), "the last player with chips wins (HE-15)", ending)
        assert self.dealer is not None  # a hand was played, so the high roll chose a dealer
        return state._start_hand(next_dealer(stacks, self.dealer, self.resigned))  # HE-2: to the left

    def _over(self, winners: frozenset[Seat], reason: str, ending: Ending) -> HoldemState:
        return evolve(self, phase=Phase.OVER, betting=None, game_winners=winners, reason=reason, ending=ending)

    def _resign(self, seat: Seat) -> HoldemState:
        """CM-5: the player folds (if in a hand) and is never dealt in again; the last one left wins."""
        state = evolve(self, resigned=self.resigned | {seat})
        alive = [s for s in range(self.config.players) if s not in state.resigned]
        if state.phase is Phase.HIGH_ROLL:
            if len(alive) == 1:
                return state._over(frozenset(alive), f"seat {seat + 1} resigned", Ending.RESIGNATION)
            assert self.rolloff is not None
            return state._roll_off(self.rolloff.without(alive))
        if state.betting is None:
            return state
        return evolve(state, betting=state.betting.fold_seat(seat))._advance()

    # -- result -------------------------------------------------------------------------------------
    def chips(self) -> tuple[int, ...]:
        """Each seat's chips: behind, plus in front of them this hand."""
        if self.betting is None:
            return self.stacks
        b = self.betting
        return tuple(b.stacks[s] + b.bets[s] + b.contributed[s] for s in range(self.config.players))

    def result(self) -> Result:
        if self.phase is not Phase.OVER:
            raise IllegalAction("the game is still running")
        return Result(self.game_winners, self.stacks, self.reason, self.ending)

    # -- view ---------------------------------------------------------------------------------------
    def view(self, seat: Seat | None) -> HoldemView:
        """A seat sees its own pocket dice; nobody sees another's before they are shown (nor the bag)."""
        if seat is not None:
            self.check_seat(seat)
        b = self.betting
        own = self.pockets[seat] if seat is not None and b is not None and self.pockets else ()
        return HoldemView(
            seat=seat,
            players=self.config.players,
            phase=self.phase,
            hand=self.hand,
            dealer=self.dealer,
            street=STREETS[b.round] if b is not None else None,
            stacks=b.stacks if b is not None else self.stacks,
            bets=b.bets if b is not None else (0,) * self.config.players,
            pots=tuple((p.amount, p.eligible) for p in b.pots) if b is not None else (),
            in_hand=b.in_hand if b is not None else (False,) * self.config.players,
            pocket=own,
            pocket_counts=tuple(len(p) for p in self.pockets),
            board=self.board,
            to_act=self.to_act if self.to_act is not CHANCE else (),
            rolling=self.to_act is CHANCE,
            raise_count=b.raise_count if b is not None else 0,
            last_showdown=self.last_showdown,
            resigned=self.resigned,
            over=self.phase is Phase.OVER,
        )

    def hidden_from_others(self, seat: Seat) -> JSON | None:
        if self.betting is None or not self.pockets or not self.pockets[seat]:
            return None
        return [f"{f}{s.letter}" for f, s in self.pockets[seat]]

    def with_other_secret(self, seat: Seat, rng: Random) -> HoldemState:
        """Put ``seat``'s pocket dice back in the bag and draw as many again (new suits and faces)."""
        if self.hidden_from_others(seat) is None:
            return self
        bag = list(self.bag)
        for _, suit in self.pockets[seat]:
            bag[suit] += 1
        fresh = []
        for _ in self.pockets[seat]:
            suit = rng.choices(list(Suit), weights=bag)[0]
            bag[suit] -= 1
            fresh.append((rng.randint(1, 6), suit))
        pockets = tuple(tuple(fresh) if s == seat else p for s, p in enumerate(self.pockets))
        return evolve(self, pockets=pockets, bag=tuple(bag))

    def to_json(self) -> dict[str, JSON]:
        return {
            "config": {"players": self.config.players, "stack": self.config.stack, "ante": self.config.ante},
            "stacks": list(self.stacks),
            "phase": self.phase.value,
            "rolloff": None if self.rolloff is None else self.rolloff.to_json(),
            "dealer": self.dealer,
            "hand": self.hand,
            "betting": None if self.betting is None else self.betting.to_json(),
            "pockets": [dice_json(p) for p in self.pockets],
            "board": dice_json(self.board),
            "bag": list(self.bag),
            "rerolls_left": self.rerolls_left,
            "flop_rerolled": self.flop_rerolled,
            "resigned": sorted(self.resigned),
            "last_showdown": None if self.last_showdown is None else showdown_json(self.last_showdown),
            "game_winners": sorted(self.game_winners),
            "reason": self.reason,
            "ending": self.ending.value,
        }


@cache
def _betting_rules(config: HoldemConfig) -> BettingRules:
    """The rules of every hand of a game: built and validated once, not once a hand."""
    return config.betting_rules()


# -- game -------------------------------------------------------------------------------------------
class HoldemGame(Game[HoldemConfig, HoldemState]):
    """Dice Hold'em.

    >>> game = HoldemGame(players=3, stack=100)
    >>> state = game.initial_state()
    >>> state.is_chance, len(state.chance_outcomes())
    (True, 6)
    """

    name = "holdem"
    title = "Dice Hold'em"
    config_type = HoldemConfig

    @property
    def num_players(self) -> int:
        return self.config.players

    def initial_state(self) -> HoldemState:
        players = self.config.players
        return HoldemState(
            config=self.config, stacks=(self.config.stack,) * players, rolloff=RollOff(tuple(range(players)))
        )

    def start_dealt_by(self, dealer: Seat) -> HoldemState:
        """The first hand with ``dealer`` dealing: the high roll (CM-3) as it lands when ``dealer`` rolls a 6 and
        everyone else a 1 (the betting games share this, so an arena needs no per-game start)."""
        state = self.initial_state()
        state.check_seat(dealer)
        while state.phase is Phase.HIGH_ROLL:
            assert state.rolloff is not None
            state = state.apply(HighRoll(6 if state.rolloff.roller == dealer else 1))
        return state

    def _parse_game_action(self, words: list[str], text: str) -> Action:
        action = parse_betting_action(words)
        if action is not None:
            return action
        head, rest = words[0] if words else "", words[1:]
        if head in ("highroll", "reroll"):
            if len(rest) != 1 or rest[0] not in ("1", "2", "3", "4", "5", "6"):
                raise NotationError(f"{head} needs one face 1-6, e.g. '{head} 4'")
            return HighRoll(int(rest[0])) if head == "highroll" else FlopReroll(int(rest[0]))
        if head == "draw":
            if len(rest) != 1:
                raise NotationError("draw needs one suited die, e.g. 'draw 6r'")
            return Draw(parse_suited(rest[0], count=1)[0])
        raise unknown_action(
            self.name,
            text,
            "fold, check, call, bet <to>, raise <to>, draw <die>, reroll <face>, timeout, resign",
        )

    def state_from_json(self, data: Mapping[str, JSON]) -> HoldemState:
        try:
            config = self.config
            showdown = data["last_showdown"]
            betting = data["betting"]
            return HoldemState(
                config=config,
                stacks=tuple(int(v) for v in data["stacks"]),
                phase=Phase(data["phase"]),
                rolloff=None if data["rolloff"] is None else RollOff.from_json(data["rolloff"]),
                dealer=None if data["dealer"] is None else int(data["dealer"]),
                hand=int(data["hand"]),
                betting=None if betting is None else Betting.from_json(config.betting_rules(), betting),
                pockets=tuple(dice_from_json(p) for p in data["pockets"]),
                board=dice_from_json(data["board"]),
                bag=tuple(int(v) for v in data["bag"]),
                rerolls_left=int(data["rerolls_left"]),
                flop_rerolled=bool(data["flop_rerolled"]),
                resigned=frozenset(int(v) for v in data["resigned"]),
                last_showdown=None if showdown is None else showdown_from_json(showdown),
                game_winners=frozenset(int(v) for v in data["game_winners"]),
                reason=str(data["reason"]),
                ending=Ending(data.get("ending", Ending.COMPLETED.value)),  # no "ending" before issue 18
            )
        except (KeyError, TypeError, ValueError, NotationError) as exc:
            raise ValueError(f"not a holdem state: {exc}") from exc
