"""``dicepoker play holdem``: Dice Hold'em (HE-1 … HE-16) at the terminal, against bots or hot-seat.

The client shows each person only their own view: their pocket dice, never another seat's before the
showdown. Bots get their seat's view and the legal actions, nothing else. Commands are the game's own
action text (``check``, ``call``, ``fold``, ``bet 10``, ``raise 20``; amounts are the total wager of the
round) plus ``allin``, ``help``, ``status`` and ``quit``. Each hand ends with who won which pot and why.
``--clock SECONDS`` limits each decision (CM-6): when time is up the engine checks or folds (HE-16).
``--save FILE`` writes the game as a hand history (:mod:`dicepoker.games.history`) when the game ends or
the player leaves; ``dicepoker replay FILE`` reads it back.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from random import Random

from rich.console import Console
from rich.text import Text

from dicepoker.bots.base import Bot
from dicepoker.bots.registry import bot_names, create_bot
from dicepoker.core.errors import ConfigError, IllegalAction, NotationError
from dicepoker.core.match import Match
from dicepoker.core.types import Action, Seat, Timeout
from dicepoker.dice.suited import HandCategory, Suit, SuitedDie, best_value, category_of, describe, value_faces
from dicepoker.games.betting import Bet, BettingAction, Call, Check, Fold, Raise
from dicepoker.games.holdem import HoldemGame, HoldemState, HoldemView, Showdown
from dicepoker.tui.common import QUIT_WORDS, LineReader, TurnClock, ask, pick_seed, save_history

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
  quit             leave the game (saved first when --save was given)
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


# -- the client -----------------------------------------------------------------------------------------
class HoldemClient:
    """One game in the terminal. ``run`` plays it to the end, or until quit or the end of input."""

    def __init__(
        self,
        *,
        players: int = 2,
        opponents: Sequence[str] = ("expert",),
        stack: int = 1000,
        seed: int | None = None,
        clock: float | None = None,
        save: Path | None = None,
        console: Console,
        reader: LineReader,
    ) -> None:
        self.clock = TurnClock(clock)
        game = HoldemGame(players=players, stack=stack)
        names = [n.strip().lower() for entry in opponents for n in entry.split(",") if n.strip()] or ["expert"]
        if len(names) == 1:
            names = names * (players - 1)
        if len(names) != players - 1:
            raise ConfigError(f"--vs names {len(names)} opponents for the {players - 1} other seats")
        choices = [*bot_names("holdem"), HUMAN]
        for name in names:
            if name not in choices:
                raise ConfigError(f"no opponent {name!r} for holdem; choose one of: {', '.join(choices)}")
        self.bots: dict[Seat, Bot] = {
            seat: create_bot("holdem", name) for seat, name in enumerate(names, start=1) if name != HUMAN
        }
        hot_seat = len(self.bots) < players - 1
        self.names = ["Player 1" if hot_seat else "You"]
        self.names += [
            f"Player {seat + 1}" if n == HUMAN else f"{n.capitalize()} {seat}" for seat, n in enumerate(names, 1)
        ]
        self.seed = pick_seed(seed)
        self.game = game
        self.match = Match(game, seed=self.seed)  # type: ignore[arg-type]
        # Bots draw from their own stream so that their choices never shift the dice of the seed.
        self.bot_rng = Random(f"{self.seed}-bots")
        self.save, self.console, self.reader = save, console, reader
        self._announced_hand = 0

    @property
    def state(self) -> HoldemState:
        state = self.match.state
        assert isinstance(state, HoldemState)
        return state

    @property
    def humans(self) -> list[Seat]:
        return [seat for seat in range(self.game.num_players) if seat not in self.bots]

    # -- the game loop ------------------------------------------------------------------------------
    def run(self) -> int:
        """Play until the game ends, the player quits or input ends; the exit status (0)."""
        self._intro()
        try:
            while not self.state.is_terminal:
                self._announce_hand()
                if not any(self.state.chips()[seat] for seat in self.humans):
                    return self._leave("You have no chips left: your game is over.")
                seat = self.state.current_seat
                assert seat is not None
                bot = self.bots.get(seat)
                if bot is not None:
                    action: Action = bot.choose(self.state.view(seat), self.state.legal_actions(seat), self.bot_rng)
                else:
                    chosen = self._human_decision(seat)
                    if chosen is None:
                        return self._leave("You left the table.")
                    action = chosen
                self._act(action, seat)
        except EOFError:
            return self._leave("\nEnd of input: leaving the game unfinished.")
        except KeyboardInterrupt:
            return self._leave("\nInterrupted: leaving the game unfinished.")
        result = self.state.result()
        winners = " and ".join(self.names[s] for s in sorted(result.winners)) or "nobody"
        chips = ", ".join(f"{self.names[s]} {c}" for s, c in enumerate(result.scores))
        self.console.print(f"Game over: {winners} won — {result.reason}. Chips: {chips}.", markup=False)
        return self._leave(None)

    def _intro(self) -> None:
        config = self.game.config
        seats = ", ".join(f"seat {s}: {name}" for s, name in enumerate(self.names))
        self.console.print(f"[bold]{self.game.title}[/] — seed {self.seed}.")
        self.console.print(
            f"{seats}. Stacks {config.stack}, ante {config.ante}. Type help for the commands.", markup=False
        )
        if self.clock.seconds is not None:
            self.console.print(
                f"Turn clock: {self.clock.seconds:g} s per decision; on expiry you check, or fold (HE-16).",
                markup=False,
            )

    def _announce_hand(self) -> None:
        state = self.state
        if state.hand == self._announced_hand or state.betting is None:
            return
        self._announced_hand = state.hand
        chips = ", ".join(f"{self.names[s]} {c}" for s, c in enumerate(state.chips()) if c or s in state.betting.order)
        self.console.rule(f"Hand {state.hand} · {self.names[state.dealer]} deals")
        self.console.print(f"Chips: {chips}. Antes of {self.game.config.ante} are in.", markup=False)

    # -- people -------------------------------------------------------------------------------------
    def _human_decision(self, seat: Seat) -> BettingAction | Timeout | None:
        """Read commands until one is a legal action; ``Timeout`` when the clock runs out, ``None`` to quit."""
        if len(self.humans) > 1:
            self.console.print(f"[bold]{self.names[seat]}[/], your turn (others, look away).")
        self._show_table(seat)
        deadline = self.clock.start(self.reader)
        while True:
            line = ask(self.console, self.reader, f"{self.names[seat]} > ", deadline)
            if line is None:
                self.console.print(f"[yellow]Time is up for {self.names[seat]}.[/]")
                return Timeout()
            try:
                command = self._interpret(line, seat)
            except (NotationError, IllegalAction) as exc:
                self.console.print(f"[red]not accepted:[/] {exc}", highlight=False)
                self.console.print(self._legal_line(seat), markup=False)
                continue
            if command == "quit":
                return None
            if command == "help":
                self.console.print(HELP, markup=False)
            elif command == "status":
                self._show_table(seat)
            else:
                assert not isinstance(command, str)
                return command

    def _interpret(self, line: str, seat: Seat) -> BettingAction | str:
        """A command line as a legal action or an information command; raises with the reason."""
        words = line.lower().split()
        if not words:
            raise NotationError("type a command (help lists them)")
        if words[0] in QUIT_WORDS and len(words) == 1:
            return "quit"
        if words in (["help"], ["?"]):
            return "help"
        if words in (["status"], ["table"]):
            return "status"
        if words in (["allin"], ["all-in"], ["all", "in"]):
            return self._all_in(seat)
        action = self.game.parse_action(" ".join(words))
        if not isinstance(action, (Fold, Check, Call, Bet, Raise)):
            raise NotationError(f"{line.strip()!r} is not a betting command (help lists them)")
        self.state.check(action, seat)
        return action

    def _all_in(self, seat: Seat) -> BettingAction:
        view = self.state.view(seat)
        everything = view.bets[seat] + view.stacks[seat]
        legal = self.state.legal_actions(seat)
        for action in legal:
            if isinstance(action, (Bet, Raise)) and action.to == everything:
                return action
        if Call() in legal and max(view.bets) >= everything:
            return Call()
        top = max((a.to for a in legal if isinstance(a, (Bet, Raise))), default=None)
        limit = f"the most you may put in now is {top} (HE-5)" if top is not None else "you may not bet or raise now"
        raise IllegalAction(f"all-in ({everything}) is not possible: {limit}")

    def _legal_line(self, seat: Seat) -> str:
        view = self.state.view(seat)
        legal = [a for a in self.state.legal_actions(seat) if isinstance(a, (Fold, Check, Call, Bet, Raise))]
        labels = [action_label(a, view) for a in legal]
        try:
            self._all_in(seat)
            labels.append("allin")
        except IllegalAction:
            pass
        return "Legal: " + ", ".join(labels)

    def _show_table(self, seat: Seat) -> None:
        view = self.state.view(seat)
        street = STREET_NAMES.get(view.street or "", "")
        self.console.print(f"Hand {view.hand}, {street}; {self.names[seat]} to act.", markup=False)
        board = Text("Board: ").append_text(dice_text(view.board, 5 - len(view.board)))
        self.console.print(board)
        mine = Text("Your dice: ").append_text(dice_text(view.pocket))
        if len(view.pocket) + len(view.board) >= 5:
            mine.append(f"  best hand: {describe(best_value((*view.pocket, *view.board)))}")
        self.console.print(mine)
        self.console.print(self._pot_line(view), markup=False)
        dealt_in = self._dealt_in()
        for other in range(view.players):
            if other not in dealt_in:
                status = "out of the game"
            elif not view.in_hand[other]:
                status = "folded"
            else:
                status = "all-in" if view.stacks[other] == 0 else "in"
            dealer = " (dealer)" if other == view.dealer else ""
            line = f"  {self.names[other]}{dealer}: {view.stacks[other]} behind, {view.bets[other]} bet this round"
            self.console.print(f"{line}; {status}", markup=False)
        owed = max(view.bets) - view.bets[seat]
        if owed:
            self.console.print(f"{owed} to call.", markup=False)
        self.console.print(self._legal_line(seat), markup=False)

    def _dealt_in(self) -> tuple[Seat, ...]:
        betting = self.state.betting
        return betting.order if betting is not None else ()

    def _pot_line(self, view: HoldemView) -> str:
        # Betting.pots already counts this round's wagers (and a pot of one eligible seat is an uncalled bet).
        total = sum(amount for amount, _ in view.pots)
        shared = [amount for amount, eligible in view.pots if len(eligible) > 1]
        bets = sum(view.bets)
        parts = [f"{'main' if i == 0 else f'side {i}'} {amount}" for i, amount in enumerate(shared)]
        if len(shared) < 2:
            parts = []
        if bets:
            parts.append(f"{bets} of it bet this round")
        return f"Pot: {total}" + (f" ({', '.join(parts)})" if parts else "")

    # -- acting and narrating -----------------------------------------------------------------------
    def _act(self, action: Action, seat: Seat) -> None:
        before = self.state
        logged = len(self.match.log.events)
        self.match.act(action, seat)
        self.console.print(f"{self.names[seat]}: {self._describe(action, before, seat)}", markup=False)
        # One action may settle a hand and deal (and even play out) the next ones when players are all-in:
        # narrate from every state the new events pass through, not just the last one.
        state = shown = before
        for event in self.match.log.events[logged:]:
            previous, state = state, state.apply(self.game.parse_action(event.action), event.seat)
            if state.last_showdown is not previous.last_showdown and state.last_showdown is not None:
                self._show_showdown(state.last_showdown)
                shown = state
            elif state.hand == shown.hand and state.board != shown.board and not state.is_chance:
                self._show_board(shown, state)
                shown = state
            elif state.hand != shown.hand:
                shown = state

    def _show_board(self, previous: HoldemState, state: HoldemState) -> None:
        if state.flop_rerolled and not previous.flop_rerolled:
            self.console.print("Everyone checked the Flop: its dice are re-rolled (HE-6).")
        street = STREET_NAMES.get(state.view(None).street or "", "")
        self.console.print(Text(f"Board ({street}): ").append_text(dice_text(state.board)))

    def _describe(self, action: Action, before: HoldemState, seat: Seat) -> str:
        view = before.view(seat)
        if isinstance(action, Timeout):  # HE-16: check if possible, else fold
            return "timeout: " + ("check" if Check() in before.legal_actions(seat) else "fold") + " (HE-16)"
        if isinstance(action, Call):
            owed = min(view.stacks[seat], max(view.bets) - view.bets[seat])
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
            verb = "show" if self.names[seat] == "You" else "shows"
            line = Text(f"  {self.names[seat]} {verb} ").append_text(dice_text(pocket))
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
                    f"{self.names[s]}'s {describe(values[s])}: {why_better(best, values[s])}" for s in losers
                )
                reason = f"{describe(best)} over {beaten}"
            self.console.print(f"{pot} {payout.pot.amount} -> {won}: {reason}.", markup=False)
        flushes = [s for s, value in values.items() if category_of(value) is HandCategory.YAHTZEE_FLUSH]
        if flushes:
            self.console.print("A Yahtzee flush at the showdown wins the game at once (HE-12).")

    # -- the end ------------------------------------------------------------------------------------
    def _leave(self, message: str | None) -> int:
        if message:
            self.console.print(message, markup=False)
        if self.save is not None:
            save_history(self.save, self.match.log, self.console)
        return 0


def play(
    *,
    players: int = 2,
    opponents: Sequence[str] = ("expert",),
    stack: int = 1000,
    seed: int | None = None,
    clock: float | None = None,
    save: Path | None = None,
    console: Console | None = None,
    reader: LineReader | None = None,
) -> int:
    """Play one game at this terminal (``dicepoker play holdem``); returns the exit status."""
    client = HoldemClient(
        players=players,
        opponents=opponents,
        stack=stack,
        seed=seed,
        clock=clock,
        save=save,
        # Soft wrap: messages keep their lines (and paths) whole when the output goes to a pipe or a file.
        console=console or Console(highlight=False, soft_wrap=True),
        reader=reader or LineReader(),
    )
    return client.run()
