"""How the REST API answers an error: the envelope of docs/protocol.md.

``{"type": "error", "code": ..., "message": ...}`` with the HTTP status of the
server's own refusal (:class:`~rummykit.server.protocol.ServerError`).
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request
from fastapi.responses import JSONResponse, Response

from rummykit.server.protocol import ServerError

__all__ = ["error_handlers"]

Handler = Callable[[Request, Any], Coroutine[Any, Any, Response]]


def error_handlers() -> dict[int | type[Exception], Handler]:
    """The app's exception handlers: a refusal answered with the envelope."""
    return {ServerError: _server_error}


async def _server_error(_request: Request, error: ServerError) -> JSONResponse:
    return JSONResponse(error.to_json(), status_code=error.http_status)
