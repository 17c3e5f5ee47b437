"""Play the scorecard game (SC-1 … SC-15) in the terminal: against bots, or hot-seat between people.

The client shows views and sends actions to a :class:`~dicepoker.core.Match`; the rules stay in
:mod:`dicepoker.games.scorecard`. Bots decide from ``view`` and ``legal_actions`` only. Hints and the
end-of-game review judge each decision by the optimal strategy's expected final total.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from random import Random

from rich.console import Console
from rich.table import Table

from dicepoker.analysis.scorecard_solver import Strategy, StrategyLoad, load_strategy
from dicepoker.bots.base import Bot
from dicepoker.bots.registry import create_bot
from dicepoker.bots.scorecard import OptimalBot
from dicepoker.core.errors import ConfigError, IllegalAction, NotationError
from dicepoker.core.log import EventLog
from dicepoker.core.match import Match
from dicepoker.core.types import Action, Resign, Seat, Timeout
from dicepoker.dice.scoring import UPPER_BONUS, UPPER_BONUS_THRESHOLD, Category, scores
from dicepoker.games.dice_turn import DICE, Reroll, Roll, Rolled, parse_positions
from dicepoker.games.scorecard import (
    ROUNDS,
    Card,
    Score,
    ScorecardGame,
    ScorecardState,
    ScorecardView,
    card_total,
    default_category,
    upper_total,
)
from dicepoker.tui.common import QUIT_WORDS, LineReader, TurnClock, ask, dice_text, pick_seed, save_log
from dicepoker.tui.progress import BuildProgress

OPPONENTS = ("optimal", "greedy", "random", "human")
WORST_SHOWN = 3
"""How many of a player's costliest decisions the end-of-game review lists."""
NEGLIGIBLE_LOSS = 0.005
"""Expected points below which a choice counts as optimal (the table's rounding, not a mistake)."""

HELP = """\
Commands (dice positions are 1 to 5, left to right):
  roll               roll all five dice to start your turn (Enter does the same)
  keep 1 3           keep the dice at positions 1 and 3 and re-roll the others
  reroll 2 4 5       re-roll the dice at positions 2, 4 and 5
  score full-house   fill a box with the dice: by name or by number (score 9)
  hint               the optimal choice and what every other choice costs
  card               every player's scorecard
  resign             give up the game
  help               this list
  quit               leave the game (saved first when --save was given)
Boxes: """ + ", ".join(f"{c + 1} {c.slug}" for c in Category)


# -- who sits where ---------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Player:
    name: str
    bot: Bot | None
    """``None``: a person at this terminal."""


def seat_players(players: int, opponent: str, create: Callable[[str], Bot]) -> list[Player]:
    """Seat 0 is a person; the others are ``opponent`` bots, or people too for hot-seat (``human``)."""
    if opponent not in OPPONENTS:
        raise ConfigError(f"unknown opponent {opponent!r}; choose one of: {', '.join(OPPONENTS)}")
    if opponent == "human" or players == 1:
        return [Player(f"Player {seat + 1}" if players > 1 else "You", None) for seat in range(players)]
    bots = [Player("You", None)]
    for seat in range(1, players):
        name = f"{opponent.capitalize()} bot" + (f" {seat}" if players > 2 else "")
        bots.append(Player(name, create(opponent)))
    return bots


# -- judging decisions ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Decision:
    """One decision after a roll, judged against optimal play (expected final totals of the card)."""

    seat: Seat
    round: int
    dice: tuple[int, ...]
    rolls_used: int
    chosen: Action
    best: Action
    loss: float
    timed_out: bool


def judge(strategy: Strategy, card: Card, dice: Sequence[int], rolls_used: int, chosen: Action) -> tuple[Action, float]:
    """The optimal action here and how many expected points ``chosen`` gives up against it."""
    values = strategy.action_values(card, tuple(dice), rolls_used)
    best_action, best_value = values[0]
    return best_action, best_value - dict(values)[chosen]


def review_decisions(log: EventLog, strategy: Strategy) -> list[Decision]:
    """Every decision made after a roll in a logged game, with its cost against optimal play.

    A timeout counts as the decision the engine made for the player (SC-14): the box it filled.
    """
    game = ScorecardGame(**log.config)
    state = game.initial_state()
    decisions = []
    for event in log.events:
        action = game.parse_action(event.action)
        seat = state.seat
        card = state.cards[seat]
        judged: tuple[tuple[int, ...], int, Action, bool] | None = None
        if event.seat is not None and state.turn.has_rolled and isinstance(action, (Reroll, Score, Timeout)):
            dice = state.turn.dice
            chosen: Action = Score(default_category(card, dice)) if isinstance(action, Timeout) else action
            judged = (dice, state.turn.rolls, chosen, isinstance(action, Timeout))
        elif isinstance(action, Rolled) and state.auto_complete and not state.turn.has_rolled:
            # A timeout before the first roll: the engine rolled once and scored what landed.
            judged = (action.dice, 1, Score(default_category(card, action.dice)), True)
        if judged is not None:
            dice, rolls_used, chosen, timed_out = judged
            best, loss = judge(strategy, card, dice, rolls_used, chosen)
            round_number = sum(box is not None for box in card) + 1
            decisions.append(Decision(seat, round_number, dice, rolls_used, chosen, best, loss, timed_out))
        state = state.apply(action, event.seat)
    return decisions


def describe(action: Action, dice: Sequence[int]) -> str:
    """An action in the context of the dice: ``reroll 2 4 5 (keep 6 6)``, ``score full-house (25)``."""
    if isinstance(action, Reroll):
        kept = sorted(d for i, d in enumerate(dice) if i not in action.positions)
        return f"{action} (keep {' '.join(map(str, kept)) or 'nothing'})"
    if isinstance(action, Score):
        return f"{action} ({scores(tuple(dice))[action.category]})"
    return str(action)


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


# -- the client -------------------------------------------------------------------------------------
class ScorecardClient:
    """One game in the terminal. ``run`` plays it to the end (or until quit / end of input)."""

    def __init__(
        self,
        *,
        players: int = 2,
        opponent: str = "optimal",
        seed: int | None = None,
        clock: float | None = None,
        save: Path | None = None,
        console: Console,
        reader: LineReader,
        strategy_loader: Callable[[], StrategyLoad] | None = None,
    ) -> None:
        self.clock = TurnClock(clock)
        self.game = ScorecardGame(players=players)
        self.seed = pick_seed(seed)
        self.save_path = save
        self.console = console
        self.reader = reader
        self._strategy_loader = strategy_loader or self._load_strategy
        self._strategy: Strategy | None = None
        self.players = seat_players(players, opponent, self._make_bot)
        self.match = Match(self.game, seed=self.seed)  # type: ignore[arg-type]
        # Bots draw from their own stream so that their choices never shift the dice of the seed.
        self.bot_rng = Random(f"{self.seed}-bots")
        self.names = [player.name for player in self.players]

    def _make_bot(self, name: str) -> Bot:
        # The optimal bot shares the client's table: loaded once, with the wait announced.
        return OptimalBot(self.strategy) if name == "optimal" else create_bot("scorecard", name)

    @property
    def state(self) -> ScorecardState:
        state = self.match.state
        assert isinstance(state, ScorecardState)
        return state

    @property
    def strategy(self) -> Strategy:
        if self._strategy is None:
            loaded = self._strategy_loader()
            if loaded.note:
                self.console.print(f"[dim]{loaded.note}[/]")
            if loaded.built:
                self.console.print(f"[dim]Built the optimal strategy in {loaded.seconds:.1f} s.[/]")
            self._strategy = loaded.strategy
        return self._strategy

    def _load_strategy(self) -> StrategyLoad:
        # Read from the cache in hundredths of a second, silently; a bar only when it must be built.
        with BuildProgress(self.console, "Building the optimal strategy (once; cached for next time)") as bar:
            return load_strategy(progress=bar.update)

    # -- the game loop ------------------------------------------------------------------------------
    def run(self) -> int:
        """Play until the game ends, the player quits or input ends; the exit status (0)."""
        self._intro()
        try:
            while not self.state.is_terminal:
                seat = self.state.seat
                bot = self.players[seat].bot
                if bot is not None:
                    view = self.state.view(seat)
                    self._act(bot.choose(view, self.state.legal_actions(seat), self.bot_rng), seat)
                elif not self._human_decision(seat):
                    self._leave("You left the game.")
                    return 0
        except EOFError:
            self._leave("\nEnd of input: leaving the game unfinished.")
            return 0
        except KeyboardInterrupt:
            self._leave("\nInterrupted: leaving the game unfinished.")
            return 0
        self._finish()
        return 0

    def _intro(self) -> None:
        who = " vs ".join(self.names)
        self.console.print(f"[bold]Dice Poker scorecard[/] — {who}. Seed {self.seed}.")
        self.console.print("13 rounds; in each you roll five dice up to three times and fill one box. Type help.")
        if self.clock.seconds is not None:
            self.console.print(
                f"Turn clock: {self.clock.seconds:g} s per decision; on expiry the engine plays (SC-14)."
            )

    def _human_decision(self, seat: Seat) -> bool:
        """Read commands until one changes the game; ``False`` if the player quits."""
        self._show_situation(seat)
        deadline = self.clock.start(self.reader)
        while True:
            view = self.state.view(seat)
            line = ask(self.console, self.reader, self._prompt(seat, view), deadline)
            if line is None:
                self.console.print(f"[yellow]Time is up for {self.names[seat]}: the engine completes the turn.[/]")
                self._act(Timeout(), seat)
                return True
            try:
                command = self._interpret(line, view)
            except NotationError as exc:
                self.console.print(f"[red]error:[/] {exc}")
                continue
            if command == "quit":
                return False
            if isinstance(command, str):
                self._show(command, seat)
                continue
            try:
                self._act(command, seat)
            except IllegalAction as exc:
                self.console.print(f"[red]not allowed:[/] {exc}")
                continue
            return True

    def _prompt(self, seat: Seat, view: ScorecardView) -> str:
        if not view.dice:
            return f"{self.names[seat]} — roll> "
        return f"{self.names[seat]} — roll {view.rolls_used} of 3> "

    def _interpret(self, line: str, view: ScorecardView) -> Action | str:
        """A command line as an action, or the name of an information command; raises NotationError."""
        words = line.lower().split()
        head, rest = (words[0], words[1:]) if words else ("", [])
        if not words:
            if not view.dice:
                return Roll()
            raise NotationError("type a command (help lists them)")
        if head in QUIT_WORDS:
            return "quit"
        if head in ("help", "hint", "card") and not rest:
            return head
        if head in ("roll", "r") and not rest:
            return Roll()
        if head == "keep":
            kept = parse_positions(rest) if rest else ()
            if len(kept) == DICE:
                raise NotationError("keeping all five dice ends the rolling: score a box instead")
            return Reroll(tuple(p for p in range(DICE) if p not in kept))
        if head == "reroll":
            return Reroll(parse_positions(rest))
        if head in ("score", "s"):
            if not rest:
                raise NotationError("say which box, e.g. 'score full-house' or 'score 9'")
            return Score(Category.parse(" ".join(rest)))
        if head == "resign" and not rest:
            return Resign()
        raise NotationError(f"unknown command {line.strip()!r}; type help for the list")

    def _show(self, command: str, seat: Seat) -> None:
        if command == "help":
            self.console.print(HELP, markup=False)
        elif command == "card":
            self.console.print(card_table(self.state.view(seat), self.names, seat))
        elif command == "hint":
            self._hint(seat)

    def _show_situation(self, seat: Seat) -> None:
        view = self.state.view(seat)
        if not view.dice:
            round_number = sum(box is not None for box in view.cards[seat]) + 1
            self.console.rule(f"Round {round_number} of {ROUNDS} · {self.names[seat]} to play")
            return
        self.console.print(card_table(view, self.names, seat))
        self.console.print(dice_text(view.dice))
        if view.rolls_left:
            self.console.print(f"{view.rolls_left} roll(s) left: keep/reroll positions, or score a box.")
        else:
            self.console.print("No rolls left: score a box.")

    def _hint(self, seat: Seat) -> None:
        view = self.state.view(seat)
        if not view.dice:
            self.console.print("Nothing to decide yet: every turn starts by rolling all five dice (roll).")
            return
        values = self.strategy.action_values(view.cards[seat], view.dice, view.rolls_used)
        best_value = values[0][1]
        table = Table(title="Expected final total of the card for each choice", title_justify="left")
        table.add_column("Choice")
        table.add_column("Expected total", justify="right")
        table.add_column("Cost", justify="right")
        seen: set[tuple[str, ...]] = set()
        for action, value in values:
            # Re-rolls that keep the same faces are the same choice; list the first of them only.
            key = _choice_key(action, view.dice)
            if key in seen:
                continue
            label = describe(action, view.dice)
            if not seen:
                label = f"[bold green]{label}[/] (best)"
            seen.add(key)
            table.add_row(label, f"{value:.2f}", f"{best_value - value:.2f}")
        self.console.print(table)

    # -- acting and narrating -----------------------------------------------------------------------
    def _act(self, action: Action, seat: Seat) -> None:
        before = self.state
        self.match.act(action, seat)
        self._narrate(before, action, seat)
        if self.save_path is not None:
            save_log(self.save_path, self.match.log)

    def _narrate(self, before: ScorecardState, action: Action, seat: Seat) -> None:
        after = self.state
        name = self.names[seat]
        if isinstance(action, Resign):
            self.console.print(f"{name} resigned.")
            return
        filled = [c for c in Category if before.cards[seat][c] is None and after.cards[seat][c] is not None]
        if filled:
            category = filled[0]
            dice = before.turn.dice if before.turn.has_rolled else self._last_rolled()
            how = "the engine scores" if isinstance(action, Timeout) else "scores"
            points = after.cards[seat][category]
            self.console.print(
                f"{name}: {how} {category.label} = {points} with {' '.join(map(str, dice))}"
                f" (total {card_total(after.cards[seat])})"
            )
            return
        if self.players[seat].bot is not None and isinstance(action, (Roll, Reroll)):
            verb = (
                "rolls"
                if isinstance(action, Roll)
                else describe(action, before.turn.dice).replace("reroll", "re-rolls")
            )
            self.console.print(f"{name} {verb}:")
            self.console.print(dice_text(after.turn.dice))

    def _last_rolled(self) -> tuple[int, ...]:
        action = self.game.parse_action(self.match.log.events[-1].action)
        return action.dice if isinstance(action, Rolled) else ()

    # -- the end ------------------------------------------------------------------------------------
    def _leave(self, message: str) -> None:
        self.console.print(message)
        if self.save_path is not None:
            save_log(self.save_path, self.match.log)
            self.console.print(f"Saved the unfinished game to {self.save_path}.")

    def _finish(self) -> None:
        state = self.state
        self.console.print(card_table(state.view(None), self.names))
        result = state.result()
        if result.is_tie:
            outcome = "a tie" if result.winners else "no winner"
        else:
            outcome = f"{self.names[next(iter(result.winners))]} won"
        self.console.print(f"[bold]Game over:[/] {outcome} — {result.reason}.")
        self._review()
        if self.save_path is not None:
            save_log(self.save_path, self.match.log)
            self.console.print(f"Saved the game to {self.save_path} (dicepoker replay {self.save_path}).")

    def _review(self) -> None:
        strategy = self.strategy
        decisions = review_decisions(self.match.log, strategy)
        table = Table(
            title=f"Against optimal play (which averages {strategy.expected_score:.2f} from an empty card)",
            title_justify="left",
        )
        table.add_column("Player")
        table.add_column("Total", justify="right")
        table.add_column("Decisions", justify="right")
        table.add_column("Expected points lost", justify="right")
        totals = self.state.totals()
        for seat, name in enumerate(self.names):
            own = [d for d in decisions if d.seat == seat]
            table.add_row(name, str(totals[seat]), str(len(own)), f"{sum(d.loss for d in own):.2f}")
        self.console.print(table)
        for seat, name in enumerate(self.names):
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
                    f"best {describe(decision.best, decision.dice)}; cost {decision.loss:.2f}"
                )


def _choice_key(action: Action, dice: Sequence[int]) -> tuple[str, ...]:
    if isinstance(action, Reroll):
        return ("keep", *sorted(str(d) for i, d in enumerate(dice) if i not in action.positions))
    return (str(action),)


def play(
    *,
    players: int = 2,
    opponent: str = "optimal",
    seed: int | None = None,
    clock: float | None = None,
    save: Path | None = None,
    console: Console | None = None,
    reader: LineReader | None = None,
) -> int:
    """Play one game at this terminal (``dicepoker play scorecard``); returns the exit status."""
    client = ScorecardClient(
        players=players,
        opponent=opponent,
        seed=seed,
        clock=clock,
        save=save,
        # Soft wrap: messages keep their lines (and paths) whole when the output goes to a pipe or a file.
        console=console or Console(highlight=False, soft_wrap=True),
        reader=reader or LineReader(),
    )
    return client.run()
