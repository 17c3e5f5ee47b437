"""The one writer and reader of hand histories; the per-game part is a :class:`Variant`.

Layout of a history (TOML; its first line, a comment, names the format and the game)::

    # <game title> hand history (dicepoker): one line per action; 'd' is ..., 'pN' seat N.
    variant = "<game name>"
    <config key> = <value>          one line per option of the game's config, as logged
    seed = 7                        or "# seed unknown"
    fairness = { "scheme" = …, … }  only for a game from an online table (its dice's fairness record;
                                    a null field, the unrevealed server seed, is left out)
    actions = [
      "d <chance outcome>",         a die (seat None in the log)
      "p0 <action>",                seat 0's action, in the game's own text form
      # comments                    written from a replay, ignored by the reader
    ]

The config keys are the fields of the game's config dataclass, so a new option round-trips without
touching this module. The reader checks everything, the actions by replaying them, and raises
:class:`~dicepoker.core.errors.CorruptLog` naming what is wrong (CM-4: reading changes nothing).
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import re
import tomllib
from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any, ClassVar, Generic, TypeVar

from dicepoker.core.errors import ConfigError, CorruptLog
from dicepoker.core.log import Event, EventLog, check_fairness, replay_states
from dicepoker.core.state import State
from dicepoker.core.types import JSON
from dicepoker.games.registry import create, game_class, replay

StateT = TypeVar("StateT", bound=State)

_VARIANTS: dict[str, str] = {
    "holdem": "dicepoker.games.history.holdem:HoldemHistory",
    "peekpoker": "dicepoker.games.history.peekpoker:PeekPokerHistory",
}
_TITLE = re.compile(r"# .+ hand history \(dicepoker\):")
_HEADER_KEYS = ("variant", "seed", "fairness", "actions")
_SEAT = re.compile(r"p([0-9]+)")


class Variant(ABC, Generic[StateT]):
    """What one game adds to the format: its title line and the comments that annotate its hands."""

    title: ClassVar[str]
    """The first line: ``# <game title> hand history (dicepoker): …`` (:func:`is_history` looks for it)."""

    @abstractmethod
    def comments(self, event: Event, before: StateT, after: StateT) -> list[str]:
        """Comments (without the ``#``) to write after ``event``, which led from ``before`` to ``after``."""


def variant_names() -> list[str]:
    """The games that have hand histories.

    >>> variant_names()
    ['holdem', 'peekpoker']
    """
    return list(_VARIANTS)


def _variant(name: str) -> Variant[Any]:
    module_name, class_name = _VARIANTS[name].split(":")
    variant: Variant[Any] = getattr(importlib.import_module(module_name), class_name)()
    return variant


def _config_keys(game: str) -> tuple[str, ...]:
    return tuple(field.name for field in dataclasses.fields(game_class(game).config_type))


def is_history(text: str) -> bool:
    """Whether ``text`` starts like a hand history (of any variant, known or not)."""
    return bool(_TITLE.match(text.lstrip()))


# -- writing ----------------------------------------------------------------------------------------
def write_history(log: EventLog) -> str:
    """The log as a hand history, annotated hand by hand (replays the log to write the comments).

    Raises :class:`CorruptLog` for a game without hand histories, a bad config or an illegal action.
    """
    if log.game not in _VARIANTS:
        raise CorruptLog(f"hand histories are for {' and '.join(_VARIANTS)} games, not {log.game!r}")
    variant = _variant(log.game)
    try:
        game = create(log.game, **log.config)
    except ConfigError as exc:
        raise CorruptLog(f"log header has a bad config: {exc}") from exc
    states = replay_states(game, log.events)
    lines = [variant.title, f"variant = {json.dumps(log.game)}"]
    lines += [f"{key} = {_toml_value(key, log.config[key])}" for key in _config_keys(log.game) if key in log.config]
    lines.append(f"seed = {log.seed}" if log.seed is not None else "# seed unknown")
    if log.fairness is not None:
        lines.append(f"fairness = {_toml_table(log.fairness)}")
    lines.append("actions = [")
    for event, before, after in zip(log.events, states[:-1], states[1:], strict=True):
        who = "d" if event.seat is None else f"p{event.seat}"
        lines.append(f"  {json.dumps(f'{who} {event.action}')},")
        lines += [f"  # {comment}" for comment in variant.comments(event, before, after)]
    final = states[-1]
    if final.is_terminal:
        result = final.result()
        lines.append(f"  # game over: {result.reason}; chips {' '.join(str(s) for s in result.scores)}")
    lines.append("]")
    return "\n".join(lines) + "\n"


def _toml_value(key: str, value: JSON) -> str:
    if isinstance(value, bool | int | str) or (isinstance(value, float) and value == value):
        return json.dumps(value)  # JSON's bool, int, float and string forms are TOML too
    raise CorruptLog(f"config {key} = {value!r} cannot be written to a hand history")


def _toml_table(record: Mapping[str, JSON]) -> str:
    """A fairness record as a TOML inline table; TOML has no null, so null fields are left out."""
    items = [f"{json.dumps(key)} = {_toml_item(value)}" for key, value in record.items() if value is not None]
    return "{ " + ", ".join(items) + " }"


def _toml_item(value: JSON) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_toml_item(item) for item in value) + "]"
    if isinstance(value, str):
        # Not ensure_ascii: the \uXXXX of a surrogate pair is not TOML; DEL must be escaped in TOML, not in JSON.
        return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")
    raise CorruptLog(f"fairness value {value!r} cannot be written to a hand history")


# -- reading ----------------------------------------------------------------------------------------
def read_history(text: str) -> EventLog:
    """Read a hand history and check that it replays; raises :class:`CorruptLog` saying what is wrong."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise CorruptLog(f"not a hand history: {exc}") from exc
    game = data.get("variant")
    if not isinstance(game, str) or game not in _VARIANTS:
        known = ", ".join(json.dumps(name) for name in _VARIANTS)
        raise CorruptLog(f"unknown hand-history variant {game!r}: the variant must be one of {known}")
    keys = _config_keys(game)
    unknown = sorted(set(data) - set(keys) - set(_HEADER_KEYS))
    if unknown:
        raise CorruptLog(f"{game} hand history: unknown key(s) {', '.join(unknown)}; config keys: {', '.join(keys)}")
    config: dict[str, JSON] = {key: data[key] for key in keys if key in data}
    seed, actions = data.get("seed"), data.get("actions")
    if not isinstance(actions, list) or (seed is not None and (not isinstance(seed, int) or isinstance(seed, bool))):
        raise CorruptLog("a hand history needs an actions list (and an integer seed if any)")
    events = []
    for number, line in enumerate(actions, start=1):
        who, _, action = line.partition(" ") if isinstance(line, str) else ("", "", "")
        seat = _SEAT.fullmatch(who)
        if who == "d" and action:
            events.append(Event(None, action))
        elif seat and action:
            events.append(Event(int(seat[1]), action))
        else:
            raise CorruptLog(f"action {number} ({line!r}): expected 'd <dice>' or 'p<seat> <action>'")
    fairness = None
    if "fairness" in data:
        record = data["fairness"]
        fairness = check_fairness({"server_seed": None, **record} if isinstance(record, dict) else record, "fairness")
    log = EventLog(game, config, seed, tuple(events), fairness)
    replay(log)  # a bad config or an illegal action: CorruptLog naming it
    return log
