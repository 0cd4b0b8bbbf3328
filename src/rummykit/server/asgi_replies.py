"""Answers the server's ASGI middlewares send themselves, before any route runs.

The same JSON error envelope as every REST refusal (docs/protocol.md), sent straight to
the ASGI ``send``: a middleware that refuses a request does so without reading it.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping, Sequence
from typing import Any

from rummykit.server.protocol import ServerError

__all__ = ["ASGIApp", "Receive", "Scope", "Send", "send_error"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


async def send_error(
    send: Send,
    error: ServerError,
    *,
    close: bool = False,
    headers: Sequence[tuple[str, str]] = (),
) -> None:
    """Send ``error`` as a whole JSON response; ``close``: and end the connection
    (after a body left unread, so that the server does not read the rest of it)."""
    body = json.dumps(error.to_json()).encode()
    raw = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        *((name.encode("latin-1"), value.encode("latin-1")) for name, value in headers),
    ]
    if close:
        raw.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": error.http_status, "headers": raw})
    await send({"type": "http.response.body", "body": body, "more_body": False})
