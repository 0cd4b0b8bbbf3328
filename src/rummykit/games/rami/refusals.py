"""Rami's refusal codes in words, marked for the gettext catalogs (grep ``code="`` and
``cause=`` in this package): :func:`rummykit.refusals.explain` says a refusal with them
in the reader's language. Codes Rami shares with other games (a card not in the hand,
the discard pile, a meld's shape) are worded in :mod:`rummykit.refusals`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from rummykit.i18n import N_, NP_

__all__ = ["RAMI_REFUSALS"]

# Placeholders: {card} (the card's text), {seat}, and the error's numbers
# ({combination} is a table combination's number, from 1).
RAMI_REFUSALS: Final[Mapping[str, str | tuple[str, str, str]]] = {
    "round_over": N_("The round is over."),
    "combination": N_("{card} does not fit that combination."),
    "discard_in_first_turn": N_("You cannot take {card} from the discard pile in your first turn."),
    "one_card_draws_stock": N_("With one card in hand you draw from the stock, not take {card}."),
    "discard_must_be_melded": N_(
        "You cannot just take {card}: lay it in the same move "
        "(take open ..., take meld ... or take add ...)."
    ),
    "taken_card_not_laid": N_(
        "Lay {card}, the card taken from the discard pile, in the play you take it with."
    ),
    "not_opened": N_("Open first: new combinations, lay-offs and joker swaps come after it."),
    "play_after_open": N_(
        "Not in the turn you opened: new combinations, lay-offs and joker swaps wait for "
        "your next turn."
    ),
    "card_named_twice": N_("You name {card} more times than your hand holds it."),
    "invalid_combination": N_("The cards with {card} do not form a combination."),
    "final_discard_required": N_("You cannot lay your last card: the last card must be discarded."),
    "taken_card_stranded": N_(
        "Only {card}, taken from the discard pile, would be left: it may not be discarded "
        "this turn, so lay it too."
    ),
    "already_opened": N_("You have already opened: lay new combinations with meld."),
    "opening_below_threshold": N_("Your opening makes {value}; it must reach {threshold}."),
    "opening_goes_out_exempt": N_(
        "Your opening makes {value}; below {threshold} only an opening that goes out "
        "this turn is allowed."
    ),
    "opening_even_going_out": N_(
        "Your opening makes {value}; it must reach {threshold}, even when it goes out this turn."
    ),
    "pure_run_required": N_("Your opening needs a run without a joker."),
    "no_such_combination": (
        *NP_(
            "There is no combination {combination}: the table has {combinations} "
            "combination, numbered from 1.",
            "There is no combination {combination}: the table has {combinations} "
            "combinations, numbered from 1.",
        ),
        "combinations",
    ),
    "joker_placement": N_("The swapped joker cannot go on combination {combination}."),
    "joker_must_be_placed": N_(
        "Place the swapped joker again this turn: it can still go on the table."
    ),
    # A card laid off onto (or swapped into) a table combination.
    "joker_limit": N_(
        "{card} cannot go on combination {combination}: it already holds a joker, and a "
        "combination holds at most one."
    ),
    "combination_full": N_("{card} cannot go on combination {combination}: it is full."),
    "does_not_fit": N_("{card} does not fit combination {combination}."),
    "needs_swap": N_(
        "{card} cannot be laid off on combination {combination}: the joker stands for it "
        "there, so swap the joker instead."
    ),
    "no_joker": N_("Combination {combination} holds no joker to swap."),
    "set_too_small": N_(
        "The joker of combination {combination} cannot be swapped yet: the set must "
        "already hold 3 real cards and the joker."
    ),
    "joker_shifts": N_(
        "The joker of combination {combination} moves to the other end: lay {card} off "
        "instead of swapping."
    ),
    "wrong_card": N_(
        "{card} cannot take the place of the joker of combination {combination}: only the "
        "card it stands for can."
    ),
}
