"""The event log: game name, config, seed and every action (chance outcomes included).

It is the unit of persistence, of hand histories and of bug reports. It serializes to JSON lines:
a header line, then one line per action, each action in its context-free text form.

A log of an online table also carries a ``fairness`` record in its header (the commit-reveal record of
its dice, :mod:`dicepoker.server.tables.fairness`). The core only checks its shape; a log without one is written
exactly as before (no ``fairness`` key at all).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from dicepoker.core.errors import CorruptLog
from dicepoker.core.fields import shown
from dicepoker.core.game import Game
from dicepoker.core.state import State
from dicepoker.core.steps import replay_steps
from dicepoker.core.types import JSON, Action, Seat

FORMAT = "dicepoker-log"
VERSION = 1
MAX_LOG_BYTES = 16 * 2**20
"""The largest log or hand history the readers accept (16 MiB): a long game's log is a few hundred KB, and
refusing larger files keeps a mistaken or hostile file from taking gigabytes of memory."""


@dataclass(frozen=True, slots=True)
class Event:
    """One applied action: who did it (``None`` for the dice) and its text form."""

    seat: Seat | None
    action: str

    def to_json(self) -> dict[str, JSON]:
        return {"seat": self.seat, "action": self.action}


@dataclass(frozen=True, slots=True)
class EventLog:
    game: str
    config: Mapping[str, JSON]
    seed: int | None
    events: tuple[Event, ...] = field(default=())
    fairness: Mapping[str, JSON] | None = None
    """The fairness record of an online table's dice (see :func:`check_fairness`), or ``None``."""

    def append(self, seat: Seat | None, action: Action) -> EventLog:
        return replace(self, events=(*self.events, Event(seat, str(action))))

    def to_jsonl(self) -> str:
        header = {"format": FORMAT, "version": VERSION, "game": self.game, "config": dict(self.config)}
        header["seed"] = self.seed
        if self.fairness is not None:  # only then: logs without one stay byte-identical to older versions
            header["fairness"] = dict(self.fairness)
        lines = [json.dumps(header, sort_keys=True)]
        lines.extend(json.dumps(event.to_json()) for event in self.events)
        return "\n".join(lines) + "\n"

    @classmethod
    def from_jsonl(cls, text: str) -> EventLog:
        """Read a log; raises :class:`CorruptLog` saying what is wrong and on which line."""
        lines = [line for line in text.splitlines() if line.strip()]
        if not lines:
            raise CorruptLog("empty file: not a dicepoker game log")
        header = _load(lines[0], 1)
        if not isinstance(header, dict) or header.get("format") != FORMAT:
            raise CorruptLog("line 1: not a dicepoker game log (missing the dicepoker-log header)")
        if header.get("version") != VERSION:
            raise CorruptLog(f"line 1: unsupported log version {shown(header.get('version'))} (this reads {VERSION})")
        game, config, seed = header.get("game"), header.get("config"), header.get("seed")
        if not isinstance(game, str) or not isinstance(config, dict):
            raise CorruptLog("line 1: header needs a game name and a config object")
        if seed is not None and not isinstance(seed, int):
            raise CorruptLog("line 1: seed must be an integer or null")
        fairness = check_fairness(header["fairness"], "line 1") if "fairness" in header else None
        events = []
        for number, line in enumerate(lines[1:], start=2):
            item = _load(line, number)
            if not isinstance(item, dict) or set(item) != {"seat", "action"}:
                raise CorruptLog(f"line {number}: expected {{'seat': …, 'action': …}}")
            seat, action = item["seat"], item["action"]
            if (seat is not None and (not isinstance(seat, int) or isinstance(seat, bool))) or not isinstance(
                action, str
            ):
                raise CorruptLog(f"line {number}: seat must be an integer or null and action a string")
            events.append(Event(seat, action))
        return cls(game, config, seed, tuple(events), fairness)


FAIRNESS_FIELDS: dict[str, str] = {
    "scheme": "a string",
    "commitment": "a string",
    "client_seeds": "a list of strings",
    "server_seed": "a string or null",
}
"""The fields every fairness record has (more may follow in later schemes: they are kept as they are)."""


def check_fairness(value: JSON, where: str) -> dict[str, JSON]:
    """``value`` as a fairness record, or :class:`CorruptLog` saying which field has the wrong shape.

    Only the shape is checked here; whether the dice match is :func:`dicepoker.server.tables.fairness.verify_log`'s job.

    >>> check_fairness({"scheme": "s", "commitment": "c", "client_seeds": [], "server_seed": None}, "line 1")["scheme"]
    's'
    """
    if not isinstance(value, dict):
        raise CorruptLog(f"{where}: fairness must be an object with {', '.join(FAIRNESS_FIELDS)}")
    for key, shape in FAIRNESS_FIELDS.items():
        item = value.get(key)
        if key == "client_seeds":
            good = isinstance(item, list) and all(isinstance(seed, str) for seed in item)
        else:
            good = isinstance(item, str) or (key == "server_seed" and item is None)
        if key not in value or not good:
            raise CorruptLog(f"{where}: fairness {key} must be {shape}, not {item!r}")
    return dict(value)


def _load(line: str, number: int) -> JSON:
    try:
        return json.loads(line)
    except json.JSONDecodeError as exc:
        raise CorruptLog(f"line {number}: not JSON ({exc.msg})") from exc
    except ValueError:  # an integer of more than 4,300 digits
        raise CorruptLog(f"line {number}: a number too long to read") from None
    except RecursionError:
        raise CorruptLog(f"line {number}: JSON nested too deeply") from None


def replay_states(game: Game[object, State], events: Iterable[Event]) -> list[State]:
    """Every state of a game, from the initial one to the last, re-applying logged actions.

    Raises :class:`CorruptLog` naming the first event that does not parse or is illegal.
    """
    state = game.initial_state()
    return [state, *(step.after for step in replay_steps(game, events, start=state))]
