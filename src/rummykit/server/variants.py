"""The registry of variant adapters the table server hosts.

:mod:`rummykit.server.adapter` defines what an adapter is (:class:`VariantAdapter`, the
:class:`Game` it builds); each variant's adapter lives in its own module. The names
below are re-exported so that ``from rummykit.server.variants import ...`` keeps working.

>>> sorted(ADAPTERS)
['carousel', 'gin', 'rami']
>>> game = get_adapter("gin").new_game(get_adapter("gin").make_rules("gin", {}), seats=2, seed=7)
>>> game.current_seat
0
"""

from __future__ import annotations

from rummykit.server.adapter import (
    JSON,
    Applied,
    Game,
    RuleOption,
    VariantAdapter,
    rule_options_of,
)
from rummykit.server.carousel_adapter import CarouselAdapter, CarouselTableGame
from rummykit.server.gin_adapter import GinAdapter, GinGame
from rummykit.server.rami_adapter import RamiAdapter, RamiTableGame

__all__ = [
    "ADAPTERS",
    "JSON",
    "Applied",
    "CarouselAdapter",
    "CarouselTableGame",
    "Game",
    "GinAdapter",
    "GinGame",
    "RamiAdapter",
    "RamiTableGame",
    "RuleOption",
    "VariantAdapter",
    "get_adapter",
    "rule_options_of",
]

ADAPTERS: dict[str, VariantAdapter] = {
    "gin": GinAdapter(),
    "rami": RamiAdapter(),
    "carousel": CarouselAdapter(),
}
"""Every variant the server hosts, by name (the lobby lists them in this order)."""


def get_adapter(name: str) -> VariantAdapter:
    """The adapter of variant ``name``; ``ValueError`` names the known ones."""
    try:
        return ADAPTERS[name]
    except (KeyError, TypeError):
        raise ValueError(
            f"unknown variant {name!r}; available: {', '.join(sorted(ADAPTERS))}"
        ) from None
