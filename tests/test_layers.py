"""DESIGN practice 1: imports point one way, from the outer layers down to the core.

Each package of ``dicepoker`` has a rank; a module may import its own package and lower ranks only, never
a higher one (``analysis`` is exact mathematics the bots use; ``arena`` plays bots against each other).
What counts as an import (issue 18 §4 closed the holes):

- ``import dicepoker.x``, ``from dicepoker.x import y`` and ``from dicepoker import x`` (the imported name);
- relative imports (``from .. import server``), resolved against the importing module's package;
- imports inside functions (a lazy import still makes the dependency);
- importlib strings: a string constant naming a module, ``"dicepoker.x.y"`` or ``"dicepoker.x.y:Name"``,
  as the registries hold them.

Top-level modules are checked too: ``dicepoker/__init__.py`` runs before any module of the package, so it
imports no layer at all, and any other ``dicepoker/*.py`` needs a rank like a package.

Inside ``games`` the shared mechanics (``betting/``, ``dice_turn.py``) rank below the games, and a game's
package never imports another game's: what two games share belongs in the mechanics. What stands above the
games (the registry, the hand histories of the betting games) may use any of them.

The checker reads a tree given as a folder, so the tests plant each kind of violation in a copy of the
package and see it fail.
"""

from __future__ import annotations

import ast
import re
import shutil
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

import dicepoker

PACKAGE = Path(dicepoker.__file__).parent
RANK = {
    "core": 0,
    "protocol": 1,  # the wire protocol's one definition: below the server and the clients, above core only
    "dice": 1,
    "games": 2,
    "analysis": 3,
    "bots": 4,
    "arena": 5,
    "envs": 6,
    "server": 6,
    "tui": 7,
    "client": 7,
    "web": 7,
    "cli": 8,
    "__main__": 9,
}
"""Every package and top-level module of ``dicepoker`` (``__init__`` aside: it may import no layer)."""
GAME_MECHANICS = {"betting", "dice_turn"}
"""What the games share (``games/betting/``, ``games/dice_turn.py``): below every game."""
ABOVE_THE_GAMES = {"__init__", "registry", "history"}
"""The parts of ``games`` that may use every game. Any other package of ``games`` is one game's own."""
TRANSPORT_FREE_MODULES = (
    "server/tables/service.py",
    "server/tables/dealer.py",
    "server/tables/table.py",
    "server/tables/clocks.py",
    "server/tables/fairness.py",
)
"""The table service (DESIGN: "no I/O of its own"): neither these nor any dicepoker module they import, directly
or through others, may import a web framework. Keep this list up to date when the server is cut into packages."""
WEB_FRAMEWORKS = {"fastapi", "starlette", "uvicorn", "httpx", "websockets"}
IMPORTLIB_STRING = re.compile(r"dicepoker(\.[A-Za-z_]\w*)+(:[A-Za-z_]\w*)?")


def _modules(root: Path) -> list[Path]:
    return sorted(root.rglob("*.py"))


def _dotted(root: Path, path: Path) -> list[str]:
    """``dicepoker/games/holdem/rules.py`` -> ``["dicepoker", "games", "holdem", "rules"]`` (a package: its name)."""
    parts = [root.name, *path.relative_to(root).with_suffix("").parts]
    return parts[:-1] if parts[-1] == "__init__" else parts


def imported_names(root: Path, path: Path) -> tuple[str, ...]:
    """Every dotted name ``path`` imports or names in an importlib string (relative imports resolved)."""
    package = _dotted(root, path) if path.name == "__init__.py" else _dotted(root, path)[:-1]
    return _names_in(path.read_text(), tuple(package))


@cache  # the planted copies repeat the package's files: each text is parsed once
def _names_in(text: str, package: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(_walk_names(text, package))


def _walk_names(text: str, package: tuple[str, ...]) -> Iterator[str]:
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else ()
            module = [*base, *(node.module.split(".") if node.module else [])]
            yield ".".join(module)
            yield from (".".join([*module, alias.name]) for alias in node.names if alias.name != "*")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and IMPORTLIB_STRING.fullmatch(node.value):
            yield node.value.split(":")[0]


def _place(root: Path, dotted: list[str]) -> tuple[str, str | None] | None:
    """The layer of a name under ``root`` and, inside ``games``, its part (``holdem``, ``betting``...)."""
    if len(dotted) < 2 or dotted[0] != root.name:
        return None
    layer = dotted[1]
    if not ((root / layer).is_dir() or (root / f"{layer}.py").exists()):
        return None  # an attribute of the package (``from dicepoker import __version__``)
    part = dotted[2] if layer == "games" and len(dotted) > 2 else None
    if part is not None and not ((root / "games" / part).is_dir() or (root / "games" / f"{part}.py").exists()):
        part = None  # a name that ``dicepoker.games`` itself defines
    return layer, part


def _games_rank(part: str | None) -> int:
    if part in GAME_MECHANICS:
        return 0
    return 2 if part is None or part in ABOVE_THE_GAMES else 1


def violations(root: Path) -> list[str]:
    """Every import against the order of the layers in the package tree at ``root`` (its folder is the package)."""
    found = []
    for path in _modules(root):
        where = path.relative_to(root)
        own = _place(root, _dotted(root, path))
        if own is None:  # dicepoker/__init__.py: runs first whatever is imported, so it imports no layer
            for name in imported_names(root, path):
                if _place(root, name.split(".")) is not None:
                    found.append(f"{where} imports {name}: the package's __init__ imports no layer")
            continue
        layer, part = own
        if layer not in RANK:
            found.append(f"{where}: give {layer} a rank in RANK")
            continue
        if layer == "games" and len(where.parts) == 2:
            part = where.stem  # games/registry.py, games/dice_turn.py
        for name in imported_names(root, path):
            target = _place(root, name.split("."))
            if target is None or target[0] not in RANK:
                continue
            other, other_part = target
            if RANK[other] > RANK[own[0]] or (RANK[other] == RANK[layer] and other != layer):
                found.append(f"{where} ({layer}, rank {RANK[layer]}) imports {name} ({other}, rank {RANK[other]})")
            elif layer == other == "games" and other_part is not None and other_part != part:
                mine, theirs = _games_rank(part), _games_rank(other_part)
                if theirs > mine or mine == theirs == 1:  # mechanics may share, games may not
                    found.append(
                        f"{where} (games/{part}) imports {name}: the mechanics rank below the games "
                        "and no game imports another game's package"
                    )
    return found


def web_framework_imports(root: Path, modules: tuple[str, ...] = TRANSPORT_FREE_MODULES) -> list[str]:
    """Web framework imports of ``modules`` and of every module of the tree they import, directly or not."""
    found, seen, todo = [], set(), [root / m for m in modules]
    while todo:
        path = todo.pop()
        if path in seen or not path.exists():
            continue
        seen.add(path)
        for name in imported_names(root, path):
            if name.split(".")[0] in WEB_FRAMEWORKS:
                found.append(f"{path.relative_to(root)} imports {name}")
            dotted = name.split(".")
            if dotted[0] == root.name:
                for depth in range(len(dotted), 1, -1):
                    stem = root.joinpath(*dotted[1:depth])
                    if stem.with_suffix(".py").exists() or (stem / "__init__.py").exists():
                        todo.append(
                            stem.with_suffix(".py") if stem.with_suffix(".py").exists() else stem / "__init__.py"
                        )
                        break
    return sorted(set(found))


# -- the package as it is ------------------------------------------------------------------------------
def test_every_package_has_a_rank() -> None:
    packages = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    top_level = {p.stem for p in PACKAGE.glob("*.py")} - {"__init__"}
    assert packages | top_level <= set(RANK), f"give {(packages | top_level) - set(RANK)} a rank in RANK"


@cache
def _violations_of_the_package() -> tuple[str, ...]:
    return tuple(violations(PACKAGE))


@pytest.mark.parametrize("path", _modules(PACKAGE), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_point_down(path: Path) -> None:
    problems = [line for line in _violations_of_the_package() if line.startswith(f"{path.relative_to(PACKAGE)} ")]
    assert not problems, "\n".join(problems)


def test_the_table_service_is_free_of_web_frameworks() -> None:
    """Issue 18 §4: the table service has no transport inside (DESIGN, server shape)."""
    assert all((PACKAGE / m).exists() for m in TRANSPORT_FREE_MODULES), "update TRANSPORT_FREE_MODULES"
    assert web_framework_imports(PACKAGE) == []


# -- each hole closed: a violation planted in a copy of the package fails ---------------------------------
@pytest.fixture
def tree(tmp_path: Path) -> Path:
    copy = tmp_path / "dicepoker"
    shutil.copytree(
        PACKAGE, copy, ignore=lambda _, names: [n for n in names if not (n.endswith(".py") or "." not in n)]
    )
    assert violations(copy) == [] and web_framework_imports(copy) == []
    return copy


def _plant(tree: Path, module: str, code: str) -> list[str]:
    path = tree / module
    path.write_text((path.read_text() if path.exists() else "") + "\n" + code + "\n")
    return violations(tree)


@pytest.mark.parametrize(
    ("module", "code"),
    [
        pytest.param("core/planted.py", "from dicepoker import server", id="from-package-import-layer"),
        pytest.param("core/planted.py", "import dicepoker.bots.base", id="plain-import"),
        pytest.param("core/planted.py", "def later():\n    from dicepoker.tui import table", id="lazy-import"),
        pytest.param("core/planted.py", "from .. import server", id="relative-package"),
        pytest.param("dice/planted.py", "from ..games.registry import create", id="relative-module"),
        pytest.param("games/holdem/planted.py", "from ...analysis import holdem_odds", id="relative-deep"),
        pytest.param("core/planted.py", 'TARGET = "dicepoker.server.transport.app:create_app"', id="importlib-string"),
        pytest.param("core/planted.py", 'MODULES = ("dicepoker.cli.app",)', id="importlib-module-string"),
        pytest.param("__init__.py", "from dicepoker import cli", id="top-level-init"),
        pytest.param("planted.py", "X = 1", id="top-level-module-without-rank"),
        pytest.param("games/betting/planted.py", "from dicepoker.games.holdem import HoldemGame", id="mechanics-game"),
        pytest.param("games/dice_turn.py", "from dicepoker.games.scorecard import rules", id="dice-turn-game"),
        pytest.param(
            "games/betting/planted.py", "from dicepoker.games.registry import create", id="mechanics-registry"
        ),
        pytest.param(
            "games/holdem/planted.py", "from dicepoker.games.peekpoker.view import PeekPokerView", id="game-game"
        ),
        pytest.param("games/board/planted.py", "from ..scorecard import ScorecardGame", id="game-game-relative"),
        pytest.param(
            "games/scorecard/planted.py", 'GAME = "dicepoker.games.board.rules:ZepherinGame"', id="game-game-string"
        ),
        pytest.param("games/peekpoker/planted.py", "from dicepoker.games import history", id="game-above"),
    ],
)
def test_a_planted_violation_fails(tree: Path, module: str, code: str) -> None:
    found = _plant(tree, module, code)
    assert found and all(line.startswith(module) for line in found), found


@pytest.mark.parametrize(
    ("module", "code"),
    [
        pytest.param("core/planted.py", "from dicepoker import __version__", id="package-attribute"),
        pytest.param("games/holdem/planted.py", "from ..betting import Bet", id="game-mechanics"),
        pytest.param("games/holdem/planted.py", "from dicepoker.games.dice_turn import Roll", id="game-dice-turn"),
        pytest.param("games/history/planted.py", "from dicepoker.games.board import rules", id="history-game"),
        pytest.param("server/planted.py", 'TARGET = "dicepoker.bots.base:RandomBot"', id="string-downwards"),
        pytest.param("games/betting/planted.py", "from ..dice_turn import Roll", id="mechanics-share"),
    ],
)
def test_what_the_order_allows_passes(tree: Path, module: str, code: str) -> None:
    assert _plant(tree, module, code) == []


@pytest.mark.parametrize(
    ("module", "code"),
    [
        pytest.param("server/tables/dealer.py", "import fastapi", id="direct"),
        pytest.param(
            "server/tables/clocks.py", "def later():\n    from starlette.responses import Response", id="lazy"
        ),
        pytest.param("server/storage/records.py", "import httpx", id="through-an-imported-module"),
    ],
)
def test_a_web_framework_in_the_table_service_fails(tree: Path, module: str, code: str) -> None:
    _plant(tree, module, code)
    assert web_framework_imports(tree), f"{module}: {code}"
