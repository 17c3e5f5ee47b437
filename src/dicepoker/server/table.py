"""One table in memory: its record, the game state, the fairness RNG, and the frames built from them.

A frame is built for one recipient from ``state.view(seat)``; nothing is ever filtered out of a fuller
picture. Frames are cached per (revision, recipient), so a change reaches many spectators for the price
of one view.
"""

from __future__ import annotations

import asyncio
import datetime
import hashlib
import hmac
import json
from dataclasses import dataclass, field
from random import Random

from dicepoker.bots.base import Bot
from dicepoker.core.log import Event, EventLog
from dicepoker.core.state import State
from dicepoker.core.types import CHANCE, JSON, Seat
from dicepoker.games.registry import AnyGame
from dicepoker.server.fairness import FairRandom, fairness_header
from dicepoker.server.storage import EventRecord, TableRecord

WAITING, PLAYING, FINISHED = "waiting", "playing", "finished"


def seconds(value: float | None) -> float | int | None:
    """A clock length as JSON: ``30`` rather than ``30.0`` when it is whole."""
    return int(value) if value is not None and value == int(value) else value


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


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
    scheduled: float | None = None
    connections: dict[Seat | None, int] = field(default_factory=dict)
    _frames: dict[Seat | None, tuple[int, str]] = field(default_factory=dict)

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
            }
            for seat, info in enumerate(self.record.seats)
        ]

    def clock_json(self, now: float) -> dict[str, JSON] | None:
        record = self.record
        to_act = self.to_act()
        if record.deadline is None or not to_act:
            return None
        return {
            "seat": to_act[0],
            "seats": list(to_act),
            "deadline": record.deadline,
            "remaining": max(0.0, record.deadline - now),
            "total": seconds(record.clock),
        }

    def result_json(self) -> JSON:
        return self.record.result

    def summary(self) -> dict[str, JSON]:
        record = self.record
        return {
            "id": record.id,
            "game": record.game,
            "title": type(self.game).title,
            "config": record.config,
            "status": record.status,
            "seats": self.seats_json(),
            "spectators": self.connections.get(None, 0),
            "version": record.version,
            "clock": seconds(record.clock),
            "commitment": record.commitment,
            "created": datetime.datetime.fromtimestamp(record.created, datetime.UTC).isoformat(),
            "result": record.result,
            "rematch": record.rematch,
        }

    def frame_text(self, seat: Seat | None, now: float) -> str:
        """The state frame for ``seat`` (``None``: a spectator) as JSON text, cached per revision."""
        cached = self._frames.get(seat)
        if cached is not None and cached[0] == self.revision:
            return cached[1]
        text = json.dumps(self.frame(seat, now), separators=(",", ":"))
        self._frames[seat] = (self.revision, text)
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
            "clock": self.clock_json(now),
            "seats": self.seats_json(),
            "last": last,
            "result": self.record.result,
        }

    def log_text(self) -> str:
        """The dicepoker-log JSONL with the fairness header (server seed revealed once the game is over)."""
        record = self.record
        log = EventLog(record.game, record.config, None, tuple(Event(e.seat, e.action) for e in self.events))
        revealed = bytes.fromhex(record.server_seed) if record.status == FINISHED else None
        fairness = fairness_header(revealed, record.client_seeds or [], record.commitment)
        first, _, rest = log.to_jsonl().partition("\n")
        header = json.loads(first)
        header["fairness"] = fairness
        return json.dumps(header, sort_keys=True) + "\n" + rest

    def event_log(self) -> EventLog:
        record = self.record
        return EventLog(record.game, record.config, None, tuple(Event(e.seat, e.action) for e in self.events))
