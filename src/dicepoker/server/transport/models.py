"""What clients send, as the server parses it: the models live in :mod:`dicepoker.protocol` (one definition
for the server, the Python client and the generated schema); these names stay importable from here."""

from __future__ import annotations

from dicepoker.protocol.frames import ActionMessage, ClientMessage, PingMessage
from dicepoker.protocol.rest import ClientKey, ClientSeed, Clock, CreateTable, GameName, Join, Leave, Name, PlayNow

__all__ = [
    "ActionMessage",
    "ClientKey",
    "ClientMessage",
    "ClientSeed",
    "Clock",
    "CreateTable",
    "GameName",
    "Join",
    "Leave",
    "Name",
    "PingMessage",
    "PlayNow",
]
