"""An engine's refusal said again in the reader's language, from its code and fields.

Each :class:`~rummykit.errors.IllegalActionError` has a stable ``code`` and the facts it
is about (``seat``, ``card``, ``rule``, ``numbers``); :data:`TEMPLATES` holds a message
per code, marked for the gettext catalogs, and :func:`explain` fills one in. The
English message the engine wrote is never parsed: a code without a template is shown in
the engine's own words (English).

The browser does the same from the websocket ``error`` message's ``code`` + ``params``
(:func:`refusal_params`), with its own catalogs (``web/js/locales``) holding the same
templates under ``refusal.<code>``.

>>> from rummykit.errors import IllegalActionError
>>> error = IllegalActionError("...", code="card_not_in_hand", seat=0, card=12)
>>> explain(error, "en"), explain(error, "hi")
('KS is not in your hand.', 'KS आपके हाथ में नहीं है।')
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Final

from rummykit.cards import format_card
from rummykit.errors import IllegalActionError
from rummykit.i18n import N_, NP_, translator

__all__ = ["PLURAL_TEMPLATES", "TEMPLATES", "explain", "refusal_params"]

# One message per refusal code: the shared ones, then Gin's (grep `code="` under
# games/gin). Placeholders: {card} (the card's text), {seat}, and the error's numbers.
TEMPLATES: Final[Mapping[str, str]] = {
    "not_your_turn": N_("It is not your turn."),
    "game_over": N_("The game is over; no more moves."),
    "match_over": N_("The match is over; no more moves."),
    "hand_over": N_("The hand is over."),
    "wrong_phase": N_("That move does not fit this step of the turn."),
    "stock_only_after_double_pass": N_(
        "You cannot take {card}: after both players passed the upcard, "
        "the first draw is from the stock."
    ),
    "discard_pile_empty": N_("The discard pile is empty."),
    "card_not_in_hand": N_("{card} is not in your hand."),
    "discard_taken_card": N_("You cannot discard {card}: you just took it from the discard pile."),
    "invalid_meld": N_("The cards with {card} do not form a valid meld."),
    "card_in_two_melds": N_("{card} is in two melds; a card belongs to at most one meld."),
    "knock_with_taken_card": N_(
        "You cannot knock with {card}: you just took it from the discard pile."
    ),
    "arrangement_required": N_("Name your melds when you knock with {card}."),
    "deadwood_over_knock_limit": N_(
        "You cannot knock with {card}: the other cards leave {deadwood} deadwood, "
        "more than the knock limit of {limit}."
    ),
    "big_gin_disabled": N_("Big gin is switched off in these rules."),
    "big_gin_from_discard": N_("No big gin with {card} taken from the discard pile."),
    "big_gin_not_melded": N_("No big gin: {card} fits in no meld; all 11 cards must be melded."),
    "layoff_does_not_fit": N_("{card} does not extend that meld."),
    "no_layoff_on_gin": N_("No lay-offs against gin."),
}

# Codes whose message depends on a count: (singular, plural, the number that decides).
PLURAL_TEMPLATES: Final[Mapping[str, tuple[str, str, str]]] = {
    "no_such_meld": (
        *NP_(
            "You cannot lay off {card} onto meld {meld}: the knocker has {melds} meld.",
            "You cannot lay off {card} onto meld {meld}: the knocker has {melds} melds.",
        ),
        "melds",
    ),
}

_RULE_SUFFIX: Final = N_("(rule {rule})")
# A rules-page id (``gin-3.5``) is worth citing; older free-text rule names are not.
_RULE_ID = re.compile(r"^[a-z][a-z0-9]*-\d+(?:\.\d+)*$")


def refusal_params(error: IllegalActionError) -> dict[str, int | str]:
    """The facts a refusal's template needs, as JSON: ``seat``, ``card`` (its notation,
    such as ``7H``), the rule id and the error's numbers (absent ones left out).

    >>> refusal_params(IllegalActionError("...", code="x", seat=1, card=0, numbers={"limit": 10}))
    {'seat': 1, 'card': 'AS', 'limit': 10}
    """
    params: dict[str, int | str] = {}
    if error.seat is not None:
        params["seat"] = error.seat
    if error.card is not None:
        params["card"] = format_card(error.card)
    if error.rule is not None and _RULE_ID.match(error.rule):
        params["rule"] = error.rule
    params.update(getattr(error, "numbers", {}))
    return params


def explain(
    error: IllegalActionError,
    language: str | None = None,
    *,
    card_text: Callable[[int], str] = format_card,
) -> str:
    """``error`` in ``language`` (see :func:`rummykit.i18n.choose_language`), from its
    code and fields; the engine's own message for a code without a template (or one
    whose facts are missing). ``card_text`` writes the card (a terminal's style).

    >>> error = IllegalActionError("...", code="deadwood_over_knock_limit", seat=0, card=9,
    ...     rule="gin-3.5", numbers={"deadwood": 14, "limit": 10})
    >>> print(explain(error, "en"))
    You cannot knock with TS: the other cards leave 14 deadwood, more than the knock limit of 10. (rule gin-3.5)
    >>> explain(IllegalActionError("seat 0 cannot fly", code="no_template"), "hi")
    'seat 0 cannot fly'
    """  # noqa: E501 (a doctest's output is one line)
    tr = translator(language)
    params: dict[str, object] = dict(refusal_params(error))
    if error.card is not None:
        params["card"] = card_text(error.card)
    try:
        if error.code in TEMPLATES:
            text = tr.gettext(TEMPLATES[error.code], **params)
        elif error.code in PLURAL_TEMPLATES:
            singular, plural, counted = PLURAL_TEMPLATES[error.code]
            count = params[counted]
            assert isinstance(count, int)
            text = tr.ngettext(singular, plural, count, **params)
        else:
            return str(error)
    except (KeyError, IndexError):
        # A fact the template names is missing (an error raised without it).
        return str(error)
    if "rule" in params:
        text = f"{text} {tr.gettext(_RULE_SUFFIX, rule=params['rule'])}"
    return text
