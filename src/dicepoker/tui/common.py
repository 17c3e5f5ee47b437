"""What every terminal client shares: coloured dice, line input, the turn clock, saving the game.

Input is read from the file descriptor with ``select`` rather than with ``input()``: Python's own stdin
buffer may hold lines that ``select`` cannot see, which would make a time limit wait on input that has
already arrived when commands come through a pipe.
"""

from __future__ import annotations

import io
import math
import os
import select
import sys
import time
from collections.abc import Callable, Sequence
from random import SystemRandom
from typing import TextIO

from rich.console import Console
from rich.text import Text

from dicepoker.core.errors import ConfigError

# One colour per face of a standard die, so equal faces stand out at a glance.
STANDARD_DIE_STYLES: dict[int, str] = {
    1: "bold white on red",
    2: "bold black on yellow",
    3: "bold white on green",
    4: "bold white on blue",
    5: "bold white on magenta",
    6: "bold black on cyan",
}

QUIT_WORDS = frozenset({"quit", "exit", "q"})


# -- dice -------------------------------------------------------------------------------------------
def dice_text(
    faces: Sequence[int | str],
    styles: Sequence[str] | None = None,
    *,
    positions: bool = True,
) -> Text:
    """Dice as coloured boxes, with their 1-based positions above them when ``positions`` is set.

    ``styles`` gives each die's Rich style (default: one colour per standard face); other games pass
    their own faces (``"K"``) and colours.

    >>> dice_text([3, 1, 6]).plain.splitlines()
    ['position   1    2    3', '    dice   3    1    6 ']
    """
    if styles is None:
        styles = [STANDARD_DIE_STYLES.get(f, "bold") if isinstance(f, int) else "bold" for f in faces]
    labels = [str(face) for face in faces]
    width = max((len(label) for label in labels), default=1) + 2
    text = Text()
    if positions:
        numbers = "  ".join(str(n).center(width) for n in range(1, len(labels) + 1))
        text.append(f"position  {numbers}".rstrip() + "\n")
    text.append("    dice  ")
    for index, (label, style) in enumerate(zip(labels, styles, strict=True)):
        text.append("  " if index else "")
        text.append(label.center(width), style=style)
    return text


# -- input ------------------------------------------------------------------------------------------
class LineReader:
    """Reads command lines from a stream, optionally with a time limit, through a terminal or a pipe.

    ``read_line`` returns the line without its end, ``None`` if the time limit passed first, and raises
    :class:`EOFError` at the end of input. A stream with no file descriptor (a test harness's buffer) is
    read with ``readline`` and cannot time out.
    """

    def __init__(self, stream: TextIO | None = None) -> None:
        self._stream = stream if stream is not None else sys.stdin
        try:
            self._fd: int | None = self._stream.fileno()
        except (AttributeError, OSError, io.UnsupportedOperation):
            self._fd = None
        self._pending = b""
        self._ended = False

    @property
    def interactive(self) -> bool:
        """Whether a person types at a terminal (otherwise commands are not echoed back by anyone)."""
        try:
            return self._stream.isatty()
        except (AttributeError, ValueError):
            return False

    @property
    def can_time_out(self) -> bool:
        return self._fd is not None

    def read_line(self, timeout: float | None = None, tick: Callable[[float], None] | None = None) -> str | None:
        """One line; ``None`` when ``timeout`` seconds pass first. ``tick(seconds left)`` is called about once a
        second while waiting (a live countdown)."""
        if self._fd is None:
            line = self._stream.readline()
            if not line:
                raise EOFError
            return line.rstrip("\r\n")
        deadline = None if timeout is None else time.monotonic() + timeout
        while b"\n" not in self._pending:
            if self._ended:
                if not self._pending:
                    raise EOFError
                break
            if deadline is not None:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return None
                # Wake at each whole second left, so that the countdown moves while the player thinks.
                wait = remaining - math.floor(remaining - 1e-9) if tick is not None else remaining
                if not select.select([self._fd], [], [], max(wait, 0.001))[0]:
                    if tick is not None and deadline - time.monotonic() > 0:
                        tick(deadline - time.monotonic())
                    continue
            chunk = os.read(self._fd, 4096)
            if chunk:
                self._pending += chunk
            else:
                self._ended = True
        line, _, self._pending = self._pending.partition(b"\n")
        return line.decode("utf-8", errors="replace").rstrip("\r")

    def discard_typed(self) -> None:
        """Forget what a person typed but did not send yet, at a terminal (``termios.tcflush``): text typed
        around a timeout must not be played at the next turn. Piped commands are a script and are kept."""
        if self._fd is None or not self.interactive:
            return
        self._pending = b""
        try:
            import termios

            termios.tcflush(self._fd, termios.TCIFLUSH)
        except (ImportError, OSError):
            pass


class TurnClock:
    """A client's turn clock (``--clock SECONDS``, CM-6): each decision of a person gets ``seconds``.

    When :func:`ask` returns ``None`` the time is up and the client applies the engine's ``Timeout``
    action; the game's rules say what it means (SC-14, HE-16, PK-15). ``None`` seconds: no clock.

    >>> TurnClock(None).seconds is None
    True
    >>> TurnClock(0)
    Traceback (most recent call last):
    ...
    dicepoker.core.errors.ConfigError: --clock must be a positive number of seconds, got 0
    """

    def __init__(self, seconds: float | None) -> None:
        if seconds is not None and not (math.isfinite(seconds) and seconds > 0):
            raise ConfigError(f"--clock must be a positive number of seconds, got {seconds:g}")
        self.seconds = seconds


def ask(console: Console, reader: LineReader, prompt: str, deadline: float | None = None) -> str | None:
    """Show ``prompt`` (with the seconds left before ``deadline``, a ``time.monotonic`` time) and read one
    line; ``None`` when time is up. At a terminal the seconds count down live without touching what the
    player is typing. Commands that do not come from a person at a terminal are echoed for the transcript.
    """
    remaining = None if deadline is None or not reader.can_time_out else max(0.0, deadline - time.monotonic())
    clock = "" if remaining is None else f"[{math.ceil(remaining):>3}s] "
    console.print(f"{clock}{prompt}", end="", markup=False, highlight=False)
    console.file.flush()
    live = remaining is not None and reader.interactive and console.is_terminal

    def tick(left: float) -> None:
        # Save the cursor, rewrite the clock at the start of the line, restore the cursor: the typing stays.
        console.file.write(f"\x1b7\r[{math.ceil(left):>3}s]\x1b8")
        console.file.flush()

    line = reader.read_line(remaining, tick if live else None)
    if line is None:
        console.print()
    elif not reader.interactive:
        console.print(line, markup=False, highlight=False)
    return line


# -- games ------------------------------------------------------------------------------------------
def pick_seed(seed: int | None) -> int:
    """The seed to play: the one given, or a fresh one (shown to the player so the game can be replayed)."""
    return seed if seed is not None else SystemRandom().randrange(2**31)
