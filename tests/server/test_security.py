"""Issue 19, item 12: security headers, the Host check, X-Forwarded-For trust, 413 for chunked bodies,
refused WebSockets closed with 1008, and the error answers in the OpenAPI document."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator

import httpx
import pytest
import websockets
from fastapi.testclient import TestClient
from websockets.exceptions import ConnectionClosed

from dicepoker.server.settings import Settings
from dicepoker.server.transport.app import WEB_DIR, create_app
from dicepoker.server.transport.security import allowed_hosts, host_name
from tests.server.live import live_server

TABLE = {"game": "scorecard", "seats": ["open", "open"]}


@pytest.fixture
def client() -> Iterator[TestClient]:
    settings = Settings(scheduler=False, warm_tables=False, allowed_hosts=allowed_hosts("127.0.0.1", ()))
    with TestClient(create_app(settings), base_url="http://localhost:8000") as test_client:
        yield test_client


def test_every_answer_carries_the_security_headers(client: TestClient) -> None:
    answers = [
        client.get("/"),  # the browser client
        client.get("/js/app.js"),
        client.get("/api/games"),
        client.get("/api/tables/nothere"),  # 404
        client.post("/api/tables", content=b"x" * 70_000, headers={"content-type": "application/json"}),  # 413
        client.get("/", headers={"host": "evil.example"}),  # refused by the Host check
    ]
    assert [a.status_code for a in answers] == [200, 200, 200, 404, 413, 400]
    for answer in answers:
        policy = answer.headers["content-security-policy"]
        assert "frame-ancestors 'none'" in policy and "script-src 'self';" in policy
        assert "'unsafe-inline'" not in policy
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert answer.headers["referrer-policy"] == "no-referrer"
    docs = client.get("/docs")  # Swagger UI: its CDN script and inline start-up, and only there
    assert "https://cdn.jsdelivr.net" in docs.headers["content-security-policy"]


def test_the_browser_client_needs_no_inline_script_or_style() -> None:
    """The CSP forbids inline script and style: index.html must use neither (the e2e tests run under it)."""
    html = (WEB_DIR / "index.html").read_text()
    scripts = re.findall(r"<script\b[^>]*>", html)
    assert scripts and all(" src=" in tag for tag in scripts)
    assert "<style" not in html and " style=" not in html
    assert not re.search(r"\son[a-z]+\s*=", html)  # no onclick= and the like


def test_the_host_header_must_name_this_server(client: TestClient) -> None:
    """DNS rebinding: a page on rebind.example whose name now resolves to 127.0.0.1 reaches the server
    under that name; a server on loopback answers only to loopback names (and those configured)."""
    assert client.post("/api/tables", json=TABLE, headers={"host": "rebind.example:8000"}).status_code == 400
    assert client.get("/api/tables").json()["tables"] == []  # nothing was created
    for host in ("localhost:8000", "127.0.0.1:8000", "[::1]:8000", "LOCALHOST"):
        assert client.get("/api/games", headers={"host": host}).status_code == 200
    assert host_name("[::1]:8000") == "::1" and host_name("Example.org") == "example.org"


def test_a_websocket_with_a_foreign_host_is_closed_with_1008() -> None:
    with live_server(allowed_hosts=("localhost",)) as live:
        table = httpx.post(live.url + "/api/tables", json=TABLE, headers={"host": "localhost"}).json()

        async def main() -> None:
            url = f"{live.ws_url}/api/tables/{table['id']}/ws"
            async with websockets.connect(url, additional_headers={"host": "rebind.example"}) as ws:
                with pytest.raises(ConnectionClosed) as closed:
                    await ws.recv()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
            assert "Host" in closed.value.rcvd.reason

        assert httpx.get(live.url + "/api/games").status_code == 400  # Host 127.0.0.1:port is not "localhost"
        asyncio.run(main())


def test_a_chunked_body_over_the_limit_gets_413_not_400() -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"game": "scorecard", "seats": ["open", "open"], "x": "'
        for _ in range(10):
            yield b"a" * 10_000
        yield b'"}'

    with live_server() as live:
        answer = httpx.post(live.url + "/api/tables", content=chunks(), headers={"content-type": "application/json"})
        assert answer.request.headers.get("transfer-encoding") == "chunked"
        assert answer.status_code == 413, answer.text
        assert answer.json() == {"detail": "request body larger than 65536 bytes"}


def test_x_forwarded_for_is_believed_only_from_a_configured_proxy() -> None:
    """Rate limit 2 POSTs a minute per client: three "clients" that only claim other addresses in
    X-Forwarded-For are one client (127.0.0.1 is no proxy unless configured); behind a trusted proxy, three."""
    claims = [{"x-forwarded-for": f"203.0.113.{n}"} for n in (1, 2, 3)]
    with live_server(serve=True, rate_limit=2) as live:
        statuses = [httpx.post(live.url + "/api/tables", json=TABLE, headers=h).status_code for h in claims]
        assert statuses == [201, 201, 429]
    with live_server(serve=True, rate_limit=2, trusted_proxies=("127.0.0.1",)) as live:
        statuses = [httpx.post(live.url + "/api/tables", json=TABLE, headers=h).status_code for h in claims]
        assert statuses == [201, 201, 201]


def test_a_websocket_over_the_rate_limit_is_closed_with_1008_and_a_reason() -> None:
    """docs/protocol.md promises close codes: a refused handshake used to be an HTTP 403 without a reason."""
    with live_server(rate_limit=1) as live:
        table = httpx.post(live.url + "/api/tables", json=TABLE).json()
        url = f"{live.ws_url}/api/tables/{table['id']}/ws"

        async def main() -> None:
            async with websockets.connect(url) as ws:
                assert '"state"' in await ws.recv()
            async with websockets.connect(url) as ws:
                with pytest.raises(ConnectionClosed) as closed:
                    await ws.recv()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
            assert closed.value.rcvd.reason == "too many requests: at most 1 a minute"

        asyncio.run(main())


def test_the_openapi_document_describes_the_error_answers(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    schemas = schema["components"]["schemas"]
    assert schemas["ErrorBody"]["properties"] == {"detail": {"title": "Detail", "type": "string"}}
    assert "HTTPValidationError" not in schemas  # FastAPI's shape, never sent by this server
    paths = schema["paths"]

    def codes(method: str, path: str) -> set[str]:
        return {code for code in paths[path][method]["responses"] if code[0] in "45"}

    assert codes("post", "/api/tables/{table_id}/join") == {"400", "404", "409", "413", "422", "429"}
    assert codes("post", "/api/tables") == {"400", "413", "422", "429"}
    assert codes("get", "/api/tables/{table_id}") == {"400", "404", "422"}
    assert codes("get", "/healthz") == {"400"}
    error = paths["/api/play-now"]["post"]["responses"]["409"]["content"]["application/json"]["schema"]
    assert error == {"$ref": "#/components/schemas/ErrorBody"}
