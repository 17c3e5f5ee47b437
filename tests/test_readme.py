"""The README a new user reads first (issue 13 §4): a virtual environment, rules inside the repository, who starts."""

from __future__ import annotations

import re
from pathlib import Path

from dicepoker.games.registry import create

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_two_commands_come_first_and_a_virtual_environment_is_created() -> None:
    first_block = README.split("```bash\n", 1)[1].split("```", 1)[0].splitlines()
    assert first_block[0].startswith("pip install -e . && dicepoker play scorecard")
    extras = re.match(r'pip install -e "\.\[([a-z,]+)\]" && pytest', first_block[1])
    assert extras is not None and "dev" in extras.group(1).split(",")
    # CI installs exactly what the README tells a developer to install.
    assert f'-e ".[{extras.group(1)}]"' in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "python3 -m venv .venv && . .venv/bin/activate" in README


def test_the_rules_are_linked_inside_the_repository() -> None:
    assert "../shared" not in README
    assert "[docs/RULES.md](docs/RULES.md)" in README
    rules = (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")
    for clause in ("CM-3", "SC-1", "BD-12", "PK-14", "HE-16"):
        assert re.search(rf"\*\*{clause}\*\*", rules), clause


def test_the_readme_says_the_scorecard_starts_with_seat_0_as_the_game_does() -> None:
    assert "seat 0" in README and "you always take the first turn" in README
    state = create("scorecard", players=3).initial_state()
    assert state.seat == 0 and state.to_act == (0,)
