"""Carousel's refusal codes in words, marked for the gettext catalogs (grep ``code="``
and ``cause=`` in this package; a refused layout's ``cause`` is its check's code):
:func:`rummykit.refusals.explain` says a refusal with them in the reader's language.
Codes Carousel shares with other games (a meld's shape, an undeclared joker) are worded
in :mod:`rummykit.refusals`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from rummykit.i18n import N_, NP_

__all__ = ["CAROUSEL_REFUSALS"]

# Placeholders: {card} (the card's text), {seat}, and the error's numbers ({meld} is a
# meld's number in the new layout, {table_meld} in the table before it, from 1).
CAROUSEL_REFUSALS: Final[Mapping[str, str | tuple[str, str, str]]] = {
    "draw_not_allowed": N_("You cannot draw again this turn."),
    "final_lap": N_("No draws on the final lap."),
    "draw_after_meld": N_("No more draws after a meld this turn."),
    "max_draws": (
        *NP_("At most {max_draws} draw a turn.", "At most {max_draws} draws a turn."),
        "max_draws",
    ),
    "meld_after_last_draw": N_("No melding after the last draw of a turn ({max_draws})."),
    "turn_not_finished": (
        *NP_(
            "Not yet: after drawing {draws} card without melding, meld or draw again.",
            "Not yet: after drawing {draws} cards without melding, meld or draw again.",
        ),
        "draws",
    ),
    "hand_over_knock_limit": N_(
        "You cannot knock: your hand is worth {value}, over the knock limit of {limit}."
    ),
    "card_not_available": N_("{card} is neither free on the table nor in your hand."),
    "illegal_layout": N_("That layout is not allowed."),
    # A layout's own checks (the cause of illegal_layout).
    "table_card_removed": N_(
        "{card} cannot leave the table (it is in meld {table_meld}): every table card "
        "stays on the table."
    ),
    "joker_removed": N_(
        "A joker cannot leave the table: it never returns to a hand, and a freed joker is "
        "placed again in the same turn."
    ),
    "not_in_hand": N_("The layout adds {card} {added} times but your hand holds {held}."),
    "no_hand_card": N_("No card from your hand is added: a meld lays at least one hand card."),
    "joker_not_freed": N_(
        "The joker standing for {card} was not freed: a joker keeps its card until the "
        "real card takes its place."
    ),
    "copy_limit": (
        *NP_(
            "{card} is on the table {count} times but there is only {decks} deck.",
            "{card} is on the table {count} times but there are only {decks} decks.",
        ),
        "decks",
    ),
}
