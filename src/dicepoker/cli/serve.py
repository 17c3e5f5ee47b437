"""``dicepoker serve``: the table server (HTTP + WebSocket) on uvicorn, with a SQLite file by default.

The server modules are imported inside the command, so that ``dicepoker --help`` stays fast.
"""

from __future__ import annotations

import gc
import os
from pathlib import Path
from typing import Annotated

import typer

from dicepoker.cli.app import app
from dicepoker.cli.common import console, user_errors

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
) -> None:
    """Serve tables over HTTP and WebSocket until Ctrl-C (or SIGTERM).

    Example: dicepoker serve --port 8000   then open http://127.0.0.1:8000

    Several processes (behind a load balancer, see docs/deploy.md):
    dicepoker serve --port 8001 --db postgresql+asyncpg://user@host/db --redis redis://host:6379/0
    """
    with user_errors():
        import uvicorn

        from dicepoker.server.app import create_app
        from dicepoker.server.logs import configure
        from dicepoker.server.settings import Settings

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
        )
        configure()
        shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
        shared = f", sharing through {_hide_password(redis)}" if redis else ""
        database = _hide_password(db or default_db())
        console.print(f"dicepoker server on [bold]http://{shown}:{port}[/] (database {database}{shared})")
        config = uvicorn.Config(
            create_app(settings),
            host=host,
            port=port,
            ws_max_size=4 * settings.max_frame,
            log_level="warning",
            lifespan="on",
        )
        # What is loaded by now (modules, the app) lives as long as the process: kept out of the garbage
        # collector's full passes, which otherwise walk it all and stalled a busy server for over 100 ms
        # (measured on a process following 250 tables: 106-120 ms per full pass; 42 ms after this).
        gc.freeze()
        uvicorn.Server(config).run()


def _hide_password(url: str) -> str:
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # not a URL SQLAlchemy knows (redis://...): show only the scheme and host
        scheme, _, rest = url.partition("://")
        return f"{scheme}://{rest.rpartition('@')[2]}"
