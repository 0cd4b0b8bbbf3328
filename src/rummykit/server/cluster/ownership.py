"""Which tables this node serves: loading a table takes its lease, dropping it gives it up.

A table is loaded here only once this node holds its lease (then its log is read and
replayed, as a single server does on demand); when another node holds a running lease,
the table is *elsewhere* and the client is relayed there. An owner whose heartbeat has
stopped but whose lease still runs is waited for, up to the lease time: then its tables
are taken over here.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING

from rummykit.server.cluster.bus import Bus
from rummykit.server.cluster.lease import Leases
from rummykit.server.protocol import ServerError

if TYPE_CHECKING:
    from rummykit.server.live_table import LiveTable
    from rummykit.server.tables import TableManager

__all__ = ["Ownership", "TableElsewhereError"]

log = logging.getLogger("rummykit.server")


class TableElsewhereError(ServerError):
    """The table is served by another node (its websocket clients are relayed there)."""

    def __init__(self, table_id: str, owner: str) -> None:
        super().__init__("elsewhere", f"table {table_id} is served by another node")
        self.owner = owner


class Ownership:
    """Loads tables under a lease, and lets them go."""

    def __init__(self, manager: TableManager, leases: Leases, bus: Bus) -> None:
        self.manager = manager
        self.leases = leases
        self.bus = bus
        self._loads: dict[str, asyncio.Future[LiveTable]] = {}
        self._releases: set[asyncio.Task[None]] = set()

    async def load(self, table_id: str) -> LiveTable:
        """The table, loaded here under a new lease; :class:`TableElsewhereError` when a live
        node owns it. Concurrent loads of one table on this node share one."""
        present = self._loads.get(table_id)
        if present is not None:
            return await asyncio.shield(present)
        future: asyncio.Future[LiveTable] = asyncio.ensure_future(self._load(table_id))
        self._loads[table_id] = future
        future.add_done_callback(lambda _: self._loads.pop(table_id, None))
        return await asyncio.shield(future)

    async def _load(self, table_id: str) -> LiveTable:
        deadline = time.monotonic() + self.leases.ttl + 2.0
        while True:
            table = self.manager.tables.get(table_id)
            if table is not None:
                return table
            epoch = await asyncio.to_thread(self.leases.acquire, table_id)
            if epoch is not None:
                return await self._restore(table_id, epoch)
            owner = await asyncio.to_thread(self.leases.owner, table_id)
            if owner is not None and owner.live and await self.bus.alive([owner.node]):
                raise TableElsewhereError(table_id, owner.node)
            # Its owner stopped beating but its lease still runs: wait for it to expire.
            if time.monotonic() > deadline:
                raise ServerError("unavailable", "the table's server does not answer; try again")
            await asyncio.sleep(0.2)

    async def _restore(self, table_id: str, epoch: int) -> LiveTable:
        manager = self.manager
        self.leases.epochs[table_id] = epoch
        try:
            row = await asyncio.to_thread(manager.store.load, table_id)
            if row is None:
                raise ServerError("not_found", f"no table {table_id!r}")
            table = manager.tables.get(table_id)
            if table is None:
                table = manager.adopt(await asyncio.to_thread(manager.restore, row))
            return table
        except BaseException:
            self.release(table_id)
            raise

    async def claim_new(self, table_id: str) -> None:
        """Take the lease of a table about to be created here."""
        epoch = await asyncio.to_thread(self.leases.acquire, table_id)
        if epoch is None:
            raise ServerError("storage_error", "the table could not be saved; try again")
        self.leases.epochs[table_id] = epoch

    def release(self, table_id: str) -> None:
        """Give up the lease of a table that left this node's memory (in the background)."""
        epoch = self.leases.epochs.pop(table_id, None)
        if epoch is None:
            return
        task = asyncio.ensure_future(self._release(table_id, epoch))
        self._releases.add(task)
        task.add_done_callback(self._releases.discard)

    async def _release(self, table_id: str, epoch: int) -> None:
        try:
            await asyncio.to_thread(self.leases.release, table_id, epoch)
        except Exception:  # it expires anyway, and another node then takes it
            log.warning("could not release the lease of table %s", table_id, exc_info=True)

    def forget(self, table_id: str, reason: str) -> None:
        """Drop a table whose lease another node took: its bots stop, its connections
        close (the clients reconnect, and reach the new owner)."""
        self.leases.epochs.pop(table_id, None)
        table = self.manager.tables.pop(table_id, None)
        if table is None:
            return
        if table.driver is not None:
            table.driver.cancel()
        for client in list(table.clients()):
            client.close(reason)
        log.warning("table %s: lease lost (%s); dropped from memory", table_id, reason)
