"""Clients connected to one node, playing at a table another node owns: relayed by Redis.

A client may connect to any node (an ordinary load balancer in front needs no
affinity). When its table is owned elsewhere, its node (the *origin*) forwards each of
the client's messages, once rate limited, to the owner, and the owner's answers and
broadcasts back; the owner treats the connection as one of its own (a
:class:`RemoteClient` among the table's seats or spectators), so every rule, check and
ordering of a single server holds. Forwarding was chosen over redirecting the client to
the owner: a redirect needs every node reachable from the browser by an address of its
own, and a forwarded connection survives the proxy in front unchanged.

When either end goes (its heartbeat stops) or its Redis subscription broke, the other
ends the connection; the browser reconnects by itself and gets a fresh snapshot.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

from fastapi import WebSocket, WebSocketDisconnect

from rummykit.server.cluster.bus import Bus
from rummykit.server.config import ServerConfig
from rummykit.server.connections import Client
from rummykit.server.live_table import LiveTable
from rummykit.server.protocol import RateLimiter, ServerError
from rummykit.server.websocket import admitted, handle_text, receive_text

if TYPE_CHECKING:
    from rummykit.server.cluster.node import ClusterNode
    from rummykit.server.tables import TableManager

__all__ = ["Origins", "RemoteClient", "RemoteSessions", "relay_session"]

log = logging.getLogger("rummykit.server")

GONE = "the table's server is gone; reconnecting"


# -- the origin: the node the client is connected to --------------------------------------


class Origins:
    """The connections of this node relayed to other nodes, by connection id."""

    def __init__(self, bus: Bus) -> None:
        self.bus = bus
        self.clients: dict[str, tuple[Client, str]] = {}
        self._numbers = itertools.count(1)

    def register(self, client: Client, owner: str) -> str:
        """A new relayed connection's id (unique in the cluster: it names this node)."""
        conn = f"{self.bus.node}.{next(self._numbers)}"
        self.clients[conn] = (client, owner)
        return conn

    def on_text(self, conn: str, text: str) -> None:
        entry = self.clients.get(conn)
        if entry is not None:
            entry[0].send_text(text)

    def on_end(self, conn: str, reason: str) -> None:
        entry = self.clients.get(conn)
        if entry is not None:
            entry[0].close(reason)

    def owners(self) -> set[str]:
        return {owner for _, owner in self.clients.values()}

    def end_owner(self, owner: str) -> None:
        """Close the connections relayed to a node that is gone."""
        for client, node in list(self.clients.values()):
            if node == owner:
                client.close(GONE)

    def end_all(self, reason: str) -> None:
        for client, _ in list(self.clients.values()):
            client.close(reason)


async def relay_session(
    socket: WebSocket,
    client: Client,
    table_id: str,
    elsewhere: ServerError,
    cluster: ClusterNode,
    config: ServerConfig,
) -> None:
    """Relay a websocket whose table another node owns, until either end closes."""
    owner = getattr(elsewhere, "owner", None)
    if not isinstance(owner, str):
        client.send(elsewhere.to_json())
        client.close(elsewhere.code)
        return
    origins, bus = cluster.origins, cluster.bus
    conn = origins.register(client, owner)
    bus.send(owner, ["open", conn, table_id, client.address])
    limiter = RateLimiter(config.rate_per_second, config.rate_burst)
    try:
        while not client.closed:
            text = await receive_text(socket)
            if admitted(limiter, client, config):
                bus.send(owner, ["msg", conn, text])
    except WebSocketDisconnect:
        pass
    finally:
        origins.clients.pop(conn, None)
        bus.send(owner, ["close", conn])


# -- the owner: the node the table lives on ------------------------------------------------


class RemoteClient(Client):
    """A connection of another node, as the owner's table sees it: what it is sent goes
    back through the bus, in order."""

    def __init__(self, bus: Bus, conn: str) -> None:
        super().__init__(queue_size=1)
        self.bus = bus
        self.conn = conn
        self.origin = conn.rsplit(".", 1)[0]
        self.inbox: asyncio.Queue[str | None] = asyncio.Queue()

    def send_text(self, text: str) -> None:
        if not self.closed:
            self.bus.send(self.origin, ["text", self.conn, text])

    def close(self, reason: str = "") -> None:
        if self.closed:
            return
        self.closed = True
        self.close_reason = reason
        self.bus.send(self.origin, ["end", self.conn, reason])
        self.inbox.put_nowait(None)


@dataclass(eq=False)
class _Session:
    client: RemoteClient
    task: asyncio.Task[None] | None = None


class RemoteSessions:
    """The owner's side: one session per relayed connection, each handling its
    messages in order, exactly as a local websocket session does."""

    def __init__(self, manager: TableManager, config: ServerConfig, bus: Bus) -> None:
        self.manager = manager
        self.config = config
        self.bus = bus
        self.sessions: dict[str, _Session] = {}

    def on_open(self, conn: str, table_id: str, address: str | None) -> None:
        client = RemoteClient(self.bus, conn)
        client.address = address
        table = self.manager.tables.get(table_id)
        cluster = self.manager.cluster
        if table is None or cluster is None or table_id not in cluster.leases.epochs:
            client.close("moved")  # the origin's client reconnects and finds the owner
            return
        session = _Session(client)
        self.sessions[conn] = session
        session.task = asyncio.ensure_future(self._run(session, table))

    def on_message(self, conn: str, text: str) -> None:
        session = self.sessions.get(conn)
        if session is not None:
            session.client.inbox.put_nowait(text)

    def on_close(self, conn: str) -> None:
        session = self.sessions.get(conn)
        if session is not None:
            session.client.closed = True  # the origin knows: tell it nothing more
            session.client.inbox.put_nowait(None)

    def origins(self) -> set[str]:
        return {session.client.origin for session in self.sessions.values()}

    def end_origin(self, origin: str) -> None:
        """End the sessions of a node that is gone."""
        for conn, session in list(self.sessions.items()):
            if session.client.origin == origin:
                self.on_close(conn)

    def end_all(self) -> None:
        for conn in list(self.sessions):
            self.on_close(conn)

    async def _run(self, session: _Session, table: LiveTable) -> None:
        client = session.client
        loop = asyncio.get_running_loop()
        hello_by = loop.time() + self.config.hello_timeout
        try:
            while True:
                try:
                    if client.table_id is None:
                        wait = max(0.0, hello_by - loop.time())
                        text = await asyncio.wait_for(client.inbox.get(), timeout=wait)
                    else:
                        text = await client.inbox.get()
                except TimeoutError:
                    client.send(ServerError("hello_required", "no hello in time").to_json())
                    client.close("no hello")
                    return
                if text is None:
                    return
                await handle_text(client, table, text, self.manager, self.config)
        except Exception:
            log.exception("relayed session %s failed", client.conn)
        finally:
            self.sessions.pop(client.conn, None)
            with contextlib.suppress(Exception):
                await self.manager.disconnect(client)
            client.close()
