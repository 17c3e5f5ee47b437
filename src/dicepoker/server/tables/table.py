"""One table in memory: its record, the game state, the fairness RNG, and the frames built from them.

A frame is built for one recipient from ``state.view(seat)``; nothing is ever filtered out of a fuller
picture. Frames are cached per (revision, presence, recipient), so a change reaches many spectators for
the price of one view.
"""

from __future__ import annotations

import asyncio
import datetime
import hashlib
import hmac
import json
from dataclasses import dataclass, field
from random import Random
from typing import Any

from dicepoker.bots.base import Bot
from dicepoker.core.errors import DicePokerError
from dicepoker.core.log import Event, EventLog
from dicepoker.core.state import State
from dicepoker.core.steps import replay_steps
from dicepoker.core.types import CHANCE, JSON, Seat
from dicepoker.games.registry import AnyGame, create, game_class
from dicepoker.server.storage.records import EventRecord, SeatRecord, TableRecord
from dicepoker.server.tables.clocks import clock_json, time_bank, whole
from dicepoker.server.tables.fairness import FairRandom, fairness_header
from dicepoker.server.tables.names import name_marks

WAITING, PLAYING, FINISHED = "waiting", "playing", "finished"


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def keyed_token(client_key: str, table_id: str, seat: Seat) -> str:
    """The token of a join sent with ``client_key``: derived from it, so that the same join sent again (its
    answer lost) is answered with the same token while only the token's hash is stored. As secret, and as
    strong, as the key (the client draws 128 random bits or more)."""
    mac = hmac.new(client_key.encode(), f"dicepoker-seat:{table_id}:{seat}".encode(), hashlib.sha256)
    return mac.hexdigest()[:32]


def keyed_seat(record: TableRecord, client_key: str) -> Seat | None:
    """The seat a join with ``client_key`` took at this table, if any."""
    for seat, info in enumerate(record.seats):
        if info.token_hash is not None and hmac.compare_digest(
            token_hash(keyed_token(client_key, record.id, seat)), info.token_hash
        ):
            return seat
    return None


@dataclass(frozen=True, slots=True)
class Last:
    """The latest player action; ``private`` when it was one of several simultaneous secret choices."""

    seat: Seat
    action: str
    private: bool


@dataclass(eq=False)
class Table:
    record: TableRecord
    game: AnyGame
    state: State
    events: list[EventRecord]
    rng: FairRandom | None = None
    bot_rng: Random = field(default_factory=Random)
    bots: dict[Seat, Bot] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    revision: int = 0
    """Bumped by every change a client can see (events, joins, connections): frames are cached by it."""
    accepted: dict[tuple[Seat, str], int] = field(default_factory=dict)
    """(seat, client action id) -> the version its acceptance produced: resent ids are answered, not applied."""
    last: Last | None = None
    bot_due: float | None = None
    thinking: asyncio.Task[int] | None = None
    """The bot move being thought out (outside the lock), if any."""
    connections: dict[Seat | None, int] = field(default_factory=dict)
    presence: int = 0
    """Bumped when a seat's ``connected`` changes: announced with a small presence frame, not a new state."""
    _frames: dict[Seat | None, tuple[tuple[int, int], str]] = field(default_factory=dict)

    @classmethod
    def restore(cls, record: TableRecord, events: list[EventRecord]) -> Table:
        """A table as it was, from its stored record and log (the dice stream continues where it stopped)."""
        game = create(record.game, **record.config)
        state = game.initial_state()
        table = cls(record, game, state, list(events))
        for step in replay_steps(game, events, start=state):
            state, event = step.after, step.event
            if event.seat is not None:
                table.last = Last(event.seat, event.action, simultaneous(step.before))
                if event.client_id is not None:
                    acked = step.number
                    while acked < len(events) and events[acked].seat is None:
                        acked += 1  # the dice that followed belonged to the same commit
                    table.accepted[(event.seat, event.client_id)] = acked
        table.state = state
        if record.status == PLAYING:
            table.rng = FairRandom(bytes.fromhex(record.server_seed), record.client_seeds or [], record.rng_counter)
        return table

    def snapshot(self) -> tuple[Any, ...]:
        """The record's mutable fields, for :meth:`restore_snapshot` when a commit fails."""
        r = self.record
        banks = [s.bank for s in r.seats]
        return (r.version, r.rng_counter, r.status, r.result, r.deadline, r.remaining, dict(r.options), banks)

    def restore_snapshot(self, saved: tuple[Any, ...]) -> None:
        r = self.record
        r.version, r.rng_counter, r.status, r.result, r.deadline, r.remaining, r.options, banks = saved
        for seat, bank in zip(r.seats, banks, strict=True):
            seat.bank = bank

    @property
    def id(self) -> str:
        return self.record.id

    @property
    def status(self) -> str:
        return self.record.status

    @property
    def version(self) -> int:
        return self.record.version

    def to_act(self) -> tuple[Seat, ...]:
        """Seats that may decide now (none while the table waits, at a chance node or when it is over)."""
        to_act = self.state.to_act
        if self.status != PLAYING or to_act is CHANCE:
            return ()
        assert isinstance(to_act, tuple)
        return to_act

    def due(self) -> float | None:
        """The earliest moment something must happen here without a client: a timeout, a bot, an autofill."""
        record = self.record
        times = [record.deadline, self.bot_due] if record.status == PLAYING else []
        if record.status == WAITING:
            times.append(record.autofill)
        found = [t for t in times if t is not None]
        return min(found) if found else None

    def seat_of(self, token: str) -> Seat | None:
        """The seat this token acts for, or ``None``; compared in constant time against every seat."""
        given = token_hash(token)
        found: Seat | None = None
        for seat, info in enumerate(self.record.seats):
            if info.token_hash is not None and hmac.compare_digest(given, info.token_hash):
                found = seat
        return found

    # -- pictures -----------------------------------------------------------------------------------
    def seats_json(self) -> list[dict[str, JSON]]:
        return [
            {
                "seat": seat,
                "kind": info.kind,
                "name": info.name,
                "bot": info.bot,
                "connected": info.kind == "bot" or self.connections.get(seat, 0) > 0,
                **name_marks(info.name),
            }
            for seat, info in enumerate(self.record.seats)
        ]

    def summary(self) -> dict[str, JSON]:
        return summary(self.record, self.seats_json(), self.connections.get(None, 0))

    def presence_frame(self) -> dict[str, JSON]:
        """What a seat's (dis)connection changes: only ``seats`` (see :mod:`.service`, "Presence")."""
        return {"type": "presence", "table": self.id, "seats": self.seats_json()}

    def frame_text(self, seat: Seat | None, now: float) -> str:
        """The state frame for ``seat`` (``None``: a spectator) as JSON text, cached per revision."""
        key = (self.revision, self.presence)
        cached = self._frames.get(seat)
        if cached is not None and cached[0] == key:
            return cached[1]
        text = json.dumps(self.frame(seat, now), separators=(",", ":"))
        self._frames[seat] = (key, text)
        return text

    def frame(self, seat: Seat | None, now: float) -> dict[str, JSON]:
        to_act = self.to_act()
        legal = [str(a) for a in self.state.legal_actions(seat)] if seat is not None and seat in to_act else []
        last: dict[str, JSON] | None = None
        if self.last is not None:
            shown = not self.last.private or self.last.seat == seat or self.status == FINISHED
            last = {"seat": self.last.seat, "action": self.last.action if shown else None}
        return {
            "type": "state",
            "table": self.id,
            "seat": seat,
            "version": self.version,
            "status": self.status,
            "view": self.state.view(seat).to_json(),
            "to_act": list(to_act),
            "legal_actions": legal,
            "clock": clock_json(self.record, to_act, now),
            "seats": self.seats_json(),
            "last": last,
            "result": self.record.result,
            "rematch": self.record.rematch,  # set once a finished table has one: every page can offer it
        }

    def log_text(self) -> str:
        """The dicepoker-log JSONL with the fairness header (server seed revealed once the game is over)."""
        return self.event_log().to_jsonl()

    def event_log(self) -> EventLog:
        """The table's log with its fairness record; the server seed only once the game is over."""
        record = self.record
        revealed = bytes.fromhex(record.server_seed) if record.status == FINISHED else None
        fairness = fairness_header(revealed, record.client_seeds or [], record.commitment)
        events = tuple(Event(e.seat, e.action) for e in self.events)
        return EventLog(record.game, record.config, None, events, fairness=fairness)


def simultaneous(state: State) -> bool:
    """Whether several seats choose at once (their choices are secret until all have chosen)."""
    to_act = state.to_act
    return isinstance(to_act, tuple) and len(to_act) > 1


def summary(record: TableRecord, seats: list[dict[str, JSON]] | None = None, spectators: int = 0) -> dict[str, JSON]:
    """``GET /api/tables/{id}``; for a table only in the archive, ``seats`` are built from the record."""
    try:
        title = game_class(record.game).title
    except DicePokerError:
        title = record.game  # a game this server no longer offers: its archive still lists
    return {
        "id": record.id,
        "game": record.game,
        "title": title,
        "config": record.config,
        "status": record.status,
        "seats": seats if seats is not None else [_archived_seat(i, s) for i, s in enumerate(record.seats)],
        "spectators": spectators,
        "version": record.version,
        "clock": whole(record.clock),
        "time_bank": whole(time_bank(record)),
        "commitment": record.commitment,
        "created": datetime.datetime.fromtimestamp(record.created, datetime.UTC).isoformat(),
        "result": record.result,
        "rematch": record.rematch,
        "abandoned": record.status == PLAYING and seats is not None and _nobody_here(seats),
    }


def _nobody_here(seats: list[dict[str, JSON]]) -> bool:
    """CM-7: people sat at the table and none of them is connected now (the lobby does not call it playing;
    known only for a live table, whose connections this process counts)."""
    people = [s for s in seats if s["kind"] == "human"]
    return bool(people) and not any(s["connected"] for s in people)


def _archived_seat(seat: Seat, info: SeatRecord) -> dict[str, JSON]:
    connected = info.kind == "bot"
    return {
        "seat": seat,
        "kind": info.kind,
        "name": info.name,
        "bot": info.bot,
        "connected": connected,
        **name_marks(info.name),
    }
