"""The options of ``rummykit serve`` that bound what clients can make the server do.

Each limit is declared once, in :class:`ServerLimits`: its type, its default and its
option's help line. :class:`~rummykit.server.config.ServerConfig` inherits the fields, and
:func:`with_limit_options` gives the ``serve`` command one option per field, of the same
name (docs/server-limits.md explains them, their defaults and what a refused client sees).
Only typer and rummykit's errors are imported here: the server's own packages are an extra.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import inspect
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any

import typer

from rummykit.errors import InvalidOptionError

__all__ = [
    "ForwardedAllowIps",
    "LeaseSeconds",
    "LogLevel",
    "PublicUrl",
    "RedisUrl",
    "ReplayCacheMb",
    "ServerLimits",
    "with_limit_options",
]

_LIMITS = "Limits (0 switches a limit off; see docs/server-limits.md)"
_HELP = "help"
"""The key of a limit's help line in its field's metadata."""


def _limit(default: float, help_text: str) -> Any:
    return dataclasses.field(default=default, metadata={_HELP: help_text})


@dataclass(frozen=True, slots=True, kw_only=True)
class ServerLimits:
    """What one client, and all of them together, can make the server hold or do
    (docs/server-limits.md); a limit of 0 switches that limit off."""

    # -- per-client REST rates (token buckets by client address) --------------------------
    create_rate: float = _limit(0.5, "Tables one client address may create a second.")
    create_burst: int = _limit(10, "Burst of table creations per client address.")
    act_rate: float = _limit(10.0, "REST joins, starts and actions per client a second.")
    act_burst: int = _limit(40, "Burst of REST joins, starts and actions per client.")
    read_rate: float = _limit(20.0, "Other /api requests per client address a second.")
    read_burst: int = _limit(60, "Burst of other /api requests per client address.")

    # -- tables -----------------------------------------------------------------------------
    max_waiting_tables_per_client: int = _limit(
        20, "Tables waiting to start that one client address may have created."
    )
    max_waiting_tables: int = _limit(2000, "Tables waiting to start on the whole server.")
    waiting_table_ttl: float = _limit(
        3600.0, "Seconds an unused waiting table lives before it is deleted."
    )
    idle_table_seconds: float = _limit(
        600.0, "Seconds an unused started table stays in memory (then read on demand)."
    )
    finished_table_seconds: float = _limit(
        60.0, "Seconds an unused finished table stays in memory."
    )
    resume_window: float = _limit(
        600.0, "At start-up, resume the tables that played within this many seconds."
    )
    resume_max: int = _limit(500, "At most this many tables resumed at start-up.")

    # -- connections --------------------------------------------------------------------------
    max_connections_per_client: int = _limit(32, "Websockets one client address may hold open.")
    max_connections_per_table: int = _limit(100, "Websockets one table accepts.")
    hello_timeout: float = _limit(15.0, "Seconds a websocket has to send its hello.")
    body_timeout: float = _limit(10.0, "Seconds a client has to send a request body.")
    header_timeout: float = _limit(
        10.0, "Seconds a client has to send a request's line and headers."
    )
    keep_alive_timeout: float = _limit(5.0, "Seconds an idle HTTP connection is kept open.")

    def __post_init__(self) -> None:
        for field in dataclasses.fields(ServerLimits):
            value = getattr(self, field.name)
            if not value >= 0:  # also refuses NaN
                raise InvalidOptionError(
                    f"{field.name} must be 0 (no limit) or more, not {value}", option=field.name
                )


def with_limit_options(command: Callable[..., None]) -> Callable[..., None]:
    """``command`` with one typer option per :class:`ServerLimits` field in place of its
    ``limits`` parameter, which it is given built from those options.

    typer reads a command's options from its signature, so the limits' parameters are
    made from their declarations rather than written out again.
    """
    types = typing.get_type_hints(ServerLimits)
    options = [
        inspect.Parameter(
            field.name,
            inspect.Parameter.KEYWORD_ONLY,
            default=field.default,
            annotation=Annotated[
                types[field.name],
                typer.Option(help=field.metadata[_HELP], rich_help_panel=_LIMITS, min=0),
            ],
        )
        for field in dataclasses.fields(ServerLimits)
    ]
    signature = inspect.signature(command, eval_str=True)
    parameters = list(signature.parameters.values())
    at = list(signature.parameters).index("limits")
    parameters[at : at + 1] = options

    @functools.wraps(command)
    def with_limits(**values: Any) -> None:
        limits = ServerLimits(**{option.name: values.pop(option.name) for option in options})
        command(limits=limits, **values)

    with_limits.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
    return with_limits


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
ReplayCacheMb = Annotated[
    float,
    typer.Option(
        help="Megabytes of compressed replays kept in memory.", rich_help_panel=_LIMITS, min=0
    ),
]


class LogLevel(enum.StrEnum):
    """uvicorn's log levels (``debug`` also logs every request)."""

    critical = "critical"
    error = "error"
    warning = "warning"
    info = "info"
    debug = "debug"
    trace = "trace"
