"""Fixed opponent styles for the betting games (holdem, peekpoker): the yardsticks of the bots' strength.

Each style reads one number, the *strength* of its dice: the share of all hands an opponent may hold
that are weaker than its own on this board, by their equity against a random hand (the ``expert``
bots' strength tables: Dice Hold'em with the board still to come averaged over, PeekPoker exact with
ace re-rolls counted). So ``0.8`` means "the best fifth of hands" in every game and on every street.
Then, with ``raise_at``, ``call_at`` and ``bluff`` from its :class:`Style`:

* bet or raise when it may and the strength reaches ``raise_at``, or, whatever its dice, with chance
  ``bluff`` (one draw from the rng it is handed at every betting decision, used or not);
* else check when that is free; call when the strength reaches ``call_at``; otherwise fold.

========  =========  ========  =======  =====================================================
style     raise_at   call_at   bluff    in words
========  =========  ========  =======  =====================================================
station   never      0         0        calling station: calls anything, never bets or raises
maniac    0          0         1        bets or raises whenever it may, never folds
tight     0.80       0.80      0        plays only strong hands (the best fifth), folds the rest
lag       0.60       0.30      0.30     loose-aggressive: bets good hands, bluffs 30% of the rest
========  =========  ========  =======  =====================================================

Sizes: the largest bet the limit allows in Dice Hold'em; a pot-sized bet or raise in PeekPoker. At a
PeekPoker showdown every style re-rolls its aces to beat the best hand shown, as the ``equity`` bot
does. Given the same views, legal actions and rng, a style always makes the same choices.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from random import Random

from dicepoker.bots import holdem, peekpoker
from dicepoker.core.types import Action, View
from dicepoker.games.betting import Bet, Call, Check, Fold, Raise
from dicepoker.games.holdem import HoldemView
from dicepoker.games.peekpoker.actions import RerollAces, Stand
from dicepoker.games.peekpoker.view import PeekPokerView

NEVER = 2.0
"""A strength no hand reaches (strengths are shares of hands, at most 1)."""


@dataclass(frozen=True, slots=True)
class Style:
    """How a style maps the strength of its dice to an action (see the module doc)."""

    name: str
    raise_at: float
    call_at: float
    bluff: float
    summary: str


STYLES: dict[str, Style] = {
    style.name: style
    for style in (
        Style("station", NEVER, 0.0, 0.0, "calling station: calls anything, never bets or raises"),
        Style("maniac", 0.0, 0.0, 1.0, "bets or raises whenever it may, never folds"),
        Style("tight", 0.80, 0.80, 0.0, "plays only strong hands (the best fifth), folds the rest"),
        Style("lag", 0.60, 0.30, 0.30, "loose-aggressive: bets good hands, bluffs 30% of the rest"),
    )
}


def decide(style: Style, strength: float, legal: Sequence[Action], increase: Action | None, rng: Random) -> Action:
    """The style's betting action: ``increase`` is its bet or raise if one is legal."""
    bluffing = rng.random() < style.bluff  # drawn at every decision, so the stream does not depend on the dice
    if increase is not None and (strength >= style.raise_at or bluffing):
        return increase
    if Check() in legal:
        return Check()
    if Call() in legal and strength >= style.call_at:
        return Call()
    if Fold() in legal:
        return Fold()
    return Call() if Call() in legal else legal[0]


class _StyleBot:
    style: Style

    @property
    def name(self) -> str:
        return self.style.name


class HoldemStyleBot(_StyleBot):
    """A Dice Hold'em player of one :class:`Style`."""

    def __init__(self, style: str) -> None:
        self.style = STYLES[style]

    def choose(self, view: View, legal: Sequence[Action], rng: Random) -> Action:
        assert isinstance(view, HoldemView) and view.seat is not None
        increases = [a for a in legal if isinstance(a, (Bet, Raise))]
        increase = max(increases, key=lambda a: a.to) if increases else None
        return decide(self.style, holdem.strength_quantile(view), legal, increase, rng)


class PeekPokerStyleBot(_StyleBot):
    """A PeekPoker player of one :class:`Style`."""

    def __init__(self, style: str) -> None:
        self.style = STYLES[style]

    def choose(self, view: View, legal: Sequence[Action], rng: Random) -> Action:
        assert isinstance(view, PeekPokerView) and view.seat is not None
        if any(isinstance(a, (Stand, RerollAces)) for a in legal):
            return peekpoker.beat_the_table(view, legal)
        return decide(self.style, peekpoker.strength_quantile(view), legal, peekpoker.pot_sized(view, legal), rng)


# The registry names a zero-argument class per bot; one per game and style keeps it that way.
class HoldemStation(HoldemStyleBot):
    def __init__(self) -> None:
        super().__init__("station")


class HoldemManiac(HoldemStyleBot):
    def __init__(self) -> None:
        super().__init__("maniac")


class HoldemTight(HoldemStyleBot):
    def __init__(self) -> None:
        super().__init__("tight")


class HoldemLag(HoldemStyleBot):
    def __init__(self) -> None:
        super().__init__("lag")


class PeekPokerStation(PeekPokerStyleBot):
    def __init__(self) -> None:
        super().__init__("station")


class PeekPokerManiac(PeekPokerStyleBot):
    def __init__(self) -> None:
        super().__init__("maniac")


class PeekPokerTight(PeekPokerStyleBot):
    def __init__(self) -> None:
        super().__init__("tight")


class PeekPokerLag(PeekPokerStyleBot):
    def __init__(self) -> None:
        super().__init__("lag")
