"""Time as data: the turn clock's deadlines, the betting games' time banks, and the one scheduler.

Nothing here sleeps per table. A table holds the deadline of its current decision (and the moment its
bot or its autofill is due); :class:`Scheduler` keeps those moments on a heap and one task sleeps until
the earliest. The functions below are the clock rules, applied by the dealer under the table's lock.

**Time bank** (betting games, table option ``time_bank``: seconds per seat, as poker sites have it).
Each seat starts the game with the full bank. When a decision's clock runs out and the seat to act has
bank left, the whole bank is added to its deadline, once per decision, instead of the engine's
``Timeout``; if the seat then acts in time, what is left of the extended deadline goes back into its bank.
If the bank runs out as well, the ``Timeout`` is applied and the bank stays empty. There is no refill
during a game. Frames show, in ``clock``, ``time_bank``: each seat's bank *beyond* the current deadline
(so a seat may think ``remaining + time_bank[seat]`` seconds in all), and ``banking``: whether the current
deadline already includes the acting seat's bank.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import logging
from collections.abc import Awaitable, Callable, Sequence

from dicepoker.core.types import JSON, Action, Seat, Timeout
from dicepoker.server.storage.records import TableRecord

logger = logging.getLogger("dicepoker.server.tables.clocks")


def next_deadline(
    record: TableRecord,
    *,
    terminal: bool,
    before: Sequence[Seat],
    after: Sequence[Seat],
    moves: Sequence[tuple[Seat, Action, str | None]],
    now: float,
) -> float | None:
    """The deadline after a commit: a fresh clock for a new decision; the same one for the seats of a
    simultaneous decision still to choose; none without a clock or once the game is over."""
    if record.clock is None or terminal or record.status != "playing":
        return None
    simultaneous_rest = len(before) > 1 and set(after) < set(before) and all(s in before for s, _, _ in moves)
    if record.deadline is not None and moves and simultaneous_rest:
        return record.deadline  # the others of a simultaneous decision keep their clock
    return now + record.clock


def unattended(record: TableRecord, since: float, now: float) -> float:
    """Seconds to add to the deadline of a table nobody timed from ``since`` (when its last timer was
    last seen alive) until ``now`` (it is timed again): the whole gap, so the turn has left what it had
    left at ``since``, as a single process's restart gives its downtime back. Nothing if the deadline had
    already passed by ``since`` (its timer was alive then, and late only by its own schedule), and only
    from the decision's start if that came later (an action through another process meanwhile)."""
    if record.status != "playing" or record.deadline is None:
        return 0.0
    decided = record.deadline - record.remaining if record.remaining is not None else since
    start = max(since, decided)
    return max(0.0, now - start) if record.deadline > start else 0.0


def time_bank(record: TableRecord) -> float | None:
    bank = record.options.get("time_bank")
    return float(bank) if isinstance(bank, (int, float)) else None


def fill_banks(record: TableRecord) -> None:
    """Every seat's bank full (when the game starts)."""
    bank = time_bank(record)
    for seat in record.seats:
        seat.bank = bank


def draw_bank(record: TableRecord, to_act: Sequence[Seat]) -> bool:
    """At an expired deadline: add the acting seat's whole bank to it, if it has any and has not drawn it
    for this decision yet. Whether it did (if not, the ``Timeout`` is due)."""
    if time_bank(record) is None or len(to_act) != 1 or record.deadline is None:
        return False
    if record.options.get("banking") is not None:
        return False  # once per decision: this one already runs on the bank
    seat = record.seats[to_act[0]]
    if not seat.bank:
        return False
    record.deadline += seat.bank
    seat.bank = 0.0
    record.options["banking"] = to_act[0]
    return True


def settle_bank(record: TableRecord, moves: Sequence[tuple[Seat, Action, str | None]], now: float) -> None:
    """A decision ended: a seat that acted on its bank keeps what it did not use (not after a timeout)."""
    banking = record.options.pop("banking", None)
    if not isinstance(banking, int) or record.deadline is None:
        return
    for seat, action, _ in moves:
        if seat == banking and not isinstance(action, Timeout):
            record.seats[seat].bank = round(max(0.0, record.deadline - now), 3)


def clock_json(record: TableRecord, to_act: Sequence[Seat], now: float) -> dict[str, JSON] | None:
    """The ``clock`` object of a frame, or ``None`` when nobody's clock runs."""
    if record.deadline is None or not to_act:
        return None
    found: dict[str, JSON] = {
        "seat": to_act[0],
        "seats": list(to_act),
        "deadline": record.deadline,
        "remaining": max(0.0, record.deadline - now),
        "total": whole(record.clock),
    }
    if time_bank(record) is not None:
        found["time_bank"] = [whole(s.bank or 0.0) for s in record.seats]
        found["banking"] = record.options.get("banking") is not None
    return found


def whole(value: float | None) -> float | int | None:
    """A number of seconds as JSON: ``30`` rather than ``30.0`` when it is whole."""
    return int(value) if value is not None and value == int(value) else value


class Scheduler:
    """Due moments of many tables on one heap, and the one task that sleeps until the earliest.

    :meth:`set` records a table's next due moment (``None``: nothing due); stale heap entries are dropped
    lazily. The task calls ``tick`` whenever the earliest moment has come or :meth:`poke` was called.
    """

    def __init__(self, now: Callable[[], float]) -> None:
        self.now = now
        self._heap: list[tuple[float, int, str]] = []
        self._due: dict[str, float] = {}
        self._counter = itertools.count()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._stopping = False

    def set(self, key: str, due: float | None) -> None:
        if due is None:
            self._due.pop(key, None)
            return
        if self._due.get(key) == due:
            return
        self._due[key] = due
        heapq.heappush(self._heap, (due, next(self._counter), key))
        if self._heap[0][2] == key:
            self._wake.set()

    def scheduled(self, key: str) -> float | None:
        return self._due.get(key)

    def next_due(self) -> float | None:
        """The earliest moment something is due (stale heap entries dropped)."""
        while self._heap:
            due, _, key = self._heap[0]
            if self._due.get(key) == due:
                return due
            heapq.heappop(self._heap)
        return None

    def pop_due(self, now: float) -> list[str]:
        """The keys due by ``now``, taken off the schedule."""
        found = []
        while (first := self.next_due()) is not None and first <= now:
            _, _, key = heapq.heappop(self._heap)
            del self._due[key]
            found.append(key)
        return found

    def poke(self) -> None:
        self._wake.set()

    def start(self, tick: Callable[[], Awaitable[object]]) -> None:
        self._stopping = False
        self._task = asyncio.create_task(self._run(tick), name="dicepoker-scheduler")

    async def stop(self) -> None:
        """End the task. One cancel is not enough: Python 3.11's ``wait_for`` swallows a cancellation that
        lands in the same loop iteration as the wake-up it waits for (CPython gh-86296), after which the task
        slept on, and a server under load hung on SIGTERM. So a flag ends the loop too, and the cancel is
        repeated until the task is done."""
        task, self._task = self._task, None
        if task is None:
            return
        self._stopping = True
        while not task.done():
            task.cancel()
            self._wake.set()
            await asyncio.wait({task}, timeout=0.5)
        if not task.cancelled() and task.exception() is not None:
            logger.error("the scheduler ended with %r", task.exception())

    async def _run(self, tick: Callable[[], Awaitable[object]]) -> None:
        while not self._stopping:
            due = self.next_due()
            timeout = None if due is None else max(0.0, due - self.now())
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout)
            self._wake.clear()
            if self._stopping:
                return
            try:
                await tick()
            except Exception:
                logger.exception("scheduler tick failed")
