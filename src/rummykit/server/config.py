"""The server's settings: what ``rummykit serve`` can be told on the command line.

The limits (docs/server-limits.md) bound what one client, and all of them together, can
make the server hold or do; a limit of 0 switches that limit off.
"""

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

    # -- per-client REST rates (token buckets by client address) --------------------------
    create_rate: float = 0.5
    """Tables a client may create a second on average (``POST /api/tables``, rematches)."""
    create_burst: int = 10
    act_rate: float = 10.0
    """REST writes to a table a client may send a second (join, start, actions)."""
    act_burst: int = 40
    read_rate: float = 20.0
    """Other ``/api`` requests a client may send a second (lists, snapshots, replays)."""
    read_burst: int = 60

    # -- tables -----------------------------------------------------------------------------
    max_waiting_tables_per_client: int = 20
    """Tables waiting to start that one client address may have created."""
    max_waiting_tables: int = 2000
    """Tables waiting to start on the whole server."""
    waiting_table_ttl: float = 3600.0
    """Seconds a waiting table with nobody connected lives untouched before it is deleted."""
    idle_table_seconds: float = 600.0
    """Seconds a started table with nobody connected (and no bot to move) stays in
    memory; it is loaded again from the database when asked for."""
    finished_table_seconds: float = 60.0
    """Seconds a finished table with nobody connected stays in memory."""
    resume_window: float = 600.0
    """At start-up, the unfinished tables changed within this many seconds are loaded
    (in the background); every other table is loaded when asked for."""
    resume_max: int = 500
    """At most this many tables are loaded at start-up (the most recently changed)."""

    # -- connections --------------------------------------------------------------------------
    max_connections_per_client: int = 32
    """Websockets one client address may hold open at once."""
    max_connections_per_table: int = 100
    """Websockets (players and spectators) one table accepts at once."""
    hello_timeout: float = 15.0
    """Seconds a new websocket has to send its ``hello`` (pings do not extend it)."""
    body_timeout: float = 10.0
    """Seconds a client has to send a whole HTTP request body."""
    replay_cache_bytes: int = 64 * 1024 * 1024
    """Bytes of compressed replays kept in memory (each finished game's replay is built
    once, in a worker thread)."""
    header_timeout: float = 10.0
    """Seconds a client has to send a request's line and headers, from connecting or
    from the end of its previous response (``rummykit serve``: a uvicorn protocol)."""
    keep_alive_timeout: float = 5.0
    """Seconds an idle keep-alive HTTP connection stays open (uvicorn's own)."""
