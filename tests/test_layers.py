"""DESIGN practice 1: imports point one way, from the outer layers down to the core.

Each package of ``dicepoker`` has a rank; a module may import its own package and lower ranks only, never
a higher one (``analysis`` is exact mathematics the bots use; ``arena`` plays bots against each other).
Imports inside functions count too: a lazy import still makes the dependency.
"""

import ast
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
}
MODULES = sorted(p for p in PACKAGE.rglob("*.py") if p.parent != PACKAGE)


def _layer(path: Path) -> str:
    return path.relative_to(PACKAGE).parts[0]


def _imported_layers(path: Path) -> set[str]:
    layers = set()
    for node in ast.walk(ast.parse(path.read_text())):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        for name in names:
            parts = name.split(".")
            if parts[0] == "dicepoker" and len(parts) > 1 and parts[1] in RANK:
                layers.add(parts[1])
    return layers


def test_every_package_has_a_rank() -> None:
    packages = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert packages <= set(RANK), f"give {packages - set(RANK)} a rank in RANK"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_point_down(path: Path) -> None:
    own = _layer(path)
    for layer in _imported_layers(path):
        assert RANK[layer] <= RANK[own] and (RANK[layer] < RANK[own] or layer == own), (
            f"{path.relative_to(PACKAGE)} ({own}, rank {RANK[own]}) imports dicepoker.{layer} (rank {RANK[layer]})"
        )
