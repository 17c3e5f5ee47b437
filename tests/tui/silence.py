"""Commands through a real pipe that then stays open and silent, so a client's turn clock runs out (CM-6).

A text buffer cannot time out (it has no file descriptor), and closing the pipe would be the end of input,
so the tests write their commands into an OS pipe and keep it open. Once the client has announced the first
timeout, the pipe is closed: the next read is the end of input and the client leaves (saving if asked).
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable

from dicepoker.tui.common import LineReader

CLI = "from dicepoker.cli import main; main()"
TIME_UP = "Time is up for"
LIMIT = 30.0
"""Seconds after which the pipe is closed anyway, so a test that never sees a timeout cannot hang."""


class FallsSilent:
    """``script`` (a few lines: it must fit the pipe's buffer), then silence until ``TIME_UP`` is printed."""

    def __init__(self, script: str, output: io.StringIO) -> None:
        read_fd, self._write_fd = os.pipe()
        os.write(self._write_fd, script.encode())
        self.stream = os.fdopen(read_fd, "r", encoding="utf-8")
        self.reader = LineReader(self.stream)
        self._closed = threading.Event()
        self._watcher = threading.Thread(target=self._close_when, args=(lambda: TIME_UP in output.getvalue(),))
        self._watcher.start()

    def _close_when(self, condition: Callable[[], bool]) -> None:
        ends = time.monotonic() + LIMIT
        while not condition() and time.monotonic() < ends:
            time.sleep(0.005)
        os.close(self._write_fd)
        self._closed.set()

    def finish(self) -> None:
        self._watcher.join()
        self.stream.close()


def run_cli_falling_silent(*args: str, script: str = "") -> tuple[int, str, str]:
    """``dicepoker *args`` in a process whose stdin gets ``script``, then stays open and silent until the client
    says time is up, then closes. Returns the exit status, stdout and stderr."""
    process = subprocess.Popen(
        [sys.executable, "-c", CLI, *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdin is not None and process.stdout is not None and process.stderr is not None
    killer = threading.Timer(LIMIT, process.kill)
    killer.start()
    try:
        process.stdin.write(script)
        process.stdin.flush()
        lines = []
        for line in process.stdout:  # the clients flush at every prompt
            lines.append(line)
            if TIME_UP in line and not process.stdin.closed:
                process.stdin.close()
        status = process.wait()
        return status, "".join(lines), process.stderr.read()
    finally:
        killer.cancel()
        for stream in (process.stdin, process.stdout, process.stderr):
            stream.close()
