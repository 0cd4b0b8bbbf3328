"""Carousel in the catalog of games, with its bots.

Importing this module registers the game (:func:`rummykit.catalog.register_variant`)
and its bots; the catalog imports it on its first look-up.
"""

from __future__ import annotations

from rummykit.catalog import Variant, register_bot, register_variant
from rummykit.games.carousel import CarouselAction, CarouselGame, CarouselRules
from rummykit.games.carousel.refusals import CAROUSEL_REFUSALS
from rummykit.games.carousel.terminal import CarouselScreen
from rummykit.games.carousel.views import CarouselTableGame

__all__ = ["CAROUSEL", "CarouselVariant"]


class CarouselVariant(Variant):
    """Carousel: a game to 150 (:class:`~rummykit.games.carousel.CarouselGame`) for 2-5
    players."""

    name = "carousel"
    title = "Carousel"
    description = "Carousel, manipulation rummy with knocking, a game to 150"
    min_players = 2
    max_players = 5
    default_players = 3
    open_action_kinds = frozenset({"meld"})
    modules = (
        "rummykit.games.carousel.game",
        "rummykit.games.carousel.simple_bots",
        "rummykit.games.carousel.arrange",
    )

    rules_type = CarouselRules
    action_type = CarouselAction
    game_type = CarouselGame
    table_game_type = CarouselTableGame
    screen_type = CarouselScreen
    screen_translated = True
    refusal_templates = CAROUSEL_REFUSALS


CAROUSEL = register_variant(CarouselVariant())


_SOLVER = ("rummykit.games.carousel.arrange",)
"""The Carousel bots place melds with this solver."""

register_bot(
    "carousel",
    "random",
    "rummykit.games.carousel.simple_bots:make_random",
    description="draws; places one random simple meld when it can",
    requires=_SOLVER,
)
register_bot(
    "carousel",
    "heuristic",
    "rummykit.games.carousel.simple_bots:make_heuristic",
    description="places the most value via the solver; knocks when low",
    requires=_SOLVER,
)
_LEVELS = {
    "easy": "medium, but half its meld decisions see only simple melds (CarouselExpertBot)",
    "medium": "solver placements, knocks whenever it may (CarouselExpertBot)",
    "hard": "solver placements, knocks by an undercut model (CarouselExpertBot)",
    "expert": "hard plus a look-ahead on when to stop drawing (CarouselExpertBot)",
}
for _level, _description in _LEVELS.items():
    register_bot(
        "carousel",
        _level,
        f"rummykit.games.carousel.expert_bot:make_{_level}",
        description=_description,
        requires=_SOLVER,
    )
