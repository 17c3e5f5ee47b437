"""DESIGN practice 1: the core and the rules have no I/O, clocks, asyncio or global randomness."""

import ast
from pathlib import Path

import pytest

import dicepoker

PACKAGE = Path(dicepoker.__file__).parent
RULE_MODULES = sorted(
    [*(PACKAGE / "core").glob("*.py"), *(PACKAGE / "dice").glob("*.py"), *(PACKAGE / "games").rglob("*.py")]
)
FORBIDDEN_IMPORTS = {"asyncio", "time", "socket", "threading", "fastapi", "starlette", "sqlalchemy", "redis"}
ALLOWED_RANDOM_NAMES = {"Random", "SystemRandom"}


@pytest.mark.parametrize("path", RULE_MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_rules_are_pure(path: Path) -> None:
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                assert alias.name.split(".")[0] not in FORBIDDEN_IMPORTS, f"{path}: imports {alias.name}"
                assert alias.name != "random", f"{path}: import Random from random instead of the module"
        elif isinstance(node, ast.ImportFrom) and node.module:
            assert node.module.split(".")[0] not in FORBIDDEN_IMPORTS, f"{path}: imports from {node.module}"
            if node.module == "random":
                names = {alias.name for alias in node.names}
                assert names <= ALLOWED_RANDOM_NAMES, f"{path}: uses global random functions {names}"
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id not in {"open", "print", "input"}, f"{path}: does I/O with {node.func.id}()"


def test_core_does_not_import_games_or_clients() -> None:
    for path in (PACKAGE / "core").glob("*.py"):
        source = path.read_text()
        for layer in ("dicepoker.games", "dicepoker.bots", "dicepoker.cli", "dicepoker.analysis"):
            if path.name == "match.py" and layer == "dicepoker.games":
                continue  # only in a doctest example
            assert f"from {layer}" not in source.split('"""')[-1], f"{path.name} imports {layer}"
