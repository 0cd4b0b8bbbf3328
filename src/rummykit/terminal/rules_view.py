"""The rules pages at a terminal: a page or one section, rendered with rich.

``rummykit rules`` and the terminal games' ``rules`` command show the packaged pages
(:mod:`rummykit.rules`) through :func:`rules_text`: rich's Markdown rendering on a
terminal (without colour under ``NO_COLOR``), the page's own markdown, anchors and link
targets left out, when the output is a pipe or a file.

>>> print(rules_text("gin", "3.5", force_terminal=False), end="")
**§gin-3.5 The card you took from the pile.** A card taken from the discard pile this turn
(the upcard included) may not be discarded in the same turn, and may not be the knock
card. Any other card may be discarded, including a card just drawn from the stock.
"""

from __future__ import annotations

import sys
from typing import TextIO

from rich.console import Console
from rich.markdown import Markdown

from rummykit.rules import DEFAULT_LANGUAGE, page, plain_text, section

__all__ = ["render_markdown", "rules_text"]


def rules_text(
    game: str,
    asked: str | None = None,
    *,
    file: TextIO | None = None,
    force_terminal: bool | None = None,
    language: str = DEFAULT_LANGUAGE,
) -> str:
    """The rules page of ``game`` (a preset's name opens its game's page), or the section
    or rule ``asked`` (``gin-3.2``, ``3.2``, ``3``), ready to print on ``file``.

    Raises:
        UnknownRulesPageError, UnknownRuleError: the message says what there is.
    """
    markdown = page(game, language) if asked is None else section(game, asked, language).markdown
    return render_markdown(markdown, file=file, force_terminal=force_terminal)


def render_markdown(
    markdown: str, *, file: TextIO | None = None, force_terminal: bool | None = None
) -> str:
    """Rules markdown as text for ``file`` (standard output by default): rendered by
    rich for a terminal, the plain markdown otherwise."""
    text = plain_text(markdown)
    console = Console(file=sys.stdout if file is None else file, force_terminal=force_terminal)
    if not console.is_terminal:
        return text
    with console.capture() as captured:
        console.print(Markdown(text))
    return captured.get()
