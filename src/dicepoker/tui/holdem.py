"""``dicepoker play holdem``: Dice Hold'em (HE-1 … HE-16) at the terminal, against bots or hot-seat.

The client shows each person only their own view: their pocket dice, never another seat's before the
showdown. Bots get their seat's view and the legal actions, nothing else. Commands are the game's own
action text (``check``, ``call``, ``fold``, ``bet 10``, ``raise 20``; amounts are the total wager of the
round) plus ``allin``, ``help``, ``status`` and ``quit``. Each hand ends with who won which pot and why.
``--clock SECONDS`` limits each decision (CM-6): when time is up the engine checks or folds (HE-16).
``--save FILE`` writes the game as a hand history (:mod:`dicepoker.games.history`) as it is played;
``dicepoker replay FILE`` reads it back and ``--resume FILE`` continues it. Hot-seat players hand the
keyboard over on a cleared screen, so that nobody sees another's pocket dice.
"""

from __future__ import annotations

from collections.abc import Sequence, Set
from typing import Unpack

from rich.console import Console
from rich.text import Text

from dicepoker.bots.registry import bot_names
from dicepoker.core.errors import ConfigError, IllegalAction, NotationError
from dicepoker.core.types import Action, Result, Seat, Timeout
from dicepoker.dice.suited import HandCategory, Suit, SuitedDie, best_value, category_of, describe, value_faces
from dicepoker.games.betting import Bet, BettingAction, Call, Check, Fold, Raise
from dicepoker.games.holdem import HoldemGame, HoldemView, Showdown
from dicepoker.tui.common import LineReader
from dicepoker.tui.loop import Ask, Names, PlayLoop, Screen
from dicepoker.tui.screens import LocalOptions, local_game
from dicepoker.tui.table import Change, Table

HUMAN = "human"
STREET_NAMES = {"open": "the Open", "flop": "the Flop", "turn": "the Turn", "river": "the River"}
SUIT_STYLES = {
    Suit.RED: "bold white on red",
    Suit.BLACK: "bold white on black",
    Suit.WHITE: "bold black on white",
    Suit.YELLOW: "bold black on yellow",
}

HELP = """\
Commands (amounts are the total you put in this betting round, as in 'raise 20' = raise to 20):
  check            pass when there is nothing to call
  call             match the current bet (all-in for less if that is all you have)
  bet 10           open the betting (Open and Flop: 10; Turn and River: 10 or 20 — HE-5)
  raise 20         raise to 20 (at most three raises per round)
  fold             give up the hand
  allin            put in all your chips, when the limits allow it
  status           show the table again
  help             this list
  quit             leave the game (with --save it is saved as you play; --resume continues it)
Dice are face and suit: 6r = six red (suits r b w y). Best five of your two pocket dice and the five
community dice win; Yahtzee flush > straight flush > Yahtzee > flush > four of a kind > straight >
full house > three of a kind > two pair > one pair > high dice (HE-10)."""


# -- pictures -----------------------------------------------------------------------------------------
def dice_text(dice: Sequence[SuitedDie], hidden: int = 0) -> Text:
    """Suited dice as coloured boxes (``6r``); ``hidden`` face-down dice as ``??``."""
    text = Text()
    for index, (face, suit) in enumerate(dice):
        text.append(" " if index else "")
        text.append(f" {face}{suit.letter} ", style=SUIT_STYLES[suit])
    for index in range(hidden):
        text.append(" " if index or dice else "")
        text.append(" ?? ", style="dim")
    return text


def why_better(winner: int, loser: int) -> str:
    """Why hand value ``winner`` beats ``loser`` (HE-10, HE-11), in a few words."""
    ahead, behind = category_of(winner), category_of(loser)
    if ahead != behind:
        return f"{ahead.label} beats {behind.label}"
    if value_faces(winner) != value_faces(loser):
        return "same kind of hand, higher dice (HE-11)"
    return "same dice, more of one suit (HE-11)"


def action_label(action: BettingAction, view: HoldemView) -> str:
    """A legal action as the player would type it, with the amount a call costs."""
    if isinstance(action, Call) and view.seat is not None:
        owed = min(view.stacks[view.seat], max(view.bets) - view.bets[view.seat])
        allin = " (all-in)" if owed == view.stacks[view.seat] else ""
        return f"call ({owed} to call{allin})"
    if isinstance(action, (Bet, Raise)) and view.seat is not None:
        allin = " (all-in)" if action.to == view.bets[view.seat] + view.stacks[view.seat] else ""
        return f"{action}{allin}"
    return str(action)


def pot_line(view: HoldemView) -> str:
    """The pot, split into main and side pots only when someone is all-in; the parts add up to the total.

    A pot that only one player may win is a bet nobody could match: it goes back (``uncalled``).
    """
    total = sum(amount for amount, _ in view.pots)
    shared = [amount for amount, eligible in view.pots if len(eligible) > 1]
    all_in = any(view.in_hand[s] and view.stacks[s] == 0 for s in range(view.players))
    line = f"Pot: {total}"
    if all_in and len(shared) > 1:
        parts = [f"{'main' if i == 0 else f'side {i}'} {amount}" for i, amount in enumerate(shared)]
        if total > sum(shared):
            parts.append(f"uncalled {total - sum(shared)}")
        line += f" ({' + '.join(parts)})"
    bets = sum(view.bets)
    if bets:
        line += f"; {bets} of it bet this round"
    return line


# -- the screen -----------------------------------------------------------------------------------------
class HoldemScreen(Screen):
    help_text = HELP
    hidden_dice = True
    command = "holdem"

    def __init__(self, table: Table, names: Names, console: Console) -> None:
        super().__init__(table, names, console)
        self._announced = 0
        self._board: tuple[int, tuple[SuitedDie, ...]] = (0, ())

    def view(self, seat: Seat | None) -> HoldemView:
        view = self.table.view(seat)
        assert isinstance(view, HoldemView)
        return view

    def intro(self) -> None:
        config = self.table.game.config
        self.console.print(f"[bold]{self.table.game.title}[/] — {self.dice_source()}.")
        players = ", ".join(self.names.labels)
        self.console.print(
            f"Players: {players}. Stacks {config.stack}, ante {config.ante}. Type help for the commands.", markup=False
        )
        clock = getattr(self.table, "clock", None)
        if clock is not None:
            self.console.print(
                f"Turn clock: {clock:g} s per decision; on expiry you check, or fold (HE-16).", markup=False
            )
        self._announce(self.view(None))

    def _announce(self, view: HoldemView) -> None:
        if view.hand <= self._announced or view.over or view.rolling or view.dealer is None:
            return
        self._announced = view.hand
        dealt = [s for s in range(view.players) if view.stacks[s] or view.bets[s] or view.in_hand[s]]
        chips = ", ".join(f"{self.names[s]} {view.stacks[s] + view.bets[s]}" for s in dealt)
        self.console.rule(f"Hand {view.hand} · {self.names.says(view.dealer, 'deals')}")
        self.console.print(
            f"Chips behind: {chips}. Antes of {self.table.game.config.ante} are in the pot.", markup=False
        )

    def left_out(self, humans: Sequence[Seat]) -> str | None:
        view = self.view(None)
        playing = {s for _, eligible in view.pots for s in eligible}
        if all(view.stacks[s] == 0 and s not in playing for s in humans):
            return (
                "You have no chips left: your game is over." if len(humans) == 1 else "No player here has chips left."
            )
        return None

    # -- people -------------------------------------------------------------------------------------
    def interpret(self, line: str, seat: Seat, ask: Ask) -> Action | None:
        words = line.lower().split()
        if not words:
            raise NotationError("type a command (help lists them)")
        if words in (["status"], ["table"]):
            self.situation(seat)
            return None
        if words in (["allin"], ["all-in"], ["all", "in"]):
            return self._all_in(seat)
        action = self.table.game.parse_action(" ".join(words))
        if not isinstance(action, (Fold, Check, Call, Bet, Raise)):
            raise NotationError(f"{line.strip()!r} is not a betting command (help lists them)")
        return action

    def refused(self, error: Exception, seat: Seat) -> None:
        self.console.print(f"[red]not accepted:[/] {error}", highlight=False)
        self.console.print(self._legal_line(seat), markup=False)

    def time_up(self, seat: Seat) -> None:
        self.console.print(f"[yellow]Time is up for {self.names[seat]}.[/] (Anything typed meanwhile is discarded.)")

    def _legal(self, seat: Seat) -> list[BettingAction]:
        actions = [self.table.game.parse_action(text) for text in self.table.legal(seat)]
        return [a for a in actions if isinstance(a, (Fold, Check, Call, Bet, Raise))]

    def _all_in(self, seat: Seat) -> BettingAction:
        view = self.view(seat)
        everything = view.bets[seat] + view.stacks[seat]
        legal = self._legal(seat)
        for action in legal:
            if isinstance(action, (Bet, Raise)) and action.to == everything:
                return action
        if Call() in legal and max(view.bets) >= everything:
            return Call()
        top = max((a.to for a in legal if isinstance(a, (Bet, Raise))), default=None)
        limit = f"the most you may put in now is {top} (HE-5)" if top is not None else "you may not bet or raise now"
        raise IllegalAction(f"all-in ({everything}) is not possible: {limit}")

    def _legal_line(self, seat: Seat) -> str:
        view = self.view(seat)
        labels = [action_label(a, view) for a in self._legal(seat)]
        try:
            self._all_in(seat)
            labels.append("allin")
        except IllegalAction:
            pass
        return "Legal: " + ", ".join(labels)

    def situation(self, seat: Seat) -> None:
        view = self.view(seat)
        street = STREET_NAMES.get(view.street or "", "")
        self.console.print(f"Hand {view.hand}, {street}; {self.names[seat]} to act.", markup=False)
        self.console.print(Text("Board: ").append_text(dice_text(view.board, 5 - len(view.board))))
        mine = Text(f"{self.names.whose(seat).capitalize()} dice: ").append_text(dice_text(view.pocket))
        if len(view.pocket) + len(view.board) >= 5:
            mine.append(f"  best hand: {describe(best_value((*view.pocket, *view.board)))}")
        self.console.print(mine)
        self.console.print(pot_line(view), markup=False)
        playing = {s for _, eligible in view.pots for s in eligible}
        for other in range(view.players):
            if not view.in_hand[other]:
                status = "folded" if other in playing or view.stacks[other] else "out of the game"
            else:
                status = "all-in" if view.stacks[other] == 0 else "in"
            dealer = " (dealer)" if other == view.dealer else ""
            line = f"  {self.names[other]}{dealer}: {view.stacks[other]} behind, {view.bets[other]} bet this round"
            self.console.print(f"{line}; {status}", markup=False)
        owed = max(view.bets) - view.bets[seat]
        if owed:
            self.console.print(f"{owed} to call.", markup=False)
        self.console.print(self._legal_line(seat), markup=False)

    # -- narrating ----------------------------------------------------------------------------------
    def narrate(self, change: Change) -> None:
        before, after = change.before, change.after
        assert isinstance(before, HoldemView) and isinstance(after, HoldemView)
        if change.seat is not None:
            self.console.print(f"{self.names[change.seat]}: {self._describe(change, before)}", markup=False)
        if after.last_showdown is not None and after.last_showdown != before.last_showdown:
            self._show_showdown(after.last_showdown)
        if after.hand == before.hand and not after.rolling and after.board and (after.hand, after.board) != self._board:
            if self._board[0] == after.hand and len(self._board[1]) >= 3 and after.board[:3] != self._board[1][:3]:
                self.console.print("Everyone checked the Flop: its dice are re-rolled (HE-6).")
            street = STREET_NAMES.get(after.street or "", "")
            self.console.print(Text(f"Board ({street}): ").append_text(dice_text(after.board)))
            self._board = (after.hand, after.board)
        if not after.rolling:
            self._announce(after)

    def _describe(self, change: Change, view: HoldemView) -> str:
        seat = change.seat
        assert seat is not None
        action = self.table.game.parse_action(change.action)
        owed = min(view.stacks[seat], max(view.bets) - view.bets[seat])
        if isinstance(action, Timeout):  # HE-16: check if possible, else fold
            return "timeout: " + ("fold" if owed else "check") + " (HE-16)"
        if isinstance(action, Call):
            return f"call {owed}" + (" (all-in)" if owed == view.stacks[seat] else "")
        if isinstance(action, (Bet, Raise)):
            allin = action.to == view.bets[seat] + view.stacks[seat]
            return f"{action}" + (" (all-in)" if allin else "")
        return str(action)

    def _show_showdown(self, record: Showdown) -> None:
        """Who won which pot and why: hands named, pots one by one (HE-9 … HE-14)."""
        if not record.shown:
            for payout in record.payouts:
                winner = payout.winners[0]
                self.console.print(
                    f"{self.names[winner]} wins the pot of {payout.pot.amount}: everyone else folded.", markup=False
                )
            return
        self.console.print(Text(f"Showdown of hand {record.hand} — board: ").append_text(dice_text(record.board)))
        values = {seat: value for seat, _, value in record.shown}
        for seat, pocket, value in record.shown:
            line = Text(f"  {self.names.says(seat, 'shows')} ").append_text(dice_text(pocket))
            self.console.print(line.append(f": {describe(value)}"))
        for number, payout in enumerate(record.payouts):
            pot = "Main pot" if number == 0 else f"Side pot {number}"
            contenders = [s for s in payout.pot.eligible if s in values]
            won = " and ".join(
                f"{self.names[s]} {share}" for s, share in zip(payout.winners, payout.shares, strict=True)
            )
            best = values[payout.winners[0]]
            losers = [s for s in contenders if s not in payout.winners]
            if len(payout.winners) > 1:
                reason = f"split: tied with {describe(best)} (HE-14)"
            elif not losers:
                reason = f"the only hand that may win it ({describe(best)})"
            else:
                beaten = "; ".join(
                    f"{self.names.whose(s)} {describe(values[s])}: {why_better(best, values[s])}" for s in losers
                )
                reason = f"{describe(best)} over {beaten}"
            self.console.print(f"{pot} {payout.pot.amount} -> {won}: {reason}.", markup=False)
        flushes = [s for s, value in values.items() if category_of(value) is HandCategory.YAHTZEE_FLUSH]
        if flushes:
            self.console.print("A Yahtzee flush at the showdown wins the game at once (HE-12).")

    def finish(self, result: Result) -> None:
        winners = " and ".join(self.names[s] for s in sorted(result.winners)) or "nobody"
        chips = ", ".join(f"{self.names[s]} {c}" for s, c in enumerate(result.scores))
        self.console.print(f"Game over: {winners} won — {result.reason}. Chips: {chips}.", markup=False)


def opponent_kinds(players: int, opponents: Sequence[str], game: str) -> list[str | None]:
    """``--vs``: one name for every other seat or one per seat; ``human`` is a person (hot-seat)."""
    names = [n.strip().lower() for entry in opponents for n in entry.split(",") if n.strip()] or ["expert"]
    if len(names) == 1:
        names = names * (players - 1)
    if len(names) != players - 1:
        raise ConfigError(f"--vs names {len(names)} opponents for the {players - 1} other seats")
    choices = [*bot_names(game), HUMAN]
    for name in names:
        if name not in choices:
            raise ConfigError(f"no opponent {name!r} for {game}; choose one of: {', '.join(choices)}")
    return [None, *(None if name == HUMAN else name for name in names)]


def screen(table: Table, names: Sequence[str], console: Console, *, bots: Set[Seat], reader: LineReader) -> Screen:
    """The Hold'em screen (:data:`dicepoker.tui.screens.SCREENS`)."""
    return HoldemScreen(table, Names(names), console)


def build(
    *,
    players: int = 2,
    opponents: Sequence[str] = ("expert",),
    stack: int = 1000,
    **options: Unpack[LocalOptions],
) -> PlayLoop:
    """A game at this terminal, ready to ``run()``. With ``resume`` the game saved there goes on: its
    players, stacks and seed come from the file, the opponents from ``opponents``."""
    return local_game(
        "holdem",
        lambda: HoldemGame(players=players, stack=stack),
        lambda game: opponent_kinds(game.num_players, opponents, "holdem"),
        **options,
    )
