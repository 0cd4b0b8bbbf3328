"""The REST API under ``/api``: variants, the lobby, a table's routes, finished games.

The routes only translate HTTP into calls on the
:class:`~rummykit.server.tables.TableManager`; no rule lives here. A refusal is a
:class:`~rummykit.server.protocol.ServerError`, answered by the error handlers.
"""

from __future__ import annotations

import asyncio
import gzip
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Query, Request, Response

from rummykit.server.app_state import Config, Manager
from rummykit.server.config import ServerConfig
from rummykit.server.live_table import LiveTable
from rummykit.server.protocol import PROTOCOL_VERSION, ServerError, load_json
from rummykit.server.rate_limits import client_address
from rummykit.server.replay_cache import accepts_gzip
from rummykit.server.replays import row_summary
from rummykit.server.rules_pages import rules_url
from rummykit.server.schemas import ActBody, CreateTableBody, JoinBody, body
from rummykit.server.variants import ADAPTERS
from rummykit.table_game import JSON

__all__ = ["public_base_url", "router"]

router = APIRouter(prefix="/api")

Authorization = Annotated[str | None, Header()]


def _bearer(authorization: str | None) -> str:
    if not authorization or not authorization.lower().startswith("bearer "):
        raise ServerError("bad_token", "send the seat token as 'Authorization: Bearer TOKEN'")
    return authorization[7:].strip()


async def _seated(
    table_id: str, manager: Manager, authorization: Authorization = None
) -> tuple[LiveTable, int]:
    """The table of the path and the seat its bearer token holds (a route's dependency)."""
    table = await manager.get(table_id)
    return table, manager.seat_for_token(table, _bearer(authorization))


Seated = Annotated[tuple[LiveTable, int], Depends(_seated)]


# -- lobby ------------------------------------------------------------------------------


@router.get("/health")
async def health(manager: Manager) -> dict[str, Any]:
    answer: dict[str, Any] = {
        "ok": True,
        "tables": len(manager.tables),
        "protocol": PROTOCOL_VERSION,
    }
    if manager.cluster is not None:
        answer["cluster"] = manager.cluster.stats()
    return answer


@router.get("/variants")
async def variants() -> list[dict[str, Any]]:
    return [
        {
            "name": adapter.name,
            "title": adapter.title,
            "min_seats": adapter.min_seats,
            "max_seats": adapter.max_seats,
            "presets": {name: dict(options) for name, options in adapter.presets.items()},
            "options": [option.to_json() for option in adapter.rule_options()],
            "bot_levels": list(adapter.bot_levels),
            "default_bot_level": adapter.default_bot_level,
            "rules_url": rules_url(adapter.name),
        }
        for adapter in ADAPTERS.values()
    ]


@router.post("/tables", status_code=201)
async def create_table(request: Request, manager: Manager, config: Config) -> dict[str, Any]:
    raw = await _json_body(request, config.max_message_bytes)
    spec = body(CreateTableBody, raw).model_dump(exclude_unset=True)
    table, tokens = await manager.create_table(spec, client_address(request.scope))
    base = public_base_url(config, request)
    invites = [
        {
            "seat": index,
            "token": token,
            "url": f"{base}/t/{table.id}#seat={index}&token={token}",
        }
        for index, token in enumerate(tokens)
        if token is not None
    ]
    return {"table": manager.table_info(table), "invites": invites}


def public_base_url(config: ServerConfig, request: Request) -> str:
    """Where people reach this server: ``--public-url``, else the address the request
    came in on (the listening socket's), never the ``Host`` header a client chose."""
    if config.public_url:
        return config.public_url.rstrip("/")
    server = request.scope.get("server")
    if not server:
        return ""
    host, port = str(server[0]), server[1]
    if ":" in host:  # IPv6
        host = f"[{host}]"
    scheme = request.scope.get("scheme", "http")
    default = (scheme == "http" and port == 80) or (scheme == "https" and port == 443)
    return f"{scheme}://{host}" + ("" if port is None or default else f":{port}")


@router.get("/tables")
async def list_tables(
    manager: Manager,
    status: Annotated[str | None, Query(pattern="^(waiting|playing|finished)$")] = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
) -> list[dict[str, Any]]:
    rows = await asyncio.to_thread(manager.store.list_tables, status=status, limit=limit)
    return [row_summary(row) for row in rows]


# -- a table, for the holder of a seat token --------------------------------------------


@router.get("/tables/{table_id}")
async def get_table(
    table_id: str, manager: Manager, authorization: Authorization = None
) -> dict[str, Any]:
    table = await manager.get(table_id)
    seat = None if authorization is None else manager.seat_for_token(table, _bearer(authorization))
    return await manager.current_snapshot(table, seat)


@router.post("/tables/{table_id}/join")
async def join(
    seated: Seated, request: Request, manager: Manager, config: Config
) -> dict[str, Any]:
    table, seat = seated
    raw = await _json_body(request, config.max_message_bytes, allow_empty=True)
    await manager.join(table, seat, body(JoinBody, raw).name)
    return await manager.current_snapshot(table, seat)


@router.post("/tables/{table_id}/start")
async def start(seated: Seated, manager: Manager) -> dict[str, Any]:
    table, seat = seated
    await manager.start(table, seat)
    return await manager.current_snapshot(table, seat)


@router.post("/tables/{table_id}/actions")
async def act(seated: Seated, request: Request, manager: Manager, config: Config) -> dict[str, Any]:
    table, seat = seated
    sent = body(ActBody, await _json_body(request, config.max_message_bytes))
    if sent.seat is not None and sent.seat != seat:
        raise ServerError("not_your_seat", f"your token is for seat {seat}")
    seq = await manager.act(table, seat, sent.action)
    return {"seq": seq, "view": await manager.current_view(table, seat)}


@router.post("/tables/{table_id}/rematch")
async def rematch(seated: Seated, request: Request, manager: Manager) -> dict[str, Any]:
    table, seat = seated
    new_id = await manager.rematch(table, seat, client_address(request.scope))
    return {"table_id": new_id}


# -- finished games and replays ---------------------------------------------------------


@router.get("/games")
async def games(
    manager: Manager, limit: Annotated[int, Query(ge=1, le=200)] = 50
) -> list[dict[str, Any]]:
    rows = await asyncio.to_thread(manager.store.list_tables, status="finished", limit=limit)
    return [row_summary(row) for row in rows]


@router.get("/games/{table_id}/replay")
async def replay(
    table_id: str, manager: Manager, accept_encoding: Annotated[str | None, Header()] = None
) -> Response:
    if not 1 <= len(table_id) <= 32:
        raise ServerError("not_found", "no such table")
    compressed = await manager.replays.compressed(table_id)
    headers = {"Vary": "Accept-Encoding"}
    if accepts_gzip(accept_encoding):
        headers["Content-Encoding"] = "gzip"
        return Response(compressed, media_type="application/json", headers=headers)
    plain = await asyncio.to_thread(gzip.decompress, compressed)
    return Response(plain, media_type="application/json", headers=headers)


# -- helpers ----------------------------------------------------------------------------


async def _json_body(request: Request, limit: int, *, allow_empty: bool = False) -> JSON:
    # The body-limit middleware has read the body already, bounded; this check only
    # guards an app run without it.
    raw = await request.body()
    if not raw and allow_empty:
        return {}
    if len(raw) > limit:
        raise ServerError("body_too_large", f"the request body has {len(raw)} bytes; limit {limit}")
    data = load_json(raw, "the request body")
    if not isinstance(data, dict):
        raise ServerError("bad_request", "the request body is a JSON object")
    return data
