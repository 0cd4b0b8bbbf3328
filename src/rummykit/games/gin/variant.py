"""Gin Rummy in the catalog of games, with its bots.

Importing this module registers the game (:func:`rummykit.catalog.register_variant`)
and its bots; the catalog imports it on its first look-up.
"""

from __future__ import annotations

from typing import Any

from rummykit.bots.base import Bot
from rummykit.catalog import Variant, register_bot, register_variant
from rummykit.games.gin import GinAction, GinMatch, GinRules
from rummykit.games.gin.actions import OPEN_KINDS
from rummykit.games.gin.refusals import GIN_REFUSALS
from rummykit.games.gin.terminal import GinScreen
from rummykit.games.gin.views import GinTableGame

__all__ = ["GIN", "GinVariant"]


class GinVariant(Variant):
    """Gin Rummy: a match to the target (:class:`~rummykit.games.gin.GinMatch`); equal
    totals share the win."""

    name = "gin"
    title = "Gin Rummy"
    description = "Gin Rummy, two players, a match to 100"
    modules = ("rummykit.games.gin.match", "rummykit.games.gin.heuristic_bot")
    open_action_kinds = OPEN_KINDS

    rules_type = GinRules
    action_type = GinAction
    game_type = GinMatch
    table_game_type = GinTableGame
    screen_type = GinScreen
    screen_translated = True
    refusal_templates = GIN_REFUSALS


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
