"""The defender's best answer to a knock in Gin Rummy: own melds, then every layoff onto
the knocker's melds, for the least deadwood (the Gin rules, §gin-5.2 to §gin-5.5).

>>> from rummykit.cards import parse_cards, format_cards
>>> knock = [parse_cards("5H 6H 7H"), parse_cards("9C 9D 9S")]
>>> result = layoff_deadwood(knock, parse_cards("8H 9H 4S 4D 4C KD"))
>>> result.deadwood, [(str(card), meld) for card, meld in result.layoffs]
(10, [('8H', 0), ('9H', 0)])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rummykit.cards import Card
from rummykit.errors import InvalidCardError
from rummykit.games.gin.deadwood import cards_of_mask, mask_of, mask_value, melds_in_mask

__all__ = ["LayoffResult", "layoff_deadwood"]


@dataclass(frozen=True, slots=True)
class LayoffResult:
    """The defender's best play against a knock: own melds, layoffs, deadwood left."""

    deadwood: int
    melds: tuple[tuple[Card, ...], ...]
    layoffs: tuple[tuple[Card, int], ...]
    """``(card, index of the knocker's meld it is laid on)``, in playable order."""
    deadwood_cards: tuple[Card, ...]


def _layoff_targets(
    knocker_melds: Sequence[Sequence[int]], ace_high: bool
) -> list[tuple[int, list[int], list[int]]]:
    """Per knocker meld: (index, cards extending it upward in order, downward in order).

    Runs come before sets: a card that completes a set may also extend a run
    (``8H`` onto ``8C8D8S`` or onto ``5H6H7H``), and only on the run can it carry a
    chain further (``9H``), so the greedy layoff pass must offer it to runs first.
    """
    targets: list[tuple[int, list[int], list[int]]] = []
    set_targets: list[tuple[int, list[int], list[int]]] = []
    for index, meld in enumerate(knocker_melds):
        faces = sorted(int(card) for card in meld)
        ranks = {card % 13 for card in faces}
        suits = {card // 13 for card in faces}
        if len(ranks) == 1 and len(faces) >= 3:
            rank = ranks.pop()
            missing = [suit * 13 + rank for suit in range(4) if suit not in suits]
            # One deck: a set of three has exactly one card that completes it.
            set_targets.append((index, missing, []))
            continue
        suit = suits.pop()
        positions = sorted(card % 13 for card in faces)
        high_ace = ace_high and positions[0] == 0 and positions[-1] == 12
        if high_ace:
            positions = sorted(14 - 1 if p == 0 else p for p in positions)
        low, high = positions[0], positions[-1]
        up = [suit * 13 + (p % 13) for p in range(high + 1, (14 if ace_high else 13))]
        down = [suit * 13 + p for p in range(low - 1, 0 if high_ace else -1, -1)]
        targets.append((index, up, down))
    return targets + set_targets


def layoff_deadwood(
    knocker_melds: Sequence[Sequence[int]],
    defender_cards: Sequence[int],
    *,
    chained: bool = True,
    ace_high: bool = False,
) -> LayoffResult:
    """The defender's minimum deadwood after own melds and layoffs (§gin-5.5).

    Laying off never hurts, so for each packing of the defender's own melds every card
    that can be laid off is laid off; the best packing wins. With ``chained`` a card
    may extend a run already extended by an earlier layoff (``5H6H7H`` + ``8H`` then
    ``9H``); without it only the cards next to the knocker's original meld qualify.
    """
    mask = mask_of(defender_cards)
    targets = _layoff_targets(knocker_melds, ace_high)
    knocker_mask = mask_of(card for meld in knocker_melds for card in meld)
    if mask & knocker_mask:
        raise InvalidCardError("the defender's hand shares cards with the knocker's melds")
    melds = melds_in_mask(mask, ace_high)

    def layoffs_for(free: int) -> list[tuple[int, int]]:
        laid: list[tuple[int, int]] = []
        taken = 0
        for index, up, down in targets:
            for chain in (up, down):
                for card in chain if chained else chain[:1]:
                    bit = 1 << card
                    if not free & bit or taken & bit:
                        break
                    laid.append((card, index))
                    taken |= bit
        return laid

    best: tuple[int, list[int], list[tuple[int, int]]] | None = None
    # Enumerate packings of the defender's own melds (hands are at most 11 cards).
    meld_list = sorted(melds, key=lambda meld: (meld[0] & -meld[0], meld[0]))

    def visit(start: int, used: int, chosen: list[int]) -> None:
        nonlocal best
        free = mask & ~used
        laid = layoffs_for(free)
        laid_mask = 0
        for card, _ in laid:
            laid_mask |= 1 << card
        value = mask_value(free & ~laid_mask)
        if best is None or value < best[0]:
            best = (value, list(chosen), laid)
        for i in range(start, len(meld_list)):
            meld_mask = meld_list[i][0]
            if not used & meld_mask:
                chosen.append(meld_mask)
                visit(i + 1, used | meld_mask, chosen)
                chosen.pop()

    visit(0, 0, [])
    assert best is not None
    value, chosen, laid = best
    covered = 0
    for meld in chosen:
        covered |= meld
    for card, _ in laid:
        covered |= 1 << card
    return LayoffResult(
        deadwood=value,
        melds=tuple(tuple(cards_of_mask(meld)) for meld in chosen),
        layoffs=tuple((Card(card), index) for card, index in laid),
        deadwood_cards=tuple(cards_of_mask(mask & ~covered)),
    )
