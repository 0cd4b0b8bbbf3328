"""Gin's refusal codes in words, marked for the gettext catalogs (grep ``code="`` in
this package): :func:`rummykit.refusals.explain` says a refusal with them in the
reader's language. Codes Gin shares with other games are worded in
:mod:`rummykit.refusals`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from rummykit.i18n import N_, NP_

__all__ = ["GIN_REFUSALS"]

# Placeholders: {card} (the card's text), {seat}, and the error's numbers.
GIN_REFUSALS: Final[Mapping[str, str | tuple[str, str, str]]] = {
    "stock_only_after_double_pass": N_(
        "You cannot take {card}: after both players passed the upcard, "
        "the first draw is from the stock."
    ),
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
    "no_such_meld": (
        *NP_(
            "You cannot lay off {card} onto meld {meld}: the knocker has {melds} meld.",
            "You cannot lay off {card} onto meld {meld}: the knocker has {melds} melds.",
        ),
        "melds",
    ),
}
