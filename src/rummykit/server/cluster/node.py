"""One node of a cluster: its leases, its bus, its relays, and the loops that keep them.

Built by the table manager only when the server has a ``redis_url``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from typing import TYPE_CHECKING, Any

from rummykit.server.cluster.bus import Bus, Item
from rummykit.server.cluster.http_relay import HttpCalls
from rummykit.server.cluster.lease import Leases
from rummykit.server.cluster.ownership import Ownership
from rummykit.server.cluster.relay import Origins, RemoteSessions
from rummykit.server.cluster.takeover import LeaseKeeper

if TYPE_CHECKING:
    from rummykit.server.live_table import LiveTable
    from rummykit.server.tables import TableManager

__all__ = ["ClusterNode"]

log = logging.getLogger("rummykit.server")


class ClusterNode:
    """This process as a node: everything the cluster adds to a table manager."""

    def __init__(self, manager: TableManager, redis_url: str, lease_seconds: float) -> None:
        self.id = secrets.token_hex(6)
        """This process's name in the cluster: new at every start, so a restarted node
        never mistakes its predecessor's leases or connections for its own."""
        self.manager = manager
        self.leases = Leases(manager.store.engine, self.id, lease_seconds)
        self.bus = Bus(
            redis_url,
            self.id,
            heartbeat_ttl=lease_seconds,
            on_item=self._on_item,
            on_reset=self._on_reset,
        )
        self.ownership = Ownership(manager, self.leases, self.bus)
        self.keeper = LeaseKeeper(manager, self.leases, self.ownership)
        self.origins = Origins(self.bus)
        self.sessions = RemoteSessions(manager, manager.config, self.bus)
        self.calls = HttpCalls(self.bus)
        self._tasks: list[asyncio.Task[None]] = []

    async def start(self) -> None:
        """Create the lease table, join the bus, start keeping leases and watching peers;
        from now on this process's writes are fenced by its leases."""
        await asyncio.to_thread(self.leases.create_schema)
        self.manager.store.fence = self.leases.fence
        await self.bus.start()
        self._tasks = [
            asyncio.ensure_future(self.keeper.renew_forever()),
            asyncio.ensure_future(self.keeper.take_over_forever()),
            asyncio.ensure_future(self._watch_peers()),
        ]
        log.info("cluster node %s started (lease %.1f s)", self.id, self.leases.ttl)

    async def stop(self, *, release: set[str]) -> None:
        """Stop the loops, end relayed connections, leave the bus, and give up the leases
        of the tables in ``release`` (those people were connected to: they reconnect and
        find them on another node at once). The other leases run out, and other nodes
        take those tables over (their bots play on; waiting ones expire there)."""
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.origins.end_all("server shutting down")
        self.sessions.end_all()
        await self.bus.stop()
        for table_id, epoch in list(self.leases.epochs.items()):
            if table_id in release:
                with contextlib.suppress(Exception):
                    await asyncio.to_thread(self.leases.release, table_id, epoch)
        self.leases.epochs.clear()

    # -- what the table manager asks ----------------------------------------------------

    async def load(self, table_id: str) -> LiveTable:
        """A table not in memory: loaded here under its lease, or ``elsewhere``."""
        return await self.ownership.load(table_id)

    async def claim_new(self, table_id: str) -> None:
        await self.ownership.claim_new(table_id)

    def release(self, table_id: str) -> None:
        self.ownership.release(table_id)

    def stats(self) -> dict[str, Any]:
        """What ``/api/health`` reports of this node."""
        return {
            "node": self.id,
            "leases": len(self.leases.epochs),
            "relayed_out": len(self.origins.clients),
            "relayed_in": len(self.sessions.sessions),
            "taken_over": self.keeper.taken_over,
            "lost": self.keeper.lost,
        }

    # -- the bus ------------------------------------------------------------------------

    def _on_item(self, item: Item) -> None:
        kind = item[0]
        if kind == "text":
            self.origins.on_text(item[1], item[2])
        elif kind == "msg":
            self.sessions.on_message(item[1], item[2])
        elif kind == "open":
            self.sessions.on_open(item[1], item[2], item[3])
        elif kind == "close":
            self.sessions.on_close(item[1])
        elif kind == "end":
            self.origins.on_end(item[1], item[2])
        elif kind == "call":
            self.calls.on_call(item[1], item[2])
        elif kind == "reply":
            self.calls.on_reply(item[1], item[2])

    def _on_reset(self) -> None:
        """Messages may have been lost: end every relayed connection (they reconnect)."""
        self.origins.end_all("the cluster's bus was interrupted; reconnecting")
        self.sessions.end_all()

    async def _watch_peers(self) -> None:
        """End the relayed connections of nodes whose heartbeat stopped."""
        interval = min(0.5, self.leases.ttl / 4)
        while True:
            await asyncio.sleep(interval)
            peers = self.origins.owners() | self.sessions.origins()
            if not peers:
                continue
            try:
                alive = await self.bus.alive(peers)
            except Exception:
                log.warning("checking the cluster's nodes failed", exc_info=True)
                continue
            for node in peers - alive:
                log.warning("cluster node %s stopped beating; ending its relays", node)
                self.origins.end_owner(node)
                self.sessions.end_origin(node)
