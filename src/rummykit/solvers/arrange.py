"""Carousel's layout check and placement solver under their first import path
(:mod:`rummykit.games.carousel.layout` and :mod:`rummykit.games.carousel.arrange` are
their homes)."""

from rummykit.games.carousel.arrange import *  # noqa: F403
from rummykit.games.carousel.layout import *  # noqa: F403
from rummykit.games.carousel.rules import placement_value as placement_value
