"""The one terminal play loop of every game; each game gives only its :class:`Screen` (what to draw, how to
read its commands, how to tell what happened).

The loop asks the people at this terminal for their decisions, lets the table move (bots, the clock, a
server), and tells every change through the screen. It owns what all games share: ``help``, ``quit``, the
turn clock and its timeouts (text typed meanwhile is discarded), the hot-seat handover when dice are
hidden, and leaving: ``quit`` (status 0), Ctrl-C (status 130) or the end of input (Ctrl-D, status 1) say
"game abandoned" and where the game is saved, from which ``--resume`` continues it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path

from rich.console import Console

from dicepoker.core.errors import IllegalAction, NotationError
from dicepoker.core.types import Action, Result, Seat
from dicepoker.tui.common import QUIT_WORDS, LineReader, ask
from dicepoker.tui.table import Change, Table

QUIT = 0
"""Exit status after ``quit`` or the end of the game."""
ABANDONED_AT_EOF = 1
"""Exit status when the input ends (Ctrl-D) in the middle of a game: the game is abandoned."""
INTERRUPTED = 130
"""Exit status after Ctrl-C, as shells report a program stopped by SIGINT (128 + 2)."""

Ask = Callable[[str], str | None]
"""A follow-up question to the player deciding now (``None``: time ran out meanwhile)."""

# Third-person verbs whose second-person form is not just the word without its final s.
_IRREGULAR = {"has": "have", "is": "are", "was": "were", "does": "do", "re-rolls": "re-roll"}


# -- naming players ---------------------------------------------------------------------------------
def seat_names(kinds: Sequence[str | None]) -> list[str]:
    """One naming scheme in every game: ``None`` is a person, else a bot kind.

    A lone person is "You"; several people are "Player N"; a bot is "Expert bot", numbered by its seat
    (1-based, like players) when several bots of a kind sit at the table.

    >>> seat_names([None, "expert"])
    ['You', 'Expert bot']
    >>> seat_names([None, None, "greedy", "greedy"])
    ['Player 1', 'Player 2', 'Greedy bot 3', 'Greedy bot 4']
    """
    people = sum(kind is None for kind in kinds)
    names = []
    for seat, kind in enumerate(kinds):
        if kind is None:
            names.append("You" if people == 1 else f"Player {seat + 1}")
        else:
            alike = sum(other == kind for other in kinds)
            names.append(f"{kind.capitalize()} bot" + (f" {seat + 1}" if alike > 1 else ""))
    return names


class Names:
    """Players' names with the grammar of "You": ``names.says(0, "deals")`` is "You deal" or "Expert bot deals".

    >>> names = Names(["You", "Expert bot"])
    >>> names.says(0, "deals"), names.says(1, "deals"), names.whose(0), names.whose(1)
    ('You deal', 'Expert bot deals', 'your', "Expert bot's")
    """

    def __init__(self, names: Sequence[str], labels: Sequence[str] | None = None) -> None:
        self.names = list(names)
        self.labels = list(labels) if labels is not None else list(names)
        """What is printed for each seat (the name, perhaps with a team: "You (Red)")."""

    def __getitem__(self, seat: Seat) -> str:
        return self.labels[seat]

    def __len__(self) -> int:
        return len(self.names)

    def is_you(self, seat: Seat) -> bool:
        return self.names[seat] == "You"

    def says(self, seat: Seat, verb: str) -> str:
        """The seat's name and the verb, agreeing: "You roll", "Greedy bot rolls"."""
        if not self.is_you(seat):
            return f"{self[seat]} {verb}"
        first, _, rest = verb.partition(" ")
        if first in _IRREGULAR:
            first = _IRREGULAR[first]
        elif first.endswith(("shes", "ches", "sses", "xes")):
            first = first[:-2]
        elif first.endswith("s") and not first.endswith("ss"):
            first = first[:-1]
        return f"{self[seat]} {first}" + (f" {rest}" if rest else "")

    def whose(self, seat: Seat) -> str:
        return "your" if self.is_you(seat) else f"{self[seat]}'s"


# -- what a game shows --------------------------------------------------------------------------------
class Screen:
    """A game's drawing and reading; the loop calls these. Subclasses override what their game needs."""

    help_text = ""
    hidden_dice = False
    """Whether seats hide dice from each other: hot-seat players then hand the keyboard over (cleared screen)."""
    command = ""
    """The game's name in ``dicepoker play NAME``."""

    def __init__(self, table: Table, names: Names, console: Console) -> None:
        self.table, self.names, self.console = table, names, console

    def intro(self) -> None:
        """What the game is, who plays, the seed, the clock."""

    def dice_source(self) -> str:
        """Where the dice come from, for the introduction: the seed that replays them, or a server's fair dice."""
        seed = self.table.seed
        return f"seed {seed}" if seed is not None else "the server rolls (dicepoker verify checks its dice)"

    def situation(self, seat: Seat) -> None:
        """What ``seat`` needs to see before deciding."""

    def prompt(self, seat: Seat) -> str:
        return f"{self.names[seat]} > "

    def interpret(self, line: str, seat: Seat, ask: Ask) -> Action | None:
        """The typed line as an action, or ``None`` when it only showed something. Raises NotationError or
        IllegalAction, saying why, for a line that is neither."""
        action: Action = self.table.game.parse_action(line.strip().lower())
        return action

    def refused(self, error: Exception, seat: Seat) -> None:
        self.console.print(f"[red]not accepted:[/] {error}", highlight=False)

    def time_up(self, seat: Seat) -> None:
        self.console.print(f"[yellow]Time is up for {self.names[seat]}.[/] (Anything typed now is discarded.)")

    def narrate(self, change: Change) -> None:
        """Tell one change of the table, from the observer's views."""

    def left_out(self, humans: Sequence[Seat]) -> str | None:
        """A message when no person here can play on (Hold'em: no chips left), which ends the client."""
        return None

    def finish(self, result: Result) -> None:
        """The end of the game: who won and why."""
        winners = " and ".join(self.names[s] for s in sorted(result.winners)) or "nobody"
        self.console.print(f"[bold]Game over:[/] {winners} won — {result.reason}.")


# -- the loop -----------------------------------------------------------------------------------------
class PlayLoop:
    """Play one game at this terminal: ``run()`` returns the exit status."""

    def __init__(
        self,
        table: Table,
        screen: Screen,
        *,
        humans: Sequence[Seat],
        console: Console,
        reader: LineReader,
        save: Path | None = None,
        confirm_quit: str | None = None,
        on_quit: Callable[[], None] | None = None,
    ) -> None:
        self.table, self.screen, self.humans = table, screen, list(humans)
        self.console, self.reader, self.save = console, reader, save
        self.confirm_quit = confirm_quit
        """A yes/no question asked before ``quit`` takes effect (online, quitting resigns: CM-7); ``None``:
        quit at once."""
        self.on_quit = on_quit
        """Called once the person quits (online: leave the server's table), before the table is closed."""
        self.observer: Seat | None = self.humans[0] if len(self.humans) == 1 else None
        """Whose eyes narrate: the lone person's, or a spectator's when several share the screen."""
        self._at_keyboard: Seat | None = self.humans[0] if len(self.humans) == 1 else None
        self.version = table.version

    def run(self) -> int:
        names = self.screen.names
        try:
            self.screen.intro()
            while self.table.result() is None:
                message = self.screen.left_out(self.humans)
                if message:
                    return self._leave(message, QUIT)
                mine = [seat for seat in self.table.to_act if seat in self.humans]
                if mine and not (self._handover(mine[0]) and self._decide(mine[0])):
                    who = "You" if len(self.humans) == 1 else names[mine[0]]
                    return self._quit(f"{who} left the game.")
                for change in self.table.wait(self.version, self.observer, timeout=1.0):
                    self.version = change.version
                    self.screen.narrate(change)
            result = self.table.result()
            assert result is not None
            self.screen.finish(result)
            return self._leave(None, QUIT)
        except KeyboardInterrupt:
            return self._leave("\nGame abandoned: interrupted (Ctrl-C).", INTERRUPTED)
        except EOFError:
            return self._leave("\nGame abandoned: the input ended (Ctrl-D).", ABANDONED_AT_EOF)

    def _handover(self, seat: Seat) -> bool:
        """Hot-seat with hidden dice: a cleared screen, and the next person confirms they have the keyboard
        (``False``: they typed quit instead)."""
        if not self.screen.hidden_dice or len(self.humans) < 2 or seat == self._at_keyboard:
            return True
        self.console.clear()
        line = ask(
            self.console,
            self.reader,
            f"{self.screen.names[seat]}, take the keyboard (everyone else, look away) and press Enter: ",
            self.table.deadline(seat),
        )
        if line is not None and line.strip().lower() in QUIT_WORDS:
            return False
        self.console.clear()
        if line is not None:
            self._at_keyboard = seat
        return True

    def _decide(self, seat: Seat) -> bool:
        """Read commands until one is played or the clock runs out; ``False`` if the person quits."""
        self.screen.situation(seat)
        while True:
            deadline = self.table.deadline(seat)
            line = self._ask(self.screen.prompt(seat), seat)
            if line is None:
                self._time_up(seat)
                return True
            words = line.strip().lower().split()
            if len(words) == 1 and words[0] in QUIT_WORDS:
                if self.confirm_quit is None:
                    return False
                answer = self._ask(self.confirm_quit, seat)
                if answer is None:
                    self._time_up(seat)
                    return True
                if answer.strip().lower() in ("y", "yes"):
                    return False
                continue
            if words in (["help"], ["?"]):
                self.console.print(self.screen.help_text, markup=False, highlight=False)
                continue
            try:
                action = self.screen.interpret(line, seat, lambda prompt: self._ask(prompt, seat))
                if action is None:
                    if deadline is not None and time.monotonic() >= deadline:
                        self._time_up(seat)
                        return True
                    continue
                self.table.submit(seat, str(action))
            except (NotationError, IllegalAction) as exc:
                self.screen.refused(exc, seat)
                continue
            return True

    def _ask(self, prompt: str, seat: Seat) -> str | None:
        return ask(self.console, self.reader, prompt, self.table.deadline(seat))

    def _time_up(self, seat: Seat) -> None:
        self.reader.discard_typed()  # first: what is typed once the message shows is meant for what follows
        self.screen.time_up(seat)

    def _quit(self, message: str) -> int:
        """The person typed ``quit`` (and confirmed it): leave, and show the end if leaving ended the game."""
        if self.on_quit is not None:
            self.on_quit()
        self.console.print(message, markup=False, highlight=False)
        result = self.table.result()
        if result is not None:
            self.screen.finish(result)
        return self._leave(None, QUIT)

    def _leave(self, message: str | None, status: int) -> int:
        if message:
            self.console.print(message, markup=False, highlight=False)
        self.table.close()
        if self.save is not None:
            if self.table.result() is None:
                command = f"dicepoker play {self.screen.command} --resume {self.save}"
                message = f"The game so far is saved in {self.save}: continue it with '{command}'."
            else:
                message = f"Saved the game to {self.save} (dicepoker replay {self.save})."
            # Whole lines, so that the path can be copied (and found by a test) whatever the width.
            self.console.print(message, markup=False, highlight=False, soft_wrap=True)
        return status
