"""The JSON bodies clients send to the table server's HTTP routes: every field typed and bounded.

The server parses each body with these models (anything else is a 422 with the reason); the JSON Schema
of ``docs/protocol.schema.json`` is generated from them like the frames' (see :mod:`.schema`).
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


REST_BODIES: dict[str, type[BaseModel]] = {"CreateTable": CreateTable, "Join": Join, "PlayNow": PlayNow}
"""Every request body of the protocol's routes, by model name."""
