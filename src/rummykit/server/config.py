"""The server's settings: what ``rummykit serve`` can be told on the command line.

The limits (docs/server-limits.md) are declared with their ``serve`` options, in
:class:`~rummykit.serve_options.ServerLimits`, and inherited from there.
"""

from __future__ import annotations

from dataclasses import dataclass

from rummykit.serve_options import ServerLimits

__all__ = ["ServerConfig"]


@dataclass(frozen=True, slots=True, kw_only=True)
class ServerConfig(ServerLimits):
    """Everything the server can be told on the command line."""

    database_url: str = "sqlite:///rummykit.db"
    seat_timeout: float = 120.0
    """Seconds a disconnected human seat is held before a stand-in bot plays it."""
    bot_delay: float = 0.6
    """Seconds a bot waits before acting (so people can follow its moves)."""
    max_message_bytes: int = 8192
    """Largest websocket message, and largest HTTP request body, accepted."""
    rate_per_second: float = 20.0
    rate_burst: int = 40
    allow_seed: bool = False
    """Accept a ``seed`` when creating a table (tests only: a known seed shows the deck)."""
    client_queue: int = 256
    """Outgoing messages buffered per connection before a stalled client is dropped."""
    bot_thread_after: float = 0.002
    """Seconds a bot's decisions take (the median of its last five) above which it thinks in
    a worker thread. A fast bot decides on the event loop (a thread hand-off would cost
    more than its decision); a slow one (a solver taking seconds) would otherwise stop
    every table while it thinks. 0: always in a thread."""
    freeze_gc: bool = False
    """After start-up, move every object alive into the garbage collector's permanent
    generation (``gc.freeze``), so that full collections, which stall the event loop for
    every table, only walk what was made since. For a server process (``rummykit
    serve``), not for a process that creates many apps (tests)."""
    sqlite_synchronous: str = "NORMAL"
    """SQLite's ``synchronous``: NORMAL survives a killed server process, FULL also a
    power cut (an fsync per commit). Ignored for PostgreSQL."""

    # -- a cluster of nodes -------------------------------------------------------------------
    redis_url: str | None = None
    """Redis (``redis://host:6379/0``) linking this process to the other nodes of a cluster
    on the same PostgreSQL database; ``None``: a single server, no cluster code runs."""
    lease_seconds: float = 5.0
    """In a cluster: seconds a table's lease runs without renewal; a node that stops is
    replaced this long after its last renewal (plus a quarter of it)."""

    # -- where the server is reached ------------------------------------------------------
    public_url: str | None = None
    """The address people reach the server at (``https://rummy.example``): invite links
    are built from it. ``None``: the address the server listens on (never the request's
    ``Host`` header, which a client chooses)."""

    # -- memory --------------------------------------------------------------------------------
    replay_cache_bytes: int = 64 * 1024 * 1024
    """Bytes of compressed replays kept in memory (each finished game's replay is built
    once, in a worker thread)."""
