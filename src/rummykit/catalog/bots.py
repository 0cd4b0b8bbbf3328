"""Bots registered per game, by name.

A **bot factory** builds a bot for one seat of one game; it is called with keyword
arguments only, ``factory(seed=..., rules=..., players=...)``. A factory given as
``"module:attribute"`` is imported on first use, so registering costs nothing and cannot
create import cycles.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from rummykit.bots.base import Bot
from rummykit.catalog.registry import _find_owner, get_variant, variant_names
from rummykit.catalog.variant import STRENGTH_ORDER, missing_modules
from rummykit.errors import InvalidOptionError, UnknownBotError, UnknownVariantError

__all__ = [
    "BotEntry",
    "BotFactory",
    "available_bots",
    "bot_names",
    "default_lineup",
    "get_bot",
    "make_bot",
    "register_bot",
    "unregister_bot",
]

AnyBot = Bot[Any, Any]


class BotFactory(Protocol):
    """Builds the bot for one seat of one game."""

    def __call__(self, *, seed: int, rules: Any, players: int) -> AnyBot:
        """A fresh bot; ``seed`` seeds its own RNG, ``rules`` are the game's rules."""
        ...


@dataclass(frozen=True, slots=True)
class BotEntry:
    """A registered bot: its variant, name and factory.

    ``factory`` may be a ``"module:attribute"`` string, imported on first use.
    ``requires`` lists modules the bot (or the engine moves it makes) needs.
    """

    variant: str
    name: str
    factory: BotFactory | str
    description: str = ""
    requires: tuple[str, ...] = ()

    def resolve(self) -> BotFactory:
        """The factory itself (importing a ``module:attribute`` string)."""
        if isinstance(self.factory, str):
            module_name, _, attribute = self.factory.partition(":")
            factory: BotFactory = getattr(importlib.import_module(module_name), attribute)
            return factory
        return self.factory

    def missing(self) -> tuple[str, ...]:
        """Required modules that cannot be imported."""
        return missing_modules(self.requires)

    @property
    def module(self) -> str | None:
        """The module that defines the factory (``None`` for a script's ``__main__``)."""
        if isinstance(self.factory, str):
            return self.factory.partition(":")[0]
        module = getattr(self.factory, "__module__", None)
        return None if module in (None, "__main__", "__mp_main__") else module

    def create(self, *, seed: int, rules: Any, players: int) -> AnyBot:
        """A bot for one seat."""
        return self.resolve()(seed=seed, rules=rules, players=players)


_BOTS: dict[tuple[str, str], BotEntry] = {}


def _check_bot_name(name: str) -> None:
    if not name or name != name.strip() or any(c in name for c in ",:= \t"):
        raise InvalidOptionError(
            f"a bot name must be a non-empty word without , : = or spaces: {name!r}"
        )


def _same_factory(a: BotFactory | str, b: BotFactory | str) -> bool:
    if a is b or a == b:
        return True

    def key(factory: BotFactory | str) -> tuple[str, str]:
        return (getattr(factory, "__module__", ""), getattr(factory, "__qualname__", ""))

    return not isinstance(a, str) and not isinstance(b, str) and key(a) == key(b)


def register_bot(
    variant: str,
    name: str,
    factory: BotFactory | str,
    *,
    description: str = "",
    requires: Iterable[str] = (),
    replace: bool = False,
) -> BotEntry:
    """Register a bot for ``variant`` under ``name``; returns the entry.

    ``factory(seed=..., rules=..., players=...)`` builds the bot for one seat (a class
    whose ``__init__`` takes those keywords works too). Give it as a module-level
    function or class, or as a ``"module:attribute"`` string: tournaments send it to
    worker processes. Registering the same factory again is harmless; another factory
    under a taken name needs ``replace=True``.

    >>> from rummykit.bots import RandomBot
    >>> def make_coin(*, seed: int, rules: object, players: int) -> RandomBot:
    ...     return RandomBot(seed)
    >>> register_bot("gin", "coin", make_coin).name
    'coin'
    >>> make_bot("gin", "coin", seed=1).name
    'random'
    >>> unregister_bot("gin", "coin")
    """
    owner = _find_owner(variant)
    if owner is None or owner.name != variant:
        raise UnknownVariantError(
            f"unknown variant {variant!r}; available: {', '.join(variant_names(presets=False))}"
        )
    _check_bot_name(name)
    if isinstance(factory, str) and ":" not in factory:
        raise InvalidOptionError(f"a factory string must read 'module:attribute', not {factory!r}")
    entry = BotEntry(variant, name, factory, description, tuple(requires))
    old = _BOTS.get((variant, name))
    if old is not None and not replace and not _same_factory(old.factory, factory):
        raise InvalidOptionError(
            f"a {variant} bot named {name!r} is already registered (pass replace=True)"
        )
    _BOTS[(variant, name)] = entry
    return entry


def unregister_bot(variant: str, name: str) -> None:
    """Remove a registered bot (tests, notebooks); unknown names are ignored."""
    _BOTS.pop((get_variant(variant).name, name), None)


def _forget_bots(variant: str) -> None:
    for key in [key for key in _BOTS if key[0] == variant]:
        del _BOTS[key]


def bot_names(variant: str) -> list[str]:
    """Every bot name registered for ``variant`` (available or not), in order."""
    found = get_variant(variant)
    return [name for (v, name) in _BOTS if v == found.name]


def available_bots(variant: str) -> list[str]:
    """Bot names for ``variant`` whose required modules can be imported."""
    found = get_variant(variant)
    return [
        entry.name
        for entry in _BOTS.values()
        if entry.variant == found.name and not entry.missing()
    ]


def get_bot(variant: str, name: str) -> BotEntry:
    """The registered entry of a bot.

    Raises:
        UnknownBotError: no such bot, or it cannot run yet (a required module is missing).
    """
    found = get_variant(variant)
    entry = _BOTS.get((found.name, name.strip()))
    if entry is None:
        raise UnknownBotError(
            f"unknown {found.name} bot {name!r}; available: "
            f"{', '.join(available_bots(found.name)) or 'none'}"
        )
    missing = entry.missing()
    if missing:
        raise UnknownBotError(
            f"{found.name} bot {name!r} needs {', '.join(missing)}, which cannot be imported yet"
        )
    return entry


def make_bot(
    variant: str, name: str, *, seed: int, rules: Any = None, players: int | None = None
) -> AnyBot:
    """A bot by variant and name (``rules`` default to the variant's reference rules)."""
    found = get_variant(variant)
    entry = get_bot(variant, name)
    return entry.create(
        seed=seed,
        rules=found.default_rules() if rules is None else rules,
        players=found.default_players if players is None else players,
    )


def default_lineup(variant: str) -> list[str]:
    """The two strongest available bots by :data:`STRENGTH_ORDER` (then registration order)."""
    names = available_bots(variant)
    ranked = sorted(
        names,
        key=lambda n: STRENGTH_ORDER.index(n) if n in STRENGTH_ORDER else len(STRENGTH_ORDER),
    )
    return ranked[:2]
