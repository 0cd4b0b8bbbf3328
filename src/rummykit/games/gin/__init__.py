"""Gin Rummy: two players, knock at 10, gin, big gin and undercut, a match to 100.

The engine, the match, and the exact deadwood solvers; bots, views and the terminal game
are in the modules beside them.
"""

from rummykit.games.gin.actions import GinAction
from rummykit.games.gin.deadwood import (
    Arrangement,
    Discard,
    best_discard,
    best_discard_mask,
    cards_of_mask,
    deadwood_after_each_discard,
    mask_of,
    mask_value,
    meld_union,
    melds_in_mask,
    min_deadwood,
    min_deadwood_mask,
    top_card_value,
)
from rummykit.games.gin.hand import GinHand, new_hand
from rummykit.games.gin.layoffs import LayoffResult, layoff_deadwood
from rummykit.games.gin.match import GinMatch, GinMatchResult, final_totals
from rummykit.games.gin.observation import GinObservation
from rummykit.games.gin.result import GinHandResult
from rummykit.games.gin.rules import GinRules

__all__ = [
    "Arrangement",
    "Discard",
    "GinAction",
    "GinHand",
    "GinHandResult",
    "GinMatch",
    "GinMatchResult",
    "GinObservation",
    "GinRules",
    "LayoffResult",
    "best_discard",
    "best_discard_mask",
    "cards_of_mask",
    "deadwood_after_each_discard",
    "final_totals",
    "layoff_deadwood",
    "mask_of",
    "mask_value",
    "meld_union",
    "melds_in_mask",
    "min_deadwood",
    "min_deadwood_mask",
    "new_hand",
    "top_card_value",
]
