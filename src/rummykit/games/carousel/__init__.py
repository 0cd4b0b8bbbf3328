"""Carousel: 2-5 players, up to three draws a turn, the whole table open to
rearrangement, declared jokers, knock at 5, a game to 150.

The engine, the whole game and the exact arrangement solver; bots, views and the
terminal game are in the modules beside them.
"""

from rummykit.games.carousel.arrange import (
    IllegalLayoutError,
    LayoutCheck,
    Placement,
    best_placement,
    check_layout,
    placement_value,
)
from rummykit.games.carousel.game import (
    CarouselGame,
    CarouselGameResult,
    carousel_final_totals,
)
from rummykit.games.carousel.hand import (
    CarouselAction,
    CarouselHand,
    CarouselHandResult,
    CarouselObservation,
    CarouselRules,
    carousel_hand_value,
    new_hand,
    score_carousel_hand,
)

__all__ = [
    "CarouselAction",
    "CarouselGame",
    "CarouselGameResult",
    "CarouselHand",
    "CarouselHandResult",
    "CarouselObservation",
    "CarouselRules",
    "IllegalLayoutError",
    "LayoutCheck",
    "Placement",
    "best_placement",
    "carousel_final_totals",
    "carousel_hand_value",
    "check_layout",
    "new_hand",
    "placement_value",
    "score_carousel_hand",
]
