"""The JSON bodies of the table server's HTTP routes: what clients send (every field typed and bounded) and
the answers that seat them.

The server parses each request body with these models (anything else is a 422 with the reason); the Python
client reads the answers with them (unknown fields ignored). The JSON Schema of ``docs/protocol.schema.json``
is generated from them like the frames' (see :mod:`.schema`).
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

Name = Annotated[StrictStr, Field(min_length=1, max_length=40, pattern=r"^[^\x00-\x1f\x7f]+$")]
ClientSeed = Annotated[StrictStr, Field(max_length=256)]
GameName = Annotated[StrictStr, Field(min_length=1, max_length=40)]
Clock = Annotated[float, Field(gt=0, le=86_400, strict=True)]
ClientKey = Annotated[StrictStr, Field(min_length=16, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]
"""A join's idempotency key, chosen by the client at random (128 bits or more): see docs/protocol.md."""

_BODY = ConfigDict(extra="forbid", use_attribute_docstrings=True)


class CreateTable(BaseModel):
    """``POST /api/tables``: a new table."""

    model_config = _BODY
    game: GameName
    """A game's ``name`` from ``/api/games``."""
    config: dict[Annotated[str, Field(max_length=40)], Any] = Field(default_factory=dict, max_length=20)
    """Any of the game's config fields; omitted ones take their defaults."""
    seats: list[Annotated[StrictStr, Field(max_length=40)]] | None = Field(default=None, max_length=12)
    """One entry per player: ``"open"`` or ``"bot:NAME"``; its length is the number of players."""
    clock: Clock | None = None
    """Omitted: the game's CM-6 default; ``null``: no clock."""
    time_bank: Clock | None = None
    """Betting games: seconds of time bank per seat, drawn once a decision's clock runs out; needs a clock."""


class Join(BaseModel):
    """``POST /api/tables/{id}/join``: a seat at a table."""

    model_config = _BODY
    seat: Annotated[StrictInt, Field(ge=0, le=1_000_000)]
    """The open seat to take, from 0."""
    name: Name
    """1–40 printable characters."""
    client_seed: ClientSeed | None = None
    """Mixed into the dice (see Fair dice)."""
    client_key: ClientKey | None = None
    """Makes the join safe to send again: the same join answers the same seat and token."""


class PlayNow(BaseModel):
    """``POST /api/play-now``: a seat at the next waiting play-now table of a game."""

    model_config = _BODY
    game: GameName
    """A game's ``name`` from ``/api/games``."""
    name: Name
    """1–40 printable characters."""
    client_seed: ClientSeed | None = None
    """Mixed into the dice (see Fair dice)."""
    client_key: ClientKey | None = None
    """Makes the request safe to send again: it answers the seat it took, even if that table has started."""


class Leave(BaseModel):
    """``POST /api/tables/{id}/leave``: leave the table (CM-7: leaving is resigning)."""

    model_config = _BODY
    token: Annotated[StrictStr, Field(max_length=128)] | None = None
    """The seat's token, as the WebSocket takes it (``?token=``)."""


_ANSWER = ConfigDict(use_attribute_docstrings=True)


class TableCreated(BaseModel):
    """201 from ``POST /api/tables`` and ``POST /api/tables/{id}/rematch``."""

    model_config = _ANSWER
    id: StrictStr
    """The new table's id."""
    commitment: StrictStr
    """SHA-256 (hex) of the table's secret server seed: keep it (see Fair dice)."""


class SeatTaken(BaseModel):
    """200 from ``POST /api/tables/{id}/join``."""

    model_config = _ANSWER
    seat: StrictInt
    """The seat you now hold."""
    token: StrictStr
    """The only proof that you hold the seat (32 hex digits): keep it secret."""
    name: StrictStr | None = None
    """Your name as the table shows it: normalised (NFKC, spaces folded; see Names), ``null`` if you gave none."""
    mixed_scripts: bool = False
    """True when the name mixes scripts that look alike (Latin with Cyrillic, say): shown with a marker."""
    commitment: StrictStr | None = None
    """The table's commitment, SHA-256 of its secret seed, published before any die: keep it and verify the log
    against it when the game is over (see Fair dice). ``null`` from servers older than this field."""


class PlayNowSeat(SeatTaken):
    """200 from ``POST /api/play-now``: the seat, and the table it is at."""

    id: StrictStr
    """The table's id."""


REST_BODIES: dict[str, type[BaseModel]] = {"CreateTable": CreateTable, "Join": Join, "PlayNow": PlayNow, "Leave": Leave}
"""Every request body of the protocol's routes, by model name."""
REST_ANSWERS: dict[str, type[BaseModel]] = {
    "TableCreated": TableCreated,
    "SeatTaken": SeatTaken,
    "PlayNowSeat": PlayNowSeat,
}
"""The answers a client reads to take part (summaries and ``/api/games`` are described in docs/protocol.md)."""
