"""The games in the catalog, by name (presets' names included).

The games rummykit ships register themselves from their packages
(:data:`BUILTIN_GAMES`) on the first look-up, so importing the catalog costs nothing and
a game never imports the platform.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import threading

from rummykit.catalog.variant import Variant
from rummykit.errors import InvalidOptionError, UnknownVariantError

__all__ = [
    "BUILTIN_GAMES",
    "ENTRY_POINT_GROUP",
    "find_variant",
    "get_variant",
    "register_variant",
    "unregister_variant",
    "variant_names",
    "variants",
]


_VARIANTS: dict[str, Variant] = {}


def register_variant(variant: Variant, *, replace: bool = False) -> Variant:
    """Make ``variant`` (and its presets) available by name; returns it."""
    names = (variant.name, *variant.preset_names)
    for name in names:
        owner = _find_owner(name)
        if owner is not None and owner.name != variant.name:
            raise InvalidOptionError(f"{name!r} is already a name of variant {owner.name!r}")
    if variant.name in _VARIANTS and not replace and _VARIANTS[variant.name] != variant:
        raise InvalidOptionError(
            f"variant {variant.name!r} is already registered (pass replace=True)"
        )
    _VARIANTS[variant.name] = variant
    return variant


def unregister_variant(name: str) -> None:
    """Remove a registered game and its bots (tests, notebooks); unknown names are
    ignored."""
    from rummykit.catalog.bots import _forget_bots

    if _VARIANTS.pop(name, None) is not None:
        _forget_bots(name)


def _find_owner(name: str) -> Variant | None:
    _load_builtin_games()
    for variant in _VARIANTS.values():
        if name == variant.name or name in variant.preset_names:
            return variant
    return None


def variant_names(*, presets: bool = True, available_only: bool = False) -> list[str]:
    """Registered variant names (and preset names), in registration order."""
    _load_builtin_games()
    names: list[str] = []
    for variant in _VARIANTS.values():
        if available_only and variant.missing():
            continue
        names.append(variant.name)
        if presets:
            names.extend(variant.preset_names)
    return names


def find_variant(name: str) -> tuple[Variant, str | None]:
    """(variant, preset name or ``None``) for a variant or preset name.

    Raises:
        UnknownVariantError: no such name, or the variant's engine is not installed.
    """
    key = name.strip().lower()
    variant = _find_owner(key)
    if variant is None:
        raise UnknownVariantError(
            f"unknown variant {name!r}; available: {', '.join(variant_names())}"
        )
    missing = variant.missing()
    if missing:
        raise UnknownVariantError(
            f"variant {variant.name!r} needs {', '.join(missing)}, which cannot be imported yet"
        )
    return variant, (key if key != variant.name else None)


def get_variant(name: str) -> Variant:
    """The game of a name (a preset's name gives its game)."""
    return find_variant(name)[0]


def variants() -> list[Variant]:
    """Every registered game, in registration order."""
    _load_builtin_games()
    return list(_VARIANTS.values())


BUILTIN_GAMES: tuple[str, ...] = (
    "rummykit.games.gin.variant",
    "rummykit.games.rami.variant",
    "rummykit.games.carousel.variant",
)
"""Modules that register the games rummykit ships, imported on the first look-up (so
importing the catalog costs nothing and a game never imports the platform)."""

ENTRY_POINT_GROUP = "rummykit.games"
"""Installed packages register more games under this entry-point group, each entry
naming a module that registers its game when imported (as the built-in ones do)."""

_LOADING = threading.RLock()
_STARTED: list[bool] = []
"""Set while (and after) the games load: a look-up made by a game's own registration
(the same thread, inside the load) must not load them again."""
_DONE: list[bool] = []
"""Set once every game has loaded: other threads wait for it, never see half a catalog."""


def _load_builtin_games() -> None:
    if _DONE:
        return
    with _LOADING:
        if _STARTED:
            return
        _STARTED.append(True)
        for module in BUILTIN_GAMES:
            importlib.import_module(module)
        for entry in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
            entry.load()
        _DONE.append(True)
