"""The frame models themselves: values a client can build and compare, lenient readers, strict writers."""

from __future__ import annotations

import pytest
from pydantic import TypeAdapter, ValidationError

from dicepoker.protocol.frames import (
    SERVER_FRAMES,
    AckFrame,
    ActionMessage,
    ClientMessage,
    ErrorFrame,
    StateFrame,
    wire_fields,
)
from dicepoker.server.transport import models


def test_frames_are_frozen_values_built_positionally() -> None:
    ack = AckFrame("a1", 7)
    assert ack == AckFrame(id="a1", version=7) and repr(ack) == "AckFrame(id='a1', version=7)"
    assert ack.type == "ack"
    with pytest.raises(AttributeError):
        ack.version = 8  # type: ignore[misc]


def test_every_server_frame_names_its_type_and_raw_is_not_a_wire_field() -> None:
    for kind, model in SERVER_FRAMES.items():
        assert wire_fields(model)[-1] == "type" and model(**_minimal(model)).type == kind
    assert "raw" not in wire_fields(StateFrame)


def _minimal(model: type) -> dict[str, object]:
    required = {"table": "t", "seat": None, "version": 0, "status": "waiting", "view": {}, "to_act": ()}
    required |= {"legal_actions": (), "seats": (), "id": "a", "reason": "r"}
    names = wire_fields(model)  # type: ignore[arg-type]
    return {name: value for name, value in required.items() if name in names}


def test_a_reader_takes_an_http_style_detail_as_the_reason() -> None:
    reader = TypeAdapter(ErrorFrame)
    assert reader.validate_python({"type": "error", "detail": "gone"}) == ErrorFrame(None, "gone")
    assert reader.validate_python({"type": "error", "id": 5, "reason": "no"}) == ErrorFrame("5", "no")


def test_versions_are_integers_not_bools_or_text() -> None:
    reader = TypeAdapter(AckFrame)
    for version in (True, "1", 1.5):
        with pytest.raises(ValidationError):
            reader.validate_python({"type": "ack", "id": "a", "version": version})


def test_client_frames_are_checked_as_before() -> None:
    assert ClientMessage.validate_json('{"type": "ping"}').type == "ping"
    action = ClientMessage.validate_json('{"type": "action", "action": "roll", "version": 3, "id": "x"}')
    assert isinstance(action, ActionMessage) and (action.action, action.version, action.id) == ("roll", 3, "x")
    with pytest.raises(ValidationError, match=r"action\.version"):
        ClientMessage.validate_json('{"type": "action", "action": "roll", "version": "3"}')
    with pytest.raises(ValidationError):
        ClientMessage.validate_json('{"type": "action", "action": "' + "x" * 201 + '"}')


def test_the_servers_model_names_stay_importable() -> None:
    assert models.ClientMessage is ClientMessage and models.ActionMessage is ActionMessage
    assert models.Join(seat=0, name="ann").name == "ann"
