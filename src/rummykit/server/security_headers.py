"""Security headers on every HTTP response.

The browser table is served from this server alone (``/static``), and runs no inline
script or style, so its Content-Security-Policy allows only this origin: injected
markup could run nothing. ``frame-ancestors 'none'`` (and the older ``X-Frame-Options``)
keep the table out of other sites' frames (no clickjacking a move), ``no-referrer``
keeps a table's address out of other sites' logs, and ``nosniff`` makes browsers take
each file as the type it is served as.

The OpenAPI page (``/api/docs``) is FastAPI's Swagger UI, which loads its script and
style from a CDN and starts with an inline script: it gets a policy of its own that
allows just that.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any, Final

from rummykit.server.asgi_replies import ASGIApp, Receive, Scope, Send

__all__ = ["CONTENT_SECURITY_POLICY", "SecurityHeaders"]

CONTENT_SECURITY_POLICY: Final = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)

_DOCS_POLICY: Final = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "style-src 'self' https://cdn.jsdelivr.net; img-src 'self' data: https://fastapi.tiangolo.com; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)

_COMMON: Final = (
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
)


class SecurityHeaders:
    """ASGI middleware: the headers above on every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        policy = _DOCS_POLICY if scope.get("path") == "/api/docs" else CONTENT_SECURITY_POLICY
        added = [*_COMMON, (b"content-security-policy", policy.encode())]

        async def send_with_headers(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                present = {name.lower() for name, _ in headers}
                headers.extend((name, value) for name, value in added if name not in present)
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)
