"""How the REST API answers an error: always the envelope of docs/protocol.md.

``{"type": "error", "code": ..., "message": ...}`` with the HTTP status, whether the
error is the server's own refusal (:class:`~rummykit.server.protocol.ServerError`), a
route that does not exist under ``/api`` (404), or a query FastAPI refused (422).
Outside ``/api`` (pages, static files) FastAPI's own answers stand.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request
from fastapi.exception_handlers import (
    http_exception_handler,
    request_validation_exception_handler,
)
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException

from rummykit.server.protocol import ServerError

__all__ = ["error_handlers"]

Handler = Callable[[Request, Any], Coroutine[Any, Any, Response]]


def error_handlers() -> dict[int | type[Exception], Handler]:
    """The app's exception handlers: every REST error answered with the envelope."""
    return {
        ServerError: _server_error,
        HTTPException: _http_error,
        RequestValidationError: _validation_error,
    }


async def _server_error(_request: Request, error: ServerError) -> JSONResponse:
    return JSONResponse(error.to_json(), status_code=error.http_status)


async def _http_error(request: Request, error: HTTPException) -> Response:
    if error.status_code != 404 or not _in_api(request):
        return await http_exception_handler(request, error)
    message = f"no route {request.method} {request.url.path}"
    return JSONResponse(ServerError("not_found", message).to_json(), status_code=404)


async def _validation_error(request: Request, error: RequestValidationError) -> Response:
    if not _in_api(request):
        return await request_validation_exception_handler(request, error)
    problems = "; ".join(
        " ".join(str(part) for part in problem.get("loc", ())) + ": " + str(problem.get("msg"))
        for problem in error.errors()
    )
    return JSONResponse(ServerError("bad_request", problems).to_json(), status_code=422)


def _in_api(request: Request) -> bool:
    path = request.url.path
    root = str(request.scope.get("root_path", ""))
    if root and path.startswith(root):
        path = path[len(root) :]
    return path == "/api" or path.startswith("/api/")
