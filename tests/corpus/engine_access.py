"""How the corpus reaches the engines: the only file to update when import paths move."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rummykit.sim.registry import find_variant, make_bot


def rules_for(variant: str, options: Mapping[str, Any]) -> Any:
    driver, preset = find_variant(variant)
    return driver.make_rules(None, preset=preset, options=options)


def rules_json(rules: Any) -> dict[str, Any]:
    return dict(rules.to_dict())


def new_game(variant: str, rules: Any, players: int, seed: int, first_dealer: int) -> Any:
    driver, _ = find_variant(variant)
    return driver.new_game(rules, players=players, seed=seed, first_dealer=first_dealer)


def parse_action(variant: str, data: Mapping[str, Any]) -> Any:
    driver, _ = find_variant(variant)
    if driver.name == "gin":
        from rummykit.games.gin import GinAction

        return GinAction.from_json(data)
    if driver.name == "carousel":
        from rummykit.games.carousel import CarouselAction

        return CarouselAction.from_json(data)
    from rummykit.games.rami import RamiAction

    return RamiAction.from_json(data)


def seat_bots(
    variant: str, names: Sequence[str], rules: Any, players: int, seeds: Sequence[int]
) -> list[Any]:
    driver, _ = find_variant(variant)
    return [
        make_bot(driver.name, name, seed=seed, rules=rules, players=players)
        for name, seed in zip(names, seeds, strict=True)
    ]


def server_game(variant: str, options: Mapping[str, Any], players: int, seed: int) -> Any:
    """A table game as the server hosts it (views, summary, reveal, legal actions)."""
    from rummykit.server.variants import get_adapter

    driver, preset = find_variant(variant)
    adapter = get_adapter(driver.name)
    rules = adapter.make_rules(preset or next(iter(adapter.presets)), dict(options))
    return adapter.new_game(rules, seats=players, seed=seed), adapter.bot_rules(rules)
