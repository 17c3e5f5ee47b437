"""The build progress bar appears only when something is built (issue 13 §5)."""

from __future__ import annotations

from io import StringIO

import pytest
from rich.console import Console

from dicepoker.tui.progress import BuildProgress


def _console() -> tuple[Console, StringIO]:
    out = StringIO()
    return Console(file=out, force_terminal=True, width=80), out


def test_nothing_is_shown_when_nothing_is_built() -> None:
    console, out = _console()
    with BuildProgress(console, "Building the table") as bar:
        pass
    assert not bar.shown
    assert out.getvalue() == ""


def test_a_bar_is_shown_while_building_and_stopped_afterwards() -> None:
    console, out = _console()
    with BuildProgress(console, "Building the table") as bar:
        for done in range(1, 14):
            bar.update(done, 13)
    assert bar.shown
    assert "Building the table" in out.getvalue()
    assert "13/13" in out.getvalue()


def test_the_bar_is_stopped_when_the_build_fails() -> None:
    console, _ = _console()
    with pytest.raises(RuntimeError), BuildProgress(console, "Building") as bar:
        bar.update(1, 13)
        raise RuntimeError("disk full")
    assert bar._progress is None
