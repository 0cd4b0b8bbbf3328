"""The languages the browser speaks, and every refusal template in each.

``/api/languages`` lists them (:data:`rummykit.i18n.LANGUAGES`, the one list: a new
language is its catalogs and its entry there). ``/api/refusals/<lang>``: the templates
live once, in :mod:`rummykit.refusals` and the gettext catalogs; the browser fetches them
in the reader's language and fills them from an ``error`` message's ``rule`` (or
``params.cause``) and ``params``, so the terminal and the browser say a refusal in the
same words.
"""

from __future__ import annotations

import functools
import json

from fastapi import APIRouter
from fastapi.responses import Response

from rummykit.i18n import LANGUAGES
from rummykit.refusals import refusal_templates
from rummykit.server.protocol import ServerError

__all__ = ["router"]

router = APIRouter()


@functools.cache
def _encoded(language: str) -> bytes:
    return json.dumps(refusal_templates(language), ensure_ascii=False).encode()


@router.get("/api/languages", summary="The languages offered, each named in itself")
async def languages() -> dict[str, str]:
    return dict(LANGUAGES)


@router.get("/api/refusals/{language}", summary="Every refusal template in one language")
async def refusal_words(language: str) -> Response:
    if language not in LANGUAGES:
        choices = ", ".join(LANGUAGES)
        raise ServerError("not_found", f"no language {language!r}: choose from {choices}")
    return Response(
        _encoded(language),
        media_type="application/json",
        headers={"Cache-Control": "public, max-age=3600"},
    )
