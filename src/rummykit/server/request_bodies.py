"""Request bodies read bounded in size and time, before any route sees them.

A route that reads its body with ``await request.body()`` gets it whole: a client could
make the server hold 300 MB before the route's size check ran. This middleware refuses
a body whose ``Content-Length`` is over the limit at once, without reading a byte of it;
it reads any other body (chunked ones too) itself and stops at the first chunk past the
limit; and a body that has not arrived within ``timeout`` seconds is refused too (a
client trickling a body a byte at a time would otherwise hold a connection for good).
Each refusal closes the connection, so the rest of the body is never read. The route
then gets the body from memory, at most ``max_bytes`` of it.
"""

from __future__ import annotations

import asyncio
from typing import Any

from rummykit.server.asgi_replies import ASGIApp, Receive, Scope, Send, send_error
from rummykit.server.protocol import ServerError

__all__ = ["BodyLimit"]


class BodyLimit:
    """ASGI middleware: HTTP request bodies of at most ``max_bytes``, within ``timeout``."""

    def __init__(self, app: ASGIApp, *, max_bytes: int, timeout: float) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.timeout = timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length: bytes | None = None
        chunked = False
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                length = value
            elif name == b"transfer-encoding":
                chunked = True
        if length is None and not chunked:  # no body (HTTP/1.1 section 6.3)
            await self.app(scope, receive, send)
            return
        if length is not None:
            try:
                declared = int(length)
            except ValueError:
                await send_error(send, ServerError("bad_request", "bad Content-Length"), close=True)
                return
            if declared > self.max_bytes:
                await send_error(send, self._too_large(declared), close=True)
                return
        try:
            body = await asyncio.wait_for(self._read(receive), self.timeout)
        except TimeoutError:
            error = ServerError(
                "request_timeout", f"the request body did not arrive within {self.timeout:g} s"
            )
            await send_error(send, error, close=True)
            return
        except ServerError as error:
            await send_error(send, error, close=True)
            return
        if body is None:  # the client left
            return
        await self.app(scope, _replay(body, receive), send)

    async def _read(self, receive: Receive) -> bytes | None:
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return None
            chunk = bytes(message.get("body", b""))
            size += len(chunk)
            if size > self.max_bytes:
                raise self._too_large(None)
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)

    def _too_large(self, declared: int | None) -> ServerError:
        size = "" if declared is None else f" ({declared} bytes)"
        return ServerError(
            "body_too_large",
            f"the request body{size} is over the limit of {self.max_bytes} bytes",
        )


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives the body read already, then waits on the client."""
    given = False

    async def replay() -> dict[str, Any]:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        return dict(await receive())

    return replay
