"""Knocking in Gin Rummy: which cards a player may knock with, and checking a knock,
big gin, or the melds a player names (the Gin rules, §gin-2.1 to §gin-4.4).

Pure functions of a hand's card mask, so the engine only records what they decide.
"""

from __future__ import annotations

from rummykit.cards import format_card, format_cards
from rummykit.core import IllegalActionError
from rummykit.games.gin.actions import Melds
from rummykit.games.gin.deadwood import (
    CARD_VALUES,
    cards_of_mask,
    deadwood_after_each_discard,
    mask_value,
    meld_union,
    min_deadwood,
    min_deadwood_mask,
    top_card_value,
)
from rummykit.games.gin.rules import GinRules
from rummykit.melds import InvalidMeldError, MeldRules, check_meld

__all__ = ["check_arrangement", "check_big_gin", "check_knock", "knock_options"]


def knock_options(rules: GinRules, mask: int, taken_card: int | None) -> tuple[list[int], bool]:
    """(the cards an 11-card hand may knock with, whether it may declare big gin).

    The knock cards include ``taken_card``; the engine leaves it out.
    """
    limit = rules.knock_limit
    union = meld_union(mask, rules.ace_high_runs)
    loose = mask & ~union
    knocks: list[int] = []
    # Cheap bound first: cards in no meld stay deadwood whatever is discarded.
    if mask_value(loose) - top_card_value(loose) <= limit:
        if union:
            after = deadwood_after_each_discard(mask, rules.ace_high_runs)
            knocks = [card for card, deadwood in after.items() if deadwood <= limit]
        else:
            total = mask_value(mask)
            knocks = [c for c in cards_of_mask(mask) if total - CARD_VALUES[c] <= limit]
    big_gin = (
        union == mask
        and rules.big_gin_bonus > 0
        and (taken_card is None or rules.big_gin_from_discard)
        and min_deadwood_mask(mask, rules.ace_high_runs) == 0
    )
    return knocks, big_gin


def check_arrangement(
    meld_rules: MeldRules, seat: int, melds: Melds, cards_mask: int, what: str
) -> int:
    """Check explicit melds within ``cards_mask``; return the mask they cover.

    ``what`` completes "seat N cannot ..." in the refusal.
    """
    covered = 0
    for meld in melds:
        try:
            check_meld(meld, meld_rules)
        except InvalidMeldError as error:
            raise IllegalActionError(
                f"seat {seat} cannot {what}: {error}",
                code="invalid_meld",
                seat=seat,
                card=meld[0] if meld else None,
                rule="gin-2.1",
                numbers=error.numbers,
                cause=error.code,
            ) from None
        for card in meld:
            bit = 1 << card
            if not cards_mask & bit:
                raise IllegalActionError(
                    f"seat {seat} cannot {what}: {format_card(card)} is not available "
                    "for a meld (not in the hand, or the knock card)",
                    code="card_not_in_hand",
                    seat=seat,
                    card=card,
                )
            if covered & bit:
                raise IllegalActionError(
                    f"seat {seat} cannot {what}: {format_card(card)} is used in two melds, "
                    "and a card belongs to at most one meld",
                    code="card_in_two_melds",
                    seat=seat,
                    card=card,
                    rule="gin-2.4",
                )
            covered |= bit
    return covered


def check_knock(
    rules: GinRules, seat: int, rest: int, card: int, taken_card: int | None, melds: Melds | None
) -> tuple[Melds, int]:
    """Check a knock with ``card`` (``rest``: the other ten cards, ``melds``: the ones
    named, if any); return the knocker's melds and deadwood."""
    if card == taken_card:
        raise IllegalActionError(
            f"seat {seat} cannot knock with {format_card(card)}: the card just taken from "
            "the discard pile may not be the knock card",
            code="knock_with_taken_card",
            seat=seat,
            card=card,
            rule="gin-3.5",
        )
    if melds is None:
        if rules.knocker_arrangement == "explicit":
            raise IllegalActionError(
                f"seat {seat} must name the melds when knocking with {format_card(card)} "
                "(knocker_arrangement=explicit)",
                code="arrangement_required",
                seat=seat,
                card=card,
                rule="gin-4.4",
            )
        best = min_deadwood(cards_of_mask(rest), ace_high=rules.ace_high_runs)
        chosen, deadwood = best.melds, best.deadwood
    else:
        covered = check_arrangement(rules.meld_rules, seat, melds, rest, "knock")
        chosen = tuple(tuple(sorted(meld)) for meld in melds)
        deadwood = mask_value(rest & ~covered)
    if deadwood > rules.knock_limit:
        raise IllegalActionError(
            f"seat {seat} cannot knock with {format_card(card)}: the other cards leave "
            f"{deadwood} deadwood, more than the knock limit of {rules.knock_limit}",
            code="deadwood_over_knock_limit",
            seat=seat,
            card=card,
            rule="gin-4.1",
            numbers={"deadwood": deadwood, "limit": rules.knock_limit},
        )
    return chosen, deadwood


def check_big_gin(
    rules: GinRules, seat: int, mask: int, taken_card: int | None, melds: Melds | None
) -> Melds:
    """Check big gin with the 11 cards of ``mask`` (``melds``: the ones named, if any);
    return the melds."""
    if rules.big_gin_bonus <= 0:
        raise IllegalActionError(
            f"seat {seat} cannot declare big gin: it is disabled (big_gin_bonus=0)",
            code="big_gin_disabled",
            seat=seat,
            rule="gin-4.3",
        )
    if taken_card is not None and not rules.big_gin_from_discard:
        raise IllegalActionError(
            f"seat {seat} cannot declare big gin with {format_card(taken_card)} taken "
            "from the discard pile (big_gin_from_discard=false)",
            code="big_gin_from_discard",
            seat=seat,
            card=taken_card,
            rule="gin-4.3",
        )
    if melds is None:
        best = min_deadwood(cards_of_mask(mask), ace_high=rules.ace_high_runs)
        chosen, deadwood_cards = best.melds, best.deadwood_cards
    else:
        covered = check_arrangement(rules.meld_rules, seat, melds, mask, "declare big gin")
        chosen = tuple(tuple(sorted(meld)) for meld in melds)
        deadwood_cards = tuple(cards_of_mask(mask & ~covered))
    if deadwood_cards:
        raise IllegalActionError(
            f"seat {seat} cannot declare big gin: {format_cards(deadwood_cards)} "
            "fit(s) in no meld; all 11 cards must be melded",
            code="big_gin_not_melded",
            seat=seat,
            card=deadwood_cards[0],
            rule="gin-4.3",
        )
    return chosen
