"""What the routes share, kept on ``app.state`` and handed to them as dependencies.

:func:`~rummykit.server.app.create_app` puts the table manager and the configuration
there; a route asks for them by type (``manager: Manager``), so that no route is a
closure over the app.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from rummykit.server.config import ServerConfig
from rummykit.server.tables import TableManager

__all__ = ["Config", "Manager", "server_config", "table_manager"]


def table_manager(connection: HTTPConnection) -> TableManager:
    """The app's table manager (for a request or a websocket)."""
    manager: TableManager = connection.app.state.manager
    return manager


def server_config(connection: HTTPConnection) -> ServerConfig:
    """The app's configuration (for a request or a websocket)."""
    config: ServerConfig = connection.app.state.config
    return config


Manager = Annotated[TableManager, Depends(table_manager)]
Config = Annotated[ServerConfig, Depends(server_config)]
