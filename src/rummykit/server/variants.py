"""The games the server hosts: every game of the catalog, seen from a table.

The server knows no rule. A :class:`TableHost` wraps one catalog game
(:class:`rummykit.catalog.Variant`) with what the table server asks of it: seats,
presets, rule options, bot levels, a table's game from (rules, seats, seed) and its
replay from the move log. The table game itself (views, checks, hints) is the game's
own (``rummykit.games.gin.views`` and so on), behind :class:`~rummykit.table_game.TableGame`.
:data:`ADAPTERS` reads the catalog when asked, so a game registered later (a plugin's)
is hosted too.

>>> sorted(ADAPTERS)
['carousel', 'gin', 'rami']
>>> host = get_adapter("gin")
>>> game = host.new_game(host.make_rules("gin", {"target": 50}), seats=2, seed=7)
>>> game.current_seat, [a["kind"] for a in game.legal_actions()]
(0, ['take_upcard', 'pass'])
>>> applied = game.apply(0, {"kind": "pass"})
>>> applied.action, game.current_seat
({'kind': 'pass'}, 1)
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from rummykit.catalog import Variant, make_bot, variants
from rummykit.errors import UnknownVariantError
from rummykit.options import Option
from rummykit.table_game import JSON, Applied, TableGame

__all__ = ["ADAPTERS", "JSON", "Applied", "Game", "TableHost", "VariantAdapter", "get_adapter"]

Game = TableGame
"""A running game as the server drives it."""


class TableHost:
    """One catalog game as the table server hosts it."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.name = variant.name
        self.title = variant.title
        self.min_seats = variant.min_players
        self.max_seats = variant.max_players

    @property
    def presets(self) -> Mapping[str, JSON]:
        """Preset name -> the options it changes (the default preset first)."""
        return self.variant.preset_options()

    @property
    def bot_levels(self) -> tuple[str, ...]:
        """The bot levels a table may seat, weakest first (read when asked)."""
        return self.variant.bot_levels()

    @property
    def default_bot_level(self) -> str:
        """The level of a bot seat created without one, and of a stand-in."""
        return self.variant.default_bot_level()

    def rule_options(self) -> tuple[Option, ...]:
        """The options a table creator may set (each with ``to_json``)."""
        return self.variant.options()

    def make_rules(self, preset: str, options: Any) -> JSON:
        """Complete, checked options: the preset's, then ``options`` over them."""
        return self.variant.table_rules(preset, options)

    def bot_rules(self, rules: Mapping[str, Any]) -> Any:
        """The rules object of a table's stored options (what a bot factory takes)."""
        return self.variant.rules_from_json(rules)

    def new_game(self, rules: Mapping[str, Any], *, seats: int, seed: int) -> TableGame:
        """Deal a table's game from a seed."""
        return self.variant.new_table_game(rules, seats=seats, seed=seed)

    def replay(
        self,
        rules: Mapping[str, Any],
        *,
        seats: int,
        seed: int,
        actions: Iterable[tuple[int, JSON]],
    ) -> TableGame:
        """Rebuild a table's game from its seed and ordered ``(seat, action)`` log."""
        return self.variant.replay_table(rules, seats=seats, seed=seed, actions=actions)

    def make_bot(
        self, level: str, rules: Mapping[str, Any], *, seed: int | None, players: int | None = None
    ) -> Any:
        """A bot of ``level`` built by its registered factory; without a seed, one from
        the system's secure source."""
        return make_bot(
            self.name,
            level,
            seed=secrets.randbits(63) if seed is None else seed,
            rules=self.bot_rules(rules),
            players=players,
        )


VariantAdapter = TableHost


class _Hosted(Mapping[str, TableHost]):
    """Every game of the catalog by name, read when asked."""

    def __init__(self) -> None:
        self._hosts: dict[Variant, TableHost] = {}

    def _host(self, variant: Variant) -> TableHost:
        host = self._hosts.get(variant)
        if host is None:
            host = self._hosts[variant] = TableHost(variant)
        return host

    def __getitem__(self, name: str) -> TableHost:
        for variant in variants():
            if variant.name == name:
                return self._host(variant)
        raise KeyError(name)

    def __iter__(self) -> Iterator[str]:
        return iter([variant.name for variant in variants()])

    def __len__(self) -> int:
        return len(variants())


ADAPTERS: Mapping[str, TableHost] = _Hosted()
"""Every game the server hosts, by name, in the catalog's order."""


def get_adapter(name: str) -> TableHost:
    """The host of game ``name``; the error (a ``ValueError``) names the known ones."""
    try:
        return ADAPTERS[name]
    except (KeyError, TypeError):
        raise UnknownVariantError(
            f"unknown variant {name!r}; available: {', '.join(sorted(ADAPTERS))}"
        ) from None
