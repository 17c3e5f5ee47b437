"""Issue 18: a game's facts live in its own package, once; no module outside ``games/`` keys a table by game name.

What is looked for, outside ``src/dicepoker/games/``:

* Python: a dict display with a game's name as a key, a ``Literal[...]`` of game names, and a comparison with a
  game's name (``name == "holdem"``, ``game in ("holdem", "peekpoker")``): the tables and ``if`` chains that
  copied a game's facts. Calling a game by name (``create("scorecard")``, ``@app.command("holdem")``) is fine.
* JavaScript: an object key or a comparison that is a game's name, except in a game's own drawing module
  (``web/js/games/<game>.js``).

A planted table in a temporary copy fails the check (the last test), so the guard itself is tested.
"""

from __future__ import annotations

import ast
import re
import shutil
from pathlib import Path

from dicepoker.games.registry import names

SRC = Path(__file__).parents[1] / "src" / "dicepoker"
GAME_NAMES = frozenset(names())

ALLOWED = {
    "bots/registry.py": "the bots layer's own map of (game, bot name) -> bot class: games may not name bot classes",
    "server/transport/web_routes.py": "per-game helper routes (scorecard review, hand names), moving to analysis",
}
"""Modules still allowed a game-name table, each with the reason; shrink this list, never grow it lightly."""

DRAWINGS = "const DRAWINGS = "
"""The browser's drawing registry (``web/js/games/index.js``) is keyed by view kind (``GameInfo.view_kind``),
some of which read like game names: that one line is allowed."""

_JS_KEY = re.compile(r"""(?:^|[{,\s])["']?(?P<name>[a-z][a-z-]*)["']?\s*:\s""")
_JS_COMPARE = re.compile(r"""[!=]==?\s*["'](?P<name>[a-z][a-z-]*)["']|["'](?P<left>[a-z][a-z-]*)["']\s*[!=]==?""")


def _names_in(node: ast.AST) -> set[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value} & GAME_NAMES
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return set().union(*(_names_in(e) for e in node.elts)) if node.elts else set()
    return set()


def python_tables(source: str) -> list[str]:
    """Game-name tables and comparisons in a Python module, as ``line: what`` strings."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Dict):
            keys = set().union(set(), *(_names_in(k) for k in node.keys if k is not None))
            if keys:
                found.append(f"{node.lineno}: dict keyed by {sorted(keys)}")
        elif isinstance(node, ast.Compare):
            hits = set().union(_names_in(node.left), *(_names_in(c) for c in node.comparators))
            if hits:
                found.append(f"{node.lineno}: comparison with {sorted(hits)}")
        elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == "Literal":
            hits = _names_in(node.slice)
            if hits:
                found.append(f"{node.lineno}: Literal of {sorted(hits)}")
    return found


def js_tables(source: str) -> list[str]:
    found = []
    for number, line in enumerate(source.splitlines(), 1):
        if line.lstrip().startswith("//") or line.startswith(DRAWINGS):
            continue
        for pattern in (_JS_KEY, _JS_COMPARE):
            for match in pattern.finditer(line):
                name = match.group("name") or match.groupdict().get("left")
                if name in GAME_NAMES:
                    found.append(f"{number}: {line.strip()[:80]}")
    return found


def offenders(root: Path) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for path in sorted(root.rglob("*.py")):
        relative = path.relative_to(root).as_posix()
        if relative.startswith("games/") or relative in ALLOWED:
            continue
        hits = python_tables(path.read_text(encoding="utf-8"))
        if hits:
            found[relative] = hits
    own_drawings = {f"web/js/games/{name}.js" for name in GAME_NAMES}
    for path in sorted((root / "web" / "js").rglob("*.js")):
        relative = path.relative_to(root).as_posix()
        if relative in own_drawings:
            continue
        hits = js_tables(path.read_text(encoding="utf-8"))
        if hits:
            found[relative] = hits
    return found


def test_no_module_outside_the_games_keeps_a_table_keyed_by_game_name() -> None:
    assert offenders(SRC) == {}


def test_the_allow_list_holds_only_modules_that_still_need_it() -> None:
    for relative in ALLOWED:
        assert python_tables((SRC / relative).read_text(encoding="utf-8")), f"{relative} no longer needs its place"


def test_a_planted_table_is_found(tmp_path: Path) -> None:
    """The guard fails on each kind of copy it exists to stop (checked in a temporary copy of the tree)."""
    root = tmp_path / "dicepoker"
    shutil.copytree(SRC, root, ignore=shutil.ignore_patterns("__pycache__", "vendor", "*.png", "*.md"))
    (root / "server" / "planted.py").write_text(
        'CLOCKS = {"scorecard": 30.0}\ndef slow(name: str) -> bool:\n    return name in ("holdem", "peekpoker")\n',
        encoding="utf-8",
    )
    (root / "web" / "js" / "planted.js").write_text(
        'const TITLES = { zepherin: "Zepherin", "classic-board": "Classic" };\n'
        'export const isBoard = (game) => game === "classic-board";\n',
        encoding="utf-8",
    )
    found = offenders(root)
    assert len(found["server/planted.py"]) == 2
    assert len(found["web/js/planted.js"]) == 3
    assert set(found) == {"server/planted.py", "web/js/planted.js"}
