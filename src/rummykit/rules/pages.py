"""The rules pages, read from the package: whole pages, sections and single rules.

The pages are ``rummykit/rules/<language>/<game>.md`` (and ``index.md``). A page is split
into numbered sections (``## 3. Playing a hand``); a rule starts at its anchor
(``<a id="gin-3.2"></a>``) and runs up to the next anchor or section heading.

>>> games()
('gin', 'rami', 'carousel')
>>> rule = section("gin", "3.2")
>>> rule.id, rule.title
('gin-3.2', 'The upcard offer')
>>> rule.markdown.splitlines()[1][:28]
'**§gin-3.2 The upcard offer.'
>>> section("rami40", "rami-4").title
'A turn'
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from importlib import resources
from typing import Final

from rummykit.errors import UnknownRuleError, UnknownRulesPageError, UnknownVariantError
from rummykit.rules.ids import indexed_games

__all__ = [
    "DEFAULT_LANGUAGE",
    "INDEX",
    "Section",
    "game_of",
    "games",
    "languages",
    "page",
    "plain_text",
    "section",
    "sections",
]

DEFAULT_LANGUAGE: Final = "en"
INDEX: Final = "index"
"""The name of the page that introduces the others."""

_ANCHOR: Final = re.compile(r'^<a id="([a-z]+-\d+\.\d+)"></a>$')
# A translated page keeps the English headings' link targets as named anchors.
_NAMED: Final = re.compile(r'^<a (?:id|name)="[^"]+"></a>$')
_HEADING: Final = re.compile(r"^## (\d+)\. (.+)$")
_ASKED: Final = re.compile(r"(?:([a-z]+)-)?(\d+)(?:\.(\d+))?")
_LINK: Final = re.compile(r"\[([^\]]+)\]\((?:[a-z0-9_-]+\.md)?(?:#[^)]*)?\)")


@dataclass(frozen=True)
class Section:
    """A numbered section (``gin-3``) or one rule (``gin-3.2``) of a game's page."""

    id: str
    game: str
    title: str
    markdown: str


def games() -> tuple[str, ...]:
    """The games that have a rules page, in the order of the index of rule ids."""
    return indexed_games()


@functools.cache
def languages() -> tuple[str, ...]:
    """The languages the pages are written in (folders holding a whole set)."""
    root = resources.files(__package__)
    found = [
        folder.name
        for folder in root.iterdir()
        if folder.is_dir() and (folder / f"{INDEX}.md").is_file()
    ]
    return tuple(sorted(found))


def game_of(name: str) -> str:
    """The game whose page ``name`` opens: a game with a page, or a preset's name
    (``rami40`` opens ``rami``)."""
    key = name.strip().lower()
    if key in games():
        return key
    from rummykit.catalog import get_variant

    try:
        owner = get_variant(key).name
    except UnknownVariantError:
        owner = None
    if owner in games():
        return owner
    raise UnknownRulesPageError(
        f"no rules page for {name!r}; the games with rules are {', '.join(games())} "
        "(a preset such as rami40 opens its game's page)"
    )


def page(name: str, language: str = DEFAULT_LANGUAGE) -> str:
    """The markdown of a game's page (by game or preset name), or of ``index``."""
    stem = INDEX if name.strip().lower() == INDEX else game_of(name)
    return _read(_language(language), stem)


def _language(language: str) -> str:
    if language not in languages():
        raise UnknownRulesPageError(
            f"no rules pages in language {language!r}; there are: {', '.join(languages())}"
        )
    return language


@functools.cache
def _read(language: str, stem: str) -> str:
    return (resources.files(__package__) / language / f"{stem}.md").read_text(encoding="utf-8")


@functools.cache
def _parts(language: str, game: str) -> tuple[tuple[str, str, int, int], ...]:
    """Every section and rule of a page: (id, title, first line, end line)."""
    lines = _read(language, game).splitlines()
    parts: list[tuple[str, str, int, int]] = []
    open_section: tuple[str, str, int] | None = None
    open_rule: tuple[str, str, int] | None = None
    for number, line in enumerate([*lines, "## 0. end"]):
        heading = _HEADING.match(line)
        anchor = _ANCHOR.match(line)
        # A heading's named anchor, on the line above it, belongs to the heading.
        start = number - 1 if heading and number and _NAMED.match(lines[number - 1]) else number
        if (heading or anchor) and open_rule is not None:
            parts.append((*open_rule, start))
            open_rule = None
        if heading:
            if open_section is not None:
                parts.append((*open_section, start))
            open_section = (f"{game}-{heading.group(1)}", heading.group(2), start)
        elif anchor:
            rule_id = anchor.group(1)
            shown = re.match(rf"\*\*§{re.escape(rule_id)} (.+?)[.।]?\*\*", lines[number + 1])
            open_rule = (rule_id, shown.group(1) if shown else rule_id, number)
    return tuple(parts)


def sections(game: str, language: str = DEFAULT_LANGUAGE) -> tuple[Section, ...]:
    """Every numbered section and every rule of a game's page, in page order (a section
    comes before its rules)."""
    game = game_of(game)
    text = _read(_language(language), game).splitlines()
    return tuple(
        Section(part_id, game, title, _block(text[start:end]))
        for part_id, title, start, end in sorted(_parts(language, game), key=lambda p: p[2])
    )


def _block(lines: list[str]) -> str:
    return "\n".join(lines).strip("\n") + "\n"


def section(game: str, asked: str, language: str = DEFAULT_LANGUAGE) -> Section:
    """A section (``gin-3`` or ``3``) or a rule (``gin-3.2`` or ``3.2``) of a game's page.

    Raises:
        UnknownRulesPageError: no page for ``game`` (or none in ``language``).
        UnknownRuleError: no such section or rule; the message lists what there is.
    """
    game = game_of(game)
    wanted = _wanted_id(game, asked)
    found = {part.id: part for part in sections(game, language)}
    if wanted in found:
        return found[wanted]
    numbers = [part_id for part_id in found if "." not in part_id]
    major = wanted.split(".")[0]
    if "." in wanted and major in found:
        rules = [part_id for part_id in found if part_id.startswith(major + ".")]
        where = f"section {major} has {', '.join(rules)}" if rules else f"ask for all of {major}"
        raise UnknownRuleError(f"no rule {wanted} on the {game} page; {where}")
    raise UnknownRuleError(
        f"no section {major} on the {game} page; its sections are {numbers[0]} to {numbers[-1]}"
    )


def _wanted_id(game: str, asked: str) -> str:
    """``3.2``, ``gin-3.2`` or ``§gin-3.2`` as the id ``gin-3.2``."""
    match = _ASKED.fullmatch(asked.strip().lower().lstrip("§"))
    if match is None:
        raise UnknownRuleError(
            f"write a section as {game}-3.2, 3.2 or 3 (a whole section), not {asked!r}"
        )
    prefix, major, minor = match.groups()
    if prefix is not None and prefix != game:
        raise UnknownRuleError(f"{asked} is a rule of {prefix}, not of {game}")
    wanted = f"{game}-{int(major)}"
    return wanted if minor is None else f"{wanted}.{int(minor)}"


def plain_text(markdown: str) -> str:
    """A page's markdown for a reader with no links: the anchors left out, and the links
    between rules and pages shown as their text (``§gin-3.6``).

    >>> print(plain_text('<a id="gin-1.4"></a>\\n**§gin-1.4 Who.** See [§gin-3.6](#gin-3.6).'))
    **§gin-1.4 Who.** See §gin-3.6.
    """
    kept = [line for line in markdown.splitlines() if not _NAMED.match(line)]
    return _LINK.sub(r"\1", "\n".join(kept)) + ("\n" if markdown.endswith("\n") else "")
