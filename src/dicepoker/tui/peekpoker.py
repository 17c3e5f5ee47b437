"""``dicepoker play peekpoker``: PeekPoker Hold'em at the terminal, against bots or hot-seat.

The client only ever shows a seat its view; bots get views too. Each hand is narrated as it goes (every
ace re-roll and its result, the bots' included) and summed up in one line. Commands are case-insensitive;
``help``, ``hint`` and ``allin`` work as in the other games, and the ace decision has its own prompt.
``--clock SECONDS`` limits each decision (CM-6): when time is up the engine checks, or folds, or stands at
an ace decision (PK-15). ``--save FILE`` writes the game as a hand history as it is played.
"""

from __future__ import annotations

from collections.abc import Sequence, Set
from random import Random
from typing import Any, Unpack

from rich.console import Console
from rich.text import Text

from dicepoker.bots.registry import create_bot
from dicepoker.core.errors import ConfigError, IllegalAction, NotationError
from dicepoker.core.types import Action, Result, Seat, Timeout
from dicepoker.dice.poker import Colour, Face, PokerDice, describe, evaluate
from dicepoker.games.betting import Bet, Call, Raise
from dicepoker.games.peekpoker.actions import Phase, RerollAces, Stand
from dicepoker.games.peekpoker.view import PeekPokerView
from dicepoker.games.registry import create
from dicepoker.tui.common import LineReader
from dicepoker.tui.holdem import opponent_kinds
from dicepoker.tui.loop import Ask, Names, PlayLoop, Screen
from dicepoker.tui.screens import LocalOptions, local_game
from dicepoker.tui.table import Change, Table

OPTIONS = {
    "blinds": "blinds",
    "forced-bet": "forced_bet",
    "split-community": "split_community",
    "no-ace-rerolls": "ace_rerolls",
}
_STYLE = {Colour.RED: "bold white on red", Colour.BLACK: "bold white on black", Colour.GREEN: "bold white on green"}

HELP = """\
Commands (any case; amounts are the total you put in this betting round):
  check  call  fold      as in poker
  bet 2  raise 4         bet, or raise to 4
  allin                  put in all your chips
  At the showdown, with aces (PK-8), the prompt asks which aces to re-roll:
  stand  (or 0)          keep your dice
  2  (or 'A A')          re-roll that many of your aces
  hint                   what the expert bot would do;  status  shows the table again
  help                   this list;  quit  leaves (with --save the game is saved as you play)"""


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


def symbols(dice: PokerDice | None) -> str:
    return " ".join(face.symbol for face in dice or ())


class PeekPokerScreen(Screen):
    help_text = HELP
    hidden_dice = True
    command = "peekpoker"

    def __init__(self, table: Table, names: Names, console: Console) -> None:
        super().__init__(table, names, console)
        self._hand = 0
        self._summarised = 0
        self._deciders: set[Seat] = set()

    def view(self, seat: Seat | None) -> PeekPokerView:
        view = self.table.view(seat)
        assert isinstance(view, PeekPokerView)
        return view

    def intro(self) -> None:
        config = self.table.game.config
        chosen = [word for word, field in OPTIONS.items() if getattr(config, field) != (field == "ace_rerolls")]
        options = ", ".join(chosen) if chosen else "none"
        self.console.print(f"[bold]{self.table.game.title}[/] — {self.dice_source()}.")
        self.console.print(
            f"Players: {', '.join(self.names.labels)}. Stacks {config.stack}; options: {options}. Type help.",
            markup=False,
        )
        clock = getattr(self.table, "clock", None)
        if clock is not None:
            self.console.print(
                f"Turn clock: {clock:g} s per decision; on expiry you check, or fold, "
                "or stand at an ace decision (PK-15)."
            )
        self._start_hand(self.view(None))

    def _start_hand(self, view: PeekPokerView) -> None:
        if view.hand == self._hand or view.dealer is None or view.over:
            return
        self._hand = view.hand
        chips = ", ".join(f"{self.names[s]} {c}" for s, c in enumerate(view.chips))
        self.console.print(f"\n[bold]Hand {view.hand}[/] — {self.names.says(view.dealer, 'deals')}.")
        self.console.print(f"Chips: {chips}", markup=False)

    # -- people -------------------------------------------------------------------------------------
    def prompt(self, seat: Seat) -> str:
        view = self.view(seat)
        if view.phase == Phase.ACES.value:
            aces = sum(face is Face.ACE for face in view.own)
            return f"{self.names[seat]}: re-roll which aces? (0-{aces} or A A…; stand keeps them) > "
        return f"{self.names[seat]} > "

    def situation(self, seat: Seat) -> None:
        view = self.view(seat)
        line = Text(f"Pot {view.pot}, to call {view.to_call()}; {self.names.whose(seat)} dice ")
        line.append_text(dice_text(view.own))
        if view.community:
            line.append("  community ").append_text(dice_text(view.community))
        if len(view.own) + len(view.community) == 6:
            line.append(f"  ({describe(evaluate((*view.own, *view.community)))})")
        self.console.print(line)
        if view.phase == Phase.ACES.value:
            self._show_revealed(view)
        else:
            self.console.print("Legal: " + ", ".join(self.table.legal(seat)) + ", allin" * self._can_all_in(seat))

    def _show_revealed(self, view: PeekPokerView) -> None:
        for seat, dice in enumerate(view.dice):
            if dice is not None and seat != view.seat:
                self.console.print(Text(f"  {self.names.says(seat, 'shows')} ").append_text(dice_text(dice)))

    def interpret(self, line: str, seat: Seat, ask: Ask) -> Action | None:
        words = line.lower().split()
        view = self.view(seat)
        if not words:
            raise NotationError("type a command (help lists them)")
        if words in (["hint"], ["status"]):
            if words == ["status"]:
                self.situation(seat)
            else:
                legal = [self.table.game.parse_action(text) for text in self.table.legal(seat)]
                advice = create_bot("peekpoker", "expert").choose(view, legal, Random(0))
                self.console.print(f"The expert bot would play: [bold]{advice}[/]")
            return None
        if words in (["allin"], ["all-in"], ["all", "in"]):
            return self._all_in(seat)
        if view.phase == Phase.ACES.value:
            return self._aces(words)
        action: Action = self.table.game.parse_action(" ".join(words))
        return action

    def _aces(self, words: list[str]) -> Action:
        words = words[1:] if words[0] == "reroll" else words
        if words in (["stand"], ["0"], []):
            return Stand()
        if len(words) == 1 and words[0].isascii() and words[0].isdigit():
            return RerollAces(int(words[0]))
        if all(word == "a" for word in words):
            return RerollAces(len(words))
        raise NotationError("answer how many aces to re-roll (e.g. 1, or A A), or stand")

    def _all_in(self, seat: Seat) -> Action:
        view = self.view(seat)
        everything = view.bets[seat] + view.chips[seat]
        legal = [self.table.game.parse_action(text) for text in self.table.legal(seat)]
        for action in legal:
            if isinstance(action, (Bet, Raise)) and action.to == everything:
                return action
        if Call() in legal and max(view.bets) >= everything:
            return Call()
        raise IllegalAction(f"all-in ({everything}) is not possible now; legal: {', '.join(self.table.legal(seat))}")

    def _can_all_in(self, seat: Seat) -> bool:
        try:
            self._all_in(seat)
        except IllegalAction:
            return False
        return True

    def refused(self, error: Exception, seat: Seat) -> None:
        legal = self.table.legal(seat)
        choices = ", ".join(legal[:6]) + (" …" if len(legal) > 6 else "")
        self.console.print(f"[red]{error}[/] (legal: {choices})", highlight=False)

    # -- narrating ----------------------------------------------------------------------------------
    def narrate(self, change: Change) -> None:
        before, after = change.before, change.after
        assert isinstance(before, PeekPokerView) and isinstance(after, PeekPokerView)
        seat = change.seat
        if seat is not None and before.phase == Phase.ACES.value:
            self._deciders.add(seat)
            self.console.print(f"{self.names.says(seat, 'has')} decided.")
        elif seat is not None:
            if change.action == Timeout.keyword:  # PK-15: check if possible, else fold
                done = "fold" if max(before.bets) > before.bets[seat] else "check"
                self.console.print(f"{self.names[seat]}: timeout: {done} (PK-15)")
            else:
                self.console.print(f"{self.names[seat]}: {change.action}")
        if before.phase == Phase.ACES.value and after.phase != Phase.ACES.value:
            rerolling = dict(after.rerolling) if after.hand == before.hand else {}
            for other in sorted(self._deciders):
                count = rerolling.get(other, 0)
                verb = f"re-rolls {count} ace(s)" if count else "stands"
                self.console.print(f"  {self.names.says(other, verb)}")
            self._deciders.clear()
        if before.phase == Phase.REROLL.value and seat is None:
            self._show_rerolls(before, after)
        same_hand = after.hand == before.hand
        if same_hand and after.community and after.community != before.community:
            self.console.print(Text("Community dice: ").append_text(dice_text(after.community)))
        if after.phase == Phase.ACES.value and before.phase != Phase.ACES.value:
            self._show_revealed(after)
        self._summarise(after)
        self._start_hand(after)

    def _show_rerolls(self, before: PeekPokerView, after: PeekPokerView) -> None:
        """Every re-roll's result, bots' included: the dice before and after (shown dice are public)."""
        for seat, count in before.rerolling:
            old = before.dice[seat]
            if after.hand == before.hand:
                new = after.dice[seat]
            else:
                new = after.previous.shown[seat] if after.previous is not None else None
            if old is not None and new is not None and new != old:
                self.console.print(
                    f"  {self.names.says(seat, 're-rolls')} {count} ace(s): {symbols(old)} → {symbols(new)}"
                )

    def _summarise(self, view: PeekPokerView) -> None:
        previous = view.previous
        if previous is None or previous.number <= self._summarised:
            return
        self._summarised = previous.number
        parts = []
        for seat, dice in enumerate(previous.shown):
            if dice is not None:
                hand = describe(evaluate((*dice, *previous.community)))
                parts.append(f"{self.names[seat]} {symbols(dice)} ({hand})")
        winners = ", ".join(f"{self.names[s]} +{w}" for s, w in enumerate(previous.won) if w)
        board = symbols(previous.community) or "-"
        entry = f"Hand {previous.number}: community {board}; {'; '.join(parts) or 'no showdown'}; {winners}"
        self.console.print(f"[cyan]{entry}[/]", highlight=False)

    def finish(self, result: Result) -> None:
        winners = " and ".join(self.names[s] for s in sorted(result.winners)) or "nobody"
        chips = ", ".join(f"{self.names[s]} {c}" for s, c in enumerate(result.scores))
        self.console.print(f"[bold]Game over:[/] {winners} won — {result.reason}. Chips: {chips}.")


def screen(table: Table, names: Sequence[str], console: Console, *, bots: Set[Seat], reader: LineReader) -> Screen:
    """The PeekPoker screen (:data:`dicepoker.tui.screens.SCREENS`)."""
    return PeekPokerScreen(table, Names(names), console)


def build(
    *,
    players: int = 2,
    opponents: Sequence[str] = ("expert",),
    options: Sequence[str] = (),
    stack: int | None = None,
    **local: Unpack[LocalOptions],
) -> PlayLoop:
    """A game at this terminal, ready to ``run()``; ``resume`` continues a saved one (its options from the file)."""
    config: dict[str, Any] = {"players": players, **game_options(list(options))}
    if stack is not None:
        config["stack"] = stack
    return local_game(
        "peekpoker",
        lambda: create("peekpoker", **config),
        lambda game: opponent_kinds(game.num_players, opponents, "peekpoker"),
        **local,
    )
