"""One seat's WebSocket to the table server (:class:`TableConnection`); the HTTP calls are
:class:`~dicepoker.client.rest.ServerClient`.

A :class:`TableConnection` keeps one reader task that owns the socket. It parses every frame, keeps the
newest state, resolves the futures of actions waiting for their ``ack`` or ``error``, and when the
connection drops (a restarted server, a network blip) it connects again, resends the actions that were
not answered (same id, so the server answers them without applying them twice) and takes the server's
fresh state frame as the catch-up. Callers only see states, acks and rejections.

Typical use (the server must be running)::

    async with ServerClient("http://127.0.0.1:8000") as server:
        seat = await server.play_now("scorecard", name="ann")
        async with server.table(seat.table, seat.token) as table:
            async for state in table:
                if state.legal_actions:
                    await table.act(state.legal_actions[0], version=state.version)
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import itertools
import secrets
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from types import TracebackType
from typing import Self
from urllib.parse import quote, urlsplit, urlunsplit

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

from dicepoker.client.protocol import (
    PING,
    AckFrame,
    ErrorFrame,
    Frame,
    PongFrame,
    PresenceFrame,
    ProtocolError,
    StateFrame,
    action_frame,
    parse_frame,
)
from dicepoker.core.errors import DicePokerError
from dicepoker.core.types import Seat

FATAL_CLOSE_CODES = frozenset({1002, 1003, 1007, 1008, 1009})
"""Close codes after which connecting again cannot help (bad token, policy, protocol, too big)."""
LATER_CLOSE_CODES = frozenset({1011, 1013})
"""Close codes after which connecting again at once would be refused again (the server's database is
failing): the client waits, longer each time, up to :data:`LATER_MAX_DELAY` seconds."""
LATER_MAX_DELAY = 5.0


class ConnectionLost(DicePokerError):
    """The table's WebSocket closed for good (closed by the server for a reason, or unreachable too long)."""


class ActionRejected(DicePokerError):
    """The server rejected an action; nothing changed at the table."""

    def __init__(self, frame: ErrorFrame) -> None:
        super().__init__(frame.reason)
        self.frame = frame

    @property
    def stale(self) -> bool:
        return self.frame.reason.startswith("stale")

    @property
    def retry_after(self) -> float | None:
        """Seconds after which the same action may be sent again (the server could not save it)."""
        return self.frame.retry_after


@dataclass(frozen=True, slots=True)
class Acked:
    """An action the server acknowledged: it is in the table's log as event number ``version`` (1-based)."""

    id: str
    action: str
    version: int
    seat: Seat | None


def ws_url(base_url: str, table: str, token: str | None = None) -> str:
    """The WebSocket address of a table.

    >>> ws_url("http://127.0.0.1:8000/", "t1", "ab")
    'ws://127.0.0.1:8000/api/tables/t1/ws?token=ab'
    """
    parts = urlsplit(base_url)
    scheme = {"http": "ws", "https": "wss"}.get(parts.scheme, parts.scheme)
    path = parts.path.rstrip("/") + f"/api/tables/{quote(table, safe='')}/ws"
    query = f"token={quote(token, safe='')}" if token else ""
    return urlunsplit((scheme, parts.netloc, path, query, ""))


class TableConnection:
    """One seat's (or a spectator's, ``token=None``) live connection to a table.

    ``reconnect_timeout`` bounds how long a dropped connection is retried before :class:`ConnectionLost`;
    ``on_frame`` sees every parsed frame (leak tests, recorders).
    """

    def __init__(
        self,
        base_url: str,
        table: str,
        token: str | None = None,
        *,
        reconnect: bool = True,
        reconnect_timeout: float = 30.0,
        open_timeout: float = 10.0,
        on_frame: Callable[[Frame], None] | None = None,
    ) -> None:
        self.table_id = table
        self.url = ws_url(base_url, table, token)
        self.reconnect = reconnect
        self.reconnect_timeout = reconnect_timeout
        self.open_timeout = open_timeout
        self.on_frame = on_frame
        self.acks: list[Acked] = []
        """Every action this connection saw acknowledged, in order (duplicates answered once)."""
        self.errors: list[ErrorFrame] = []
        """Error frames that answer no pending action (malformed frames, late answers)."""
        self._later = 0.0
        """The last wait after a "try again later" close (see :data:`LATER_CLOSE_CODES`)."""
        self.reconnects = 0
        self.catch_up_times: list[float] = []
        """Seconds from each lost connection to the first state frame after connecting again."""
        self._latest: StateFrame | None = None
        self._delivered: tuple[object, ...] | None = None
        self._changed = asyncio.Event()
        self._pending: dict[str, tuple[str, str, asyncio.Future[AckFrame]]] = {}
        self._acked_ids: set[str] = set()
        self._pongs: list[asyncio.Future[None]] = []
        self._ws: ClientConnection | None = None
        self._connected = asyncio.Event()
        self._reader: asyncio.Task[None] | None = None
        self._failure: DicePokerError | None = None
        self._closing = False
        self._lost_at: float | None = None
        self._ids = itertools.count(1)
        self._id_prefix = secrets.token_hex(4)

    # -- life cycle -------------------------------------------------------------------------------------
    async def open(self) -> StateFrame:
        """Connect and wait for the first state frame."""
        if self._reader is None:
            self._reader = asyncio.create_task(self._run(), name=f"table {self.table_id} reader")
        return await self.wait_for(lambda s: True, timeout=self.open_timeout + self.reconnect_timeout)

    async def close(self) -> None:
        self._closing = True
        if self._ws is not None:
            await self._ws.close()
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
        self._fail(ConnectionLost("connection closed by the client"))

    async def __aenter__(self) -> Self:
        await self.open()
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    # -- states -------------------------------------------------------------------------------------------
    @property
    def state(self) -> StateFrame | None:
        """The newest state frame received."""
        return self._latest

    @property
    def seat(self) -> Seat | None:
        return None if self._latest is None else self._latest.seat

    async def wait_for(self, predicate: Callable[[StateFrame], bool], timeout: float | None = None) -> StateFrame:
        """The newest state once ``predicate`` holds for it; raises :class:`TimeoutError` or
        :class:`ConnectionLost`."""
        async with asyncio.timeout(timeout):
            while True:
                changed = self._changed
                if self._latest is not None and predicate(self._latest):
                    return self._latest
                if self._failure is not None:
                    raise self._failure
                await changed.wait()

    async def next_state(self, timeout: float | None = None) -> StateFrame:
        """The newest state not yet returned by this method (intermediate states may be skipped: a slow
        reader always gets the present). After the last (finished) state it raises :class:`ConnectionLost`."""
        state = await self.wait_for(lambda s: _key(s) != self._delivered, timeout)
        self._delivered = _key(state)
        return state

    def redeliver(self) -> None:
        """Let :meth:`next_state` return the current state again (to choose again after a rejection)."""
        self._delivered = None

    def __aiter__(self) -> AsyncIterator[StateFrame]:
        return self._states()

    async def _states(self) -> AsyncIterator[StateFrame]:
        while True:
            state = await self.next_state()
            yield state
            if state.finished:
                return

    # -- actions ------------------------------------------------------------------------------------------
    def new_id(self) -> str:
        return f"{self._id_prefix}-{next(self._ids)}"

    async def send(self, action: str, *, version: int | None = None, id: str | None = None) -> asyncio.Future[AckFrame]:
        """Send an action (``version`` defaults to the newest state's) and return the future of its ack.

        The future fails with :class:`ActionRejected` or :class:`ConnectionLost`. While the connection is
        down the action waits and goes out (again) once connected."""
        if version is None:
            if self._latest is None:
                raise ValueError("no state received yet: give the version explicitly")
            version = self._latest.version
        ident = id or self.new_id()
        text = action_frame(action, version=version, id=ident)
        future: asyncio.Future[AckFrame] = asyncio.get_running_loop().create_future()
        if self._failure is not None:
            future.set_exception(self._failure)
            return future
        self._pending[ident] = (text, action, future)
        ws = self._ws
        if ws is not None:
            # A send into a dying socket is harmless: the reconnect resends everything still pending.
            with contextlib.suppress(ConnectionClosed):
                await ws.send(text)
        return future

    async def act(
        self, action: str, *, version: int | None = None, id: str | None = None, timeout: float | None = 30.0
    ) -> AckFrame:
        """Send an action and wait for its ack; raises :class:`ActionRejected`, :class:`ConnectionLost` or
        :class:`TimeoutError`."""
        future = await self.send(action, version=version, id=id)
        async with asyncio.timeout(timeout):
            return await asyncio.shield(future)

    async def ping(self, timeout: float | None = 10.0) -> float:
        """Round-trip time of a ping frame, in seconds."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pongs.append(future)
        start = time.perf_counter()
        async with asyncio.timeout(timeout):
            await self._connected.wait()
            assert self._ws is not None
            await self._ws.send(PING)
            await future
        return time.perf_counter() - start

    # -- the reader -----------------------------------------------------------------------------------------
    async def _run(self) -> None:
        try:
            while not self._closing:
                ws = await self._open()
                if ws is None:
                    return
                self._ws = ws
                self._connected.set()
                for text, _, _ in list(self._pending.values()):
                    with contextlib.suppress(ConnectionClosed):
                        await ws.send(text)
                with contextlib.suppress(ConnectionClosed):
                    async for message in ws:
                        self._dispatch(message)
                self._ws = None
                self._connected.clear()
                if self._closing:
                    return
                code, reason = ws.close_code, ws.close_reason
                if code is not None and (code in FATAL_CLOSE_CODES or 4000 <= code < 5000):
                    self._fail(ConnectionLost(f"server closed the connection: {code} {reason}".rstrip()))
                    return
                if not self.reconnect or (self._latest is not None and self._latest.finished and not self._pending):
                    self._fail(ConnectionLost(f"connection closed ({code} {reason})".rstrip()))
                    return
                self._lost_at = time.perf_counter()
                self.reconnects += 1
                if code in LATER_CLOSE_CODES:
                    self._later = min(LATER_MAX_DELAY, max(0.25, self._later * 2))
                    await asyncio.sleep(self._later)
        except Exception as exc:  # the reader must never die silently: whoever waits hears why
            self._fail(ConnectionLost(f"connection failed: {exc!r}"))

    async def _open(self) -> ClientConnection | None:
        """Connect, retrying while the server is unreachable (up to ``reconnect_timeout``)."""
        deadline = time.monotonic() + (self.reconnect_timeout if self.reconnect else 0.0)
        delay = 0.05
        while True:
            try:
                return await connect(self.url, open_timeout=self.open_timeout, max_size=2**22, compression=None)
            except InvalidStatus as exc:
                status = exc.response.status_code
                if 400 <= status < 500:
                    self._fail(ConnectionLost(f"server refused the connection: HTTP {status}"))
                    return None
                error: Exception = exc
            except (OSError, TimeoutError, InvalidHandshake) as exc:
                error = exc
            if time.monotonic() + delay > deadline:
                self._fail(ConnectionLost(f"cannot connect to {self.url}: {error!r}"))
                return None
            await asyncio.sleep(delay)
            delay = min(delay * 2, 0.5)

    def _dispatch(self, message: str | bytes) -> None:
        try:
            frame = parse_frame(message)
        except ProtocolError as exc:
            self.errors.append(ErrorFrame(None, f"unreadable frame from the server: {exc}"))
            return
        if self.on_frame is not None:
            self.on_frame(frame)
        if isinstance(frame, StateFrame):
            self._later = 0.0  # served again: the next "try again later" starts from a short wait
            if self._lost_at is not None:
                self.catch_up_times.append(time.perf_counter() - self._lost_at)
                self._lost_at = None
            if self._latest is None or frame.version >= self._latest.version:
                self._latest = frame
                self._wake()
        elif isinstance(frame, AckFrame):
            pending = self._pending.pop(frame.id, None)
            if pending is not None:
                _, action, future = pending
                if frame.id not in self._acked_ids:
                    self._acked_ids.add(frame.id)
                    self.acks.append(Acked(frame.id, action, frame.version, self.seat))
                if not future.done():
                    future.set_result(frame)
        elif isinstance(frame, ErrorFrame):
            pending = self._pending.pop(frame.id, None) if frame.id is not None else None
            if pending is None:
                self.errors.append(frame)
            elif not pending[2].done():
                pending[2].set_exception(ActionRejected(frame))
        elif isinstance(frame, PresenceFrame):
            # Only who is connected changed: the newest state keeps its version and takes the new seats.
            if self._latest is not None and frame.table == self._latest.table:
                self._latest = dataclasses.replace(self._latest, seats=frame.seats)
                self._wake()
        elif isinstance(frame, PongFrame):
            while self._pongs:
                pong = self._pongs.pop(0)
                if not pong.done():
                    pong.set_result(None)
                    break

    def _wake(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    def _fail(self, error: DicePokerError) -> None:
        if self._failure is None:
            self._failure = error
        for _, _, future in self._pending.values():
            if not future.done():
                future.set_exception(self._failure)
                future.exception()  # retrieved: nobody may be waiting for it any more
        self._pending.clear()
        self._wake()


def _key(state: StateFrame) -> tuple[object, ...]:
    # What makes a state "new" for a player: another log version, another status or other choices.
    return (state.version, state.status, state.legal_actions)
