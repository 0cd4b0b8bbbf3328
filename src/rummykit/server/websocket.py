"""The websocket endpoint: one connection's session with a table (docs/protocol.md).

A connection says ``hello`` (with a seat token, or none to watch), then sends
messages that are rate limited, parsed and dispatched to the table manager. Its
replies and the table's broadcasts go through the connection's own queue, drained by
a sender task, so a slow client never holds up a table.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from rummykit.server import queries, schemas
from rummykit.server.app_state import Config, Manager
from rummykit.server.config import ServerConfig
from rummykit.server.connections import Client, encode_json
from rummykit.server.live_table import LiveTable
from rummykit.server.protocol import PROTOCOL_VERSION, RateLimiter, ServerError, parse_message
from rummykit.server.rate_limits import client_address
from rummykit.server.tables import TableManager

__all__ = ["FLOOD_CLOSE", "admitted", "handle_text", "receive_text", "router"]

log = logging.getLogger("rummykit.server")

FLOOD_CLOSE = 200
"""Refused messages in a row (over the rate limit) after which a connection is closed."""

router = APIRouter()


@router.websocket("/ws/tables/{table_id}")
async def websocket(socket: WebSocket, table_id: str, manager: Manager, config: Config) -> None:
    await socket.accept()
    address = client_address(socket.scope)
    refused = manager.connection_caps.admit(address, table_id[:64])
    if refused is not None:
        await socket.send_text(encode_json(refused.to_json()))
        await socket.close(code=1013, reason="too many connections")
        return
    client = Client(queue_size=config.client_queue)
    client.address = address
    sender = asyncio.ensure_future(_sender(socket, client))
    try:
        await _session(socket, client, table_id, manager, config)
    except WebSocketDisconnect:
        pass
    except Exception:
        log.exception("websocket session failed")
    finally:
        manager.connection_caps.release(address, table_id[:64])
        await manager.disconnect(client)
        client.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(sender, timeout=5)


async def _session(
    socket: WebSocket, client: Client, table_id: str, manager: TableManager, config: ServerConfig
) -> None:
    limiter = RateLimiter(config.rate_per_second, config.rate_burst)
    table: LiveTable | None = None
    try:
        table = await manager.get(table_id)
    except ServerError as error:
        if manager.cluster is not None and error.code == "elsewhere":
            from rummykit.server.cluster.relay import relay_session

            await relay_session(socket, client, table_id, error, manager.cluster, config)
            return
        client.send(error.to_json())
        client.close(error.code)
        return
    # One deadline for the hello, however many pings come before it.
    hello_by = asyncio.get_running_loop().time() + config.hello_timeout
    while not client.closed:
        try:
            if client.table_id is None:
                left = hello_by - asyncio.get_running_loop().time()
                text = await asyncio.wait_for(receive_text(socket), timeout=max(0.0, left))
            else:
                text = await receive_text(socket)
        except TimeoutError:
            client.send(
                ServerError(
                    "hello_required", f"no hello within {config.hello_timeout:g} s"
                ).to_json()
            )
            client.close("no hello")
            return
        if admitted(limiter, client, config):
            await handle_text(client, table, text, manager, config)


def admitted(limiter: RateLimiter, client: Client, config: ServerConfig) -> bool:
    """True if a message is within the connection's rate; otherwise it is refused (with
    a word now and then), and a flood closes the connection."""
    if limiter.allow():
        return True
    if limiter.refused >= FLOOD_CLOSE:
        client.send(ServerError("rate_limited", "too many messages; disconnected").to_json())
        client.close("flood")
    elif limiter.refused == 1 or limiter.refused % 20 == 0:
        client.send(
            ServerError(
                "rate_limited",
                f"too many messages: at most {config.rate_per_second:g} a second "
                f"(bursts of {config.rate_burst}); this one was ignored",
            ).to_json()
        )
    return False


async def handle_text(
    client: Client, table: LiveTable, text: str, manager: TableManager, config: ServerConfig
) -> None:
    """One message of a client that passed the rate limit: parsed, dispatched, and any
    refusal answered (the relays of a cluster hand their clients' messages here too)."""
    request_id: Any = None
    try:
        message = parse_message(text, max_bytes=config.max_message_bytes)
        request_id = message.get("id")
        await _dispatch(client, table, message, manager)
    except ServerError as error:
        client.send(error.to_json(request_id))
        if error.code in ("bad_token", "unsupported_version", "not_found"):
            client.close(error.code)


async def _dispatch(
    client: Client, table: LiveTable, data: dict[str, Any], manager: TableManager
) -> None:
    kind = data["type"]
    message = schemas.message(kind, data)
    request_id = message.id
    if kind == "ping":
        client.send({"type": "pong", "id": request_id})
        return
    joined = client.table_id is not None
    if isinstance(message, schemas.HelloMessage):
        if joined:
            raise ServerError("bad_message", "hello was already sent on this connection")
        if message.v != PROTOCOL_VERSION:
            raise ServerError(
                "unsupported_version",
                f"this server speaks protocol version {PROTOCOL_VERSION}, not {message.v!r}",
            )
        await manager.connect(table, client, message.token, message.name)
        return
    if not joined:
        raise ServerError("hello_required", "send hello (with your seat token) first")
    if kind == "sync":
        client.send(await manager.current_snapshot(table, client.seat))
        return
    seat = client.seat
    if seat is None:
        raise ServerError("not_seated", "spectators cannot act; open an invite link to play")
    if isinstance(message, schemas.ActMessage):
        if message.seat is not None and message.seat != seat:
            raise ServerError(
                "not_your_seat", f"this connection plays seat {seat}, not seat {message.seat}"
            )
        await manager.act(table, seat, message.action, reply_to=client, request_id=request_id)
    elif isinstance(message, schemas.CheckMessage):
        result = await queries.check_action(table, seat, message.action)
        client.send({"type": "checked", "id": request_id, **result})
    elif kind == "hint":
        advice = await queries.hint(table, seat)
        client.send({"type": "hint", "id": request_id, "hint": advice})
    elif kind == "start":
        await manager.start(table, seat)
        client.send({"type": "ack", "id": request_id, "seq": table.seq})
    elif kind == "rematch":
        new_id = await manager.rematch(table, seat, client.address)
        client.send({"type": "ack", "id": request_id, "table_id": new_id})


async def receive_text(socket: WebSocket) -> str:
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
