"""How a catalog game plugs into the research interfaces, and the games that do.

A game's :class:`GameEncoding` bundles what differs per game: its table (the action
ids, the game's macro-actions and rewards: an :class:`~rummykit.rl.table.EpisodeTable`
subclass), its observation planes (layout, encoder, bounds) and its text for
``render``. Registered once with :func:`register_encoding`, it is served by every
wrapper: PettingZoo (``<game>_v0``), Gymnasium (``rummykit/<Game>-v0``, when
:attr:`GameEncoding.gymnasium`) and OpenSpiel (``python_rummykit_<game>``, when
:attr:`GameEncoding.openspiel` lists the table options it takes as parameters). Names
are the catalog's (:func:`rummykit.catalog.get_variant`).

The encodings rummykit ships register themselves from their observation modules
(:data:`BUILTIN_ENCODINGS`) on the first look-up.

>>> encoding = get_encoding("gin")
>>> encoding.pettingzoo_name, encoding.gymnasium_id, encoding.openspiel_name
('gin_v0', 'rummykit/Gin-v0', 'python_rummykit_gin')
>>> get_encoding("rami40").game, encoding.layout.size
('rami', 480)
>>> new_table("rami40", players=3).rules.opening_threshold
40
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rummykit.catalog import find_variant, get_variant
from rummykit.errors import UnknownVariantError
from rummykit.rl.observation import ObservationLayout
from rummykit.rl.table import EpisodeTable

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "BUILTIN_ENCODINGS",
    "GameEncoding",
    "encodings",
    "get_encoding",
    "new_table",
    "register_encoding",
]

AnyTable = EpisodeTable[Any, Any, Any, Any, Any, Any]


@dataclass(frozen=True)
class GameEncoding:
    """What the wrappers need of one game (see the module docstring)."""

    table: type[AnyTable]
    """The table class; its keyword options are the environments' options."""
    layout: ObservationLayout
    encode: Callable[[Any, int], npt.NDArray[np.float32]]
    """The observation array of a seat at a table."""
    high: Callable[[], npt.NDArray[np.float32]]
    """Upper bounds of the observation values."""
    describe: Callable[[Any, int], str]
    """What a seat sees, as text (``render``)."""
    low: Callable[[], npt.NDArray[np.float32]] | None = None
    """Lower bounds (zeros when ``None``)."""
    gymnasium: bool = True
    """Whether ``rummykit/<Game>-v0`` (one seat against bots) is registered."""
    openspiel: Mapping[str, Any] | None = None
    """The table options OpenSpiel takes as game parameters, with their defaults (besides
    every rule option, ``dealer``, ``seed`` and, for a range of seats, ``players``);
    ``None``: no OpenSpiel game."""
    max_game_length: int = 1000
    """OpenSpiel's bound on the decisions of one deal."""

    @property
    def game(self) -> str:
        """The catalog name of the game."""
        return self.table.game_name

    @property
    def pettingzoo_name(self) -> str:
        return f"{self.game}_v0"

    @property
    def gymnasium_id(self) -> str:
        return f"rummykit/{self.game.capitalize()}-v0"

    @property
    def openspiel_name(self) -> str:
        return f"python_rummykit_{self.game}"

    def observation_low(self) -> npt.NDArray[np.float32]:
        """Lower bounds of the observation values."""
        return self.layout.bounds(0.0) if self.low is None else self.low()


BUILTIN_ENCODINGS: tuple[str, ...] = (
    "rummykit.rl.gin_observation",
    "rummykit.rl.rami_observation",
    "rummykit.rl.carousel_observation",
)
"""Modules that register the encodings rummykit ships, imported on the first look-up."""

_ENCODINGS: dict[str, GameEncoding] = {}
_LOADED: list[bool] = []


def register_encoding(encoding: GameEncoding) -> GameEncoding:
    """Serve ``encoding`` under its game's catalog name; returns it."""
    get_variant(encoding.game)  # the game must be in the catalog
    _ENCODINGS[encoding.game] = encoding
    return encoding


def _load_builtin() -> None:
    if not _LOADED:
        _LOADED.append(True)
        for module in BUILTIN_ENCODINGS:
            importlib.import_module(module)


def get_encoding(game: str) -> GameEncoding:
    """The encoding of a game (a preset's name gives its game's)."""
    _load_builtin()
    name = get_variant(game).name
    if name not in _ENCODINGS:
        raise UnknownVariantError(
            f"{name} has no research interface yet; available: {', '.join(_ENCODINGS)}"
        )
    return _ENCODINGS[name]


def encodings() -> list[GameEncoding]:
    """Every registered encoding, in registration order."""
    _load_builtin()
    return list(_ENCODINGS.values())


def new_table(game: str, **options: Any) -> AnyTable:
    """A table of a game with the given options; a preset's name (``rami40``) gives
    its game with the preset's rules unless ``rules`` says otherwise."""
    variant, preset = find_variant(game)
    if preset is not None and options.get("rules") is None:
        options["rules"] = preset
    return get_encoding(variant.name).table(**options)
