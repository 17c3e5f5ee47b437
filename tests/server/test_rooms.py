"""The server's rooms import one way, and the table service holds no transport (DESIGN: "no I/O of its own").

    errors, logs  <-  storage  <-  accounts  <-  tables  <-  cluster  <-  settings  <-  transport

A module may import its own room and any room to its left, never one to its right. The table service and the
storage below it import no web framework, no HTTP client and no WebSocket library.
"""

import ast
from pathlib import Path

import pytest

SERVER = Path(__file__).resolve().parents[2] / "src" / "dicepoker" / "server"
ORDER = ["errors", "logs", "storage", "accounts", "tables", "cluster", "settings", "transport"]
"""Rooms (sub-packages) and the shared top-level modules, lowest first."""
RANK = {room: i for i, room in enumerate(ORDER)}
RANK["logs"] = RANK["errors"]  # both are leaves: neither imports the other or any room
TRANSPORT_FREE = ("storage", "accounts", "tables")
"""Rooms that must not know how they are reached."""
WEB_LIBRARIES = ("fastapi", "starlette", "uvicorn", "httpx", "websockets", "h11", "httptools", "wsproto")


def _room(path: Path, root: Path) -> str:
    relative = path.relative_to(root)
    return relative.parts[0] if len(relative.parts) > 1 else relative.stem


def _imports(path: Path, root: Path) -> list[tuple[int, str]]:
    """Every module an import statement names, absolute (``from . import x`` resolved against the file)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    package = ["dicepoker", "server", *path.relative_to(root).parts[:-1]]
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            # `from dicepoker.server import tables` names the room tables, not the package server
            found += [(node.lineno, f"{module}.{alias.name}") for alias in node.names]
    return found


def _target_room(module: str) -> str | None:
    parts = module.split(".")
    if parts[:2] != ["dicepoker", "server"] or len(parts) < 3:
        return None
    return parts[2] if parts[2] in RANK else None


def violations(root: Path = SERVER) -> list[str]:
    """Each import against the rooms' order, and each web library imported by a transport-free room."""
    found = []
    for path in sorted(root.rglob("*.py")):
        if "migrations" in path.parts or path == root / "__init__.py":
            continue  # Alembic's scripts import the schema only; the package's own docstring module
        room = _room(path, root)
        if room not in RANK:
            found.append(f"{path.relative_to(root)}: module outside every room (add it to a room)")
            continue
        for line, module in _imports(path, root):
            target = _target_room(module)
            if target is not None and RANK[target] > RANK[room]:
                found.append(f"{path.relative_to(root)}:{line}: {room} imports {module} ({target} is above it)")
            if room in TRANSPORT_FREE and module.split(".")[0] in WEB_LIBRARIES:
                found.append(f"{path.relative_to(root)}:{line}: {room} imports the web library {module}")
    return found


def test_the_rooms_import_one_way_and_the_table_service_knows_no_transport() -> None:
    assert violations() == []


def test_every_room_is_a_package_in_the_order() -> None:
    packages = {path.name for path in SERVER.iterdir() if (path / "__init__.py").exists()}
    assert packages == {room for room in ORDER if (SERVER / room).is_dir()}
    assert packages == {"storage", "accounts", "tables", "cluster", "transport"}


@pytest.mark.parametrize(
    ("room", "line", "expected"),
    [
        (
            "tables/planted.py",
            "from dicepoker.server.transport import app",
            "tables imports dicepoker.server.transport",
        ),
        ("tables/planted.py", "from dicepoker.server import transport", "tables imports dicepoker.server.transport"),
        ("storage/planted.py", "from ..tables import service", "storage imports dicepoker.server.tables.service"),
        ("tables/planted.py", "import fastapi", "tables imports the web library fastapi"),
        ("storage/planted.py", "from starlette.requests import Request", "web library starlette.requests"),
        ("planted.py", "import json", "module outside every room"),
    ],
)
def test_a_planted_violation_is_found(tmp_path: Path, room: str, line: str, expected: str) -> None:
    for room_name in ("storage", "tables", "transport"):
        (tmp_path / room_name).mkdir()
        (tmp_path / room_name / "__init__.py").write_text("")
    (tmp_path / room).write_text(line + "\n")
    found = violations(tmp_path)
    assert len(found) == 1 and expected in found[0], found
