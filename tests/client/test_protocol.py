import json

import pytest

from dicepoker.client.protocol import (
    AckFrame,
    Clock,
    ErrorFrame,
    LastAction,
    PongFrame,
    PresenceFrame,
    ProtocolError,
    SeatInfo,
    StateFrame,
    UnknownFrame,
    action_frame,
    parse_frame,
)

STATE = {
    "type": "state",
    "table": "t1",
    "seat": 0,
    "version": 12,
    "status": "playing",
    "view": {"dice": [1, 2]},
    "to_act": [0],
    "legal_actions": ["roll", "keep 1 2"],
    "clock": {"seat": 0, "deadline": 1763900000.25, "remaining": 27.5, "total": 30},
    "seats": [{"seat": 0, "kind": "human", "name": "ann", "bot": None, "connected": True}],
    "last": {"seat": 1, "action": "keep 1 2"},
    "result": None,
    "added_later": "ignored",
}


def test_state_frame_is_parsed_with_every_field() -> None:
    frame = parse_frame(json.dumps(STATE))
    assert isinstance(frame, StateFrame)
    assert (frame.table, frame.seat, frame.version, frame.status) == ("t1", 0, 12, "playing")
    assert frame.legal_actions == ("roll", "keep 1 2") and frame.my_turn and not frame.finished
    assert frame.clock == Clock(seat=0, deadline=1763900000.25, remaining=27.5, total=30.0)
    assert frame.seats[0].name == "ann" and frame.seats[0].connected
    assert frame.last is not None and frame.last.action == "keep 1 2"
    assert frame.raw["added_later"] == "ignored"


def test_spectator_frame_and_optional_fields() -> None:
    minimal = {"type": "state", "version": 0, "view": {}, "seat": None, "clock": None, "status": "waiting"}
    frame = parse_frame(json.dumps(minimal))
    assert isinstance(frame, StateFrame)
    assert frame.seat is None and frame.clock is None and frame.legal_actions == () and frame.to_act == ()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"type": "ack", "id": "a", "version": 3}', AckFrame("a", 3)),
        ('{"type": "error", "id": null, "reason": "not JSON"}', ErrorFrame(None, "not JSON")),
        (
            '{"type": "error", "id": "x", "reason": "stale version 1 (table is at 2)"}',
            ErrorFrame("x", "stale version 1 (table is at 2)"),
        ),
        ('{"type": "pong"}', PongFrame()),
        ('{"type": "chat", "text": "hi"}', UnknownFrame("chat", {"type": "chat", "text": "hi"})),
    ],
)
def test_other_frames(text: str, expected: object) -> None:
    assert parse_frame(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        "[1, 2]",
        '{"no": "type"}',
        '{"type": "ack", "id": 3, "version": 1}',
        '{"type": "ack", "id": "a", "version": "1"}',
        '{"type": "ack", "id": "a", "version": true}',
        '{"type": "state", "version": 1}',
        '{"type": "state", "version": 1, "view": {}, "status": "lost"}',
        '{"type": "state", "version": 1, "view": {}, "legal_actions": "roll"}',
    ],
)
def test_malformed_frames_raise_protocol_error(text: str) -> None:
    with pytest.raises(ProtocolError):
        parse_frame(text)


def test_action_frame_round_trips_and_limits_ids() -> None:
    assert json.loads(action_frame("raise 20", version=4, id="b7")) == {
        "type": "action",
        "action": "raise 20",
        "version": 4,
        "id": "b7",
    }
    with pytest.raises(ValueError, match="64"):
        action_frame("roll", version=1, id="x" * 65)


def test_presence_frame_is_typed() -> None:
    """Issue 18 §2: the server's ``presence`` frame was undocumented and read as an unknown frame."""
    text = json.dumps({"type": "presence", "table": "t1", "seats": [STATE["seats"][0], "junk"]})
    assert parse_frame(text) == PresenceFrame("t1", (SeatInfo(0, "human", "ann", None, True),))


def test_a_secret_last_action_keeps_its_seat() -> None:
    frame = parse_frame(json.dumps({**STATE, "last": {"seat": 1, "action": None}}))
    assert isinstance(frame, StateFrame) and frame.last == LastAction(1, None)


def test_every_field_the_server_sends_is_read() -> None:
    clock = {**STATE["clock"], "seats": [0], "time_bank": [20, 15.5], "banking": False}
    frame = parse_frame(json.dumps({**STATE, "clock": clock, "rematch": "t2"}))
    assert isinstance(frame, StateFrame) and frame.rematch == "t2"
    assert frame.clock is not None and frame.clock.time_bank == (20.0, 15.5) and frame.clock.seats == (0,)
