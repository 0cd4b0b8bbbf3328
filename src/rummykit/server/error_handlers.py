"""How the REST API answers an error: always the envelope of docs/protocol.md.

``{"type": "error", "code": ..., "message": ...}`` with the HTTP status, whether the
error is the server's own refusal (:class:`~rummykit.server.protocol.ServerError`), a
route that does not exist under ``/api`` (404) or does not take that method (405), a
query FastAPI refused (422), or a fault of the server's own (500, ``internal_error``,
anywhere: never a traceback or a plain-text page). Outside ``/api`` (pages, static
files) FastAPI's own answers to a missing page stand.
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
        Exception: _internal_error,
    }


async def _server_error(_request: Request, error: ServerError) -> JSONResponse:
    return JSONResponse(error.to_json(), status_code=error.http_status)


_HTTP_CODES = {404: "not_found", 405: "method_not_allowed"}


async def _http_error(request: Request, error: HTTPException) -> Response:
    if not _in_api(request):
        return await http_exception_handler(request, error)
    status = error.status_code
    if status == 404:
        message = f"no route {request.method} {request.url.path}"
    elif status == 405:
        message = f"{request.method} is not allowed on {request.url.path}"
    else:
        message = str(error.detail)
    code = _HTTP_CODES.get(status, "bad_request" if status < 500 else "internal_error")
    return JSONResponse(
        ServerError(code, message).to_json(), status_code=status, headers=error.headers
    )


async def _internal_error(_request: Request, _error: Exception) -> Response:
    # The traceback is logged by the server; the client gets the envelope, never a page.
    error = ServerError("internal_error", "the server failed to answer this request")
    return JSONResponse(error.to_json(), status_code=500)


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
