"""A loopback TCP proxy in front of the test PostgreSQL that can play a PostgreSQL restart.

``restart()`` drops every connection (as a stopping PostgreSQL does) and then answers every new one as a
starting PostgreSQL does: an ErrorResponse with SQLSTATE 57P03, "the database system is starting up"
(asyncpg raises ``CannotConnectNowError``). ``up()`` forwards again. The shared PostgreSQL itself is
never touched (other test runs use it).
"""

from __future__ import annotations

import asyncio
import contextlib
import struct
import threading
from collections.abc import Iterator

SSL_REQUEST = 80877103
STARTING_UP = b"".join([b"SFATAL\0", b"VFATAL\0", b"C57P03\0", b"Mthe database system is starting up\0", b"\0"])


class PostgresProxy:
    def __init__(self, target: tuple[str, int] = ("127.0.0.1", 5432)) -> None:
        self.target = target
        self.starting = False
        self.refused = 0
        """Connections answered "starting up"."""
        self.port = 0
        self._writers: set[asyncio.StreamWriter] = set()
        self._loop = asyncio.new_event_loop()
        self._server: asyncio.Server | None = None
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)

    def start(self) -> None:
        self._thread.start()
        self._server = self._call(asyncio.start_server(self._serve, "127.0.0.1", 0))
        self.port = self._server.sockets[0].getsockname()[1]

    def stop(self) -> None:
        async def stop() -> None:
            assert self._server is not None
            self._server.close()
            self._drop()

        self._call(stop())
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)

    def restart(self) -> None:
        """Drop every connection; answer new ones "starting up" until :meth:`up`."""

        async def down() -> None:
            self.starting = True
            self._drop()

        self._call(down())

    def up(self) -> None:
        self.starting = False

    def _call(self, coroutine: object) -> asyncio.Server:
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result(timeout=10)  # type: ignore[arg-type,no-any-return]

    def _drop(self) -> None:
        for writer in list(self._writers):
            writer.transport.abort()
        self._writers.clear()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._writers.add(writer)
        try:
            if self.starting:
                await self._starting_up(reader, writer)
                return
            upstream_reader, upstream_writer = await asyncio.open_connection(*self.target)
            self._writers.add(upstream_writer)
            await asyncio.gather(_pipe(reader, upstream_writer), _pipe(upstream_reader, writer))
        except (OSError, asyncio.IncompleteReadError):
            pass
        finally:
            self._writers.discard(writer)
            writer.transport.abort()

    async def _starting_up(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        length, code = struct.unpack("!ii", await reader.readexactly(8))
        if code == SSL_REQUEST:
            writer.write(b"N")  # no TLS: the client sends its startup message next
            length, _ = struct.unpack("!ii", await reader.readexactly(8))
        await reader.readexactly(length - 8)
        writer.write(b"E" + struct.pack("!i", len(STARTING_UP) + 4) + STARTING_UP)
        await writer.drain()
        self.refused += 1


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    with contextlib.suppress(OSError):
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    writer.transport.abort()


@contextlib.contextmanager
def postgres_proxy() -> Iterator[PostgresProxy]:
    proxy = PostgresProxy()
    proxy.start()
    try:
        yield proxy
    finally:
        proxy.stop()
