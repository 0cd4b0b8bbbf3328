"""The browser table: its pages (one ``index.html`` for every page) and static files.

The page routes all answer the same single-page app, which reads the table id and
the seat token from the address; the files are package data under ``rummykit/web``.
"""

from __future__ import annotations

import functools
from importlib import resources
from pathlib import Path

from fastapi import APIRouter, FastAPI
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles

__all__ = ["mount_static", "router", "web_root"]

router = APIRouter(include_in_schema=False)


@functools.cache
def web_root() -> Path:
    """The folder of the browser table's static files (package data)."""
    return Path(str(resources.files("rummykit") / "web"))


def mount_static(app: FastAPI) -> None:
    """Serve the browser table's files under ``/static``."""
    app.mount("/static", StaticFiles(directory=web_root()), name="static")


def _index() -> Response:
    return FileResponse(web_root() / "index.html", headers={"Cache-Control": "no-cache"})


@router.get("/")
async def home() -> Response:
    return _index()


@router.get("/t/{table_id}")
async def table_page(table_id: str) -> Response:
    return _index()


@router.get("/replay/{table_id}")
async def replay_page(table_id: str) -> Response:
    return _index()
