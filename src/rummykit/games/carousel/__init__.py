"""Carousel: 2-5 players, up to three draws a turn, the whole table open to
rearrangement, declared jokers, knock at 5, a game to 150.

The rules (:mod:`.rules`), actions (:mod:`.actions`), the layout rule (:mod:`.layout`),
the hand engine (:mod:`.hand`), the whole game (:mod:`.game`) and the exact placement
solver (:mod:`.arrange`); bots and the terminal game are in the modules beside them.
"""

from rummykit.games.carousel.actions import CarouselAction
from rummykit.games.carousel.arrange import Placement, best_placement
from rummykit.games.carousel.game import (
    CarouselGame,
    CarouselGameResult,
    carousel_final_totals,
)
from rummykit.games.carousel.hand import (
    CarouselHand,
    CarouselHandResult,
    CarouselObservation,
    new_hand,
)
from rummykit.games.carousel.layout import IllegalLayoutError, LayoutCheck, check_layout
from rummykit.games.carousel.rules import (
    CarouselRules,
    carousel_hand_value,
    placement_value,
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
