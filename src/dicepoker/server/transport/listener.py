"""How ``dicepoker serve`` runs the app on uvicorn: the connection limits and the proxy trust that
:class:`~.settings.Settings` asks for (issue 19). Tests start a server with this very configuration."""

from __future__ import annotations

import uvicorn
from fastapi import FastAPI

from dicepoker.server.settings import Settings
from dicepoker.server.transport.limits import guarded_protocol


def uvicorn_config(app: FastAPI, settings: Settings, *, host: str, port: int) -> uvicorn.Config:
    """uvicorn's HTTP/1.1 on h11 (its header buffer can be bounded; httptools' cannot), guarded by
    :func:`~.limits.guarded_protocol`; ``X-Forwarded-For`` read only from ``settings.trusted_proxies``."""
    protocol = guarded_protocol(
        header_timeout=settings.header_timeout,
        body_timeout=settings.body_timeout,
        max_connections=settings.max_connections_per_client,
        exempt=frozenset(settings.trusted_proxies),
    )
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        http=protocol,
        h11_max_incomplete_event_size=settings.max_header_bytes,
        timeout_keep_alive=settings.keep_alive,
        # uvicorn trusts 127.0.0.1 by default: any local process could then claim any client address.
        proxy_headers=bool(settings.trusted_proxies),
        forwarded_allow_ips=list(settings.trusted_proxies),
        ws_max_size=4 * settings.max_frame,
        log_level="warning",
        lifespan="on",
    )
