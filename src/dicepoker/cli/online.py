"""The terminal client online (issue 9 §9): ``dicepoker play GAME --server URL [--table ID]``.

The play loop of :mod:`dicepoker.tui.loop` drives a :class:`RemoteTable` exactly as it drives a local
one: the table is a seat at a server table, reached through the protocol client (:mod:`dicepoker.client`).
The server owns the game: it rolls, applies timeouts and moves its bots; this table only turns state frames
into the views, legal actions, clock and changes the loop asks for, and sends the player's actions.

It lives here, in the command layer, because it joins two packages of the same rank (``tui`` and
``client``), which may not import each other. A game plays online once its views can be rebuilt from their
JSON (``GameInfo.decode_view``): every game's view has ``from_json``, the exact inverse of its ``to_json``.

Leaving (CM-7): ``quit`` asks first, then leaves the table through ``POST /api/tables/{id}/leave`` (leaving
is resigning) and shows the end if that ended the game. Ctrl-C, Ctrl-D or a closed terminal only drop the
connection: the seat may come back, and two of its decisions timing out while away count as leaving.
"""

from __future__ import annotations

import getpass
import itertools
import queue
import time
from collections.abc import Callable, Mapping
from typing import Any

from dicepoker.client import ActionRejected, ConnectionLost, StateFrame, SyncClient, SyncTable
from dicepoker.core.errors import ConfigError, DicePokerError, IllegalAction
from dicepoker.core.game import Game
from dicepoker.core.log import EventLog
from dicepoker.core.types import JSON, Ending, Result, Seat, View
from dicepoker.games.registry import create, info, infos
from dicepoker.tui.table import Change

WAIT_SLICE = 1.0
LEAVE_QUESTION = "Leave this table? Leaving resigns the game (CM-7). [y/N] "


VIEW_DECODERS: dict[str, Callable[[Mapping[str, Any]], View]] = {i.name: i.decode_view for i in infos()}
"""A game's view rebuilt from the ``view`` of a state frame (``view.to_json()``): each view's exact inverse.
A thin view of ``GameInfo.decode_view``, kept for callers of this name."""


class RemoteTable:
    """One seat at a server table behind the play loop's :class:`~dicepoker.tui.table.Table` interface."""

    def __init__(
        self, client: SyncClient, connection: SyncTable, summary: Mapping[str, JSON], *, token: str | None = None
    ) -> None:
        self.client, self.connection = client, connection
        self.table_id = str(summary["id"])
        self._token = token
        self.name = str(summary["game"])
        config = summary.get("config")
        self._game = create(self.name, **(config if isinstance(config, dict) else {}))
        self._decoder = info(self.name).decode_view
        first = connection.state
        assert first is not None, "a table connection starts with a state frame"
        # Every state frame, in order (the connection itself keeps only the newest): each one is a change
        # to tell. Filled on the client's network thread, read here.
        self._inbox: queue.SimpleQueue[StateFrame] = queue.SimpleQueue()
        connection.connection.on_frame = lambda frame: self._inbox.put(frame) if isinstance(frame, StateFrame) else None
        self._seen: list[tuple[StateFrame, View]] = [(first, self._decode(first.view))]
        """The frames received (newest last) with their views: the changes the loop has not told yet."""
        self._received = time.monotonic()
        clock = summary.get("clock")
        self.clock = float(clock) if isinstance(clock, (int, float)) else None
        """The table's seconds per decision (shown by the screen's introduction)."""
        self.commitment: str | None = None
        """The dice commitment the join answered, kept to check the log when the game ends (issue 19 §9)."""
        self.on_turn: Callable[[], None] | None = None
        """Called when a frame hands the turn to this seat after someone else's move (the terminal's bell)."""

    @property
    def _frame(self) -> StateFrame:
        return self._seen[-1][0]

    @property
    def _view(self) -> View:
        return self._seen[-1][1]

    # -- the interface ------------------------------------------------------------------------------
    @property
    def game(self) -> Game[Any, Any]:
        return self._game

    @property
    def seed(self) -> int | None:
        return None  # online dice come from the server's committed seed: see `dicepoker verify`

    @property
    def seat(self) -> Seat | None:
        return self._frame.seat

    @property
    def version(self) -> int:
        return self._frame.version

    @property
    def status(self) -> str:
        """The table's life: ``waiting`` for seats, ``playing``, ``finished``."""
        return str(self._frame.status)

    @property
    def to_act(self) -> tuple[Seat, ...]:
        return self._frame.to_act

    def view(self, seat: Seat | None) -> View:
        return self._view  # the only view this client is sent: its own seat's

    def legal(self, seat: Seat) -> tuple[str, ...]:
        return self._frame.legal_actions if seat == self._frame.seat else ()

    def submit(self, seat: Seat, action: str) -> None:
        try:
            ack = self.connection.act(action, version=self._frame.version)
        except ActionRejected as exc:
            raise IllegalAction(exc.frame.reason) from None
        # The server sends the new state before the ack: the table the loop looks at next includes the action.
        while self._frame.version < ack.version:
            self._receive(WAIT_SLICE * 30)

    def deadline(self, seat: Seat) -> float | None:
        clock = self._frame.clock
        if clock is None or seat not in self._frame.to_act:
            return None
        return self._received + clock.remaining  # the server's remaining time, on this machine's clock

    def result(self) -> Result | None:
        found = self._frame.result
        if not self._frame.finished or not isinstance(found, dict):
            return None
        winners = frozenset(int(s) for s in found.get("winners") or [])
        scores = tuple(int(s) for s in found.get("scores") or [])
        ending = Ending(found.get("ending", Ending.COMPLETED.value))  # servers before issue 18 sent none
        return Result(winners, scores, str(found.get("reason", "")), ending)

    def wait(self, version: int, observer: Seat | None, timeout: float | None = None) -> list[Change]:
        """The changes after ``version`` that the frames received since show (one frame may carry several
        events: an action and the dice that followed it)."""
        if self._frame.version <= version and not self._frame.finished:
            self._receive(timeout)
        while not self._inbox.empty():
            self._receive(0)
        changes: list[Change] = []
        for (previous, before), (frame, after) in itertools.pairwise(self._seen):
            if frame.version > version:
                changes.extend(_changes(max(previous.version, version), before, frame, after))
        del self._seen[:-1]  # told: only the newest frame is needed from now on
        return changes

    def leave(self) -> None:
        """Leave the table for good (CM-7: leaving is resigning) through ``POST .../leave``, then take in
        the state that tells it (and, if that ended the game, the result)."""
        if self._token is None or self._frame.finished:
            return
        left = self.client.leave(self.table_id, self._token)
        until = time.monotonic() + WAIT_SLICE * 30
        while self._frame.version < left.version and time.monotonic() < until:
            self._receive(WAIT_SLICE)

    def wait_until_started(self) -> None:
        """Wait while the table waits for its other seats (a play-now table fills them with bots after a while)."""
        while self._frame.status == "waiting":
            self._receive(WAIT_SLICE)  # one frame at a time: later ones (a bot's first move) are told by the loop

    def close(self) -> None:
        try:
            self.connection.close()
        finally:
            self.client.close()

    # -- frames -------------------------------------------------------------------------------------
    def _decode(self, data: Mapping[str, Any]) -> View:
        try:
            return self._decoder(data)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:  # a server of another version
            raise ConfigError(f"the server sent a {self.name} view this client cannot read ({exc!r})") from None

    def _receive(self, timeout: float | None) -> None:
        """Take the next frame, waiting up to ``timeout`` seconds for it (none came: nothing changes)."""
        try:
            frame = self._inbox.get(timeout=timeout) if timeout != 0 else self._inbox.get_nowait()
        except queue.Empty:
            try:  # raises if the connection gave up reconnecting
                self.connection.wait_for(lambda _: False, timeout=0.001)
            except TimeoutError:
                return
            except ConnectionLost as exc:
                raise ConfigError(f"lost the connection to the server: {exc}") from None
            return
        self._take(frame)

    def _take(self, frame: StateFrame) -> None:
        newest = self._frame.version
        if frame.version < newest:
            return
        entry = (frame, self._decode(frame.view))
        previous = self._frame
        if frame.version == newest:
            self._seen[-1] = entry  # the same events, news of another kind (the table started, a time bank)
        else:
            self._seen.append(entry)
        self._received = time.monotonic()
        if self.on_turn is not None and turn_came(previous, frame):
            self.on_turn()


def my_turn(frame: StateFrame) -> bool:
    """Whether the frame asks its own seat for a decision."""
    return frame.seat is not None and frame.seat in frame.to_act and bool(frame.legal_actions)


def turn_came(before: StateFrame, after: StateFrame) -> bool:
    """Whether ``after`` hands the turn to this seat after someone else's move (issue 21 §3): it was not this
    seat's turn and now is, and the last move was not its own (its own action followed by dice, a new hand
    after its own call, is no news). A redraw of the same turn never counts."""
    if after.version <= before.version or my_turn(before) or not my_turn(after):
        return False
    return after.last is not None and after.last.seat is not None and after.last.seat != after.seat


def _changes(start: int, before: View, frame: StateFrame, after: View) -> list[Change]:
    """The changes from version ``start`` to ``frame``: its player's action, and then any dice it called for."""
    last = frame.last
    if last is None or last.seat is None or frame.version - start == 1:
        seat = None if last is None else last.seat
        return [Change(frame.version, seat, "" if last is None else last.action or "", before, after)]
    return [
        Change(start + 1, last.seat, last.action or "", before, before),
        Change(frame.version, None, "", before, after),
    ]


def connect(server: str, game: str, table: str | None, name: str | None) -> tuple[RemoteTable, dict[str, JSON]]:
    """Sit down at ``table`` (its first open seat) or, without one, at the server's play-now table of ``game``."""
    if game not in VIEW_DECODERS:
        raise ConfigError(f"{game} cannot be played online in the terminal yet (only {', '.join(VIEW_DECODERS)})")
    player = name or _default_name()
    client = SyncClient(server)
    try:
        if table is None:
            seated = client.play_now(game, player)
        else:
            summary = client.summary(table)
            if summary.get("game") != game:
                raise ConfigError(f"table {table} plays {summary.get('game')}, not {game}")
            seats = summary.get("seats")
            open_seats = [s["seat"] for s in seats if s["kind"] == "open"] if isinstance(seats, list) else []
            if not open_seats:
                raise ConfigError(f"table {table} has no open seat")
            seated = client.join(table, int(open_seats[0]), player)
        summary = client.summary(seated.table)
        connection = client.table(seated.table, seated.token)
        remote = RemoteTable(client, connection, summary, token=seated.token)
        remote.commitment = seated.commitment
        return remote, summary
    except BaseException:
        client.close()
        raise


def _default_name() -> str:
    try:
        found = getpass.getuser()
    except (KeyError, OSError):
        found = ""
    return (found or "player")[:40]


def play_online(
    game: str,
    *,
    server: str,
    table: str | None = None,
    name: str | None = None,
    console: Any = None,
    reader: Any = None,
) -> int:
    """Play one game at a server table at this terminal; returns the exit status (as local play does)."""
    from rich.console import Console

    from dicepoker.tui.common import LineReader
    from dicepoker.tui.loop import PlayLoop

    console = console or Console(highlight=False, soft_wrap=True)
    reader = reader or LineReader()
    remote, summary = connect(server, game, table, name)
    me = remote.seat
    assert me is not None
    console.print(f"Table {summary['id']} on {server}: you are seat {me + 1}.", markup=False)
    if remote.commitment is not None:
        console.print(f"Dice commitment: {remote.commitment} (kept to check the dice at the end).", markup=False)
    if remote.status == "waiting":
        console.print("Waiting for the other players (a play-now table seats bots after a while)…", markup=False)
        remote.wait_until_started()
        summary = remote.client.summary(str(summary["id"]))  # who sat down
    seats = summary.get("seats")
    infos = (
        sorted((s for s in seats if isinstance(s, dict)), key=lambda s: int(s["seat"]))
        if isinstance(seats, list)
        else []
    )
    kinds = [str(info.get("bot") or "a") if info.get("kind") == "bot" else None for info in infos]
    names = [
        "You" if seat == me else label if kind is not None else str(info.get("name") or f"Player {seat + 1}")
        for seat, (info, kind, label) in enumerate(zip(infos, kinds, _bot_names(kinds), strict=True))
    ]
    bots = {seat for seat, kind in enumerate(kinds) if kind is not None}
    remote.on_turn = lambda: _ring(console)
    screen = _screen(remote, names, bots, console, reader)
    loop = PlayLoop(
        remote, screen, humans=[me], console=console, reader=reader, confirm_quit=LEAVE_QUESTION, on_quit=remote.leave
    )
    status = loop.run()
    console.print(f"The game's log: {server.rstrip('/')}/api/tables/{summary['id']}/log", markup=False)
    if remote.status == "finished":
        checker = SyncClient(server)  # the play loop closed the table's own client
        try:
            console.print(check_dice(checker, str(summary["id"]), remote.commitment), markup=False)
        finally:
            checker.close()
    return status


def check_dice(client: SyncClient, table: str, kept: str | None) -> str:
    """The finished table's log checked die by die against the commitment kept from the join: one line."""
    from dicepoker.client import check_commitment
    from dicepoker.games.history.format import is_history, read_history
    from dicepoker.server.tables.fairness import verify_log

    if kept is None:
        return "Dice not checked: the server's join answer carried no commitment."
    try:
        text = client.log(table)
        commitment = check_commitment(text, kept)
        if not commitment.ok:
            return f"Dice NOT verified: {commitment.problem}."
        report = verify_log(read_history(text) if is_history(text) else EventLog.from_jsonl(text), seen_commitment=kept)
    except DicePokerError as exc:
        return f"Dice not checked: {exc}"
    if not report.ok:
        return f"Dice NOT verified: run dicepoker verify on the log with --commitment {kept} to see why."
    return (
        f"Dice verified: all {len(report.checks)} rolls came from the seed committed to before the game ({kept[:16]}…)."
    )


def _ring(console: Any) -> None:
    """The terminal bell: heard (or flashed) where the terminal allows, even when its window is behind others."""
    console.file.write("\a")
    console.file.flush()


def _bot_names(kinds: list[str | None]) -> list[str]:
    """Bots named as at local play ("Expert bot", numbered by seat when several of a kind sit at the table)."""
    from dicepoker.tui.loop import seat_names

    return seat_names(kinds)


def _screen(remote: RemoteTable, names: list[str], bots: set[Seat], console: Any, reader: Any) -> Any:
    """The game's own screen, as local play builds it, over the remote table."""
    from dicepoker.tui.screens import make_screen

    return make_screen(remote, names, console, bots=bots, reader=reader)
