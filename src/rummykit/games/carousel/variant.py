"""Carousel in the catalog of games, with its bots.

Importing this module registers the game (:func:`rummykit.catalog.register_variant`)
and its bots; the catalog imports it on its first look-up.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rummykit.bots.base import Bot
from rummykit.catalog import Variant, register_bot, register_variant
from rummykit.games.carousel import CarouselAction, CarouselGame, CarouselRules
from rummykit.table_game import TableGame

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

    @property
    def rules_type(self) -> type[Any]:
        """:class:`~rummykit.games.carousel.CarouselRules`."""
        return CarouselRules

    @property
    def action_type(self) -> type[Any]:
        """:class:`~rummykit.games.carousel.CarouselAction`."""
        return CarouselAction

    def new_game(
        self, rules: Any, *, players: int, seed: int | None, first_dealer: int | None = None
    ) -> CarouselGame:
        """A :class:`~rummykit.games.carousel.CarouselGame`."""
        self.check_players(players)
        return CarouselGame(rules, players=players, seed=seed, first_dealer=first_dealer)

    def game_from_record(self, record: Mapping[str, Any]) -> CarouselGame:
        """:meth:`CarouselGame.from_record <rummykit.games.carousel.CarouselGame.from_record>`."""
        game: CarouselGame = CarouselGame.from_record(record)
        return game

    def terminal_screen(self, game: Any, *, card_text: Any, name: str) -> Any:
        """The game's terminal screen (``terminal.py``)."""
        from rummykit.games.carousel.terminal import CarouselScreen

        return CarouselScreen(game, card_text=card_text)

    def table_game(self, game: Any) -> TableGame:
        """:class:`~rummykit.games.carousel.views.CarouselTableGame`."""
        from rummykit.games.carousel.views import CarouselTableGame

        return CarouselTableGame(game)


CAROUSEL = register_variant(CarouselVariant())


def _random(*, seed: int, rules: Any, players: int) -> Bot[Any, Any]:
    from rummykit.games.carousel.simple_bots import CarouselRandomBot

    return CarouselRandomBot(seed, rules=rules)


def _heuristic(*, seed: int, rules: Any, players: int) -> Bot[Any, Any]:
    from rummykit.games.carousel.simple_bots import CarouselHeuristicBot

    return CarouselHeuristicBot(rules, decks=rules.decks_for(players))


_SOLVER = ("rummykit.games.carousel.arrange",)
"""The Carousel bots place melds with this solver."""

register_bot(
    "carousel",
    "random",
    _random,
    description="draws; places one random simple meld when it can",
    requires=_SOLVER,
)
register_bot(
    "carousel",
    "heuristic",
    _heuristic,
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
