"""Every WebSocket frame of the table protocol, in both directions: the one definition (DESIGN practice 13).

Server → client frames are frozen pydantic dataclasses: the server's frames are checked against them in
tests, the Python client parses with them, and ``docs/protocol.schema.json``, ``web/js/protocol.js`` and
the frame tables of ``docs/protocol.md`` are generated from them (``python -m dicepoker.protocol.schema``).
A reader is strict about what a client relies on (``version`` is an integer, ``status`` one of three) and
lenient about the rest: unknown fields are ignored and a missing list is empty, so that a newer server,
which only ever adds, does not break an older client.

Client → server frames are pydantic models that forbid what they do not know: the server validates every
incoming frame with :data:`ClientMessage` and answers a malformed one with an error frame.

>>> SERVER_FRAMES["ack"].__name__, sorted(CLIENT_FRAMES)
('AckFrame', ['action', 'ping'])
"""

from __future__ import annotations

import dataclasses
from typing import Annotated, Any, Literal, TypeAlias

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictFloat,
    StrictInt,
    StrictStr,
    TypeAdapter,
    model_validator,
)
from pydantic.dataclasses import dataclass
from pydantic.json_schema import SkipJsonSchema

from dicepoker.core.types import JSON

Status: TypeAlias = Literal["waiting", "playing", "finished"]
STATUSES: tuple[Status, ...] = ("waiting", "playing", "finished")
MAX_ID_LENGTH = 64
"""Client action ids longer than this are rejected by the server."""
MAX_ACTION_LENGTH = 200
"""Action texts longer than this are rejected by the server."""

_READ = ConfigDict(use_attribute_docstrings=True, json_schema_serialization_defaults_required=True)
"""Server frames: field docstrings become the schema's descriptions; what has a default is still always sent."""


def _sometimes(*names: str) -> Any:
    """A schema hook: these fields are left out of a frame when they do not apply (not always sent)."""

    def hook(schema: dict[str, Any]) -> None:
        schema["required"] = [name for name in schema.get("required", []) if name not in names]

    return hook


WireSeat = StrictInt
"""A seat number on the wire: an integer, never a bool or a string."""
Seconds = StrictFloat


def _list_or_empty(value: Any) -> Any:
    # A server at a chance node might say "chance" for to_act; for a client that means nobody it knows acts.
    return value if isinstance(value, list | tuple) else ()


def _none_is_empty(value: Any) -> Any:
    return () if value is None else value


def _object_or_none(value: Any) -> Any:
    return value if isinstance(value, dict) else None


def _objects_only(value: Any) -> Any:
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else value


def _text_or_none(value: Any) -> Any:
    return None if value is None else str(value)


def _kind(literal: str) -> Any:
    """The ``type`` field of a frame: always sent, left out of ``repr`` (the class name says it)."""
    return dataclasses.field(default=literal, repr=False)


# -- server → client --------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True, config=ConfigDict(**_READ, json_schema_extra=_sometimes("time_bank", "banking")))
class Clock:
    """The running decision clock: who it is for and when it runs out (server wall time, seconds)."""

    seat: WireSeat | None
    """The first seat whose decision runs (``seats[0]``)."""
    deadline: Seconds
    """Server wall time (Unix seconds) when the decision runs out."""
    remaining: Seconds = 0.0
    """Seconds left when the frame was built: use it if your clock is not in sync with the server's."""
    total: Seconds | None = None
    """The table's clock per decision, in seconds."""
    seats: tuple[WireSeat, ...] = ()
    """Every seat whose decision runs (several for simultaneous decisions)."""
    time_bank: tuple[Seconds, ...] | None = None
    """Betting tables with a time bank: the seconds of bank left per seat; absent otherwise."""
    banking: bool | None = None
    """Betting tables with a time bank: whether the current decision already draws on the bank."""


@dataclass(frozen=True, slots=True, config=ConfigDict(**_READ, json_schema_extra=_sometimes("mixed_scripts")))
class SeatInfo:
    """One seat of a table, as in a summary: who sits there and whether they are connected."""

    seat: WireSeat
    """The seat's number, from 0."""
    kind: str = "open"
    """``"open"``, ``"human"`` or ``"bot"``."""
    name: str | None = None
    """The player's name; ``null`` while the seat is open."""
    bot: str | None = None
    """The bot's name (as in ``/api/games``) for a bot seat."""
    connected: bool = False
    """A person with at least one open connection, or a bot (always connected)."""
    mixed_scripts: bool = False
    """Present (and true) only when the name mixes look-alike scripts (see Names): show it with a marker."""


@dataclass(frozen=True, slots=True, config=_READ)
class LastAction:
    """The latest action by a seat."""

    seat: WireSeat | None
    """The seat that acted."""
    action: str | None
    """Its text form (``timeout`` when a clock ran out); ``null`` while it is one of several simultaneous
    secret choices and not yours."""


Seats = Annotated[tuple[SeatInfo, ...], BeforeValidator(_objects_only)]


@dataclass(frozen=True, slots=True, config=_READ)
class StateFrame:
    """The table as one recipient may see it: sent after connecting and after every change."""

    table: str
    """The table's id."""
    seat: WireSeat | None
    """Your seat; ``null`` for a spectator."""
    version: StrictInt
    """The number of events in the table's log (chance included); grows with every change."""
    status: Status
    """``waiting`` (seats open), ``playing`` or ``finished``."""
    view: dict[str, JSON]
    """What your seat may see now: the game's own view (hidden dice of others are never in it)."""
    to_act: Annotated[tuple[WireSeat, ...], BeforeValidator(_list_or_empty)]
    """Seats that must decide now (several for simultaneous decisions such as PeekPoker's ace re-rolls)."""
    legal_actions: Annotated[tuple[str, ...], BeforeValidator(_none_is_empty)]
    """The actions **you** may send now, as text; ``[]`` if it is not your turn (always for spectators)."""
    clock: Annotated[Clock | None, BeforeValidator(_object_or_none)] = None
    """The running decision clock, or ``null`` (see Clocks)."""
    seats: Seats = ()
    """As in the summary (who sits where, who is connected)."""
    last: Annotated[LastAction | None, BeforeValidator(_object_or_none)] = None
    """The last action by a seat, or ``null``."""
    result: JSON = None
    """``null`` until the game is finished, then e.g. ``{"winners": [1], "scores": [29, 31], "reason": ...,
    "ending": "completed"}``: ``reason`` is prose for people, ``ending`` the value for programs (``completed``,
    ``resignation``, ``timeout``, ``blocked``, ``yahtzee-flush``, ``last-with-chips``)."""
    rematch: str | None = None
    """The id of the rematch table once one was asked for (finished tables only)."""
    raw: SkipJsonSchema[dict[str, JSON]] = dataclasses.field(
        default_factory=dict, repr=False, compare=False, metadata={"wire": False}
    )
    """The frame as received, for fields this client does not know yet (not a wire field)."""
    type: Literal["state"] = _kind("state")

    @model_validator(mode="before")
    @classmethod
    def _lenient(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data  # positional construction
        defaults = {"table": "", "seat": None, "status": "playing", "to_act": (), "legal_actions": ()}
        return {**defaults, **data, "raw": data}

    @property
    def finished(self) -> bool:
        return self.status == "finished"

    @property
    def my_turn(self) -> bool:
        """True if this recipient has something to decide now."""
        return bool(self.legal_actions)


@dataclass(frozen=True, slots=True, config=_READ)
class PresenceFrame:
    """A seat connected or disconnected: only ``seats[].connected`` changed, so only ``seats`` is sent
    (the table's version stays; keep the last state frame and replace its ``seats``)."""

    table: str
    """The table's id."""
    seats: Seats
    """Every seat, as in a state frame."""
    type: Literal["presence"] = _kind("presence")


@dataclass(frozen=True, slots=True, config=_READ)
class AckFrame:
    """The sender's action ``id`` was accepted and committed; the table's log now has ``version`` events."""

    id: StrictStr
    """The id the action was sent with."""
    version: StrictInt
    """The table's version after the action *and* any dice it caused."""
    type: Literal["ack"] = _kind("ack")


@dataclass(frozen=True, slots=True, config=ConfigDict(**_READ, json_schema_extra=_sometimes("retry_after")))
class ErrorFrame:
    """A rejected action (``id`` set) or a malformed frame (``id`` null); nothing changed."""

    id: Annotated[str | None, BeforeValidator(_text_or_none)]
    """The rejected action's id; ``null`` for a malformed frame."""
    reason: str
    """Why, in plain words (e.g. ``stale version 0 (table is at 2)``)."""
    retry_after: float | None = None
    """Seconds to wait before sending the action again: the server could not save it (its database is failing)
    and the action itself may well be fine. Left out for every other rejection."""
    type: Literal["error"] = _kind("error")

    @model_validator(mode="before")
    @classmethod
    def _lenient(cls, data: Any) -> Any:
        if isinstance(data, dict):  # an HTTP-style {"detail": ...} is read as the reason
            return {"id": None, **data, "reason": str(data.get("reason", data.get("detail", "")))}
        return data


@dataclass(frozen=True, slots=True, config=_READ)
class PongFrame:
    """The answer to a ping."""

    type: Literal["pong"] = _kind("pong")


ServerFrame: TypeAlias = StateFrame | PresenceFrame | AckFrame | ErrorFrame | PongFrame
SERVER_FRAMES: dict[str, type[ServerFrame]] = {
    "state": StateFrame,
    "presence": PresenceFrame,
    "ack": AckFrame,
    "error": ErrorFrame,
    "pong": PongFrame,
}
"""Every frame type the server sends, by its ``type``."""
SERVER_FRAME_READERS: dict[str, TypeAdapter[Any]] = {kind: TypeAdapter(cls) for kind, cls in SERVER_FRAMES.items()}


def wire_fields(frame: type[ServerFrame]) -> tuple[str, ...]:
    """The field names a frame has on the wire (``type`` included, client-side extras such as ``raw`` not)."""
    return tuple(f.name for f in dataclasses.fields(frame) if f.metadata.get("wire", True))


# -- client → server --------------------------------------------------------------------------------------
class ActionMessage(BaseModel):
    """An action of your seat, as text: one of ``legal_actions``."""

    model_config = ConfigDict(use_attribute_docstrings=True)
    type: Literal["action"]
    action: Annotated[StrictStr, Field(max_length=MAX_ACTION_LENGTH)]
    """The action's text form, as in ``legal_actions`` (``roll``, ``reroll 1 3 5``, ``raise 40``, ...)."""
    version: Annotated[StrictInt, Field(ge=0, le=2**53)] | None = None
    """The ``version`` of the state you decided on: a stale one is rejected. Optional, but send it."""
    id: Annotated[StrictStr, Field(max_length=MAX_ID_LENGTH)] | None = None
    """Your id for this action, unique per seat: an id already accepted is answered, not applied again."""


class PingMessage(BaseModel):
    """Asks for a ``pong`` (keeps proxies from closing an idle connection)."""

    model_config = ConfigDict(use_attribute_docstrings=True)
    type: Literal["ping"]


ClientFrame: TypeAlias = ActionMessage | PingMessage
CLIENT_FRAMES: dict[str, type[ClientFrame]] = {"action": ActionMessage, "ping": PingMessage}
"""Every frame type a client sends, by its ``type``."""
ClientMessage: TypeAdapter[ClientFrame] = TypeAdapter(Annotated[ClientFrame, Field(discriminator="type")])
"""What the server validates each incoming text frame with (``ClientMessage.validate_json(text)``)."""
