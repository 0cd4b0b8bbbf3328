"""Which tables are in memory, and for how long: memory bounded by use, not by history.

The database holds every table; memory holds the tables in use. At start-up only the
tables that played within ``resume_window`` seconds are resumed (at most
``resume_max``, in the background, so the server answers at once); any other table is
read and replayed when somebody asks for it. A sweep every few seconds then lets go of
what nobody uses:

* a finished table with nobody connected, untouched for ``finished_table_seconds``;
* a started table with nobody connected and no bot about to move, untouched for
  ``idle_table_seconds`` (it is inert: only a connected person makes it move on);
* a waiting table with nobody connected, untouched for ``waiting_table_ttl``, is
  deleted, as is one in the database that nobody has asked for in that time (a waiting
  table has no moves to lose).

Waiting tables also have quotas (``max_waiting_tables_per_client``,
``max_waiting_tables``), checked before a table is created.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING

from rummykit.server.protocol import ServerError

if TYPE_CHECKING:
    from rummykit.server.live_table import LiveTable
    from rummykit.server.tables import TableManager

__all__ = ["TableResidency"]

log = logging.getLogger("rummykit.server")


class TableResidency:
    """Start-up resume, the sweep, and the waiting-table quotas of one table manager."""

    def __init__(self, manager: TableManager) -> None:
        self.manager = manager
        self.config = manager.config
        self.dormant_waiting: set[str] = set()
        """Waiting tables in the database that are not in memory (for the quota)."""
        limits = [
            self.config.waiting_table_ttl,
            self.config.idle_table_seconds,
            self.config.finished_table_seconds,
        ]
        self.interval = max(0.05, min([30.0] + [limit / 4 for limit in limits if limit > 0]))
        """Seconds between two sweeps."""
        self.resumed = 0

    async def start(self) -> None:
        """Note the waiting tables in the database and delete those that expired while
        the server was down, then resume and sweep in the background."""
        manager = self.manager
        self.dormant_waiting = set(await asyncio.to_thread(manager.store.waiting_ids))
        self.dormant_waiting.difference_update(manager.tables)
        # Those that expired while the server was down go before a request can load one.
        await self._delete_waiting(await self._stale_dormant())
        for job in (self._resume(), self._sweep_forever()):
            task = asyncio.ensure_future(job)
            manager._tasks.add(task)
            task.add_done_callback(manager._tasks.discard)

    # -- quotas -----------------------------------------------------------------------------

    def check_waiting_quota(self, client: str | None) -> None:
        """Refuse (``too_many_tables``) a new waiting table over either quota."""
        tables = self.manager.tables.values()
        per_client = self.config.max_waiting_tables_per_client
        if per_client and client is not None:
            mine = sum(1 for t in tables if t.status == "waiting" and t.creator == client)
            if mine >= per_client:
                raise ServerError(
                    "too_many_tables",
                    f"you have {mine} tables waiting to start (the most one address may "
                    "have); start one, or wait for them to expire",
                )
        total = self.config.max_waiting_tables
        if total:
            waiting = len(self.dormant_waiting) + sum(1 for t in tables if t.status == "waiting")
            if waiting >= total:
                raise ServerError(
                    "too_many_tables",
                    f"the server has {waiting} tables waiting to start, its limit; try again later",
                )

    # -- start-up ---------------------------------------------------------------------------

    async def _resume(self) -> None:
        manager = self.manager
        if self.config.resume_max <= 0 or manager.cluster is not None:
            return  # a cluster's nodes take over the tables whose lease expired instead
        since = time.time() - self.config.resume_window
        rows = await asyncio.to_thread(
            manager.store.load_recent, since=since, limit=self.config.resume_max
        )
        for row in rows:
            if row.id in manager.tables:
                continue
            try:
                table = await asyncio.to_thread(manager.restore, row)
            except Exception:
                log.exception("table %s could not be replayed; it stays in the database", row.id)
                continue
            manager.adopt(table)
            self.resumed += 1
        log.info("resumed %d recently active table(s)", self.resumed)

    # -- the sweep --------------------------------------------------------------------------

    async def _sweep_forever(self) -> None:
        while True:
            try:
                await self.sweep()
            except Exception:  # a failing sweep (the database away) is tried again
                log.exception("sweeping idle tables failed")
            await asyncio.sleep(self.interval)

    async def sweep(self) -> None:
        """Let go of the tables nobody uses; delete the waiting ones that expired."""
        manager = self.manager
        now = time.monotonic()
        expired: list[str] = []
        for table in list(manager.tables.values()):
            if not self._idle(table):
                continue
            limit = self._limit(table.status)
            if limit <= 0 or now - table.touched < limit:
                continue
            if table.status == "waiting":
                expired.append(table.id)
            else:
                manager.drop(table.id)
        expired.extend(await self._stale_dormant())
        await self._delete_waiting(expired)

    async def _stale_dormant(self) -> list[str]:
        """The waiting tables in the database, not in memory, untouched for the TTL."""
        manager = self.manager
        ttl = self.config.waiting_table_ttl
        # In a cluster a table in the database may be live on another node: the waiting
        # tables of nodes that died are taken over, and then expire from memory.
        if ttl <= 0 or not self.dormant_waiting or manager.cluster is not None:
            return []
        stale = await asyncio.to_thread(manager.store.waiting_ids, before=time.time() - ttl)
        return [
            table_id
            for table_id in stale
            if table_id in self.dormant_waiting and table_id not in manager.loading
        ]

    def _limit(self, status: str) -> float:
        if status == "waiting":
            return self.config.waiting_table_ttl
        if status == "finished":
            return self.config.finished_table_seconds
        return self.config.idle_table_seconds

    @staticmethod
    def _idle(table: LiveTable) -> bool:
        busy = table.lock.locked() or (table.driver is not None and not table.driver.done())
        return not busy and not table.has_clients()

    async def _delete_waiting(self, table_ids: list[str]) -> None:
        manager = self.manager
        doomed: list[str] = []
        held: dict[str, LiveTable] = {}
        for table_id in dict.fromkeys(table_ids):
            table = manager.tables.get(table_id)
            if table is not None:
                if table.status != "waiting" or not self._idle(table):
                    continue
                held[table_id] = table
            # Out of reach first: nobody may load or join it while it is deleted.
            manager.tables.pop(table_id, None)
            manager.expiring.add(table_id)
            doomed.append(table_id)
        if not doomed:
            return
        try:
            await manager.writer.commit(manager.store.delete_waiting(doomed))
        except Exception:
            log.exception("could not delete %d expired table(s)", len(doomed))
            for table_id, table in held.items():
                manager.tables.setdefault(table_id, table)
            return
        finally:
            manager.expiring.difference_update(doomed)
        gone = set(doomed)
        if manager.cluster is not None:
            for table_id in gone:
                manager.cluster.release(table_id)
        self.dormant_waiting.difference_update(gone)
        for origin in manager.tables.values():
            if origin.rematch_id in gone:
                origin.rematch_id = None
                manager.replays.forget(origin.id)
        for table in held.values():
            if table.rematch_of:
                manager.replays.forget(table.rematch_of)
        manager.replays.forget_rematches(gone)
        log.info("deleted %d waiting table(s) nobody used", len(doomed))
