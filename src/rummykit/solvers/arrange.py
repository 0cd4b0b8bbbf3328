"""Carousel's arrangement solver under its first import path
(:mod:`rummykit.games.carousel.arrange` is its home)."""

from rummykit.games.carousel.arrange import (
    IllegalLayoutError,
    LayoutCheck,
    Placement,
    best_placement,
    check_layout,
    placement_value,
)

__all__ = [
    "IllegalLayoutError",
    "LayoutCheck",
    "Placement",
    "best_placement",
    "check_layout",
    "placement_value",
]
