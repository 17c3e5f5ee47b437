"""``dicepoker serve``: the table server (HTTP + WebSocket) on uvicorn, with a SQLite file by default.

The server modules are imported inside the command, so that ``dicepoker --help`` stays fast.
"""

from __future__ import annotations

import gc
import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from dicepoker.cli.app import app
from dicepoker.cli.common import console, error_console, user_errors

if TYPE_CHECKING:
    from dicepoker.server.settings import Settings

DATA_ENV = "DICEPOKER_DATA_DIR"


def default_db() -> str:
    """A SQLite file in ``$DICEPOKER_DATA_DIR``, else in the user data directory of ``dicepoker``."""
    folder = os.environ.get(DATA_ENV)
    if not folder:
        import platformdirs

        folder = platformdirs.user_data_dir("dicepoker")
    return f"sqlite:///{Path(folder) / 'server.db'}"


@app.command("serve")
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="Port to listen on.")] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            envvar="DICEPOKER_DB",
            help="SQLAlchemy URL of the database (default: a SQLite file in the user data dir).",
        ),
    ] = None,
    redis: Annotated[
        str | None,
        typer.Option(
            envvar="DICEPOKER_REDIS",
            help="redis://host:port/db: run as one of several identical processes sharing --db (PostgreSQL).",
        ),
    ] = None,
    redis_prefix: Annotated[str, typer.Option(help="Prefix of the Redis keys and channels.")] = "dicepoker",
    rate_limit: Annotated[
        int,
        typer.Option(min=0, help="POST requests and WebSocket connections a minute per client address (0: no limit)."),
    ] = 120,
    max_open_tables: Annotated[
        int, typer.Option(min=0, help="Unfinished tables one client address may have created (0: no cap).")
    ] = 20,
    waiting_ttl: Annotated[
        float, typer.Option(min=0, help="Seconds a table may wait for players before it expires (0: never).")
    ] = 3600.0,
    autofill: Annotated[
        float, typer.Option(min=0, help="Seconds before bots take the empty seats of a play-now table.")
    ] = 10.0,
    bot_delay: Annotated[float, typer.Option(min=0, help="Seconds a server-side bot waits before acting.")] = 0.5,
    origin: Annotated[
        list[str] | None, typer.Option(help="An origin allowed besides the server's own (repeatable).")
    ] = None,
    allowed_host: Annotated[
        list[str] | None,
        typer.Option(help="A Host name this server answers to (repeatable; loopback names always when on loopback)."),
    ] = None,
    trusted_proxy: Annotated[
        list[str] | None,
        typer.Option(help="Address of a proxy whose X-Forwarded-For is believed (repeatable; e.g. 127.0.0.1)."),
    ] = None,
    max_connections_per_client: Annotated[
        int, typer.Option(min=0, help="Open connections per address, trusted proxies excepted (0: no cap).")
    ] = 256,
    max_sockets_per_client: Annotated[
        int, typer.Option(min=0, help="Open WebSockets per client address (0: no cap).")
    ] = 64,
    integrity_interval: Annotated[
        float,
        typer.Option(min=0, help="Seconds between integrity checks of a SQLite file while serving (0: at start only)."),
    ] = 600.0,
    allow_empty_db: Annotated[
        bool,
        typer.Option(
            "--allow-empty-db",
            help="Start on an empty (0-byte) SQLite file, or on a missing one where a database was.",
        ),
    ] = False,
    behind_https: Annotated[
        bool, typer.Option(help="The server is reached over https (a TLS proxy): session cookies are Secure.")
    ] = False,
) -> None:
    """Serve tables over HTTP and WebSocket until Ctrl-C (or SIGTERM).

    Example: dicepoker serve --port 8000   then open http://127.0.0.1:8000

    Several processes (behind a load balancer, see docs/deploy.md):
    dicepoker serve --port 8001 --db postgresql+asyncpg://user@host/db --redis redis://host:6379/0
    """
    with user_errors():
        import uvicorn

        from dicepoker.server.logs import configure
        from dicepoker.server.settings import Settings
        from dicepoker.server.transport.app import create_app
        from dicepoker.server.transport.listener import uvicorn_config
        from dicepoker.server.transport.security import allowed_hosts

        if redis is not None and (db is None or db.startswith("sqlite")):
            raise typer.BadParameter("--redis needs a database every process shares: --db postgresql+asyncpg://...")
        settings = Settings(
            redis_url=redis,
            redis_prefix=redis_prefix,
            rate_limit=rate_limit or None,
            max_open_tables=max_open_tables or None,
            waiting_ttl=waiting_ttl or None,
            db_url=db or default_db(),
            autofill=autofill,
            bot_delay=bot_delay,
            allowed_origins=tuple(origin or ()),
            allowed_hosts=allowed_hosts(host, allowed_host or ()),
            trusted_proxies=tuple(trusted_proxy or ()),
            max_connections_per_client=max_connections_per_client,
            max_sockets_per_client=max_sockets_per_client,
            allow_empty_db=allow_empty_db,
            integrity_interval=integrity_interval or None,
            behind_https=behind_https,
        )
        _check_database(settings)  # one plain line and exit 1 on a damaged or vanished file, not a traceback
        configure()
        shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
        shared = f", sharing through {_hide_password(redis)}" if redis else ""
        database = _hide_password(db or default_db())
        console.print(f"dicepoker server on [bold]http://{shown}:{port}[/] (database {database}{shared})")
        config = uvicorn_config(create_app(settings), settings, host=host, port=port)
        # What is loaded by now (modules, the app) lives as long as the process: kept out of the garbage
        # collector's full passes, which otherwise walk it all and stalled a busy server for over 100 ms
        # (measured on a process following 250 tables: 106-120 ms per full pass; 42 ms after this).
        gc.freeze()
        uvicorn.Server(config).run()


def _check_database(settings: Settings) -> None:
    """Before uvicorn (whose lifespan would print a failure as a traceback): the start-up checks of a SQLite
    file (:func:`~dicepoker.server.storage.dbhealth.check_sqlite_file`, run again when the storage opens), or
    that PostgreSQL answers at all."""
    import asyncio

    from rich.markup import escape
    from sqlalchemy.engine import make_url

    from dicepoker.server.storage.dbhealth import DatabaseProblem, check_reachable, check_sqlite_file
    from dicepoker.server.storage.sql import normalise_url

    if settings.db_url is None:
        return
    try:
        if not settings.db_url.startswith("sqlite"):
            asyncio.run(check_reachable(normalise_url(settings.db_url)))
            return
        database = make_url(settings.db_url).database
        if database and database != ":memory:":
            check_sqlite_file(Path(database), allow_empty=settings.allow_empty_db)
    except DatabaseProblem as exc:
        # One line, unwrapped (a log reader greps for it), and exit 1: the data, not the command, is wrong.
        error_console.print(f"[bold red]error:[/] {escape(str(exc))}", soft_wrap=True)
        raise typer.Exit(1) from None


def _hide_password(url: str) -> str:
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # not a URL SQLAlchemy knows (redis://...): show only the scheme and host
        scheme, _, rest = url.partition("://")
        return f"{scheme}://{rest.rpartition('@')[2]}"
