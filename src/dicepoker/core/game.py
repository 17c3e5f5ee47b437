"""The abstract game: validated keyword-only config, initial state, action notation."""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any, ClassVar, Generic, TypeVar

from dicepoker.core.errors import ConfigError, NotationError
from dicepoker.core.notation import quote
from dicepoker.core.state import State
from dicepoker.core.types import JSON, Action, Resign, Timeout, jsonable

ConfigT = TypeVar("ConfigT")
StateT = TypeVar("StateT", bound=State)


class Game(ABC, Generic[ConfigT, StateT]):
    """Rules plus a validated config. Subclasses set ``name``, ``config_type`` and the abstract methods.

    Options are keyword-only and checked once, here, so a state never sees a bad config.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    config_type: ClassVar[type[Any]]

    def __init__(self, **options: Any) -> None:
        fields = {f.name for f in dataclasses.fields(self.config_type)}
        unknown = sorted(set(options) - fields)
        if unknown:
            raise ConfigError(
                f"{self.name}: unknown option(s) {', '.join(unknown)}; known: {', '.join(sorted(fields))}"
            )
        try:
            self.config: ConfigT = self.config_type(**options)
        except TypeError as exc:
            raise ConfigError(f"{self.name}: {exc}") from exc

    def config_json(self) -> dict[str, JSON]:
        result: dict[str, JSON] = jsonable(dataclasses.asdict(self.config))  # type: ignore[call-overload]
        return result

    @property
    @abstractmethod
    def num_players(self) -> int:
        """How many seats this configuration has."""

    @abstractmethod
    def initial_state(self) -> StateT:
        """The state before anything has happened (often a chance node)."""

    @abstractmethod
    def state_from_json(self, data: Mapping[str, JSON]) -> StateT:
        """Read back ``State.to_json()``; raises ``ValueError`` on malformed data."""

    def parse_action(self, text: str) -> Action:
        """Parse an action's text form; raises :class:`NotationError` with the reason."""
        words = text.split()
        if words == ["timeout"]:
            return Timeout()
        if words == ["resign"]:
            return Resign()
        return self._parse_game_action(words, text)

    @abstractmethod
    def _parse_game_action(self, words: list[str], text: str) -> Action:
        """Parse the game's own actions (``words`` is ``text.split()``)."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.config!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and type(other) is type(self) and bool(other.config == self.config)

    def __hash__(self) -> int:
        return hash((type(self), self.config))


def unknown_action(game: str, text: str, known: str) -> NotationError:
    return NotationError(f"{game}: cannot read action {quote(text)}; expected one of: {known}")
