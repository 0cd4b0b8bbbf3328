"""The multiplayer table server: lobby, websocket protocol, persistence, web table.

Needs the ``server`` extra (``pip install rummykit[server]``). Run it with
``rummykit serve``; build the app in code with :func:`create_app`.
"""

from rummykit.server.app import create_app
from rummykit.server.config import ServerConfig

__all__ = ["ServerConfig", "create_app"]
