"""The options of ``rummykit serve`` that bound what clients can make the server do.

One annotated type per option, so that the ``serve`` command lists each in one line;
each names the :class:`~rummykit.server.config.ServerConfig` field of the same name
(docs/server-limits.md explains them, their defaults and what a refused client sees).
Only typer is imported here: the server's own packages are an extra.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer

__all__ = [
    "LIMIT_FIELDS",
    "ActBurst",
    "ActRate",
    "BodyTimeout",
    "CreateBurst",
    "CreateRate",
    "FinishedTableSeconds",
    "ForwardedAllowIps",
    "HeaderTimeout",
    "HelloTimeout",
    "IdleTableSeconds",
    "KeepAliveTimeout",
    "LeaseSeconds",
    "MaxConnectionsPerClient",
    "MaxConnectionsPerTable",
    "MaxWaitingTables",
    "MaxWaitingTablesPerClient",
    "PublicUrl",
    "ReadBurst",
    "ReadRate",
    "RedisUrl",
    "ReplayCacheMb",
    "ResumeMax",
    "ResumeWindow",
    "WaitingTableTtl",
]

_LIMITS = "Limits (0 switches a limit off; see docs/server-limits.md)"


def _limit(help_text: str) -> Any:
    return typer.Option(help=help_text, rich_help_panel=_LIMITS)


PublicUrl = Annotated[
    str | None,
    typer.Option(
        envvar="RUMMYKIT_PUBLIC_URL",
        help="Address people reach the server at (https://rummy.example); invite links "
        "are built from it. Default: the address it listens on.",
    ),
]
ForwardedAllowIps = Annotated[
    str | None,
    typer.Option(
        help="Addresses of reverse proxies whose X-Forwarded-For is believed (comma "
        "separated). Default: none, so behind a proxy every client counts as the proxy.",
    ),
]
_CLUSTER = "Cluster (several processes on one PostgreSQL; see docs/hosting.md)"
RedisUrl = Annotated[
    str | None,
    typer.Option(
        envvar="RUMMYKIT_REDIS_URL",
        rich_help_panel=_CLUSTER,
        help="Redis linking this process to the other nodes of a cluster "
        "(redis://host:6379/0); needs a PostgreSQL --database-url shared by every node. "
        "Default: none, a single server.",
    ),
]
LeaseSeconds = Annotated[
    float,
    typer.Option(
        rich_help_panel=_CLUSTER,
        help="In a cluster: seconds a table's lease runs unrenewed; another node takes "
        "the tables of a node that stopped this long after its last renewal.",
    ),
]
CreateRate = Annotated[float, _limit("Tables one client address may create a second.")]
CreateBurst = Annotated[int, _limit("Burst of table creations per client address.")]
ActRate = Annotated[float, _limit("REST joins, starts and actions per client a second.")]
ActBurst = Annotated[int, _limit("Burst of REST joins, starts and actions per client.")]
ReadRate = Annotated[float, _limit("Other /api requests per client address a second.")]
ReadBurst = Annotated[int, _limit("Burst of other /api requests per client address.")]
MaxWaitingTablesPerClient = Annotated[
    int, _limit("Tables waiting to start that one client address may have created.")
]
MaxWaitingTables = Annotated[int, _limit("Tables waiting to start on the whole server.")]
WaitingTableTtl = Annotated[
    float, _limit("Seconds an unused waiting table lives before it is deleted.")
]
IdleTableSeconds = Annotated[
    float, _limit("Seconds an unused started table stays in memory (then read on demand).")
]
FinishedTableSeconds = Annotated[float, _limit("Seconds an unused finished table stays in memory.")]
ResumeWindow = Annotated[
    float, _limit("At start-up, resume the tables that played within this many seconds.")
]
ResumeMax = Annotated[int, _limit("At most this many tables resumed at start-up.")]
MaxConnectionsPerClient = Annotated[int, _limit("Websockets one client address may hold open.")]
MaxConnectionsPerTable = Annotated[int, _limit("Websockets one table accepts.")]
HelloTimeout = Annotated[float, _limit("Seconds a websocket has to send its hello.")]
BodyTimeout = Annotated[float, _limit("Seconds a client has to send a request body.")]
HeaderTimeout = Annotated[
    float, _limit("Seconds a client has to send a request's line and headers.")
]
KeepAliveTimeout = Annotated[float, _limit("Seconds an idle HTTP connection is kept open.")]
ReplayCacheMb = Annotated[float, _limit("Megabytes of compressed replays kept in memory.")]

LIMIT_FIELDS = (
    "create_rate",
    "create_burst",
    "act_rate",
    "act_burst",
    "read_rate",
    "read_burst",
    "max_waiting_tables_per_client",
    "max_waiting_tables",
    "waiting_table_ttl",
    "idle_table_seconds",
    "finished_table_seconds",
    "resume_window",
    "resume_max",
    "max_connections_per_client",
    "max_connections_per_table",
    "hello_timeout",
    "body_timeout",
    "header_timeout",
    "keep_alive_timeout",
)
"""The ``serve`` parameters passed to ServerConfig under their own names."""
