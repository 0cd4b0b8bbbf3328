"""REST requests for a table another node owns: forwarded to the owner through the bus.

The routes of one table (``/api/tables/{id}`` and below) change or read the live table,
which only its owner holds. On any other node this middleware (installed in a cluster
only, inside the rate and body limits, so those are applied where the client is) sends
the whole request to the owner, which runs it through its own routes and sends the
response back. Any other route answers where it was asked (the lobby, the list of
games and the replays read the shared database).
"""

from __future__ import annotations

import asyncio
import base64
import itertools
import logging
from typing import TYPE_CHECKING, Any

from rummykit.server.asgi_replies import ASGIApp, Message, Receive, Scope, Send, send_error
from rummykit.server.cluster.bus import Bus, Item
from rummykit.server.protocol import ServerError

if TYPE_CHECKING:
    from rummykit.server.tables import TableManager

__all__ = ["ClusterRequests", "HttpCalls"]

log = logging.getLogger("rummykit.server")

CALL_TIMEOUT = 15.0
"""Seconds a forwarded request may take at the owner before the client is told to retry."""

_FORWARDED_HEADERS = (b"authorization", b"content-type", b"accept-encoding")


def _table_of(scope: Scope) -> str | None:
    """The table id of a table's REST route, or ``None`` for any other request."""
    if scope["type"] != "http":
        return None
    parts = str(scope.get("path", "")).split("/")
    if len(parts) >= 4 and parts[1] == "api" and parts[2] == "tables" and parts[3]:
        return parts[3]
    return None


class HttpCalls:
    """Forwarded requests of this node: those it waits for, and those it answers."""

    def __init__(self, bus: Bus) -> None:
        self.bus = bus
        self.app: ASGIApp | None = None
        """The routes (the application inside the middlewares), set by the middleware."""
        self.server: Any = None
        """The FastAPI application, which the routes find in their request's scope."""
        self.waiting: dict[str, asyncio.Future[Item]] = {}
        self._numbers = itertools.count(1)
        self._tasks: set[asyncio.Task[None]] = set()

    async def call(self, owner: str, scope: Scope, body: bytes) -> Item:
        """Send a request to ``owner``; its ``[status, headers, body]``."""
        call_id = f"{self.bus.node}.{next(self._numbers)}"
        future: asyncio.Future[Item] = asyncio.get_running_loop().create_future()
        self.waiting[call_id] = future
        headers = [
            [name.decode("latin-1"), value.decode("latin-1")]
            for name, value in scope.get("headers", ())
            if name in _FORWARDED_HEADERS
        ]
        client = scope.get("client") or ("", 0)
        request = [
            scope["method"],
            scope["path"],
            bytes(scope.get("query_string", b"")).decode("latin-1"),
            headers,
            base64.b64encode(body).decode(),
            client[0],
        ]
        self.bus.send(owner, ["call", call_id, request])
        try:
            return await asyncio.wait_for(future, timeout=CALL_TIMEOUT)
        finally:
            self.waiting.pop(call_id, None)

    def on_reply(self, call_id: str, reply: Item) -> None:
        future = self.waiting.get(call_id)
        if future is not None and not future.done():
            future.set_result(reply)

    def on_call(self, call_id: str, request: Item) -> None:
        task = asyncio.ensure_future(self._answer(call_id, request))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _answer(self, call_id: str, request: Item) -> None:
        method, path, query, headers, body, address = request
        origin = call_id.rsplit(".", 1)[0]
        scope: Scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": method,
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "root_path": "",
            "query_string": query.encode("latin-1"),
            "headers": [(n.encode("latin-1"), v.encode("latin-1")) for n, v in headers],
            "client": (address, 0),
            "server": None,
            "app": self.server,
            "state": {},
        }
        sent: dict[str, Any] = {"status": 500, "headers": [], "body": b""}
        delivered = False

        async def receive() -> Message:
            nonlocal delivered
            if delivered:
                return {"type": "http.disconnect"}
            delivered = True
            return {"type": "http.request", "body": base64.b64decode(body), "more_body": False}

        async def send(message: Message) -> None:
            if message["type"] == "http.response.start":
                sent["status"] = message["status"]
                sent["headers"] = [
                    [bytes(n).decode("latin-1"), bytes(v).decode("latin-1")]
                    for n, v in message.get("headers", ())
                ]
            elif message["type"] == "http.response.body":
                sent["body"] += bytes(message.get("body", b""))

        try:
            assert self.app is not None
            await self.app(scope, receive, send)
        except Exception:
            log.exception("forwarded request %s %s failed", method, path)
        reply = [sent["status"], sent["headers"], base64.b64encode(sent["body"]).decode()]
        self.bus.send(origin, ["reply", call_id, reply])


class ClusterRequests:
    """ASGI middleware of a cluster node: a table's REST requests go to its owner."""

    def __init__(self, app: ASGIApp, *, manager: TableManager, server: Any) -> None:
        self.app = app
        self.manager = manager
        cluster = manager.cluster
        assert cluster is not None
        cluster.calls.app = app
        cluster.calls.server = server

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        table_id = _table_of(scope)
        cluster = self.manager.cluster
        if table_id is None or cluster is None or table_id in self.manager.tables:
            await self.app(scope, receive, send)
            return
        try:
            await self.manager.get(table_id)  # here if it is free: the request runs here
        except ServerError as error:
            owner = getattr(error, "owner", None)
            if error.code == "elsewhere" and isinstance(owner, str):
                await self._forward(owner, scope, receive, send)
                return
        await self.app(scope, receive, send)

    async def _forward(self, owner: str, scope: Scope, receive: Receive, send: Send) -> None:
        body = b""
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            body += bytes(message.get("body", b""))
            if not message.get("more_body", False):
                break
        assert self.manager.cluster is not None
        try:
            status, headers, data = await self.manager.cluster.calls.call(owner, scope, body)
        except TimeoutError:
            await send_error(
                send, ServerError("storage_error", "the table's server did not answer; try again")
            )
            return
        raw = [(n.encode("latin-1"), v.encode("latin-1")) for n, v in headers]
        await send({"type": "http.response.start", "status": status, "headers": raw})
        await send({"type": "http.response.body", "body": base64.b64decode(data)})
