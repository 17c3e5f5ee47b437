"""Where the protocol's one definition must agree with the code and the docs, read from their sources.

- *sent*: every ``{"type": "<name>", ...}`` dict the server builds (ASGI scopes and messages, such as
  ``"http"`` or ``"http.response.start"``, are not frames);
- *documented*: the frame headings of docs/protocol.md's generated blocks;
- *handled*: an ``isinstance(frame, <Frame class>)`` branch in the Python client's dispatch, and a
  ``case "<name>":`` in the browser's ``web/js/api.js``;
- *sent by the clients*: the ``type`` of every frame the browser builds (the Python client's are checked
  against the models directly).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import dicepoker
from dicepoker.protocol.frames import CLIENT_FRAMES, SERVER_FRAMES

PACKAGE = Path(dicepoker.__file__).resolve().parent
ROOT = PACKAGE.parent.parent
ASGI = frozenset({"http", "websocket", "lifespan"})
"""ASGI scope types; ASGI message types all have a dot."""


@dataclass(frozen=True)
class Sources:
    server: tuple[str, ...]
    """The text of every module of dicepoker.server."""
    doc: str
    client: str
    """dicepoker/client/connection.py and protocol.py."""
    browser: str
    """web/js/api.js."""

    @classmethod
    def of_this_tree(cls) -> Sources:
        server = tuple(p.read_text() for p in sorted((PACKAGE / "server").rglob("*.py")))
        client = "\n".join((PACKAGE / "client" / name).read_text() for name in ("connection.py", "protocol.py"))
        return cls(
            server=server,
            doc=(ROOT / "docs" / "protocol.md").read_text(),
            client=client,
            browser=(PACKAGE / "web" / "js" / "api.js").read_text(),
        )


def sent_types(modules: Iterable[str]) -> set[str]:
    kinds: set[str] = set()
    for text in modules:
        for node in ast.walk(ast.parse(text)):
            if not isinstance(node, ast.Dict):
                continue
            for key, value in zip(node.keys, node.values, strict=True):
                if _const(key) == "type" and isinstance(kind := _const(value), str) and not _asgi(kind):
                    kinds.add(kind)
    return kinds


def documented_types(doc: str, block: str) -> set[str]:
    match = re.search(rf"<!-- generated: {block} .*?-->(.*?)<!-- end generated: {block} -->", doc, re.DOTALL)
    return set(re.findall(r"^#### `([\w-]+)`", match.group(1), re.MULTILINE)) if match else set()


def python_handled(client: str) -> set[str]:
    by_class = {model.__name__: kind for kind, model in SERVER_FRAMES.items()}
    names = set(re.findall(r"isinstance\(frame, (\w+)\)", client))
    return {by_class[name] for name in names if name in by_class}


def browser_handled(browser: str) -> set[str]:
    return set(re.findall(r'case "([\w-]+)":', browser))


def browser_sent(browser: str) -> set[str]:
    return set(re.findall(r'send\(\{\s*type: "([\w-]+)"', browser))


def problems(sources: Sources) -> list[str]:
    """Every disagreement, in words; empty when the frames are sent, documented and handled alike."""
    defined, documented = set(SERVER_FRAMES), documented_types(sources.doc, "server-frames")
    sent = sent_types(sources.server)
    python, browser = python_handled(sources.client), browser_handled(sources.browser)
    found = [f"the server sends {kind!r} frames, undocumented" for kind in sorted(sent - documented)]
    found += [f"{kind!r} is defined in dicepoker.protocol but not documented" for kind in sorted(defined - documented)]
    found += [f"{kind!r} is documented but not defined in dicepoker.protocol" for kind in sorted(documented - defined)]
    found += [f"the Python client does not handle {kind!r}" for kind in sorted(documented - python)]
    found += [f"web/js/api.js does not handle {kind!r}" for kind in sorted(documented - browser)]
    asked = documented_types(sources.doc, "client-frames")
    found += [f"{kind!r} (client → server) is not documented" for kind in sorted(set(CLIENT_FRAMES) - asked)]
    found += [f"web/js/api.js sends {kind!r}, undocumented" for kind in sorted(browser_sent(sources.browser) - asked)]
    return found


def _asgi(kind: str) -> bool:
    return kind in ASGI or "." in kind


def _const(node: ast.expr | None) -> object:
    return node.value if isinstance(node, ast.Constant) else None
