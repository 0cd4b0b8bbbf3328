"""Gin Rummy in the catalog of games, with its bots.

Importing this module registers the game (:func:`rummykit.catalog.register_variant`)
and its bots; the catalog imports it on its first look-up.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rummykit.bots.base import Bot
from rummykit.catalog import Variant, register_bot, register_variant
from rummykit.games.gin import GinAction, GinMatch, GinRules
from rummykit.table_game import TableGame

__all__ = ["GIN", "GinVariant"]


class GinVariant(Variant):
    """Gin Rummy: a match to the target (:class:`~rummykit.games.gin.GinMatch`); equal
    totals share the win."""

    name = "gin"
    title = "Gin Rummy"
    description = "Gin Rummy, two players, a match to 100"
    modules = ("rummykit.games.gin.match", "rummykit.games.gin.heuristic_bot")
    open_action_kinds = frozenset({"lay_off"})

    @property
    def rules_type(self) -> type[Any]:
        """:class:`~rummykit.games.gin.GinRules`."""
        return GinRules

    @property
    def action_type(self) -> type[Any]:
        """:class:`~rummykit.games.gin.GinAction`."""
        return GinAction

    def new_game(
        self, rules: Any, *, players: int, seed: int | None, first_dealer: int | None = None
    ) -> GinMatch:
        """A :class:`~rummykit.games.gin.GinMatch`."""
        self.check_players(players)
        return GinMatch(rules, seed, first_dealer=first_dealer)

    def game_from_record(self, record: Mapping[str, Any]) -> GinMatch:
        """:meth:`GinMatch.from_record <rummykit.games.gin.GinMatch.from_record>`."""
        game: GinMatch = GinMatch.from_record(record)
        return game

    def terminal_screen(self, game: Any, *, card_text: Any, name: str) -> Any:
        """The game's terminal screen (``terminal.py``)."""
        from rummykit.games.gin.terminal import GinScreen

        return GinScreen(game, card_text=card_text)

    def table_game(self, game: Any) -> TableGame:
        """:class:`~rummykit.games.gin.views.GinTableGame`."""
        from rummykit.games.gin.views import GinTableGame

        return GinTableGame(game)


GIN = register_variant(GinVariant())


def _random(*, seed: int, rules: Any, players: int) -> Bot[Any, Any]:
    from rummykit.bots.random_bot import RandomBot

    return RandomBot(seed)


def _heuristic(*, seed: int, rules: Any, players: int) -> Bot[Any, Any]:
    from rummykit.games.gin.heuristic_bot import GinHeuristicBot

    return GinHeuristicBot(rules)


_EXPERT = "rummykit.games.gin.expert_bot"
register_bot("gin", "random", _random, description="uniformly random legal actions")
register_bot("gin", "heuristic", _heuristic, description="greedy deadwood play (GinHeuristicBot)")
register_bot(
    "gin",
    "expert",
    f"{_EXPERT}:make_expert_bot",
    description="opponent card model, discard safety, live outs, knock judgement",
)
register_bot(
    "gin",
    "hard",
    f"{_EXPERT}:make_hard_bot",
    description="deadwood and live outs with discard safety; knocks at once",
)
register_bot("gin", "medium", f"{_EXPERT}:make_medium_bot", description="deadwood and live outs")
register_bot(
    "gin", "easy", f"{_EXPERT}:make_easy_bot", description="heuristic play with random slips"
)
