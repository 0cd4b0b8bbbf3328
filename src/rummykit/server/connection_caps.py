"""How many websockets one client address, and one table, may hold open at once.

A connection is counted from the moment it is accepted (before its ``hello``), so a
client cannot pile up connections that never say hello; the hello deadline
(``--hello-timeout``) closes those anyway. A limit of 0 switches that cap off.

>>> caps = ConnectionCaps(per_client=2, per_table=3)
>>> caps.admit("10.0.0.1", "t1"), caps.admit("10.0.0.1", "t1")
(None, None)
>>> caps.admit("10.0.0.1", "t2").code
'too_many_connections'
>>> caps.release("10.0.0.1", "t1"); caps.admit("10.0.0.1", "t2") is None
True
"""

from __future__ import annotations

from collections import Counter

from rummykit.server.protocol import ServerError

__all__ = ["ConnectionCaps"]


class ConnectionCaps:
    """Open websockets counted per client address and per table."""

    def __init__(self, *, per_client: int, per_table: int) -> None:
        self.per_client = per_client
        self.per_table = per_table
        self.by_client: Counter[str] = Counter()
        self.by_table: Counter[str] = Counter()

    def admit(self, address: str, table_id: str) -> ServerError | None:
        """Count a new connection, or say why it is refused (then nothing is counted)."""
        if self.per_client and self.by_client[address] >= self.per_client:
            return ServerError(
                "too_many_connections",
                f"at most {self.per_client} connections from one address; close one first",
            )
        if self.per_table and self.by_table[table_id] >= self.per_table:
            return ServerError(
                "too_many_connections",
                f"this table has its {self.per_table} connections already; try again later",
            )
        self.by_client[address] += 1
        self.by_table[table_id] += 1
        return None

    def release(self, address: str, table_id: str) -> None:
        """Forget a connection admitted earlier."""
        for counter, key in ((self.by_client, address), (self.by_table, table_id)):
            counter[key] -= 1
            if counter[key] <= 0:
                del counter[key]
