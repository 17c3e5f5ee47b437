"""A progress bar for the rare long wait: building a table that is cached afterwards.

It appears on the first progress report only, so a table read back from the cache in milliseconds shows
nothing at all, and it always leaves the terminal tidy (also when the build fails or is interrupted).
"""

from __future__ import annotations

from types import TracebackType

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeElapsedColumn


class BuildProgress:
    """``with BuildProgress(console, "Building …") as bar: load(progress=bar.update)``."""

    def __init__(self, console: Console, description: str) -> None:
        self.console = console
        self.description = description
        self.shown = False
        """Whether the bar appeared (that is, whether anything was built)."""
        self._progress: Progress | None = None
        self._task: TaskID | None = None

    def update(self, done: int, total: int) -> None:
        if self._progress is None:
            self._progress = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=self.console,
                transient=True,
            )
            self._progress.start()
            self._task = self._progress.add_task(self.description, total=total)
            self.shown = True
        if self._task is not None:
            self._progress.update(self._task, completed=done, total=total)

    def __enter__(self) -> BuildProgress:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if self._progress is not None:
            self._progress.stop()
            self._progress = None
