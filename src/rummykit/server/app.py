"""The FastAPI application: the REST API, the websocket, the web table, put together.

``create_app(ServerConfig(...))`` builds the app; ``rummykit serve`` runs it with
uvicorn. Each concern is its own router module (:mod:`~rummykit.server.rest_api`,
:mod:`~rummykit.server.websocket`, :mod:`~rummykit.server.pages`,
:mod:`~rummykit.server.rules_pages`); they reach the table manager and the
configuration through ``app.state`` (:mod:`~rummykit.server.app_state`).
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import AsyncIterator

from fastapi import FastAPI

from rummykit.server import languages, pages, rest_api, rules_pages, websocket
from rummykit.server.config import ServerConfig
from rummykit.server.error_handlers import error_handlers
from rummykit.server.pages import web_root
from rummykit.server.protocol import PROTOCOL_VERSION
from rummykit.server.rate_limits import ClientRates, RateLimits
from rummykit.server.request_bodies import BodyLimit
from rummykit.server.security_headers import SecurityHeaders
from rummykit.server.store import Store
from rummykit.server.tables import TableManager

__all__ = ["create_app", "web_root"]


def create_app(config: ServerConfig | None = None) -> FastAPI:
    """The server application for ``config``."""
    config = config or ServerConfig()
    store = Store(config.database_url, sqlite_synchronous=config.sqlite_synchronous)
    app = FastAPI(
        title="rummykit table server",
        version=str(PROTOCOL_VERSION),
        lifespan=_lifespan,
        docs_url="/api/docs",
        openapi_url="/api/openapi.json",
        redoc_url=None,
        exception_handlers=error_handlers(),
    )
    app.state.manager = TableManager(store, config)
    app.state.config = config
    app.include_router(rest_api.router)
    app.include_router(websocket.router)
    pages.mount_static(app)
    app.include_router(pages.router)
    app.include_router(rules_pages.router)
    app.include_router(languages.router)
    # Outermost last: headers go on every answer, bodies are bounded before the rates
    # are taken (a refused body is never read), and routes see only what passed both.
    rates = ClientRates(
        {
            "create": (config.create_rate, config.create_burst),
            "act": (config.act_rate, config.act_burst),
            "read": (config.read_rate, config.read_burst),
        }
    )
    if app.state.manager.cluster is not None:  # innermost: after the limits, as routes
        from rummykit.server.cluster.http_relay import ClusterRequests

        app.add_middleware(ClusterRequests, manager=app.state.manager, server=app)
    app.add_middleware(RateLimits, rates=rates)
    app.add_middleware(BodyLimit, max_bytes=config.max_message_bytes, timeout=config.body_timeout)
    app.add_middleware(SecurityHeaders)
    return app


@contextlib.asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    manager: TableManager = app.state.manager
    await manager.open()
    if app.state.config.freeze_gc:
        # The modules, the app and the resumed tables live as long as the process;
        # a full collection that walks them all paused every table for tens of
        # milliseconds (hundreds on a loaded machine).
        gc.collect()
        gc.freeze()
    try:
        yield
    finally:
        await manager.close()
