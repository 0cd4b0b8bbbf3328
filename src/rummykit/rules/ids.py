"""The index of rule ids (``ids.json``) and the refusal codes they back (``codes.json``).

>>> rule_info("gin-3.5").title
'The card you took from the pile'
>>> rule_for_code("gin", "discard_taken_card"), rule_for_code("gin", "card_not_in_hand")
('gin-3.5', None)
>>> is_rule_id("gin-3.2"), is_rule_id("gin-3"), is_rule_id("discard_taken_card")
(True, True, False)
>>> cited_rule("gin", "discard_taken_card", None), cited_rule("gin", "x", "gin-3.5")
('gin-3.5', 'gin-3.5')
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from importlib import resources
from types import MappingProxyType
from typing import Any, Final

from rummykit.errors import UnknownRuleError

__all__ = [
    "RULE_ID",
    "RuleInfo",
    "cited_rule",
    "game_title",
    "indexed_games",
    "is_rule_id",
    "rule_for_code",
    "rule_index",
    "rule_info",
]

RULE_ID: Final = re.compile(r"^[a-z]+-\d+(\.\d+)?$")
"""What a rule id (``gin-3.2``) or a section id (``gin-3``) looks like."""


@dataclass(frozen=True)
class RuleInfo:
    """One rule of ``ids.json``: its id, game, section title, title and one-line summary."""

    id: str
    game: str
    section: str
    title: str
    summary: str


def is_rule_id(text: object) -> bool:
    """Whether ``text`` has the form of a rule or section id (``gin-3.2``, ``gin-3``)."""
    return isinstance(text, str) and RULE_ID.match(text) is not None


def _load(name: str) -> dict[str, Any]:
    text = (resources.files(__package__) / name).read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


@functools.cache
def indexed_games() -> tuple[str, ...]:
    """The games whose rules are indexed (each has a page), in the index's order."""
    return tuple(_load_games())


def game_title(game: str) -> str:
    """A game's title as the index gives it (``Gin Rummy``)."""
    title: str = _load_games()[game]["title"]
    return title


@functools.cache
def _load_games() -> dict[str, Any]:
    games: dict[str, Any] = _load("ids.json")["games"]
    return games


@functools.cache
def rule_index() -> MappingProxyType[str, RuleInfo]:
    """Every rule id of every game, in page order."""
    rules = _load("ids.json")["rules"]
    return MappingProxyType(
        {
            rule_id: RuleInfo(
                rule_id, entry["game"], entry["section"], entry["title"], entry["summary"]
            )
            for rule_id, entry in rules.items()
        }
    )


def rule_info(rule_id: str) -> RuleInfo:
    """The index entry of ``rule_id``."""
    try:
        return rule_index()[rule_id]
    except KeyError:
        raise UnknownRuleError(f"no rule {rule_id!r} in the index of rule ids") from None


@functools.cache
def _codes() -> dict[str, dict[str, str | None]]:
    codes: dict[str, dict[str, str | None]] = _load("codes.json")["codes"]
    return codes


def rule_for_code(game: str, code: str) -> str | None:
    """The rule id a refusal code of ``game``'s engine enforces; ``None`` for a code that
    enforces no rule of the game, or that the game does not have."""
    return _codes().get(game, {}).get(code)


def cited_rule(game: str, code: str, rule: str | None) -> str | None:
    """The rule id an engine refusal cites: its own ``rule`` when that is an id, else
    the rule its ``code`` enforces in ``game`` (``None`` when neither names one)."""
    if rule is not None and is_rule_id(rule):
        return rule
    return rule_for_code(game, code)
