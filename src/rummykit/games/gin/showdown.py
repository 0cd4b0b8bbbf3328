"""The end of a Gin Rummy hand: the defender's melds and layoffs, and the score
(the Gin rules, §gin-5.1 to §gin-6.6).

Pure functions of the hand's cards and the knock, so the engine only records what they
decide. ``hands`` are the two seats' card masks, the knocker's without the knock card;
``knock_card`` is ``None`` for big gin.
"""

from __future__ import annotations

from collections.abc import Sequence

from rummykit.cards import Card, format_card, format_cards
from rummykit.core import Event, IllegalActionError
from rummykit.games.gin.actions import GinAction, Melds
from rummykit.games.gin.deadwood import (
    cards_of_mask,
    mask_of,
    mask_value,
    min_deadwood,
)
from rummykit.games.gin.knocking import check_arrangement
from rummykit.games.gin.layoffs import layoff_deadwood
from rummykit.games.gin.result import GinHandResult, Outcome
from rummykit.games.gin.rules import GinRules
from rummykit.melds import InvalidMeldError, check_meld

__all__ = ["optimal_show", "score_show", "showdown_events"]


def _gin_or_big(knocker_mask: int, knock_card: int | None, arrangement: Melds) -> bool:
    """Whether the knocker went gin (no layoffs are allowed against it)."""
    if knock_card is None:
        return True
    covered = mask_of(c for meld in arrangement for c in meld)
    return mask_value(knocker_mask & ~covered) == 0


def optimal_show(
    rules: GinRules, hands: Sequence[int], knocker: int, knock_card: int | None, arrangement: Melds
) -> GinAction:
    """The defender's best melds and layoffs (no layoffs against gin)."""
    defender_cards = cards_of_mask(hands[1 - knocker])
    if _gin_or_big(hands[knocker], knock_card, arrangement):
        best = min_deadwood(defender_cards, ace_high=rules.ace_high_runs)
        return GinAction("lay_off", None, best.melds, ())
    result = layoff_deadwood(
        arrangement, defender_cards, chained=rules.chained_layoffs, ace_high=rules.ace_high_runs
    )
    return GinAction("lay_off", None, result.melds, result.layoffs)


def _check_layoffs(
    rules: GinRules,
    defender: int,
    defender_mask: int,
    covered: int,
    arrangement: Melds,
    layoffs: tuple[tuple[Card, int], ...],
) -> int:
    """Check the defender's layoffs in order; return ``covered`` with the cards laid off."""
    targets = [list(meld) for meld in arrangement]
    for card, index in layoffs:
        bit = 1 << card
        if not defender_mask & bit or covered & bit:
            raise IllegalActionError(
                f"seat {defender} cannot lay off {format_card(card)}: it is not a free card "
                "of the defender's hand",
                code="card_not_in_hand",
                seat=defender,
                card=card,
            )
        if not 0 <= index < len(targets):
            raise IllegalActionError(
                f"seat {defender} cannot lay off {format_card(card)} onto meld {index + 1}: "
                f"the knocker has {len(targets)} meld(s), numbered from 1",
                code="no_such_meld",
                seat=defender,
                card=card,
                rule="gin-5.2",
                numbers={"meld": index + 1, "melds": len(targets)},
            )
        base = targets[index] if rules.chained_layoffs else list(arrangement[index])
        try:
            check_meld([*base, card], rules.meld_rules)
        except InvalidMeldError:
            raise IllegalActionError(
                f"seat {defender} cannot lay off {format_card(card)} onto "
                f"{format_cards(targets[index])}: it does not extend that meld"
                + ("" if rules.chained_layoffs else " as shown (chained_layoffs=false)"),
                code="layoff_does_not_fit",
                seat=defender,
                card=card,
                rule="gin-5.2" if rules.chained_layoffs else "gin-5.3",
            ) from None
        targets[index].append(card)
        covered |= bit
    return covered


def score_show(
    rules: GinRules,
    hands: Sequence[int],
    knocker: int,
    knock_card: int | None,
    arrangement: Melds,
    show: GinAction,
) -> GinHandResult:
    """Check the defender's ``show`` (own melds, then layoffs) and score the hand.

    Raises:
        IllegalActionError: the show is not valid (nothing is scored).
    """
    defender = 1 - knocker
    defender_mask = hands[defender]
    melds = show.melds or ()
    layoffs = show.layoffs or ()
    covered = check_arrangement(
        rules.meld_rules, defender, melds, defender_mask, "show these melds"
    )
    if layoffs and _gin_or_big(hands[knocker], knock_card, arrangement):
        raise IllegalActionError(
            f"seat {defender} cannot lay off {format_card(layoffs[0][0])}: no layoffs against gin",
            code="no_layoff_on_gin",
            seat=defender,
            card=layoffs[0][0],
            rule="gin-5.4",
        )
    covered = _check_layoffs(rules, defender, defender_mask, covered, arrangement, layoffs)
    defender_deadwood_mask = defender_mask & ~covered
    defender_deadwood = mask_value(defender_deadwood_mask)
    knocker_covered = mask_of(c for meld in arrangement for c in meld)
    knocker_deadwood_mask = hands[knocker] & ~knocker_covered
    knocker_deadwood = mask_value(knocker_deadwood_mask)
    winner: int | None
    outcome: Outcome
    if knock_card is None:
        outcome = "big_gin"
        winner, points = knocker, defender_deadwood + rules.big_gin_bonus
    elif knocker_deadwood == 0:
        outcome = "gin"
        winner, points = knocker, defender_deadwood + rules.gin_bonus
    elif knocker_deadwood < defender_deadwood:
        outcome = "knock"
        winner, points = knocker, defender_deadwood - knocker_deadwood
    elif knocker_deadwood == defender_deadwood and not rules.undercut_on_tie:
        outcome = "knock"
        winner, points = None, 0
    else:
        outcome = "undercut"
        winner, points = defender, rules.undercut_bonus + knocker_deadwood - defender_deadwood
    return GinHandResult(
        outcome=outcome,
        winner=winner,
        points=points,
        knocker=knocker,
        knocker_deadwood=knocker_deadwood,
        defender_deadwood=defender_deadwood,
        knock_card=None if knock_card is None else Card(knock_card),
        knocker_melds=arrangement,
        knocker_deadwood_cards=tuple(cards_of_mask(knocker_deadwood_mask)),
        defender_melds=tuple(tuple(sorted(meld)) for meld in melds),
        layoffs=tuple((Card(card), index) for card, index in layoffs),
        defender_deadwood_cards=tuple(cards_of_mask(defender_deadwood_mask)),
        hands=(tuple(cards_of_mask(hands[0])), tuple(cards_of_mask(hands[1]))),
    )


def showdown_events(result: GinHandResult) -> list[Event]:
    """The defender's show and the score, as announced at the end of a scored hand."""
    assert result.knocker is not None
    return [
        Event(
            "show",
            1 - result.knocker,
            detail={
                "melds": [format_cards(m) for m in result.defender_melds],
                "layoffs": [[format_card(c), i] for c, i in result.layoffs],
                "deadwood": result.defender_deadwood,
            },
        ),
        Event(
            "hand_scored",
            result.winner,
            detail={"outcome": result.outcome, "points": result.points},
        ),
    ]
