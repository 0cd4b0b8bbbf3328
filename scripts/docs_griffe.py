"""A griffe extension for the API reference: rummykit's docstrings, read as Markdown.

The docstrings are written for ``help()`` and doctest, with reStructuredText habits:
Sphinx roles (``:class:`Match```), interactive examples (``>>>``) and literal blocks
introduced by ``::``. Markdown would show the roles verbatim and read ``>>>`` as nested
block quotes, so before mkdocstrings renders a docstring this extension

* turns every role into inline code (``:meth:`~Match.apply``` -> ```Match.apply```),
* fences each run of doctest lines as a ``pycon`` block,
* fences each indented block that follows a line ending in ``::`` as a ``text`` block.

mkdocs.yml loads it with ``extensions: [scripts/docs_griffe.py]``.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:py:)?(?:mod|class|func|meth|attr|data|exc|obj|const):`~?([^`]+)`")


def _fences(lines: list[str]) -> list[bool]:
    """For each line, whether it belongs to a fenced block already (fence lines included)."""
    inside = False
    marks: list[bool] = []
    for line in lines:
        fence = line.lstrip().startswith("```")
        marks.append(inside or fence)
        if fence:
            inside = not inside
    return marks


def _fence_doctests(lines: list[str]) -> list[str]:
    out: list[str] = []
    fenced = _fences(lines)
    index = 0
    while index < len(lines):
        line = lines[index]
        if not fenced[index] and line.lstrip().startswith(">>>"):
            indent = line[: len(line) - len(line.lstrip())]
            block: list[str] = []
            while index < len(lines) and lines[index].strip():
                block.append(lines[index][len(indent) :])
                index += 1
            out += [f"{indent}```pycon", *(indent + b for b in block), f"{indent}```"]
            continue
        out.append(line)
        index += 1
    return out


def _fence_literals(lines: list[str]) -> list[str]:
    out: list[str] = []
    fenced = _fences(lines)
    index = 0
    while index < len(lines):
        line = lines[index]
        out.append(line)
        index += 1
        if fenced[index - 1] or not line.rstrip().endswith("::") or ">>>" in line:
            continue
        base = len(line) - len(line.lstrip())
        # "Text::" reads as "Text:"; a line that is only "::" disappears.
        out[-1] = line.rstrip()[:-1] if line.strip() != "::" else ""
        start = index
        while start < len(lines) and not lines[start].strip():
            start += 1
        end = start
        block: list[str] = []
        while end < len(lines):
            current = lines[end]
            if current.strip() and len(current) - len(current.lstrip()) <= base:
                break
            block.append(current)
            end += 1
        while block and not block[-1].strip():
            block.pop()
        if not block:
            continue
        indent = min(len(b) - len(b.lstrip()) for b in block if b.strip())
        pad = " " * base
        out += ["", f"{pad}```text", *(pad + b[indent:] for b in block), f"{pad}```", ""]
        index = start + len(block)
    return out


def markdown_docstring(text: str) -> str:
    """``text`` (a docstring) with its reStructuredText habits turned into Markdown."""
    text = ROLE.sub(r"`\1`", text)
    lines = _fence_literals(text.splitlines())
    return "\n".join(_fence_doctests(lines))


class RestToMarkdown(griffe.Extension):
    """Rewrite every docstring with :func:`markdown_docstring` once the tree is loaded."""

    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = markdown_docstring(obj.docstring.value)
