"""Issue 19, item 6: what one client may hold open, against a live server configured as ``dicepoker serve``
is (:mod:`dicepoker.server.transport.listener`), on loopback. Raw sockets for slow and huge requests; a second
client address is 127.0.0.2 (all of 127/8 is loopback on Linux). Counts are small and bounded."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import time
from collections.abc import Iterator
from urllib.parse import urlsplit

import httpx
import pytest
import websockets
from websockets.exceptions import ConnectionClosed

from dicepoker.server.transport.security import allowed_hosts
from tests.server.live import Live, live_server

NEWCOMER = "127.0.0.2"


def address(live: Live) -> tuple[str, int]:
    parts = urlsplit(live.url)
    assert parts.hostname is not None and parts.port is not None
    return parts.hostname, parts.port


@contextlib.contextmanager
def raw(live: Live, source: str = "127.0.0.1") -> Iterator[socket.socket]:
    sock = socket.create_connection(address(live), timeout=5, source_address=(source, 0))
    try:
        yield sock
    finally:
        sock.close()


def read_until_closed(sock: socket.socket, timeout: float) -> bytes:
    """Everything the server sends until it closes the connection (fails after ``timeout`` seconds)."""
    sock.settimeout(timeout)
    received = b""
    with contextlib.suppress(ConnectionResetError):
        while chunk := sock.recv(65536):
            received += chunk
    return received


def healthy(live: Live, source: str = NEWCOMER) -> bool:
    transport = httpx.HTTPTransport(local_address=source)
    with httpx.Client(transport=transport, timeout=5) as client:
        return client.get(live.url + "/healthz").status_code == 200


def test_headers_larger_than_the_limit_are_refused_and_nothing_is_created() -> None:
    """A POST whose headers go on for a MiB: 400 and closed after 16 KiB, no table (was 201 with 50 MiB)."""
    with live_server(serve=True) as live, raw(live) as sock:
        body = b'{"game": "scorecard", "seats": ["open", "open"]}'
        sock.sendall(b"POST /api/tables HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n")
        sent = 0
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            for index in range(1024):  # 1 MiB of headers, a KiB at a time; the server stops reading early
                sock.sendall(b"x-filler-%d: %s\r\n" % (index, b"a" * 1000))
                sent += 1
            sock.sendall(b"content-length: %d\r\n\r\n%s" % (len(body), body))
        answer = read_until_closed(sock, 10)
        assert answer.startswith(b"HTTP/1.1 400") or sent < 1024, answer[:200]
        assert httpx.get(live.url + "/api/tables").json()["tables"] == []


def test_a_request_that_does_not_arrive_in_time_is_dropped() -> None:
    """Slow or stuck headers, a connection that sends nothing, a body that stops: all closed once their
    timeout has passed, while a newcomer is served meanwhile."""
    with contextlib.ExitStack() as stack:
        live = stack.enter_context(live_server(serve=True, header_timeout=0.5, body_timeout=0.5))
        silent, slow, stuck_body = (stack.enter_context(raw(live)) for _ in range(3))
        slow.sendall(b"GET /healthz HTTP/1.1\r\nhost: 127.0.0.1\r\n")  # and never the blank line
        stuck_body.sendall(
            b"POST /api/tables HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n"
            b'content-length: 5000\r\n\r\n{"game": '
        )
        assert healthy(live)
        for sock in (silent, slow, stuck_body):
            assert read_until_closed(sock, 10) == b""  # dropped without an answer


def test_headers_sent_a_byte_at_a_time_do_not_push_their_deadline_back() -> None:
    with live_server(serve=True, header_timeout=1) as live, raw(live) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\n")
        dropped = False
        for _ in range(50):  # at most 10 s of dribbling
            try:
                sock.sendall(b"x")
            except OSError:
                dropped = True
                break
            time.sleep(0.2)  # the client's pace: the server's deadline is what is tested
        assert dropped


def test_a_slow_upload_that_keeps_moving_is_not_dropped() -> None:
    """The body's limit is a pause between reads, not a total: 4 s of upload against a 3 s body timeout."""
    body = b'{"game": "scorecard", "seats": ["open", "open"]}'.ljust(1600)
    with live_server(serve=True, body_timeout=3) as live, raw(live) as sock:
        sock.sendall(
            b"POST /api/tables HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n"
            b"connection: close\r\ncontent-length: %d\r\n\r\n" % len(body)
        )
        for start in range(0, len(body), 100):
            sock.sendall(body[start : start + 100])
            time.sleep(0.25)  # the client's pace
        assert read_until_closed(sock, 10).startswith(b"HTTP/1.1 201")


def test_an_answered_request_whose_body_keeps_coming_is_closed() -> None:
    """A 30 MiB upload is refused with 413 from its Content-Length, and the connection closed rather than
    the rest read and thrown away (10 of them held 256 MB before)."""
    with live_server(serve=True) as live, raw(live) as sock:
        sock.sendall(
            b"POST /api/tables HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n"
            b"content-length: 31457280\r\n\r\n" + b" " * 65536
        )
        answer = read_until_closed(sock, 10)
        assert answer.startswith(b"HTTP/1.1 413"), answer[:200]


def test_connections_per_address_are_capped_and_others_still_get_in() -> None:
    """Issue: 1,100 unfinished requests from one client took /healthz down. Over the cap, one address gets
    503 and a closed socket; another address and the /healthz of everyone else are served."""
    with live_server(serve=True, max_connections_per_client=8, header_timeout=30) as live:
        with contextlib.ExitStack() as stack:
            held = [stack.enter_context(raw(live)) for _ in range(8)]
            for sock in held:
                sock.sendall(b"GET /healthz HTTP/1.1\r\n")  # unfinished
            with raw(live) as extra:
                assert read_until_closed(extra, 10).startswith(b"HTTP/1.1 503")
            assert healthy(live, NEWCOMER)
        # Closed connections are counted out again.
        for _ in range(3):
            assert healthy(live, "127.0.0.1")


def test_websockets_per_address_are_capped_with_1008_and_counted_out_when_closed() -> None:
    """Issue: 1,004 idle WebSockets from one client locked newcomers out. Over the cap: close 1008 with a
    reason; a newcomer gets in; a closed socket frees its place (and its connection's place)."""
    with live_server(serve=True, max_sockets_per_client=4, max_connections_per_client=6) as live:
        table = httpx.post(live.url + "/api/tables", json={"game": "scorecard", "seats": ["open", "open"]}).json()
        url = f"{live.ws_url}/api/tables/{table['id']}/ws"

        async def main() -> None:
            async with contextlib.AsyncExitStack() as stack:
                for _ in range(4):
                    ws = await stack.enter_async_context(websockets.connect(url))
                    assert '"state"' in await ws.recv()
                async with websockets.connect(url) as refused:
                    with pytest.raises(ConnectionClosed) as closed:
                        await refused.recv()
                    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
                    assert "more than 4 WebSockets" in closed.value.rcvd.reason
                async with websockets.connect(url, local_addr=(NEWCOMER, 0)) as newcomer:
                    assert '"state"' in await newcomer.recv()
            for _ in range(10):  # more than both caps, one after the other: each closed one is counted out
                async with websockets.connect(url) as ws:
                    assert '"state"' in await ws.recv()

        asyncio.run(main())


def test_serve_checks_the_host_only_where_it_knows_its_names() -> None:
    assert allowed_hosts("127.0.0.1", ()) == ("localhost", "127.0.0.1", "::1")
    assert allowed_hosts("::1", ["Dice.Example.org"]) == ("localhost", "127.0.0.1", "::1", "dice.example.org")
    assert allowed_hosts("0.0.0.0", ()) is None
    assert allowed_hosts("0.0.0.0", ["dice.example.org"]) == ("dice.example.org",)
