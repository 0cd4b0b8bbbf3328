"""Table leases in PostgreSQL: one owner per table, and an epoch that fences its writes.

A lease is a row ``(table_id, node, epoch, expires_at)`` in the same database as the
event log, because the fence must be checked in the very transaction that appends: the
writer locks its tables' lease rows (``FOR SHARE``) and checks node, epoch and expiry
before its appends, so a node that was paused past its lease, and whose tables another
node took over meanwhile (a new epoch), cannot commit a single action for them. A lease
in Redis could not give that guarantee to a PostgreSQL transaction. Times come from the
database's clock, so the nodes' clocks need not agree.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import Column, Connection, Engine, Float, Integer, MetaData, String, Table

from rummykit.server.protocol import ServerError

__all__ = ["LeaseLostError", "Leases", "Owner", "leases_table"]

lease_metadata = MetaData()

leases_table = Table(
    "rk_leases",
    lease_metadata,
    Column("table_id", String(32), primary_key=True),
    Column("node", String(32), nullable=False, index=True),
    Column("epoch", Integer, nullable=False),
    Column("expires_at", Float, nullable=False, index=True),
)

_NOW = "extract(epoch from clock_timestamp())"

_ACQUIRE = (
    "INSERT INTO rk_leases AS l (table_id, node, epoch, expires_at) "
    f"VALUES (%s, %s, 1, {_NOW} + %s) "
    "ON CONFLICT (table_id) DO UPDATE SET node = EXCLUDED.node, epoch = l.epoch + 1, "
    "expires_at = EXCLUDED.expires_at "
    f"WHERE l.expires_at < {_NOW} OR l.node = EXCLUDED.node RETURNING epoch"
)
# The renewal first skips the rows a writer holds at that moment (the fence's FOR SHARE)
# rather than wait for them, so that writes are not queued behind a renewal of every
# lease; those few are renewed right after, waiting for their writers. Rows are locked
# in table id order, by the renewal as by the fence, so the two never wait in a cycle.
_RENEW = (
    "WITH mine AS (SELECT table_id FROM rk_leases WHERE node = %s AND table_id = ANY(%s) "
    "ORDER BY table_id FOR UPDATE {wait}) "
    f"UPDATE rk_leases AS l SET expires_at = {_NOW} + %s FROM mine "
    "WHERE l.table_id = mine.table_id RETURNING l.table_id, l.epoch"
)
_RELEASE = "DELETE FROM rk_leases WHERE table_id = %s AND node = %s AND epoch = %s"
_OWNER = f"SELECT node, expires_at > {_NOW} FROM rk_leases WHERE table_id = %s"
_EXPIRED = f"SELECT table_id FROM rk_leases WHERE expires_at < {_NOW} ORDER BY expires_at LIMIT %s"
_FENCE = (
    "SELECT table_id, epoch FROM rk_leases "
    f"WHERE node = %s AND table_id = ANY(%s) AND expires_at > {_NOW} "
    "ORDER BY table_id FOR SHARE"
)


class LeaseLostError(ServerError):
    """A write for a table whose lease this node no longer holds (nothing was written)."""

    def __init__(self, table_ids: Iterable[str]) -> None:
        self.table_ids = sorted(table_ids)
        super().__init__(
            "moved", "this table is now served by another node; reconnect to go on playing"
        )


@dataclass(frozen=True, slots=True)
class Owner:
    """Who holds a table's lease, and whether that lease is still running."""

    node: str
    live: bool


class Leases:
    """This node's leases: acquiring, renewing, releasing, and the fence of every write.

    :attr:`epochs` maps the tables this node owns to their lease epoch; it is changed
    on the event loop only and read by the writer thread (single look-ups, which the
    GIL keeps whole).
    """

    def __init__(self, engine: Engine, node: str, ttl: float) -> None:
        if engine.dialect.name != "postgresql":
            raise ValueError("a cluster (--redis-url) needs a PostgreSQL --database-url")
        self.engine = engine
        self.node = node
        self.ttl = ttl
        self.epochs: dict[str, int] = {}

    def create_schema(self) -> None:
        """Create the lease table if it is missing (idempotent)."""
        lease_metadata.create_all(self.engine)

    # -- blocking calls (run them in a worker thread) -------------------------------------

    def acquire(self, table_id: str) -> int | None:
        """Take the table's lease if it is free, expired or this node's own (a lease it
        forgot: every load of a table takes a new epoch); the epoch, else ``None``.

        Taking an expired lease waits for any transaction of the old owner that holds
        the lease row (the fence's ``FOR SHARE``), so the log read afterwards holds
        every action that owner ever committed.
        """
        with self.engine.begin() as connection:
            row = connection.exec_driver_sql(_ACQUIRE, (table_id, self.node, self.ttl)).first()
        return None if row is None else int(row[0])

    def owner(self, table_id: str) -> Owner | None:
        """The table's lease holder, or ``None`` when nobody holds it."""
        with self.engine.connect() as connection:
            row = connection.exec_driver_sql(_OWNER, (table_id,)).first()
        return None if row is None else Owner(str(row[0]), bool(row[1]))

    def renew(self, held: dict[str, int]) -> dict[str, int]:
        """Extend the leases in ``held`` (table id to epoch) still this node's; returns
        those (a lease taken over by another node is not among them)."""
        if not held:
            return {}
        kept: dict[str, int] = {}
        tables = list(held)
        for wait in ("SKIP LOCKED", ""):
            with self.engine.begin() as connection:
                statement = _RENEW.format(wait=wait)
                rows = connection.exec_driver_sql(statement, (self.node, tables, self.ttl)).all()
            kept.update((str(table_id), int(epoch)) for table_id, epoch in rows)
            tables = [table_id for table_id in held if table_id not in kept]
            if not tables:
                break
        return kept

    def release(self, table_id: str, epoch: int) -> None:
        """Give a lease up (the table left this node's memory)."""
        with self.engine.begin() as connection:
            connection.exec_driver_sql(_RELEASE, (table_id, self.node, epoch))

    def expired(self, limit: int) -> list[str]:
        """Tables whose lease ran out (their owner died or stalled), oldest first."""
        with self.engine.connect() as connection:
            rows = connection.exec_driver_sql(_EXPIRED, (limit,)).all()
        return [str(row[0]) for row in rows]

    def fence(self, connection: Connection, table_ids: set[str]) -> None:
        """Inside the writer's transaction: raise :class:`LeaseLostError` unless this node
        holds a running lease, at the epoch it knows, on every table written."""
        expected = {table_id: self.epochs.get(table_id) for table_id in table_ids}
        rows = connection.exec_driver_sql(_FENCE, (self.node, list(table_ids))).all()
        held = {str(table_id): int(epoch) for table_id, epoch in rows}
        lost = {t for t, epoch in expected.items() if epoch is None or held.get(t) != epoch}
        if lost:
            raise LeaseLostError(lost)
