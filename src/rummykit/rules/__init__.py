"""The rules of the games, for programs.

The rule books are the pages ``docs/rules/gin.md``, ``docs/rules/rami.md`` and
``docs/rules/carousel.md``. Every rule there has a stable id (``gin-3.2``, ``rami-4.5``,
``carousel-3.8``) shown as ``§gin-3.2`` and anchored under the same name. This package
holds two data files that index them:

* ``ids.json``: for every rule id, its game, the section it belongs to, its title, a
  one-line summary and the page anchor (``docs/rules/gin.md#gin-3.2``);
* ``codes.json``: for every game, each refusal code of its engine
  (:attr:`rummykit.errors.IllegalActionError.code`) and the rule id it enforces, or
  ``null`` when the refusal enforces no rule of the game.

Ids are never renumbered or reused; a new rule gets a new number.
``tests/test_rules_pages.py`` checks that the pages, ``ids.json`` and ``codes.json``
agree with each other and with the refusal codes the engines raise.
"""
