"""The rules of the games, shipped with the package: pages for people, ids for programs.

The rule books are package data, one folder per language (``rummykit/rules/en/``): an
``index.md`` and one page per game (``gin.md``, ``rami.md``, ``carousel.md``). Every rule
has a stable id (``gin-3.2``, ``rami-4.5``, ``carousel-3.8``), shown as ``§gin-3.2`` and
anchored under the same name; a page in another language keeps the same ids. The
project's documentation (``docs/rules/``) includes these pages rather than copying them.

Two data files index them:

* ``ids.json``: for every rule id, its game, the section it belongs to, its title and a
  one-line summary (:func:`rule_index`);
* ``codes.json``: for every game, each refusal code of its engine
  (:attr:`rummykit.errors.IllegalActionError.code`) and the rule id it enforces, or
  ``null`` when the refusal enforces no rule of the game (:func:`rule_for_code`).

Ids are never renumbered or reused; a new rule gets a new number.
``tests/test_rules_pages.py`` checks that the pages, ``ids.json`` and ``codes.json``
agree with each other and with the refusal codes the engines raise.

>>> section("gin", "gin-3.5").title
'The card you took from the pile'
"""

from rummykit.rules.ids import (
    RULE_ID,
    RuleInfo,
    cited_rule,
    game_title,
    indexed_games,
    is_rule_id,
    rule_for_code,
    rule_index,
    rule_info,
)
from rummykit.rules.pages import (
    DEFAULT_LANGUAGE,
    INDEX,
    Section,
    game_of,
    games,
    languages,
    page,
    plain_text,
    section,
    sections,
)

__all__ = [
    "DEFAULT_LANGUAGE",
    "INDEX",
    "RULE_ID",
    "RuleInfo",
    "Section",
    "cited_rule",
    "game_of",
    "game_title",
    "games",
    "indexed_games",
    "is_rule_id",
    "languages",
    "page",
    "plain_text",
    "rule_for_code",
    "rule_index",
    "rule_info",
    "section",
    "sections",
]
