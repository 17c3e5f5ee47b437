"""The server's frames as typed values: the models of :mod:`dicepoker.protocol.frames`, read for a client.

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
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypeAlias, TypeVar

from pydantic import BaseModel, ValidationError

from dicepoker.core.errors import DicePokerError
from dicepoker.core.types import JSON
from dicepoker.protocol.frames import (
    MAX_ID_LENGTH,
    SERVER_FRAME_READERS,
    STATUSES,
    AckFrame,
    Clock,
    ErrorFrame,
    LastAction,
    PongFrame,
    PresenceFrame,
    SeatInfo,
    StateFrame,
    Status,
)

__all__ = [
    "MAX_ID_LENGTH",
    "PING",
    "STATUSES",
    "AckFrame",
    "Clock",
    "ErrorFrame",
    "Frame",
    "LastAction",
    "PongFrame",
    "PresenceFrame",
    "ProtocolError",
    "SeatInfo",
    "StateFrame",
    "Status",
    "UnknownFrame",
    "action_frame",
    "frame_from_json",
    "parse_frame",
    "read_answer",
]


class ProtocolError(DicePokerError):
    """A frame from the server does not follow the protocol."""


@dataclass(frozen=True, slots=True)
class UnknownFrame:
    """A frame type this client does not know (a newer server); kept whole so a caller may still use it."""

    type: str
    raw: Mapping[str, JSON]


Frame: TypeAlias = StateFrame | PresenceFrame | AckFrame | ErrorFrame | PongFrame | UnknownFrame


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
    if not isinstance(kind, str):
        raise ProtocolError("frame has no 'type'")
    reader = SERVER_FRAME_READERS.get(kind)
    if reader is None:
        return UnknownFrame(type=kind, raw=data)
    try:
        frame: Frame = reader.validate_python(data)
    except ValidationError as exc:
        raise ProtocolError(f"{kind} frame: {_first_error(exc)}") from None
    return frame


def action_frame(action: str, *, version: int, id: str) -> str:
    """The JSON text of an action frame, as the server expects it."""
    if len(id) > MAX_ID_LENGTH:
        raise ValueError(f"action id longer than {MAX_ID_LENGTH} characters")
    return json.dumps({"type": "action", "action": action, "version": version, "id": id})


PING = json.dumps({"type": "ping"})
AnswerT = TypeVar("AnswerT", bound=BaseModel)


def read_answer(model: type[AnswerT], data: JSON) -> AnswerT:
    """An HTTP answer (``TableCreated``, ``SeatTaken``, ...) read with its protocol model.

    >>> from dicepoker.protocol.rest import SeatTaken
    >>> read_answer(SeatTaken, {"seat": 0, "token": "ab12", "later": 1}).token
    'ab12'
    """
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise ProtocolError(f"{model.__name__} answer: {_first_error(exc)}") from None


def _first_error(exc: ValidationError) -> str:
    errors = exc.errors(include_url=False, include_input=False)
    if not errors:
        return "invalid"
    first = errors[0]
    where = ".".join(str(p) for p in first.get("loc", ()))
    return f"'{where}': {first.get('msg', 'invalid')}" if where else str(first.get("msg", "invalid"))
