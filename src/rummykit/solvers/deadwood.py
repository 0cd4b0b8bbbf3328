"""Gin's exact deadwood solvers under their first import path
(:mod:`rummykit.games.gin.deadwood` and :mod:`rummykit.games.gin.layoffs` are their home).

>>> from rummykit.cards import parse_cards
>>> min_deadwood(parse_cards("AS 2S 3S 4S 4H 4D 9C")).deadwood
9
"""

from rummykit.games.gin import (
    Arrangement,
    Discard,
    LayoffResult,
    best_discard,
    best_discard_mask,
    cards_of_mask,
    deadwood_after_each_discard,
    layoff_deadwood,
    mask_of,
    mask_value,
    meld_union,
    melds_in_mask,
    min_deadwood,
    min_deadwood_mask,
    top_card_value,
)

__all__ = [
    "Arrangement",
    "Discard",
    "LayoffResult",
    "best_discard",
    "best_discard_mask",
    "cards_of_mask",
    "deadwood_after_each_discard",
    "layoff_deadwood",
    "mask_of",
    "mask_value",
    "meld_union",
    "melds_in_mask",
    "min_deadwood",
    "min_deadwood_mask",
    "top_card_value",
]
