"""Carousel's layout check and placement solver under their first import path
(:mod:`rummykit.games.carousel.layout` and :mod:`rummykit.games.carousel.arrange` are
their homes)."""

from rummykit.games.carousel.arrange import Placement, best_placement
from rummykit.games.carousel.layout import IllegalLayoutError, LayoutCheck, check_layout
from rummykit.games.carousel.rules import placement_value

__all__ = [
    "IllegalLayoutError",
    "LayoutCheck",
    "Placement",
    "best_placement",
    "check_layout",
    "placement_value",
]
