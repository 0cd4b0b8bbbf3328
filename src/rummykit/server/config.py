"""The server's settings: what ``rummykit serve`` can be told on the command line."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ServerConfig"]


@dataclass(frozen=True, slots=True, kw_only=True)
class ServerConfig:
    """Everything the server can be told on the command line."""

    database_url: str = "sqlite:///rummykit.db"
    seat_timeout: float = 120.0
    """Seconds a disconnected human seat is held before a stand-in bot plays it."""
    bot_delay: float = 0.6
    """Seconds a bot waits before acting (so people can follow its moves)."""
    max_message_bytes: int = 8192
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
