"""Bots: the protocol, a random bot for every variant, and variant heuristics."""

from rummykit.bots.base import Bot
from rummykit.bots.gin_heuristic import GinHeuristicBot
from rummykit.bots.random_bot import RandomBot
from rummykit.variants.gin import GinAction, GinObservation, GinRules

__all__ = ["GIN_BOTS", "Bot", "GinHeuristicBot", "RandomBot", "make_gin_bot"]

GIN_BOTS = ("random", "heuristic")
"""Names accepted by :func:`make_gin_bot`."""


def make_gin_bot(
    name: str, *, seed: int | None = None, rules: GinRules | None = None
) -> Bot[GinObservation, GinAction]:
    """A gin bot by name (``random`` or ``heuristic``)."""
    if name == "random":
        return RandomBot(seed)
    if name == "heuristic":
        return GinHeuristicBot(rules)
    raise ValueError(f"unknown gin bot {name!r}; choose one of {', '.join(GIN_BOTS)}")
