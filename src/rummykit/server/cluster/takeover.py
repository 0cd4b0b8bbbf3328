"""Keeping this node's leases, and taking over the tables of nodes that died.

Every third of the lease time this node renews the leases of the tables it holds; a
table whose lease another node took meanwhile (this node was paused, or cut off from
the database, past its lease) is dropped from memory at once. Every quarter of the
lease time it looks for expired leases and takes those tables over: their logs are
replayed here, their bots play on, and their clients, reconnecting, find them here. So a
dead node's tables move within about a quarter of the lease time after it expires.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from rummykit.server.cluster.lease import Leases
from rummykit.server.cluster.ownership import Ownership
from rummykit.server.protocol import ServerError

if TYPE_CHECKING:
    from rummykit.server.tables import TableManager

__all__ = ["LeaseKeeper"]

log = logging.getLogger("rummykit.server")

TAKEOVER_BATCH = 100
"""Expired leases taken over per look (the rest at the next look)."""


class LeaseKeeper:
    """The renewal and takeover loops of one node."""

    def __init__(self, manager: TableManager, leases: Leases, ownership: Ownership) -> None:
        self.manager = manager
        self.leases = leases
        self.ownership = ownership
        self.taken_over = 0
        self.lost = 0

    async def renew_forever(self) -> None:
        while True:
            await asyncio.sleep(self.leases.ttl / 3)
            try:
                await self.renew()
            except Exception:  # the fence keeps the log safe while the database is away
                log.warning("renewing leases failed", exc_info=True)

    async def renew(self) -> None:
        """Renew every lease held; drop the tables whose lease is no longer this node's."""
        held = dict(self.leases.epochs)
        kept = await asyncio.to_thread(self.leases.renew, held)
        for table_id, epoch in held.items():
            if kept.get(table_id) != epoch and self.leases.epochs.get(table_id) == epoch:
                self.lost += 1
                self.ownership.forget(table_id, "moved")

    async def take_over_forever(self) -> None:
        while True:
            await asyncio.sleep(self.leases.ttl / 4)
            try:
                await self.take_over()
            except Exception:
                log.warning("taking over expired tables failed", exc_info=True)

    async def take_over(self) -> int:
        """Load the tables whose lease expired (their owner died); how many came here."""
        expired = await asyncio.to_thread(self.leases.expired, TAKEOVER_BATCH)
        count = 0
        for table_id in expired:
            if table_id in self.manager.tables:
                continue  # this node's own, renewed at the next renewal
            try:
                await self.ownership.load(table_id)
            except ServerError as error:
                if error.code == "not_found":  # a waiting table deleted meanwhile
                    continue
                if error.code != "elsewhere":
                    log.warning("table %s could not be taken over: %s", table_id, error)
                continue
            except Exception:
                log.exception("table %s could not be taken over", table_id)
                continue
            count += 1
        if count:
            self.taken_over += count
            log.info("took over %d table(s) whose owner stopped", count)
        return count
