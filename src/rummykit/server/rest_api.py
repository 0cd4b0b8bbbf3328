"""The REST API under ``/api``: variants, the lobby, a table's routes, finished games.

The routes only translate HTTP into calls on the
:class:`~rummykit.server.tables.TableManager`; no rule lives here. A refusal is a
:class:`~rummykit.server.protocol.ServerError`, answered by the error handlers.
"""

from __future__ import annotations

import asyncio
import json
from typing import Annotated, Any

from fastapi import APIRouter, Header, Query, Request

from rummykit.server.app_state import Config, Manager
from rummykit.server.live_table import LiveTable
from rummykit.server.protocol import PROTOCOL_VERSION, ServerError
from rummykit.server.replays import replay_record, replay_steps
from rummykit.server.rules_pages import rules_url
from rummykit.server.store import TableRow
from rummykit.server.tables import TableManager
from rummykit.server.variants import ADAPTERS

__all__ = ["router"]

JSON = dict[str, Any]

router = APIRouter(prefix="/api")

Authorization = Annotated[str | None, Header()]

# -- lobby ------------------------------------------------------------------------------


@router.get("/health")
async def health(manager: Manager) -> dict[str, Any]:
    return {"ok": True, "tables": len(manager.tables), "protocol": PROTOCOL_VERSION}


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
    body = await _json_body(request, config.max_message_bytes)
    table, tokens = await manager.create_table(body)
    base = str(request.base_url).rstrip("/")
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


@router.get("/tables")
async def list_tables(
    manager: Manager,
    status: Annotated[str | None, Query(pattern="^(waiting|playing|finished)$")] = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
) -> list[dict[str, Any]]:
    rows = await asyncio.to_thread(manager.store.list_tables, status=status, limit=limit)
    return [_row_summary(row) for row in rows]


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
    table_id: str,
    request: Request,
    manager: Manager,
    config: Config,
    authorization: Authorization = None,
) -> dict[str, Any]:
    table, seat = await _seated(manager, table_id, authorization)
    body = await _json_body(request, config.max_message_bytes, allow_empty=True)
    await manager.join(table, seat, body.get("name"))
    return await manager.current_snapshot(table, seat)


@router.post("/tables/{table_id}/start")
async def start(
    table_id: str, manager: Manager, authorization: Authorization = None
) -> dict[str, Any]:
    table, seat = await _seated(manager, table_id, authorization)
    await manager.start(table, seat)
    return await manager.current_snapshot(table, seat)


@router.post("/tables/{table_id}/actions")
async def act(
    table_id: str,
    request: Request,
    manager: Manager,
    config: Config,
    authorization: Authorization = None,
) -> dict[str, Any]:
    table, seat = await _seated(manager, table_id, authorization)
    body = await _json_body(request, config.max_message_bytes)
    if body.get("seat") is not None and body.get("seat") != seat:
        raise ServerError("not_your_seat", f"your token is for seat {seat}")
    seq = await manager.act(table, seat, body.get("action"))
    return {"seq": seq, "view": await manager.current_view(table, seat)}


@router.post("/tables/{table_id}/rematch")
async def rematch(
    table_id: str, manager: Manager, authorization: Authorization = None
) -> dict[str, Any]:
    table, seat = await _seated(manager, table_id, authorization)
    new_id = await manager.rematch(table, seat)
    return {"table_id": new_id}


# -- finished games and replays ---------------------------------------------------------


@router.get("/games")
async def games(
    manager: Manager, limit: Annotated[int, Query(ge=1, le=200)] = 50
) -> list[dict[str, Any]]:
    rows = await asyncio.to_thread(manager.store.list_tables, status="finished", limit=limit)
    return [_row_summary(row) for row in rows]


@router.get("/games/{table_id}/replay")
async def replay(table_id: str, manager: Manager) -> dict[str, Any]:
    row = await asyncio.to_thread(manager.store.load, table_id)
    if row is None:
        raise ServerError("not_found", f"no table {table_id!r}")
    if row.status != "finished":
        raise ServerError("not_finished", "only finished games can be replayed")
    steps = replay_steps(row)
    return {"table": _row_summary(row), "record": replay_record(row), "steps": steps}


# -- helpers ----------------------------------------------------------------------------


def _bearer(authorization: str | None) -> str:
    if not authorization or not authorization.lower().startswith("bearer "):
        raise ServerError("bad_token", "send the seat token as 'Authorization: Bearer TOKEN'")
    return authorization[7:].strip()


async def _seated(
    manager: TableManager, table_id: str, authorization: str | None
) -> tuple[LiveTable, int]:
    table = await manager.get(table_id)
    return table, manager.seat_for_token(table, _bearer(authorization))


async def _json_body(request: Request, limit: int, *, allow_empty: bool = False) -> JSON:
    raw = await request.body()
    if not raw and allow_empty:
        return {}
    if len(raw) > limit:
        raise ServerError("too_large", f"the request body has {len(raw)} bytes; limit {limit}")
    try:
        body = json.loads(raw)
    except ValueError:
        raise ServerError("bad_json", "the request body is not valid JSON") from None
    if not isinstance(body, dict):
        raise ServerError("bad_request", "the request body is a JSON object")
    return body


def _row_summary(row: TableRow) -> JSON:
    return {
        "id": row.id,
        "variant": row.variant,
        "preset": row.preset,
        "status": row.status,
        "seq": row.action_count,
        "seats": [
            {"seat": i, "kind": s["kind"], "name": s["name"], "level": s.get("level")}
            for i, s in enumerate(row.seats)
        ],
        "summary": row.summary,
        "created_at": row.created_at,
        "updated_at": row.updated_at,
        "finished_at": row.finished_at,
        "rematch_of": row.rematch_of,
        "rematch_id": row.rematch_id,
    }
