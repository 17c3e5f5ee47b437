"""Play the scorecard game (SC-1 … SC-15) in the terminal: against bots, or hot-seat between people.

The client shows views and sends actions to a :class:`~dicepoker.core.Match`; the rules stay in
:mod:`dicepoker.games.scorecard`. Bots decide from ``view`` and ``legal_actions`` only. Hints and the
end-of-game review judge each decision by the optimal strategy's expected final total.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence, Set
from typing import Any, Unpack

from rich.console import Console
from rich.table import Table

from dicepoker.analysis.scorecard_review import describe, review_decisions
from dicepoker.analysis.scorecard_solver import Strategy, StrategyLoad, load_strategy
from dicepoker.bots.base import Bot
from dicepoker.bots.registry import create_bot
from dicepoker.bots.scorecard import OptimalBot
from dicepoker.core.errors import ConfigError, IllegalAction, NotationError
from dicepoker.core.game import Game
from dicepoker.core.log import EventLog
from dicepoker.core.types import Action, Resign, Result, Seat
from dicepoker.dice.scoring import UPPER_BONUS, UPPER_BONUS_THRESHOLD, Category, scores
from dicepoker.games.dice_turn import DICE, Reroll, Roll, parse_positions
from dicepoker.games.scorecard import (
    ROUNDS,
    Score,
    ScorecardGame,
    ScorecardView,
    card_total,
    upper_total,
)
from dicepoker.tui.common import LineReader, TurnClock, dice_text
from dicepoker.tui.loop import Ask, Names, PlayLoop, Screen
from dicepoker.tui.progress import BuildProgress
from dicepoker.tui.screens import LocalOptions, local_game
from dicepoker.tui.table import Change
from dicepoker.tui.table import Table as GameTable

OPPONENTS = ("optimal", "greedy", "random", "human")
WORST_SHOWN = 3
"""How many of a player's costliest decisions the end-of-game review lists."""
HINT_ROWS = 8
"""How many choices a hint lists, so that it and its best line fit a 24-line terminal."""
NEGLIGIBLE_LOSS = 0.005
"""Expected points below which a choice counts as optimal (the table's rounding, not a mistake)."""

HELP = """\
Commands (dice positions are 1 to 5, left to right):
  roll               roll all five dice to start your turn (Enter does the same)
  keep 1 3           keep the dice at positions 1 and 3 and re-roll the others (keep alone asks which)
  reroll 2 4 5       re-roll the dice at positions 2, 4 and 5
  score full-house   fill a box with the dice: by name in any spelling (full house, FullHouse) or number
  hint               the optimal choice and what every other choice costs
  card               every player's scorecard
  resign             give up the game
  help               this list
  quit               leave the game (it is saved as you play when --save was given)
Boxes: """ + ", ".join(f"{c + 1} {c.slug}" for c in Category)


# -- tables -----------------------------------------------------------------------------------------
def card_table(view: ScorecardView, names: Sequence[str], potential_for: Seat | None = None) -> Table:
    """Every player's card; with ``potential_for``, a column of what each of that seat's open boxes
    would score with the current dice (the best in bold)."""
    table = Table(title="Scorecard", title_justify="left")
    table.add_column("#", justify="right")
    table.add_column("Box")
    for name in names:
        table.add_column(name, justify="right")
    potentials: tuple[int, ...] | None = None
    if potential_for is not None and view.dice:
        potentials = scores(view.dice)
        table.add_column("this roll", justify="right", style="cyan")
    open_best = (
        max((potentials[c] for c in Category if view.cards[potential_for][c] is None), default=0)
        if potentials is not None and potential_for is not None
        else 0
    )

    def potential_cell(category: Category) -> list[str]:
        if potentials is None or potential_for is None:
            return []
        if view.cards[potential_for][category] is not None:
            return [""]
        points = potentials[category]
        if points == open_best and points > 0:
            return [f"[bold]{points}[/]"]
        return [f"[dim]{points}[/]" if points == 0 else str(points)]

    for category in Category:
        boxes = ["" if card[category] is None else str(card[category]) for card in view.cards]
        table.add_row(
            str(category + 1),
            category.label,
            *boxes,
            *potential_cell(category),
            end_section=category is Category.SIXES,
        )
        if category is Category.SIXES:
            extra = [""] if potentials is not None else []
            uppers = [upper_total(card) for card in view.cards]
            table.add_row("", f"Upper ({UPPER_BONUS_THRESHOLD} for bonus)", *map(str, uppers), *extra)
            bonuses = [str(UPPER_BONUS) if u >= UPPER_BONUS_THRESHOLD else "" for u in uppers]
            table.add_row("", "Bonus", *bonuses, *extra, end_section=True)
    extra = [""] if potentials is not None else []
    table.add_row("", "[bold]Total[/]", *(f"[bold]{card_total(c)}[/]" for c in view.cards), *extra)
    return table


# -- the screen ---------------------------------------------------------------------------------------
class LazyStrategy:
    """The optimal strategy, loaded on first use (a bar only when it must be built), shared by bots and hints."""

    def __init__(self, console: Console, loader: Callable[[], StrategyLoad] | None = None) -> None:
        self.console = console
        self._loader = loader or self._load
        self._strategy: Strategy | None = None

    def get(self) -> Strategy:
        if self._strategy is None:
            loaded = self._loader()
            if loaded.note:
                self.console.print(f"[dim]{loaded.note}[/]")
            if loaded.built:
                self.console.print(f"[dim]Built the optimal strategy in {loaded.seconds:.1f} s.[/]")
            self._strategy = loaded.strategy
        return self._strategy

    def _load(self) -> StrategyLoad:
        with BuildProgress(self.console, "Building the optimal strategy (once; cached for next time)") as bar:
            return load_strategy(progress=bar.update)


def parse_box(text: str) -> Category:
    """A box by number, slug or label in any spacing and case: ``fullhouse``, ``full-house``, ``Full House``."""
    key = re.sub(r"[^a-z0-9]", "", text.lower())
    for category in Category:
        if key in (
            str(category + 1),
            re.sub(r"[^a-z0-9]", "", category.slug),
            re.sub(r"[^a-z0-9]", "", category.label.lower()),
        ):
            return category
    return Category.parse(text)  # its error names every box


class ScorecardScreen(Screen):
    help_text = HELP
    command = "scorecard"

    def __init__(
        self,
        table: GameTable,
        names: Names,
        console: Console,
        *,
        strategy: LazyStrategy,
        bots: set[Seat],
        confirm_zero: bool = True,
    ) -> None:
        super().__init__(table, names, console)
        self.strategy, self.bots, self.confirm_zero = strategy, bots, confirm_zero
        self._actor: Seat | None = None
        self._last = ""
        self._timed_out = False

    def view(self, seat: Seat | None) -> ScorecardView:
        view = self.table.view(seat)
        assert isinstance(view, ScorecardView)
        return view

    def intro(self) -> None:
        who = " vs ".join(self.names.labels)
        seed = f"Seed {self.table.seed}." if self.table.seed is not None else "The server rolls (dicepoker verify)."
        self.console.print(f"[bold]Dice Poker scorecard[/] — {who}. {seed}")
        self.console.print("13 rounds; in each you roll five dice up to three times and fill one box. Type help.")
        clock = getattr(self.table, "clock", None)
        if clock is not None:
            self.console.print(f"Turn clock: {clock:g} s per decision; on expiry the engine plays (SC-14).")

    def prompt(self, seat: Seat) -> str:
        view = self.view(seat)
        if not view.dice:
            return f"{self.names[seat]} — roll> "
        return f"{self.names[seat]} — roll {view.rolls_used} of 3> "

    def situation(self, seat: Seat) -> None:
        view = self.view(seat)
        if not view.dice:
            round_number = sum(box is not None for box in view.cards[seat]) + 1
            self.console.rule(f"Round {round_number} of {ROUNDS} · {self.names[seat]} to play")
            return
        self.console.print(card_table(view, self.names.labels, seat))
        self.console.print(dice_text(view.dice))
        if view.rolls_left:
            self.console.print(f"{view.rolls_left} roll(s) left: keep/reroll positions, or score a box.")
        else:
            self.console.print("No rolls left: score a box.")

    def refused(self, error: Exception, seat: Seat) -> None:
        kind = "not allowed" if isinstance(error, IllegalAction) else "error"
        self.console.print(f"[red]{kind}:[/] {error}", highlight=False)

    def time_up(self, seat: Seat) -> None:
        self.console.print(f"[yellow]Time is up for {self.names[seat]}: the engine completes the turn.[/]")

    def interpret(self, line: str, seat: Seat, ask: Ask) -> Action | None:
        view = self.view(seat)
        words = line.lower().split()
        head, rest = (words[0], words[1:]) if words else ("", [])
        if not words:
            if not view.dice:
                return Roll()
            raise NotationError("type a command (help lists them)")
        if head in ("hint", "card") and not rest:
            if head == "card":
                self.console.print(card_table(view, self.names.labels, seat))
            else:
                self._hint(view, seat)
            return None
        if head in ("roll", "r") and not rest:
            return Roll()
        if head == "keep":
            return self._keep(rest, view, ask)
        if head == "reroll":
            return Reroll(parse_positions(rest))
        if head in ("score", "s"):
            if not rest:
                raise NotationError("say which box, e.g. 'score full-house' or 'score 9'")
            return self._score(parse_box(" ".join(rest)), view, seat, ask)
        if head == "resign" and not rest:
            return Resign()
        raise NotationError(f"unknown command {line.strip()!r}; type help for the list")

    def _keep(self, rest: list[str], view: ScorecardView, ask: Ask) -> Action | None:
        if not rest:
            if not view.dice:
                raise IllegalAction("roll first: there are no dice to keep yet")
            answer = ask("Keep which dice? Positions 1-5, e.g. '1 3' (Enter: none, back to the prompt): ")
            rest = (answer or "").lower().split()
            rest = rest[1:] if rest[:1] == ["keep"] else rest
            if not rest:
                return None
        kept = parse_positions(rest)
        if len(kept) == DICE:
            raise NotationError("keeping all five dice ends the rolling: score a box instead")
        return Reroll(tuple(p for p in range(DICE) if p not in kept))

    def _score(self, box: Category, view: ScorecardView, seat: Seat, ask: Ask) -> Action | None:
        card = view.cards[seat]
        if self.confirm_zero and view.dice and card[box] is None and scores(view.dice)[box] == 0:
            points = scores(view.dice)
            best = max((c for c in Category if card[c] is None), key=lambda c: points[c])
            if points[best] > 0:
                answer = ask(
                    f"{box.label} scores 0 with these dice; {best.label} would score {points[best]}. "
                    "Score 0 anyway? [y/N] "
                )
                if (answer or "").strip().lower() not in ("y", "yes"):
                    self.console.print("Not scored.")
                    return None
        return Score(box)

    def _hint(self, view: ScorecardView, seat: Seat) -> None:
        if not view.dice:
            self.console.print("Nothing to decide yet: every turn starts by rolling all five dice (roll).")
            return
        values = self.strategy.get().action_values(view.cards[seat], view.dice, view.rolls_used)
        best_action, best_value = values[0]
        table = Table(title="Expected final total of the card, best choices first", title_justify="left")
        table.add_column("Choice")
        table.add_column("Expected total", justify="right")
        table.add_column("Cost", justify="right")
        seen: set[tuple[str, ...]] = set()
        for action, value in values:
            key = _choice_key(action, view.dice)  # re-rolls keeping the same faces are one choice
            if key in seen:
                continue
            seen.add(key)
            table.add_row(describe(action, view.dice), f"{value:.2f}", f"{best_value - value:.2f}")
            if len(seen) == HINT_ROWS:
                break
        self.console.print(table)
        # Last, so that it stays on screen on a 24-line terminal.
        self.console.print(f"Best: [bold green]{describe(best_action, view.dice)}[/] (expected total {best_value:.2f})")

    def narrate(self, change: Change) -> None:
        before, after = change.before, change.after
        assert isinstance(before, ScorecardView) and isinstance(after, ScorecardView)
        if change.seat is not None:
            self._actor, self._last = change.seat, change.action
            self._timed_out = change.action == "timeout"
            self._rolled_from = before.dice
        if change.action == "resign" and change.seat is not None:
            self.console.print(f"{self.names.says(change.seat, 'resigned')}.")
            return
        for seat in range(len(self.names)):
            filled = [c for c in Category if before.cards[seat][c] is None and after.cards[seat][c] is not None]
            if filled:
                dice = before.dice or _dice_of(change.action)
                how = "the engine scores" if self._timed_out else "scores"
                points = after.cards[seat][filled[0]]
                self.console.print(
                    f"{self.names[seat]}: {how} {filled[0].label} = {points} with {' '.join(map(str, dice))}"
                    f" (total {card_total(after.cards[seat])})",
                    markup=False,
                )
                return
        actor = self._actor
        if change.seat is None and after.dice and actor in self.bots and actor is not None:
            if self._last.startswith("reroll"):
                kept = describe(self.table.game.parse_action(self._last), self._rolled_from)
                self.console.print(f"{self.names.says(actor, 're-rolls')} ({kept}):")
            else:
                self.console.print(f"{self.names.says(actor, 'rolls')}:")
            self.console.print(dice_text(after.dice))

    def finish(self, result: Result) -> None:
        self.console.print(card_table(self.view(None), self.names.labels))
        if result.is_tie:
            outcome = "a tie" if result.winners else "no winner"
        else:
            outcome = f"{self.names[next(iter(result.winners))]} won"
        self.console.print(f"[bold]Game over:[/] {outcome} — {result.reason}.")
        match = getattr(self.table, "match", None)
        if match is not None:
            self._review(match.log, result)

    def _review(self, log: EventLog, result: Result) -> None:
        strategy = self.strategy.get()
        decisions = review_decisions(log, strategy)
        table = Table(
            title=f"Against optimal play (which averages {strategy.expected_score:.2f} from an empty card)",
            title_justify="left",
        )
        for heading in ("Player", "Total", "Decisions", "Expected points lost"):
            table.add_column(heading, justify="left" if heading == "Player" else "right")
        for seat, name in enumerate(self.names.labels):
            own = [d for d in decisions if d.seat == seat]
            table.add_row(name, str(result.scores[seat]), str(len(own)), f"{sum(d.loss for d in own):.2f}")
        self.console.print(table)
        for seat, name in enumerate(self.names.labels):
            worst = sorted((d for d in decisions if d.seat == seat and d.loss > NEGLIGIBLE_LOSS), key=lambda d: -d.loss)
            if not worst:
                self.console.print(f"{name}: every decision was optimal.")
                continue
            self.console.print(f"{name}: costliest decisions")
            for decision in worst[:WORST_SHOWN]:
                timed = " (timeout)" if decision.timed_out else ""
                dice = " ".join(map(str, decision.dice))
                self.console.print(
                    f"  round {decision.round}, roll {decision.rolls_used}, dice {dice}: "
                    f"{describe(decision.chosen, decision.dice)}{timed}; "
                    f"best {describe(decision.best, decision.dice)}; cost {decision.loss:.2f}",
                    markup=False,
                )


def _dice_of(action: str) -> tuple[int, ...]:
    words = action.split()
    return tuple(int(w) for w in words[1:]) if words[:1] == ["rolled"] else ()


def _choice_key(action: Action, dice: Sequence[int]) -> tuple[str, ...]:
    if isinstance(action, Reroll):
        return ("keep", *sorted(str(d) for i, d in enumerate(dice) if i not in action.positions))
    return (str(action),)


# -- starting a game ----------------------------------------------------------------------------------
def screen(
    table: GameTable,
    names: Sequence[str],
    console: Console,
    *,
    bots: Set[Seat],
    reader: LineReader,
    strategy: LazyStrategy | None = None,
    confirm_zero: bool | None = None,
) -> Screen:
    """The scorecard screen (:data:`dicepoker.tui.screens.SCREENS`); hints and reviews use ``strategy`` (the
    bots' own, when they play by it), and ``confirm_zero`` defaults to whether a person types at a terminal."""
    return ScorecardScreen(
        table,
        Names(names),
        console,
        strategy=strategy or LazyStrategy(console),
        bots=set(bots),
        confirm_zero=reader.interactive if confirm_zero is None else confirm_zero,
    )


def build(
    *,
    players: int = 2,
    opponent: str = "optimal",
    strategy_loader: Callable[[], StrategyLoad] | None = None,
    confirm_zero: bool | None = None,
    **options: Unpack[LocalOptions],
) -> PlayLoop:
    """A game at this terminal, ready to ``run()``: seat 0 is a person, the others ``opponent`` (``human``:
    hot-seat). With ``resume`` the game saved there goes on (its players and seed come from the file).
    ``confirm_zero``: ask before a box scores 0 while another would score (default: when a person types at
    a terminal; a piped script is not asked)."""
    TurnClock(options.get("clock"))
    if opponent not in OPPONENTS:
        raise ConfigError(f"unknown opponent {opponent!r}; choose one of: {', '.join(OPPONENTS)}")
    other: str | None = None if opponent == "human" else opponent
    strategies: list[LazyStrategy] = []  # the one the bots play by, shared with the screen's hints

    def seat_bots(game: Game[Any, Any], kinds: Sequence[str | None], console: Console) -> dict[Seat, Bot]:
        strategies.append(LazyStrategy(console, strategy_loader))
        return {
            seat: OptimalBot(strategies[0].get()) if kind == "optimal" else create_bot("scorecard", kind)
            for seat, kind in enumerate(kinds)
            if kind is not None
        }

    def shared_screen(
        table: GameTable, names: Sequence[str], console: Console, *, bots: Set[Seat], reader: LineReader
    ) -> Screen:
        return screen(
            table, names, console, bots=bots, reader=reader, strategy=strategies[0], confirm_zero=confirm_zero
        )

    return local_game(
        "scorecard",
        lambda: ScorecardGame(players=players),
        lambda game: [None, *[other] * (game.num_players - 1)],
        **options,
        bots=seat_bots,
        screen=shared_screen,
    )
