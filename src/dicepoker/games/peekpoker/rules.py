"""PeekPoker Hold'em: Crazy Aces (seed 002, rules PK-1 … PK-15), on the shared betting engine.

Three hidden poker dice each, three community dice, two no-limit betting rounds (:mod:`.betting`),
then the showdown with the crazy aces: every player still in may re-roll aces among their own dice,
all at once, again while aces come up (PK-8). The ace decisions are simultaneous: ``to_act`` holds
every seat still deciding, and nobody sees another's choice until the dice roll.

Hands follow each other until one player has all the chips (PK-13). Every die is a chance action
(CM-2): the high roll for the first dealer, each player's hidden dice, the community dice, each
re-roll. A player's decision again after a re-roll is **[decision]** given only to re-rollers whose
re-rolled dice showed an ace ("if more aces are rolled"); they may then re-roll any of their aces.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import product
from random import Random

from dicepoker.core.errors import IllegalAction, NotationError
from dicepoker.core.game import Game, unknown_action
from dicepoker.core.rolloff import RollOff
from dicepoker.core.state import State
from dicepoker.core.types import CHANCE, JSON, Action, ChanceAction, Ending, Resign, Result, Seat, Timeout, ToAct
from dicepoker.dice.poker import Face, PokerDice, format_dice, outcomes, parse_dice, strength
from dicepoker.games.betting import (
    Bet,
    Betting,
    Check,
    Fold,
    next_dealer,
    parse_betting_action,
)
from dicepoker.games.peekpoker.actions import HighRoll, Phase, RerollAces, Rolled, Stand, parse_peekpoker_action
from dicepoker.games.peekpoker.config import COMMUNITY_DICE as COMMUNITY_DICE  # re-exported: its old home
from dicepoker.games.peekpoker.config import FORCED_BET, OWN_DICE, PeekPokerConfig
from dicepoker.games.peekpoker.config import MAX_PLAYERS as MAX_PLAYERS  # re-exported: its old home
from dicepoker.games.peekpoker.config import MIN_PLAYERS as MIN_PLAYERS  # re-exported: its old home
from dicepoker.games.peekpoker.view import PeekPokerView, PreviousHand

__all__ = ["HighRoll", "PeekPokerConfig", "PeekPokerGame", "PeekPokerState", "Phase", "RerollAces", "Rolled", "Stand"]


# -- state ------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class PeekPokerState(State):
    config: PeekPokerConfig
    stacks: tuple[int, ...]
    """Chips at the start of the current hand (the betting holds them during a hand)."""
    phase: Phase = Phase.HIGH_ROLL
    rolloff: RollOff | None = None
    dealer: Seat | None = None
    """Who deals the current hand; ``None`` until the high roll (CM-3) has chosen the first dealer."""
    hand: int = 0
    """The number of the current hand, from 1 (0 before the first): the betting games' shared vocabulary."""
    betting: Betting | None = None
    hidden: tuple[PokerDice, ...] = ()
    community: PokerDice = ()
    rolling: tuple[tuple[Seat, int], ...] = ()
    """DEAL/REROLL: (seat, dice) still to roll, next first; COMMUNITY: ((dealer, dice),)."""
    deciding: tuple[Seat, ...] = ()
    choices: tuple[int | None, ...] = ()
    """ACES: aces each seat chose to re-roll (``None``: undecided); secret until the dice roll."""
    again: frozenset[Seat] = frozenset()
    """REROLL: re-rollers whose dice showed an ace, who decide again."""
    resigned: frozenset[Seat] = frozenset()
    previous: PreviousHand | None = None

    @property
    def num_players(self) -> int:
        return self.config.players

    @property
    def hand_number(self) -> int:
        """The old name of :attr:`hand`, kept importable."""
        return self.hand

    # -- whose turn ---------------------------------------------------------------------------------
    @property
    def to_act(self) -> ToAct:
        if self.phase is Phase.OVER:
            return ()
        if self.phase is Phase.BET:
            assert self.betting is not None and self.betting.to_act is not None
            return (self.betting.to_act,)
        if self.phase is Phase.ACES:
            return tuple(s for s in self.deciding if self.choices[s] is None)
        return CHANCE

    # -- legal actions ------------------------------------------------------------------------------
    def legal_actions(self, seat: Seat | None = None) -> Sequence[Action]:
        to_act = self.to_act
        if to_act is CHANCE:
            return [outcome for outcome, _ in self.chance_outcomes()]
        if seat is None:
            seat = to_act[0] if len(to_act) == 1 else None
        if seat is None or seat not in to_act:
            return []
        if self.phase is Phase.ACES:
            return [Stand(), *(RerollAces(n) for n in range(1, self.aces(seat) + 1))]
        assert self.betting is not None
        if self._forced_bet_due():
            return [Fold(), Bet(FORCED_BET)]
        return list(self.betting.legal_actions())

    def aces(self, seat: Seat) -> int:
        return self.hidden[seat].count(Face.ACE)

    def _forced_bet_due(self) -> bool:
        """PK-14: the round's opener must post the forced bet or fold (when a bet is possible at all)."""
        betting = self.betting
        if not self.config.forced_bet or betting is None or self.phase is not Phase.BET:
            return False
        return betting.current_bet == 0 and Bet(FORCED_BET) in betting.legal_actions()

    def chance_outcomes(self) -> Sequence[tuple[ChanceAction, Fraction]]:
        if self.phase is Phase.HIGH_ROLL:
            assert self.rolloff is not None
            rolling = len(self.rolloff.contenders)
            return [(HighRoll(d), Fraction(1, 6**rolling)) for d in product(range(1, 7), repeat=rolling)]
        if self.phase in (Phase.DEAL, Phase.COMMUNITY, Phase.REROLL):
            return [(Rolled(dice), p) for dice, p in outcomes(self.rolling[0][1])]
        return []

    def sample_chance(self, rng: Random) -> ChanceAction:
        if self.to_act is not CHANCE:
            raise IllegalAction("not a chance node")
        if self.phase is Phase.HIGH_ROLL:
            assert self.rolloff is not None
            return HighRoll(tuple(rng.randint(1, 6) for _ in self.rolloff.contenders))
        faces = list(Face)
        return Rolled(tuple(sorted(faces[rng.randrange(6)] for _ in range(self.rolling[0][1]))))

    def _check(self, action: Action, seat: Seat | None) -> None:
        if isinstance(action, Resign):
            if seat in self.resigned:
                raise IllegalAction(f"seat {seat + 1} has already resigned")
        elif isinstance(action, HighRoll):
            if self.phase is not Phase.HIGH_ROLL:
                raise IllegalAction(f"{action}: the dealer is already chosen")
            assert self.rolloff is not None
            contenders = self.rolloff.contenders
            if len(action.dice) != len(contenders) or not all(1 <= d <= 6 for d in action.dice):
                raise IllegalAction(f"{action}: expected one standard die for each of {list(contenders)}")
        elif isinstance(action, Rolled):
            if not self.rolling:
                raise IllegalAction(f"{action}: no poker dice are being rolled")
            count = self.rolling[0][1]
            if len(action.dice) != count or list(action.dice) != sorted(action.dice):
                raise IllegalAction(f"{action}: expected {count} poker dice in ascending order")
        elif isinstance(action, (Stand, RerollAces)):
            if self.phase is not Phase.ACES:
                raise IllegalAction(f"{action}: aces are re-rolled only at the showdown (PK-8)")
            if isinstance(action, RerollAces) and not 1 <= action.count <= self.aces(seat or 0):
                raise IllegalAction(f"{action}: seat {(seat or 0) + 1} has {self.aces(seat or 0)} ace(s) to re-roll")
        elif isinstance(action, Timeout):
            return
        else:
            if self.phase is not Phase.BET or self.betting is None:
                raise IllegalAction(f"{action}: there is no betting now")
            if self._forced_bet_due():
                if action not in (Fold(), Bet(FORCED_BET)):
                    raise IllegalAction(f"{action}: post the forced bet ('bet {FORCED_BET}') or fold (PK-14)")
                return
            self.betting.check(action)

    # -- apply --------------------------------------------------------------------------------------
    def _next(self, action: Action, seat: Seat | None) -> PeekPokerState:
        if isinstance(action, HighRoll):
            return self._after_high_roll(action)
        if isinstance(action, Rolled):
            return self._after_roll(action.dice)
        if isinstance(action, Resign):
            assert seat is not None
            return self._resign(seat)
        assert seat is not None
        if self.phase is Phase.ACES:
            count = action.count if isinstance(action, RerollAces) else 0  # PK-15: a timeout stands
            choices = tuple(count if s == seat else c for s, c in enumerate(self.choices))
            return replace(self, choices=choices)._maybe_reroll()
        assert self.betting is not None
        if isinstance(action, Timeout):  # PK-15: check if possible, else fold
            action = Check() if Check() in self.legal_actions(seat) else Fold()
        if isinstance(action, Fold) and self._forced_bet_due():
            return replace(self, betting=self.betting.fold_seat(seat))._after_betting()
        return replace(self, betting=self.betting.apply(action))._after_betting()

    def _after_high_roll(self, action: HighRoll) -> PeekPokerState:
        assert self.rolloff is not None
        return self._roll_off(self.rolloff.add_all(action.dice))

    def _roll_off(self, rolloff: RollOff) -> PeekPokerState:
        """CM-3: the tied highest roll again among themselves, or the winner deals the first hand."""
        settled = rolloff.settle()
        if isinstance(settled, RollOff):
            return replace(self, rolloff=settled)
        return replace(self, rolloff=None, dealer=settled)._start_hand(settled)

    def _dealt_stacks(self) -> tuple[int, ...]:
        return tuple(0 if s in self.resigned else chips for s, chips in enumerate(self.stacks))

    def _start_hand(self, dealer: Seat) -> PeekPokerState:
        """PK-3 antes (or blinds) through the betting engine, then PK-4: each player rolls three dice."""
        dealt = self._dealt_stacks()
        if sum(1 for chips in dealt if chips) < 2:
            return replace(self, phase=Phase.OVER, betting=None)
        betting = Betting.start_hand(self.config.betting_rules(), dealt, dealer)
        return replace(
            self,
            phase=Phase.DEAL,
            dealer=dealer,
            hand=self.hand + 1,
            betting=betting,
            hidden=((),) * self.config.players,
            community=(),
            rolling=tuple((s, OWN_DICE) for s in betting.order),
            deciding=(),
            choices=(),
            again=frozenset(),
        )

    def _after_roll(self, dice: PokerDice) -> PeekPokerState:
        (seat, count), rest = self.rolling[0], self.rolling[1:]
        if self.phase is Phase.COMMUNITY:
            assert self.betting is not None
            community = tuple(sorted((*self.community, *dice)))
            return replace(self, community=community, rolling=(), betting=self.betting.next_round())._betting_round()
        if self.phase is Phase.DEAL:
            hidden = tuple(dice if s == seat else h for s, h in enumerate(self.hidden))
            state = replace(self, hidden=hidden, rolling=rest)
            return state if rest else replace(state, phase=Phase.BET)._betting_round()
        kept = list(self.hidden[seat])
        for _ in range(count):
            kept.remove(Face.ACE)
        hidden = tuple(tuple(sorted((*kept, *dice))) if s == seat else h for s, h in enumerate(self.hidden))
        again = self.again | {seat} if Face.ACE in dice else self.again
        state = replace(self, hidden=hidden, rolling=rest, again=again)
        if rest:
            return state
        return state._open_ace_decisions(tuple(s for s in self._order() if s in again))

    def _order(self) -> tuple[Seat, ...]:
        assert self.betting is not None
        return self.betting.order

    def _betting_round(self) -> PeekPokerState:
        """Play the open round, or move on at once when nobody can bet (all-in) or one player is left."""
        betting = self.betting
        assert betting is not None
        if betting.hand_over or betting.round_over:
            return replace(self, phase=Phase.BET)._after_betting()
        return replace(self, phase=Phase.BET)

    def _after_betting(self) -> PeekPokerState:
        betting = self.betting
        assert betting is not None
        if betting.hand_over:  # PK-11
            return self._settle(betting.collect(), {})
        if not betting.round_over:
            return self
        rolls = self.config.community_rolls
        if betting.round < len(rolls):  # PK-6: the dealer rolls community dice
            assert self.dealer is not None
            return replace(self, phase=Phase.COMMUNITY, rolling=((self.dealer, rolls[betting.round]),))
        showing = tuple(s for s in betting.order if betting.in_hand[s])
        state = replace(self, betting=betting.collect())
        return state._open_ace_decisions(showing if self.config.ace_rerolls else ())

    def _open_ace_decisions(self, seats: Sequence[Seat]) -> PeekPokerState:
        """PK-8: the players with aces decide together; without any, the hand is shown down."""
        betting = self.betting
        assert betting is not None
        deciding = tuple(s for s in seats if betting.in_hand[s] and self.aces(s))
        if not deciding:
            ranks = {s: strength((*self.hidden[s], *self.community)) for s in betting.order if betting.in_hand[s]}
            return self._settle(betting, ranks)
        choices = tuple(None if s in deciding else 0 for s in range(self.config.players))
        return replace(self, phase=Phase.ACES, deciding=deciding, choices=choices, again=frozenset())

    def _maybe_reroll(self) -> PeekPokerState:
        if self.to_act:
            return self
        rolling = tuple((s, self.choices[s] or 0) for s in self.deciding if self.choices[s])
        if not rolling:
            return replace(self, deciding=())._open_ace_decisions(())
        return replace(self, phase=Phase.REROLL, rolling=rolling, deciding=(), again=frozenset())

    def _settle(self, betting: Betting, ranks: Mapping[Seat, int]) -> PeekPokerState:
        """PK-11/PK-12: share the pots; PK-13: the busted are out; PK-2: the deal passes left."""
        settled, payouts = betting.award(ranks)
        stacks = tuple(settled.stacks[s] if s in betting.order else c for s, c in enumerate(self.stacks))
        won = [0] * self.config.players
        for payout in payouts:
            for seat, share in zip(payout.winners, payout.shares, strict=True):
                won[seat] += share
        shown = tuple(self.hidden[s] if s in ranks else None for s in range(self.config.players))
        previous = PreviousHand(self.hand, self.community, shown, tuple(won), payouts)
        state = replace(self, stacks=stacks, previous=previous, betting=None, rolling=(), deciding=(), choices=())
        alive = [s for s in range(self.config.players) if stacks[s] and s not in self.resigned]
        if len(alive) < 2:
            return replace(state, phase=Phase.OVER, hidden=(), community=())
        assert self.dealer is not None
        return state._start_hand(next_dealer(state._dealt_stacks(), self.dealer))

    def _resign(self, seat: Seat) -> PeekPokerState:
        """CM-5: the player folds (if in a hand) and leaves the game with what is left of their stack."""
        state = replace(self, resigned=self.resigned | {seat})
        alive = [s for s in range(self.config.players) if s not in state.resigned]
        if self.phase is Phase.HIGH_ROLL:
            if len(alive) == 1:
                return replace(state, phase=Phase.OVER, rolloff=None)
            assert self.rolloff is not None
            return state._roll_off(self.rolloff.without(alive))
        betting = self.betting
        if betting is None or not betting.in_hand[seat]:
            return state
        betting = betting.fold_seat(seat)
        state = replace(
            state,
            betting=betting,
            rolling=tuple(r for r in self.rolling if r[0] != seat or self.phase is Phase.COMMUNITY),
            deciding=tuple(s for s in self.deciding if s != seat),
        )
        if betting.hand_over:
            return state._settle(betting.collect(), {})
        if self.phase is Phase.BET:
            return state._after_betting()
        if self.phase is Phase.ACES:
            return state._maybe_reroll()
        if self.phase in (Phase.DEAL, Phase.REROLL) and not state.rolling:
            if self.phase is Phase.DEAL:
                return replace(state, phase=Phase.BET)._betting_round()
            return state._open_ace_decisions(tuple(s for s in state._order() if s in state.again))
        return state

    # -- result -------------------------------------------------------------------------------------
    def chips(self) -> tuple[int, ...]:
        """Each seat's chips now: the stack behind, not counting what is in the pot."""
        if self.betting is None:
            return self.stacks
        order = self.betting.order
        return tuple(self.betting.stacks[s] if s in order else c for s, c in enumerate(self.stacks))

    def result(self) -> Result:
        if not self.is_terminal:
            raise IllegalAction("the game is still running")
        alive = [s for s in range(self.config.players) if s not in self.resigned]
        holders = [s for s in alive if self.stacks[s]]
        if len(holders) == 1:
            # The prose stays PK-13's; as a value, a game that everyone else left by resigning is a resignation.
            ending = Ending.RESIGNATION if len(alive) == 1 else Ending.LAST_WITH_CHIPS
            return Result(frozenset(holders), self.stacks, "the last player with chips wins (PK-13)", ending)
        winners = frozenset(alive[:1]) if len(alive) == 1 else frozenset(holders)
        return Result(winners, self.stacks, "the other players resigned (CM-5)", Ending.RESIGNATION)

    # -- view ---------------------------------------------------------------------------------------
    def revealed(self, seat: Seat) -> bool:
        """PK-8: hidden dice are revealed at the showdown, to everyone, for the players still in."""
        betting = self.betting
        return self.phase in (Phase.ACES, Phase.REROLL) and betting is not None and betting.in_hand[seat]

    def view(self, seat: Seat | None) -> PeekPokerView:
        if seat is not None:
            self.check_seat(seat)
        players = self.config.players
        dice = tuple(
            self.hidden[s] if self.hidden and (s == seat or self.revealed(s)) else None for s in range(players)
        )
        return _build_view(self, seat, dice)

    def hidden_from_others(self, seat: Seat) -> JSON | None:
        secret: dict[str, JSON] = {}
        if self.hidden and self.hidden[seat] and not self.revealed(seat):
            secret["dice"] = format_dice(self.hidden[seat])
        if self.phase is Phase.ACES and seat in self.deciding and self.choices[seat] is not None:
            secret["choice"] = self.choices[seat]
        return secret or None

    def with_other_secret(self, seat: Seat, rng: Random) -> PeekPokerState:
        state = self
        if self.hidden and self.hidden[seat] and not self.revealed(seat):
            dice = tuple(sorted(rng.choice(list(Face)) for _ in self.hidden[seat]))
            state = replace(state, hidden=tuple(dice if s == seat else h for s, h in enumerate(self.hidden)))
        if self.phase is Phase.ACES and seat in self.deciding and self.choices[seat] is not None:
            choice = rng.randint(0, self.aces(seat))
            state = replace(state, choices=tuple(choice if s == seat else c for s, c in enumerate(self.choices)))
        return state

    def to_json(self) -> dict[str, JSON]:
        return {
            "stacks": list(self.stacks),
            "phase": self.phase.value,
            "rolloff": None if self.rolloff is None else self.rolloff.to_json(),
            "dealer": self.dealer,
            "hand": self.hand,
            "betting": None if self.betting is None else self.betting.to_json(),
            "hidden": [format_dice(h) for h in self.hidden],
            "community": format_dice(self.community),
            "rolling": [list(r) for r in self.rolling],
            "deciding": list(self.deciding),
            "choices": list(self.choices),
            "again": sorted(self.again),
            "resigned": sorted(self.resigned),
            "previous": None if self.previous is None else self.previous.to_json(),
        }


# -- game -------------------------------------------------------------------------------------------
def _build_view(state: PeekPokerState, seat: Seat | None, dice: tuple[PokerDice | None, ...]) -> PeekPokerView:
    betting = state.betting
    to_act = state.to_act
    players = state.config.players
    return PeekPokerView(
        seat=seat,
        players=players,
        phase=state.phase.value,
        hand=state.hand,
        dealer=state.dealer,
        chips=state.chips(),
        bets=betting.bets if betting else (0,) * players,
        pot=sum(betting.bets) + sum(betting.contributed) if betting else 0,
        in_hand=betting.in_hand if betting else (False,) * players,
        betting_round=betting.round if betting and state.phase is Phase.BET else None,
        to_act=to_act if isinstance(to_act, tuple) else (),
        dice=dice,
        community=state.community,
        rerolling=state.rolling if state.phase is Phase.REROLL else (),
        forced_bet_due=state._forced_bet_due(),
        resigned=state.resigned,
        previous=state.previous,
        over=state.phase is Phase.OVER,
    )


class PeekPokerGame(Game[PeekPokerConfig, PeekPokerState]):
    """PeekPoker Hold'em: Crazy Aces.

    >>> from dicepoker.core import Match
    >>> match = Match(PeekPokerGame(players=2), seed=3)
    >>> match.state.phase.value, [str(a) for a in match.state.legal_actions()][:3]
    ('bet', ['check', 'bet 1', 'bet 2'])
    """

    name = "peekpoker"
    title = "PeekPoker Hold'em: Crazy Aces"
    config_type = PeekPokerConfig

    @property
    def num_players(self) -> int:
        return self.config.players

    def initial_state(self) -> PeekPokerState:
        players = self.config.players
        return PeekPokerState(self.config, (self.config.stack,) * players, rolloff=RollOff(tuple(range(players))))

    def start_dealt_by(self, dealer: Seat) -> PeekPokerState:
        """The first hand with ``dealer`` dealing: the high roll (CM-3) as it lands when ``dealer`` rolls a 6 and
        everyone else a 1 (the betting games share this, so an arena needs no per-game start)."""
        state = self.initial_state()
        state.check_seat(dealer)
        assert state.rolloff is not None
        return state.apply(HighRoll(tuple(6 if seat == dealer else 1 for seat in state.rolloff.contenders)))

    def _parse_game_action(self, words: list[str], text: str) -> Action:
        own = parse_peekpoker_action(words, text)
        if own is not None:
            return own
        action = parse_betting_action(words)
        if action is None:
            raise unknown_action(
                self.name, text, "check, call, fold, bet N, raise N, stand, reroll A [A [A]], timeout, resign"
            )
        return action

    def state_from_json(self, data: Mapping[str, JSON]) -> PeekPokerState:
        try:
            betting = data["betting"]
            previous = data["previous"]
            return PeekPokerState(
                config=self.config,
                stacks=tuple(int(c) for c in data["stacks"]),
                phase=Phase(data["phase"]),
                rolloff=None if data["rolloff"] is None else RollOff.from_json(data["rolloff"]),
                dealer=data["dealer"],
                hand=int(data["hand"] if "hand" in data else data["hand_number"]),  # "hand_number" before issue 18
                betting=None if betting is None else Betting.from_json(self.config.betting_rules(), betting),
                hidden=tuple(parse_dice(h) for h in data["hidden"]),
                community=parse_dice(data["community"]),
                rolling=tuple((int(s), int(n)) for s, n in data["rolling"]),
                deciding=tuple(data["deciding"]),
                choices=tuple(data["choices"]),
                again=frozenset(data["again"]),
                resigned=frozenset(data["resigned"]),
                previous=None if previous is None else PreviousHand.from_json(previous),
            )
        except (KeyError, TypeError, ValueError, NotationError) as exc:
            raise ValueError(f"not a peekpoker state: {exc}") from exc
