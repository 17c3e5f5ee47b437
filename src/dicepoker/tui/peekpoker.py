"""``dicepoker play peekpoker``: PeekPoker Hold'em at the terminal, against bots or hot-seat.

The client only ever shows a seat its view; bots get views too. Each hand is narrated as it goes and
summed up in one line (dice shown, hands, chips won). ``--clock SECONDS`` limits each decision (CM-6):
when time is up the engine checks, or folds, or stands at an ace decision (PK-15). ``--save FILE``
writes the game as a hand history (:mod:`dicepoker.games.history`) for ``dicepoker replay FILE``.
"""

from __future__ import annotations

from pathlib import Path
from random import Random

from rich.console import Console
from rich.text import Text

from dicepoker.bots.base import Bot
from dicepoker.bots.registry import bot_names, create_bot
from dicepoker.core.errors import ConfigError, DicePokerError
from dicepoker.core.match import Match
from dicepoker.core.types import Action, Seat, Timeout
from dicepoker.dice.poker import Colour, PokerDice, describe, evaluate
from dicepoker.games.betting import Check
from dicepoker.games.peekpoker import PeekPokerState
from dicepoker.games.peekpoker.actions import Phase
from dicepoker.games.peekpoker.view import PeekPokerView
from dicepoker.games.registry import create
from dicepoker.tui.common import QUIT_WORDS, LineReader, TurnClock, ask, pick_seed, save_history

HUMAN = "human"
OPTIONS = {
    "blinds": "blinds",
    "forced-bet": "forced_bet",
    "split-community": "split_community",
    "no-ace-rerolls": "ace_rerolls",
}
_STYLE = {Colour.RED: "bold white on red", Colour.BLACK: "bold white on black", Colour.GREEN: "bold white on green"}


def game_options(names: list[str]) -> dict[str, bool]:
    """``--option`` words to game options (PK-14), with a clear error for unknown ones."""
    options: dict[str, bool] = {}
    for name in names:
        if name not in OPTIONS:
            raise ConfigError(f"unknown option {name!r}; options: {', '.join(OPTIONS)}")
        options[OPTIONS[name]] = name != "no-ace-rerolls"
    return options


def dice_text(dice: PokerDice | None) -> Text:
    text = Text()
    if dice is None:
        return text.append("? ? ?", style="dim")
    for index, face in enumerate(dice):
        text.append(" " if index else "")
        text.append(f" {face.symbol} ", style=_STYLE[face.colour])
    return text


class PeekPokerClient:
    def __init__(
        self,
        *,
        players: int,
        opponents: list[str],
        options: dict[str, bool],
        seed: int | None,
        save: Path | None,
        console: Console,
        reader: LineReader,
        clock: float | None = None,
    ) -> None:
        self.clock = TurnClock(clock)
        if len(opponents) == 1:
            opponents = opponents * (players - 1)
        if len(opponents) != players - 1:
            raise ConfigError(f"--vs names {len(opponents)} opponents for {players - 1} other seats")
        for name in opponents:
            if name != HUMAN and name not in bot_names("peekpoker"):
                raise ConfigError(f"no bot {name!r}; choose {', '.join(bot_names('peekpoker'))} or human")
        self.names = ["you", *(f"{name} {i}" for i, name in enumerate(opponents, start=1))]
        self.bots: dict[Seat, Bot] = {
            seat: create_bot("peekpoker", name) for seat, name in enumerate(opponents, start=1) if name != HUMAN
        }
        self.seed = pick_seed(seed)
        self.match = Match(create("peekpoker", players=players, **options), seed=self.seed)
        self.bot_rng = Random(self.seed ^ 0xB07)
        self.save, self.console, self.reader = save, console, reader
        self.history: list[str] = []

    @property
    def state(self) -> PeekPokerState:
        state = self.match.state
        assert isinstance(state, PeekPokerState)
        return state

    def run(self) -> int:
        game = self.match.game
        self.console.print(f"[bold]{game.title}[/] — seed {self.seed}; options {game.config_json()}")
        self.console.print("Commands: check, call, fold, bet N, raise N (to N), stand, reroll A [A ...], quit.")
        if self.clock.seconds is not None:
            self.console.print(
                f"Turn clock: {self.clock.seconds:g} s per decision; on expiry you check, or fold, "
                "or stand at an ace decision (PK-15)."
            )
        hand = 0
        while not self.state.is_terminal:
            if self.state.hand_number != hand:
                self._hand_over()
                hand = self.state.hand_number
                self._hand_start()
            to_act = self.state.to_act
            assert isinstance(to_act, tuple)
            for seat in to_act:
                try:
                    action = self._decide(seat)
                except EOFError:
                    return self._leave("\nEnd of input: leaving the game unfinished.")
                if action is None:
                    return self._leave("You left the table.")
                before = self.state
                self.match.act(action, seat)
                self._narrate(before, action, seat)
                if self.state.phase is not Phase.ACES:
                    break
        self._hand_over()
        result = self.state.result()
        winners = ", ".join(self.names[s] for s in sorted(result.winners)) or "nobody"
        self.console.print(f"[bold]Game over:[/] {result.reason}. Won by {winners}; chips {list(result.scores)}.")
        return self._leave(None)

    def _decide(self, seat: Seat) -> Action | None:
        """A bot's choice, or a person's legal command; ``Timeout`` when the clock runs out, ``None`` to quit."""
        view = self.state.view(seat)
        legal = self.state.legal_actions(seat)
        if seat in self.bots:
            return self.bots[seat].choose(view, legal, self.bot_rng)
        self._show(view)
        deadline = self.clock.start(self.reader)
        while True:
            line = ask(self.console, self.reader, f"{self.names[seat]} > ", deadline)
            if line is None:
                self.console.print(f"[yellow]Time is up for {self.names[seat]}.[/]")
                return Timeout()
            if line.strip().lower() in QUIT_WORDS:
                return None
            try:
                action = self.match.game.parse_action(line)
                self.state.check(action, seat)
                return action
            except DicePokerError as exc:
                choices = ", ".join(str(a) for a in legal[:6]) + (" …" if len(legal) > 6 else "")
                self.console.print(f"[red]{exc}[/] (legal: {choices})")

    def _show(self, view: PeekPokerView) -> None:
        line = Text(f"Pot {view.pot}, to call {view.to_call()}; your dice ")
        line.append_text(dice_text(view.own))
        if view.community:
            line.append("  community ").append_text(dice_text(view.community))
        if len(view.own) + len(view.community) == 6:
            line.append(f"  ({describe(evaluate((*view.own, *view.community)))})")
        self.console.print(line)
        if view.phase == Phase.ACES.value:
            self._show_revealed(view)

    def _show_revealed(self, view: PeekPokerView) -> None:
        for seat, dice in enumerate(view.dice):
            if dice is not None and seat != view.seat:
                self.console.print(Text(f"  {self.names[seat]} shows ").append_text(dice_text(dice)))

    def _hand_start(self) -> None:
        state = self.state
        assert state.dealer is not None
        chips = ", ".join(f"{self.names[s]} {c}" for s, c in enumerate(state.chips()))
        self.console.print(f"\n[bold]Hand {state.hand_number}[/] — {self.names[state.dealer]} deals. Chips: {chips}")

    def _narrate(self, before: PeekPokerState, action: Action, seat: Seat) -> None:
        if before.phase is Phase.ACES:
            self.console.print(f"{self.names[seat]} decided.")
            if before.to_act == (seat,):  # the last decision of the round: all choices are revealed
                for other, count in self._last_choices(before, action, seat):
                    verb = f"re-rolls {count} ace(s)" if count else "stands"
                    self.console.print(f"  {self.names[other]} {verb}")
                if self.state.phase is Phase.ACES:
                    self._show_revealed(self.state.view(None))
            return
        if isinstance(action, Timeout):  # PK-15: check if possible, else fold
            done = "check" if Check() in before.legal_actions(seat) else "fold"
            self.console.print(f"{self.names[seat]}: timeout: {done} (PK-15)")
        else:
            self.console.print(f"{self.names[seat]}: {action}")
        if self.state.community and self.state.community != before.community:
            self.console.print(Text("Community dice: ").append_text(dice_text(self.state.community)))

    def _last_choices(self, before: PeekPokerState, action: Action, seat: Seat) -> list[tuple[Seat, int]]:
        choices = list(before.choices)
        choices[seat] = getattr(action, "count", 0)
        return [(s, choices[s] or 0) for s in before.deciding]

    def _hand_over(self) -> None:
        previous = self.state.previous
        if previous is None or any(f"Hand {previous.number}:" in h for h in self.history):
            return
        parts = []
        for seat, dice in enumerate(previous.shown):
            if dice is not None:
                hand = describe(evaluate((*dice, *previous.community)))
                parts.append(f"{self.names[seat]} {' '.join(f.symbol for f in dice)} ({hand})")
        winners = ", ".join(f"{self.names[s]} +{w}" for s, w in enumerate(previous.won) if w)
        board = " ".join(f.symbol for f in previous.community) or "-"
        entry = f"Hand {previous.number}: community {board}; {'; '.join(parts) or 'no showdown'}; {winners}"
        self.history.append(entry)
        self.console.print(f"[cyan]{entry}[/]")

    def _leave(self, message: str | None) -> int:
        if message:
            self.console.print(message)
        if self.save is not None:
            save_history(self.save, self.match.log, self.console)
        return 0


def play(
    *,
    players: int = 2,
    opponents: list[str] | None = None,
    options: list[str] | None = None,
    seed: int | None = None,
    clock: float | None = None,
    save: Path | None = None,
    console: Console | None = None,
    reader: LineReader | None = None,
) -> int:
    """Play one game at this terminal (``dicepoker play peekpoker``); returns the exit status."""
    client = PeekPokerClient(
        players=players,
        opponents=opponents or ["expert"],
        options=game_options(options or []),
        seed=seed,
        clock=clock,
        save=save,
        console=console or Console(highlight=False, soft_wrap=True),
        reader=reader or LineReader(),
    )
    return client.run()
