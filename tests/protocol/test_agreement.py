"""DESIGN practice 13, issue 18 §2: a frame the server sends is documented, and a documented frame is handled
by both clients (the Python client and the browser); the generated schema, browser module and docs tables are
what the models give. Each check is also shown to fail on a planted violation."""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path

import pytest

from dicepoker.client.protocol import PING, UnknownFrame, action_frame, frame_from_json
from dicepoker.protocol import schema
from dicepoker.protocol.frames import CLIENT_FRAMES, SERVER_FRAMES, ClientMessage
from tests.protocol.agreement import ROOT, Sources, browser_sent, problems, sent_types

EXAMPLES = {
    "state": {
        "type": "state",
        "table": "t",
        "seat": 0,
        "version": 1,
        "status": "playing",
        "view": {},
        "to_act": [0],
        "legal_actions": ["roll"],
        "clock": None,
        "seats": [],
        "last": None,
        "result": None,
        "rematch": None,
    },
    "presence": {
        "type": "presence",
        "table": "t",
        "seats": [{"seat": 0, "kind": "human", "name": "ann", "bot": None, "connected": True}],
    },
    "ack": {"type": "ack", "id": "a", "version": 2},
    "error": {"type": "error", "id": None, "reason": "malformed message"},
    "pong": {"type": "pong"},
}


def test_every_frame_sent_is_documented_and_handled_by_both_clients() -> None:
    assert problems(Sources.of_this_tree()) == []


def test_the_server_sends_every_frame_type_it_defines() -> None:
    assert sent_types(Sources.of_this_tree().server) == set(SERVER_FRAMES)


def test_an_undocumented_frame_the_server_sends_fails() -> None:
    sources = Sources.of_this_tree()
    planted = 'async def chat(connection):\n    await connection.send_json({"type": "chat", "text": "hi"})\n'
    found = problems(dataclasses.replace(sources, server=(*sources.server, planted)))
    assert found == ["the server sends 'chat' frames, undocumented"]


def test_a_frame_the_browser_does_not_handle_fails() -> None:
    sources = Sources.of_this_tree()
    browser = sources.browser.replace('case "presence":', "// presence: dropped")
    assert problems(dataclasses.replace(sources, browser=browser)) == ["web/js/api.js does not handle 'presence'"]


def test_a_frame_the_python_client_does_not_handle_fails() -> None:
    sources = Sources.of_this_tree()
    client = sources.client.replace("isinstance(frame, PresenceFrame)", "frame is None")
    assert problems(dataclasses.replace(sources, client=client)) == ["the Python client does not handle 'presence'"]


def test_a_frame_left_out_of_the_docs_fails() -> None:
    sources = Sources.of_this_tree()
    doc = sources.doc.replace("#### `presence`", "#### presence")
    assert problems(dataclasses.replace(sources, doc=doc)) == [
        "the server sends 'presence' frames, undocumented",
        "'presence' is defined in dicepoker.protocol but not documented",
    ]


@pytest.mark.parametrize("kind", sorted(SERVER_FRAMES))
def test_the_python_client_reads_each_frame_as_its_own_type(kind: str) -> None:
    frame = frame_from_json(EXAMPLES[kind])
    assert type(frame) is SERVER_FRAMES[kind] and not isinstance(frame, UnknownFrame)


def test_what_both_clients_send_is_a_client_frame() -> None:
    assert ClientMessage.validate_json(action_frame("roll", version=3, id="a1")).type == "action"
    assert ClientMessage.validate_json(PING).type == "ping"
    assert browser_sent(Sources.of_this_tree().browser) == set(CLIENT_FRAMES)


def test_the_generated_schema_browser_module_and_docs_are_up_to_date() -> None:
    assert schema.stale(ROOT) == [], f"run `{schema.COMMAND}`"
    assert schema.main(["--check"]) == 0


def _copy(tmp_path: Path) -> Path:
    for path in schema.generated(ROOT):
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / path, tmp_path / path)
    return tmp_path


def test_a_stale_schema_or_docs_table_fails_the_check(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    data = json.loads((root / schema.SCHEMA_PATH).read_text())
    del data["$defs"]["PresenceFrame"]
    (root / schema.SCHEMA_PATH).write_text(json.dumps(data))
    doc = root / schema.DOC_PATH
    doc.write_text(doc.read_text().replace("| `connected` | boolean |", "| `connected` | string |"))
    assert schema.stale(root) == [schema.SCHEMA_PATH, schema.DOC_PATH]
    assert schema.main(["--check", "--root", str(root)]) == 1
    assert schema.main(["--root", str(root)]) == 0 and schema.stale(root) == []  # writing them mends them


def test_the_docs_need_every_generated_block(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    doc = root / schema.DOC_PATH
    doc.write_text(doc.read_text().replace("<!-- end generated: client-frames -->", ""))
    with pytest.raises(ValueError, match="client-frames"):
        schema.stale(root)


def test_the_schema_lists_both_directions() -> None:
    defs = schema.json_schema()["$defs"]
    server = [ref["$ref"].rsplit("/", 1)[-1] for ref in defs["ServerFrame"]["oneOf"]]
    assert server == [model.__name__ for model in SERVER_FRAMES.values()]
    assert "time_bank" not in defs["Clock"]["required"]  # sent only at tables with a time bank
    state = defs["StateFrame"]
    assert state["required"][:3] == ["table", "seat", "version"] and "raw" not in state["properties"]
