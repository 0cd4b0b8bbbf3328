"""The FastAPI application: lobby and game REST routes, the websocket, the web table.

``create_app(ServerConfig(...))`` builds the app; ``rummykit serve`` runs it with
uvicorn. The routes only translate HTTP and websocket messages into calls on the
:class:`~rummykit.server.tables.TableManager`; no rule lives here.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
from collections.abc import AsyncIterator
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Header, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from rummykit.server import queries
from rummykit.server.config import ServerConfig
from rummykit.server.connections import Client
from rummykit.server.live_table import LiveTable
from rummykit.server.protocol import PROTOCOL_VERSION, RateLimiter, ServerError, parse_message
from rummykit.server.store import Store
from rummykit.server.tables import TableManager
from rummykit.server.variants import ADAPTERS, get_adapter

__all__ = ["create_app", "web_root"]

log = logging.getLogger("rummykit.server")

HELLO_TIMEOUT = 15.0
"""Seconds a new websocket has to send its ``hello``."""
FLOOD_CLOSE = 200
"""Refused messages in a row (over the rate limit) after which a connection is closed."""


def web_root() -> Path:
    """The folder of the browser table's static files (package data)."""
    return Path(str(resources.files("rummykit") / "web"))


def _bearer(authorization: str | None) -> str:
    if not authorization or not authorization.lower().startswith("bearer "):
        raise ServerError("bad_token", "send the seat token as 'Authorization: Bearer TOKEN'")
    return authorization[7:].strip()


def create_app(config: ServerConfig | None = None) -> FastAPI:
    """The server application for ``config``."""
    config = config or ServerConfig()
    store = Store(config.database_url, sqlite_synchronous=config.sqlite_synchronous)
    manager = TableManager(store, config)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await manager.open()
        if config.freeze_gc:
            # The modules, the app and the resumed tables live as long as the process;
            # a full collection that walks them all paused every table for tens of
            # milliseconds (hundreds on a loaded machine).
            gc.collect()
            gc.freeze()
        try:
            yield
        finally:
            await manager.close()

    app = FastAPI(
        title="rummykit table server",
        version=str(PROTOCOL_VERSION),
        lifespan=lifespan,
        docs_url="/api/docs",
        openapi_url="/api/openapi.json",
        redoc_url=None,
    )
    app.state.manager = manager
    app.state.config = config

    @app.exception_handler(ServerError)
    async def server_error(_request: Request, error: ServerError) -> JSONResponse:
        return JSONResponse(error.to_json(), status_code=error.http_status)

    # -- lobby ------------------------------------------------------------------------

    @app.get("/api/health")
    async def health() -> dict[str, Any]:
        return {"ok": True, "tables": len(manager.tables), "protocol": PROTOCOL_VERSION}

    @app.get("/api/variants")
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
            }
            for adapter in ADAPTERS.values()
        ]

    @app.post("/api/tables", status_code=201)
    async def create_table(request: Request) -> dict[str, Any]:
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

    @app.get("/api/tables")
    async def list_tables(
        status: Annotated[str | None, Query(pattern="^(waiting|playing|finished)$")] = None,
        limit: Annotated[int, Query(ge=1, le=200)] = 50,
    ) -> list[dict[str, Any]]:
        rows = await asyncio.to_thread(store.list_tables, status=status, limit=limit)
        return [_row_summary(row) for row in rows]

    @app.get("/api/tables/{table_id}")
    async def get_table(
        table_id: str, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        table = await manager.get(table_id)
        seat = (
            None if authorization is None else manager.seat_for_token(table, _bearer(authorization))
        )
        return await manager.current_snapshot(table, seat)

    @app.post("/api/tables/{table_id}/join")
    async def join(
        table_id: str, request: Request, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        table, seat = await _seated(table_id, authorization)
        body = await _json_body(request, config.max_message_bytes, allow_empty=True)
        await manager.join(table, seat, body.get("name"))
        return await manager.current_snapshot(table, seat)

    @app.post("/api/tables/{table_id}/start")
    async def start(
        table_id: str, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        table, seat = await _seated(table_id, authorization)
        await manager.start(table, seat)
        return await manager.current_snapshot(table, seat)

    @app.post("/api/tables/{table_id}/actions")
    async def act(
        table_id: str, request: Request, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        table, seat = await _seated(table_id, authorization)
        body = await _json_body(request, config.max_message_bytes)
        if body.get("seat") is not None and body.get("seat") != seat:
            raise ServerError("not_your_seat", f"your token is for seat {seat}")
        seq = await manager.act(table, seat, body.get("action"))
        return {"seq": seq, "view": await manager.current_view(table, seat)}

    @app.post("/api/tables/{table_id}/rematch")
    async def rematch(
        table_id: str, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        table, seat = await _seated(table_id, authorization)
        new_id = await manager.rematch(table, seat)
        return {"table_id": new_id}

    # -- finished games and replays -------------------------------------------------

    @app.get("/api/games")
    async def games(limit: Annotated[int, Query(ge=1, le=200)] = 50) -> list[dict[str, Any]]:
        rows = await asyncio.to_thread(store.list_tables, status="finished", limit=limit)
        return [_row_summary(row) for row in rows]

    @app.get("/api/games/{table_id}/replay")
    async def replay(table_id: str) -> dict[str, Any]:
        row = await asyncio.to_thread(store.load, table_id)
        if row is None:
            raise ServerError("not_found", f"no table {table_id!r}")
        if row.status != "finished":
            raise ServerError("not_finished", "only finished games can be replayed")
        adapter = get_adapter(row.variant)
        game = adapter.new_game(row.rules, seats=len(row.seats), seed=row.seed)
        steps: list[dict[str, Any]] = [
            {"seq": 0, "seat": None, "action": None, "events": [], "state": game.reveal()}
        ]
        for action in row.actions:
            applied = game.apply(action.seat, action.action)
            steps.append(
                {
                    "seq": action.seq,
                    "seat": action.seat,
                    "by": action.actor,
                    "action": action.action,
                    "events": game.events_for(applied.events, None),
                    "state": game.reveal(),
                }
            )
        record = {
            "variant": row.variant,
            "preset": row.preset,
            "rules": row.rules,
            "seed": row.seed,
            "seats": [
                {"seat": i, "kind": s["kind"], "name": s["name"], "level": s.get("level")}
                for i, s in enumerate(row.seats)
            ],
            "actions": [
                {"seq": a.seq, "seat": a.seat, "action": a.action, "by": a.actor}
                for a in row.actions
            ],
        }
        return {"table": _row_summary(row), "record": record, "steps": steps}

    async def _seated(table_id: str, authorization: str | None) -> tuple[LiveTable, int]:
        table = await manager.get(table_id)
        return table, manager.seat_for_token(table, _bearer(authorization))

    # -- websocket ----------------------------------------------------------------------

    @app.websocket("/ws/tables/{table_id}")
    async def websocket(socket: WebSocket, table_id: str) -> None:
        await socket.accept()
        client = Client(queue_size=config.client_queue)
        sender = asyncio.ensure_future(_sender(socket, client))
        try:
            await _session(socket, client, table_id)
        except WebSocketDisconnect:
            pass
        except Exception:
            log.exception("websocket session failed")
        finally:
            await manager.disconnect(client)
            client.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(sender, timeout=5)

    async def _session(socket: WebSocket, client: Client, table_id: str) -> None:
        limiter = RateLimiter(config.rate_per_second, config.rate_burst)
        table: LiveTable | None = None
        try:
            table = await manager.get(table_id)
        except ServerError as error:
            client.send(error.to_json())
            client.close(error.code)
            return
        while not client.closed:
            try:
                if client.seat is None and client.table_id is None:
                    text = await asyncio.wait_for(_receive_text(socket), timeout=HELLO_TIMEOUT)
                else:
                    text = await _receive_text(socket)
            except TimeoutError:
                client.send(ServerError("hello_required", "send hello first").to_json())
                client.close("no hello")
                return
            if not limiter.allow():
                if limiter.refused >= FLOOD_CLOSE:
                    client.send(
                        ServerError("rate_limited", "too many messages; disconnected").to_json()
                    )
                    client.close("flood")
                    return
                if limiter.refused == 1 or limiter.refused % 20 == 0:
                    client.send(
                        ServerError(
                            "rate_limited",
                            f"too many messages: at most {config.rate_per_second:g} a second "
                            f"(bursts of {config.rate_burst}); this one was ignored",
                        ).to_json()
                    )
                continue
            request_id: Any = None
            try:
                message = parse_message(text, max_bytes=config.max_message_bytes)
                request_id = message.get("id")
                await _dispatch(client, table, message)
            except ServerError as error:
                client.send(error.to_json(request_id))
                if error.code in ("bad_token", "unsupported_version", "not_found"):
                    client.close(error.code)

    async def _dispatch(client: Client, table: LiveTable, message: dict[str, Any]) -> None:
        kind = message["type"]
        request_id = message.get("id")
        if kind == "ping":
            client.send({"type": "pong", "id": request_id})
            return
        joined = client.table_id is not None
        if kind == "hello":
            if joined:
                raise ServerError("bad_message", "hello was already sent on this connection")
            version = message.get("v", PROTOCOL_VERSION)
            if version != PROTOCOL_VERSION:
                raise ServerError(
                    "unsupported_version",
                    f"this server speaks protocol version {PROTOCOL_VERSION}, not {version!r}",
                )
            await manager.connect(table, client, message.get("token"), message.get("name"))
            return
        if not joined:
            raise ServerError("hello_required", "send hello (with your seat token) first")
        if kind == "sync":
            client.send(await manager.current_snapshot(table, client.seat))
            return
        seat = client.seat
        if seat is None:
            raise ServerError("not_seated", "spectators cannot act; open an invite link to play")
        if kind == "act":
            claimed = message.get("seat")
            if claimed is not None and claimed != seat:
                raise ServerError(
                    "not_your_seat", f"this connection plays seat {seat}, not seat {claimed!r}"
                )
            await manager.act(
                table, seat, message.get("action"), reply_to=client, request_id=request_id
            )
        elif kind == "check":
            result = await queries.check_action(table, seat, message.get("action"))
            client.send({"type": "checked", "id": request_id, **result})
        elif kind == "hint":
            advice = await queries.hint(table, seat)
            client.send({"type": "hint", "id": request_id, "hint": advice})
        elif kind == "start":
            await manager.start(table, seat)
            client.send({"type": "ack", "id": request_id, "seq": table.seq})
        elif kind == "rematch":
            new_id = await manager.rematch(table, seat)
            client.send({"type": "ack", "id": request_id, "table_id": new_id})

    async def _receive_text(socket: WebSocket) -> str:
        message = await socket.receive()
        if message["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(message.get("code", 1000))
        text = message.get("text")
        if text is None:
            data = message.get("bytes") or b""
            try:
                return bytes(data).decode()
            except UnicodeDecodeError:
                return "\x00"  # not JSON: refused by the parser as bad_json
        return str(text)

    async def _sender(socket: WebSocket, client: Client) -> None:
        try:
            while True:
                item = await client.queue.get()
                if item is None:
                    break
                await socket.send_text(item)
        except Exception:
            pass
        finally:
            client.closed = True
            with contextlib.suppress(Exception):
                await socket.close(
                    code=1000 if not client.close_reason else 1008, reason=client.close_reason[:100]
                )

    # -- the web table ------------------------------------------------------------------

    root = web_root()
    app.mount("/static", StaticFiles(directory=root), name="static")

    def index() -> Response:
        return FileResponse(root / "index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/", include_in_schema=False)
    async def home() -> Response:
        return index()

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> Response:
        return index()

    @app.get("/replay/{table_id}", include_in_schema=False)
    async def replay_page(table_id: str) -> Response:
        return index()

    return app


async def _json_body(request: Request, limit: int, *, allow_empty: bool = False) -> dict[str, Any]:
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


def _row_summary(row: Any) -> dict[str, Any]:
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
