"""Rami 51 / Rami 40 in the catalog of games, with its bots.

Importing this module registers the game (:func:`rummykit.catalog.register_variant`)
and its bots; the catalog imports it on its first look-up. The presets (``rami51``,
``rami40``, ``rami51-house``, ``rami40-house``) are names of the game too.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rummykit.bots.base import Bot
from rummykit.catalog import Variant, register_bot, register_variant
from rummykit.games.rami import PRESETS, RamiAction, RamiGame, RamiRules
from rummykit.games.rami.actions import OPEN_KINDS
from rummykit.games.rami.refusals import RAMI_REFUSALS
from rummykit.games.rami.terminal import RamiScreen
from rummykit.games.rami.views import RamiTableGame

__all__ = ["RAMI", "RamiVariant"]


class RamiVariant(Variant):
    """Rami 51 / Rami 40: rounds until the penalty limit (:class:`~rummykit.games.rami.RamiGame`).

    Points are the final penalty totals: lower is better.
    """

    name = "rami"
    title = "Rami 51 / Rami 40"
    description = "Rami 51 / Rami 40, French rummy, rounds to the penalty limit"
    min_players = 2
    max_players = 6
    default_players = 4
    points_label = "penalty"
    open_action_kinds = OPEN_KINDS
    modules = ("rummykit.games.rami.game", "rummykit.games.rami.heuristic_bot")

    rules_type = RamiRules
    action_type = RamiAction
    game_type = RamiGame
    table_game_type = RamiTableGame
    screen_type = RamiScreen
    screen_translated = True
    refusal_templates = RAMI_REFUSALS

    def presets(self) -> Mapping[str, Any]:
        """:data:`~rummykit.games.rami.PRESETS` (Rami 51's reference rules first)."""
        return PRESETS

    def screen_options(self, name: str) -> dict[str, Any]:
        """The Rami screen names the preset played (``rami40``)."""
        return {"variant": name}


RAMI = register_variant(RamiVariant())


def _random(*, seed: int, rules: Any, players: int) -> Bot[Any, Any]:
    from rummykit.games.rami.heuristic_bot import RamiRandomBot

    return RamiRandomBot(seed)


def _heuristic(*, seed: int, rules: Any, players: int) -> Bot[Any, Any]:
    from rummykit.games.rami.heuristic_bot import RamiHeuristicBot

    return RamiHeuristicBot(rules)


def _expert_level(level: str, seed: int, rules: Any, players: int) -> Bot[Any, Any]:
    from rummykit.games.rami.expert_bot import RamiExpertBot

    return RamiExpertBot(seed=seed, rules=rules, players=players, level=level)  # type: ignore[arg-type]


def _easy(*, seed: int, rules: Any, players: int) -> Bot[Any, Any]:
    return _expert_level("easy", seed, rules, players)


def _medium(*, seed: int, rules: Any, players: int) -> Bot[Any, Any]:
    return _expert_level("medium", seed, rules, players)


def _hard(*, seed: int, rules: Any, players: int) -> Bot[Any, Any]:
    return _expert_level("hard", seed, rules, players)


def _expert(*, seed: int, rules: Any, players: int) -> Bot[Any, Any]:
    return _expert_level("expert", seed, rules, players)


_BOTS = ("rummykit.games.rami.heuristic_bot",)
register_bot(
    "rami",
    "random",
    _random,
    description="random among legal moves and the solvers' plays",
    requires=_BOTS,
)
register_bot(
    "rami",
    "heuristic",
    _heuristic,
    description="opens early, lays all it can, keeps jokers (RamiHeuristicBot)",
    requires=_BOTS,
)
_LEVELS = {
    "easy": (_easy, "the heuristic's moves with a random discard one time in four"),
    "medium": (_medium, "opening look-ahead on the heuristic's three best discards"),
    "hard": (_hard, "opening look-ahead on every discard and draw, danger-aware"),
    "expert": (_expert, "hard, and holds an opening back for a rami sec when it pays"),
}
for _level, (_factory, _text) in _LEVELS.items():
    register_bot(
        "rami",
        _level,
        _factory,
        description=f"{_text} (RamiExpertBot)",
        requires=("rummykit.games.rami.expert_bot",),
    )
