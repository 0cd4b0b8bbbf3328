"""The facts of a refusal as JSON, from which any reader says it in its own language.

Kept apart from the templates (:mod:`rummykit.refusals`, which gathers every catalog
game's) so that the table layer, which the catalog builds on, can send the facts without
importing the catalog.
"""

from __future__ import annotations

import re
from typing import Final

from rummykit.cards import format_card
from rummykit.errors import RummykitError

__all__ = ["refusal_params"]

# A rules-page id (``gin-3.5``) is worth citing; older free-text rule names are not.
_RULE_ID: Final = re.compile(r"^[a-z][a-z0-9]*-\d+(?:\.\d+)*$")


def refusal_params(error: RummykitError) -> dict[str, int | str]:
    """The facts a refusal's template needs, as JSON: ``seat``, ``card`` (its notation,
    such as ``7H``), the rule id, ``cause``, ``token`` and ``position`` (typed card
    notation), ``option`` (a rule option's name) and the error's numbers (absent ones
    left out).

    >>> from rummykit.errors import IllegalActionError
    >>> refusal_params(IllegalActionError("...", code="x", seat=1, card=0, numbers={"limit": 10}))
    {'seat': 1, 'card': 'AS', 'limit': 10}
    """
    params: dict[str, int | str] = {}
    for name in ("seat", "cause", "token", "position", "option"):
        value = getattr(error, name, None)
        if value is not None:
            params[name] = value
    card = getattr(error, "card", None)
    if card is not None:
        params["card"] = format_card(card)
    rule = getattr(error, "rule", None)
    if rule is not None and _RULE_ID.match(rule):
        params["rule"] = rule
    params.update(getattr(error, "numbers", {}))
    return params
