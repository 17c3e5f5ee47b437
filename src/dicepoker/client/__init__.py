"""Network clients of the table server (docs/protocol.md): typed frames, an asyncio connection that
reconnects and catches up, the loop that plays a seat, and a synchronous wrapper.

This layer talks to a server only over HTTP and WebSocket; it never imports :mod:`dicepoker.server`.
"""

from dicepoker.client.connection import Acked, ActionRejected, ConnectionLost, TableConnection, ws_url
from dicepoker.client.fairness import CommitmentCheck, check_commitment, check_table
from dicepoker.client.play import Chooser, play_seat, random_chooser
from dicepoker.client.protocol import (
    AckFrame,
    Clock,
    ErrorFrame,
    Frame,
    LastAction,
    PresenceFrame,
    ProtocolError,
    SeatInfo,
    StateFrame,
    action_frame,
    parse_frame,
)
from dicepoker.client.rest import Created, Left, Seated, ServerClient, ServerError
from dicepoker.client.sync import SyncClient, SyncTable

__all__ = [
    "AckFrame",
    "Acked",
    "ActionRejected",
    "Chooser",
    "Clock",
    "CommitmentCheck",
    "ConnectionLost",
    "Created",
    "ErrorFrame",
    "Frame",
    "LastAction",
    "Left",
    "PresenceFrame",
    "ProtocolError",
    "SeatInfo",
    "Seated",
    "ServerClient",
    "ServerError",
    "StateFrame",
    "SyncClient",
    "SyncTable",
    "TableConnection",
    "action_frame",
    "check_commitment",
    "check_table",
    "parse_frame",
    "play_seat",
    "random_chooser",
    "ws_url",
]
