"""``--save`` and ``--resume``: the game is written as it is played, so nothing a player does is lost.

* The path is checked before the game starts: a folder, a missing parent folder, or an existing file
  (unless ``--force``) is refused at once, and nothing is created.
* The log is appended to and flushed at every action, bots' and dice included, so a terminal that is
  closed or killed leaves a file that ``dicepoker replay`` reads and ``--resume`` continues.
* Scorecard and board games are JSON-lines event logs; Dice Hold'em and PeekPoker hand histories
  (:mod:`dicepoker.games.history`), whose closing ``]`` comes last: a history cut off before it reads
  as if it were there, and a line cut in the middle of being written is dropped.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TextIO

from rich.console import Console

from dicepoker.bots.base import Bot
from dicepoker.core.errors import ConfigError, CorruptLog, DicePokerError
from dicepoker.core.game import Game
from dicepoker.core.log import MAX_LOG_BYTES, Event, EventLog, replay_states
from dicepoker.core.match import Match
from dicepoker.core.state import State
from dicepoker.core.types import Seat
from dicepoker.games.history import is_history, read_history, variant_names
from dicepoker.games.history.format import HistoryWriter, close_history
from dicepoker.tui.common import LineReader
from dicepoker.tui.loop import PlayLoop, Screen
from dicepoker.tui.table import LocalTable, bot_rng


def check_save_path(path: Path, *, force: bool = False) -> None:
    """Refuse, before anything is played or created, a path the game could not be saved to."""
    if path.is_dir():
        raise ConfigError(f"--save {path}: is a folder; give a file name")
    if not path.parent.is_dir():
        raise ConfigError(f"--save {path}: the folder {path.parent} does not exist")
    if path.exists() and not force:
        raise ConfigError(f"--save {path}: the file exists; use --force to overwrite it (or --resume to continue it)")


class SaveFile:
    """The log of one game on disk, appended to as play goes (a :class:`~.table.LogSink`).

    Opening writes what the log already holds (the first dice, or a resumed game's past); with
    ``replace`` the file is first written aside and moved into place, so a resumed file is never lost.
    """

    def __init__(self, path: Path, log: EventLog, *, force: bool = False, replace: bool = False) -> None:
        self.path = path
        self.history = HistoryWriter(log) if log.game in variant_names() else None
        self._log = EventLog(log.game, log.config, log.seed)
        game: Game[object, State] = self.history.game if self.history else _create(log)
        states = replay_states(game, log.events)
        text = self._header() + "".join(
            self._event(e, b, a) for e, b, a in zip(log.events, states[:-1], states[1:], strict=True)
        )
        if replace:
            partial = path.with_name(path.name + ".partial")
            partial.write_text(text, encoding="utf-8")
            partial.replace(path)
            self._file: TextIO | None = path.open("a", encoding="utf-8")
        else:
            self._file = path.open("w" if force else "x", encoding="utf-8")
            self._file.write(text)
        self._file.flush()

    def _header(self) -> str:
        return self.history.header() if self.history else self._log.to_jsonl()

    def _event(self, event: Event, before: State, after: State) -> str:
        if self.history:
            return self.history.event(event, before, after)
        return json.dumps(event.to_json()) + "\n"

    def write(self, events: list[tuple[Event, State, State]]) -> None:
        if self._file is None:
            return
        self._file.write("".join(self._event(*item) for item in events))
        self._file.flush()

    def close(self, final: State) -> None:
        if self._file is None:
            return
        if self.history:
            self._file.write(self.history.footer(final))
        self._file.close()
        self._file = None


def _create(log: EventLog) -> Game[object, State]:
    from dicepoker.games.registry import create

    try:
        game: Game[object, State] = create(log.game, **log.config)
    except ConfigError as exc:
        raise CorruptLog(f"log header has a bad config: {exc}") from exc
    return game


# -- reading back ---------------------------------------------------------------------------------------
def parse_saved(text: str) -> EventLog:
    """A saved game, also one cut off while it was written; raises :class:`CorruptLog` saying what is wrong."""
    if is_history(text):
        try:
            return read_history(close_history(text))
        except CorruptLog:
            raise
        except (DicePokerError, ValueError, TypeError, KeyError) as exc:
            raise CorruptLog(f"damaged hand history: {exc}") from exc
    try:
        return EventLog.from_jsonl(text)
    except CorruptLog:
        if text.endswith("\n") or "\n" not in text:
            raise
        return EventLog.from_jsonl(text[: text.rfind("\n") + 1])  # the last line was cut while written


def read_saved(path: Path) -> EventLog:
    """A saved log or hand history, also one cut off while written; files too large are refused unread."""
    size = path.stat().st_size
    if size > MAX_LOG_BYTES:
        limit = MAX_LOG_BYTES // 2**20
        raise CorruptLog(f"{path} is {size:,} bytes: saved games of more than {limit} MiB are refused")
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise CorruptLog(f"{path} is not a text file: not a dicepoker game log") from None
    return parse_saved(text)


def resume_match(path: Path, game_name: str) -> Match:
    """The game saved in ``path`` (of ``game_name``), ready to go on (:meth:`Match.resume`)."""
    log = read_saved(path)
    if log.game != game_name:
        raise ConfigError(f"--resume {path}: that is a {log.game} game, not {game_name}")
    game = _create(log)
    match = Match.resume(game, log)
    if match.state.is_terminal:
        raise ConfigError(f"--resume {path}: that game is over (dicepoker replay {path} shows it)")
    return match


# -- starting a game --------------------------------------------------------------------------------------
def start_match(new_game: Callable[[], Game[object, State]], name: str, *, seed: int, resume: Path | None) -> Match:
    """A new match of ``new_game()`` from ``seed``, or the one saved in ``resume`` continued."""
    if resume is not None:
        return resume_match(resume, name)
    return Match(new_game(), seed=seed)


def open_save(match: Match, *, save: Path | None, resume: Path | None, force: bool) -> SaveFile | None:
    """Where the game is written: ``save`` (already checked), else the file it was resumed from."""
    if save is not None:
        return SaveFile(save, match.log, force=force)
    if resume is not None:
        return SaveFile(resume, match.log, replace=True)
    return None


def local_loop(
    match: Match,
    kinds: Sequence[str | None],
    bots: Mapping[Seat, Bot],
    make_screen: Callable[[LocalTable], Screen],
    *,
    clock: float | None,
    console: Console,
    reader: LineReader,
    save: Path | None,
    resume: Path | None,
    force: bool,
) -> PlayLoop:
    """The play loop of every game at one terminal: ``match`` on a local table whose bots sit where ``kinds``
    names one (``None``: a person), saved as it goes, with the clock only where input can time out."""
    table = LocalTable(
        match,
        bots=bots,
        bot_rng=bot_rng(match),
        clock=clock if reader.can_time_out else None,
        sink=open_save(match, save=save, resume=resume, force=force),
    )
    humans = [seat for seat, kind in enumerate(kinds) if kind is None]
    return PlayLoop(table, make_screen(table), humans=humans, console=console, reader=reader, save=save or resume)
