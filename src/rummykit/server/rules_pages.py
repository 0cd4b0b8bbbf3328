"""The rules pages on the web: ``/rules/<game>`` as HTML in the table's look.

The packaged pages (:mod:`rummykit.rules`) are rendered with Python-Markdown (tables,
heading ids, attribute lists); the rule anchors (``<a id="gin-3.2"></a>``) pass through,
so ``/rules/gin#gin-3.2`` opens at the rule, and links between pages (``rami.md#rami-4.5``)
become links between routes. A preset's name (``/rules/rami40``) redirects to its game's
page; an unknown game is a 404, as an HTML page for a browser and as the error envelope
of ``docs/protocol.md`` otherwise.
"""

from __future__ import annotations

import functools
import html
import re
from typing import Annotated, Final

import markdown
from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from rummykit.errors import UnknownRulesPageError
from rummykit.rules import DEFAULT_LANGUAGE, INDEX, game_of, game_title, games, page
from rummykit.server.protocol import ServerError

__all__ = ["router", "rules_html", "rules_url"]

router = APIRouter(include_in_schema=False)

_PAGE_LINK: Final = re.compile(r"\]\(([a-z0-9_-]+)\.md(#[^)\s]*)?\)")
_TITLE: Final = re.compile(r"^# (.+)$", re.MULTILINE)
_EXTENSIONS: Final = ["tables", "toc", "attr_list"]

Language = Annotated[str, Query(alias="lang", max_length=16)]


def rules_url(game: str) -> str | None:
    """The path of a game's rules page, or ``None`` when it has none."""
    return f"/rules/{game}" if game in games() else None


def _route(stem: str) -> str:
    return "/rules/" if stem == INDEX else f"/rules/{stem}"


@functools.cache
def rules_html(stem: str, language: str = DEFAULT_LANGUAGE) -> tuple[str, str]:
    """(title, HTML body) of the page ``stem`` (a game or ``index``)."""
    text = page(stem, language)
    linked = _PAGE_LINK.sub(lambda m: f"]({_route(m.group(1))}{m.group(2) or ''})", text)
    found = _TITLE.search(text)
    title = found.group(1) if found else stem
    return title, markdown.markdown(linked, extensions=_EXTENSIONS, output_format="html")


def _document(title: str, body: str, language: str, *, current: str | None) -> str:
    links = [
        f'<a href="{_route(name)}"{" aria-current=page" if name == current else ""}>'
        f"{html.escape(game_title(name))}</a>"
        for name in games()
    ]
    return f"""<!doctype html>
<html lang="{html.escape(language)}">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{html.escape(title)} · rummykit</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="/static/css/table.css">
  <link rel="stylesheet" href="/static/css/rules.css">
</head>
<body>
  <header class="topbar rules-bar">
    <a class="brand" href="/">rummykit</a>
    <a class="rules-home" href="/rules/">Rules</a>
    <nav class="rules-nav">{" ".join(links)}</nav>
  </header>
  <main class="rules-main"><article class="card-panel rules-page">
{body}
  </article></main>
</body>
</html>
"""


def _language(language: str) -> str:
    return language.strip().lower() or DEFAULT_LANGUAGE


@router.get("/rules")
@router.get("/rules/")
async def rules_index(request: Request, lang: Language = DEFAULT_LANGUAGE) -> Response:
    return _answer(request, INDEX, _language(lang))


@router.get("/rules/{game}")
async def rules_page(request: Request, game: str, lang: Language = DEFAULT_LANGUAGE) -> Response:
    try:
        name = INDEX if game.lower() == INDEX else game_of(game)
    except UnknownRulesPageError as error:
        return _not_found(request, str(error), DEFAULT_LANGUAGE)
    if name != game:
        query = f"?{request.url.query}" if request.url.query else ""
        return RedirectResponse(f"{_route(name)}{query}", status_code=307)
    return _answer(request, name, _language(lang))


def _answer(request: Request, stem: str, language: str) -> Response:
    try:
        title, body = rules_html(stem, language)
    except UnknownRulesPageError as error:
        return _not_found(request, str(error), DEFAULT_LANGUAGE)
    current = None if stem == INDEX else stem
    return HTMLResponse(_document(title, body, language, current=current))


def _not_found(request: Request, message: str, language: str) -> Response:
    """A 404: an HTML page for a browser, the JSON error envelope for a program."""
    if "text/html" in request.headers.get("accept", ""):
        body = (
            f'<h1>No such rules page</h1>\n<p class="error-text">{html.escape(message)}</p>\n'
            '<p><a href="/rules/">All the rules</a></p>'
        )
        document = _document("No such rules page", body, language, current=None)
        return HTMLResponse(document, status_code=404)
    return JSONResponse(ServerError("not_found", message).to_json(), status_code=404)
