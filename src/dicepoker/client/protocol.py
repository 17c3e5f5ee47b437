"""The server's frames as typed values, parsed without pydantic so the client stays light.

Parsing is strict about the fields a client relies on (a frame missing ``version`` is a
:class:`ProtocolError`) and lenient about everything else: unknown fields are ignored and an unknown
frame type becomes an :class:`UnknownFrame`, so a newer server that adds to the protocol (it only ever
adds, never renames) does not break an older client.

>>> frame = parse_frame('{"type": "ack", "id": "a1", "version": 7}')
>>> frame
AckFrame(id='a1', version=7)
>>> action_frame("keep 1 2", version=7, id="a2")
'{"type": "action", "action": "keep 1 2", "version": 7, "id": "a2"}'
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, TypeAlias

from dicepoker.core.errors import DicePokerError
from dicepoker.core.types import JSON, Seat

Status: TypeAlias = Literal["waiting", "playing", "finished"]
STATUSES: tuple[Status, ...] = ("waiting", "playing", "finished")
MAX_ID_LENGTH = 64
"""Client action ids longer than this are rejected by the server (protocol contract)."""


class ProtocolError(DicePokerError):
    """A frame from the server does not follow the protocol."""


@dataclass(frozen=True, slots=True)
class Clock:
    """The running decision clock: who it is for and when it runs out (server wall time, seconds)."""

    seat: Seat | None
    deadline: float
    remaining: float
    total: float | None


@dataclass(frozen=True, slots=True)
class SeatInfo:
    seat: Seat
    kind: str
    """``"open"``, ``"human"`` or ``"bot"``."""
    name: str | None = None
    bot: str | None = None
    connected: bool = False


@dataclass(frozen=True, slots=True)
class LastAction:
    seat: Seat | None
    action: str


@dataclass(frozen=True, slots=True)
class StateFrame:
    """The table as one recipient may see it, sent after connecting and after every change."""

    table: str
    seat: Seat | None
    version: int
    status: Status
    view: Mapping[str, JSON]
    to_act: tuple[Seat, ...]
    legal_actions: tuple[str, ...]
    clock: Clock | None = None
    seats: tuple[SeatInfo, ...] = ()
    last: LastAction | None = None
    result: JSON = None
    raw: Mapping[str, JSON] = field(default_factory=dict, repr=False, compare=False)

    @property
    def finished(self) -> bool:
        return self.status == "finished"

    @property
    def my_turn(self) -> bool:
        """True if this recipient has something to decide now."""
        return bool(self.legal_actions)


@dataclass(frozen=True, slots=True)
class AckFrame:
    """The sender's action ``id`` was accepted and committed; the table's log now has ``version`` events."""

    id: str
    version: int


@dataclass(frozen=True, slots=True)
class ErrorFrame:
    """A rejected action (``id`` set) or a malformed frame (``id`` None); nothing changed."""

    id: str | None
    reason: str
    retry_after: float | None = None
    """Seconds to wait before sending the action again: the server could not save it (its database is
    failing), and the action itself may well be fine. ``None`` for every other rejection."""


@dataclass(frozen=True, slots=True)
class PongFrame:
    pass


@dataclass(frozen=True, slots=True)
class UnknownFrame:
    """A frame type this client does not know (a newer server); kept whole so a caller may still use it."""

    type: str
    raw: Mapping[str, JSON]


Frame: TypeAlias = StateFrame | AckFrame | ErrorFrame | PongFrame | UnknownFrame


def parse_frame(text: str | bytes) -> Frame:
    """One server frame from its JSON text; raises :class:`ProtocolError` saying what is wrong."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise ProtocolError(f"frame is not JSON: {exc}") from None
    return frame_from_json(data)


def frame_from_json(data: JSON) -> Frame:
    if not isinstance(data, dict):
        raise ProtocolError(f"frame must be a JSON object, got {type(data).__name__}")
    kind = data.get("type")
    if kind == "state":
        return _state(data)
    if kind == "ack":
        return AckFrame(id=_str(data, "id"), version=_int(data, "version"))
    if kind == "error":
        ident = data.get("id")
        reason = data.get("reason", data.get("detail", ""))
        retry = data.get("retry_after")
        retry_after = float(retry) if isinstance(retry, (int, float)) and not isinstance(retry, bool) else None
        return ErrorFrame(id=None if ident is None else str(ident), reason=str(reason), retry_after=retry_after)
    if kind == "pong":
        return PongFrame()
    if not isinstance(kind, str):
        raise ProtocolError("frame has no 'type'")
    return UnknownFrame(type=kind, raw=data)


def action_frame(action: str, *, version: int, id: str) -> str:
    """The JSON text of an action frame, as the server expects it."""
    if len(id) > MAX_ID_LENGTH:
        raise ValueError(f"action id longer than {MAX_ID_LENGTH} characters")
    return json.dumps({"type": "action", "action": action, "version": version, "id": id})


PING = json.dumps({"type": "ping"})


def _state(data: Mapping[str, JSON]) -> StateFrame:
    status = data.get("status", "playing")
    if status not in STATUSES:
        raise ProtocolError(f"state frame has unknown status {status!r}")
    view = data.get("view")
    if not isinstance(view, dict):
        raise ProtocolError("state frame needs a 'view' object")
    seat = data.get("seat")
    return StateFrame(
        table=str(data.get("table", "")),
        seat=None if seat is None else _as_int(seat, "seat"),
        version=_int(data, "version"),
        status=status,
        view=view,
        to_act=_seats(data.get("to_act")),
        legal_actions=tuple(str(a) for a in _list(data.get("legal_actions"), "legal_actions")),
        clock=_clock(data.get("clock")),
        seats=tuple(_seat_info(s) for s in _list(data.get("seats"), "seats") if isinstance(s, dict)),
        last=_last(data.get("last")),
        result=data.get("result"),
        raw=data,
    )


def _clock(data: JSON) -> Clock | None:
    if not isinstance(data, dict):
        return None
    seat, total = data.get("seat"), data.get("total")
    return Clock(
        seat=None if seat is None else _as_int(seat, "clock.seat"),
        deadline=_float(data.get("deadline"), "clock.deadline"),
        remaining=_float(data.get("remaining", 0.0), "clock.remaining"),
        total=None if total is None else _float(total, "clock.total"),
    )


def _seat_info(data: Mapping[str, JSON]) -> SeatInfo:
    name, bot = data.get("name"), data.get("bot")
    return SeatInfo(
        seat=_as_int(data.get("seat"), "seats[].seat"),
        kind=str(data.get("kind", "open")),
        name=None if name is None else str(name),
        bot=None if bot is None else str(bot),
        connected=bool(data.get("connected", False)),
    )


def _last(data: JSON) -> LastAction | None:
    if not isinstance(data, dict) or not isinstance(data.get("action"), str):
        return None
    seat = data.get("seat")
    return LastAction(seat=None if seat is None else _as_int(seat, "last.seat"), action=data["action"])


def _seats(data: JSON) -> tuple[Seat, ...]:
    # A server at a chance node might say "chance"; for a client that means nobody it knows acts now.
    if not isinstance(data, list):
        return ()
    return tuple(_as_int(s, "to_act[]") for s in data)


def _list(data: JSON, name: str) -> Sequence[JSON]:
    if data is None:
        return ()
    if not isinstance(data, list):
        raise ProtocolError(f"'{name}' must be a list")
    return data


def _str(data: Mapping[str, JSON], name: str) -> str:
    value = data.get(name)
    if not isinstance(value, str):
        raise ProtocolError(f"frame needs a text '{name}'")
    return value


def _int(data: Mapping[str, JSON], name: str) -> int:
    return _as_int(data.get(name), name)


def _as_int(value: JSON, name: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ProtocolError(f"'{name}' must be an integer, got {value!r}")
    return value


def _float(value: JSON, name: str) -> float:
    if not isinstance(value, int | float) or isinstance(value, bool):
        raise ProtocolError(f"'{name}' must be a number, got {value!r}")
    return float(value)
