"""Variants and bots by name, and one driver that plays any variant's game between bots.

A **variant driver** (:class:`VariantDriver`) knows how to start a whole game of its
variant (a Gin match to 100, a Carousel game to 150, ...) from (rules, players, seed,
first dealer) and how to read the final outcome. :meth:`VariantDriver.play` runs the
game: it asks the bot of the seat to act for an action (observation and legal actions
in), checks it, applies it, and returns a :class:`GameOutcome` per seat: the win share
(1 for a sole winner, ``1/k`` for each of ``k`` co-winners, 0 otherwise) and the final
points.

A **bot factory** builds a bot for one seat of one game; it is called with keyword
arguments only, ``factory(seed=..., rules=..., players=...)``. Bots are registered per
variant by name with :func:`register_bot`; ``random`` and ``heuristic`` are built in,
and stronger levels are added the same way (an illustrative factory path)::

    register_bot("gin", "expert", "rummykit.games.gin.expert_bot:make_expert_bot")

A factory given as ``"module:attribute"`` is imported on first use, so registering
costs nothing and cannot create import cycles.

Variants ``gin``, ``carousel`` and ``rami`` (with its presets ``rami40``,
``rami51-house``, ...) are built in. Another variant is a :class:`VariantDriver`
subclass (``new_game`` and ``final``) registered with :func:`register_variant`.

>>> driver = get_variant("gin")
>>> bots = [make_bot("gin", "heuristic", seed=1), make_bot("gin", "random", seed=2)]
>>> outcome = driver.play(bots, rules=driver.default_rules(), seed=7, first_dealer=0)
>>> outcome.shares
(1.0, 0.0)
>>> {"random", "heuristic"} <= set(bot_names("gin"))
True
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
import sys
import types
import typing
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Protocol

from rummykit.bots.base import Bot
from rummykit.errors import BotError, IllegalActionError, UnknownBotError, UnknownVariantError

__all__ = [
    "STRENGTH_ORDER",
    "BotEntry",
    "BotError",
    "BotFactory",
    "CarouselDriver",
    "GameLike",
    "GameOutcome",
    "GinDriver",
    "RamiDriver",
    "UnknownBotError",
    "UnknownVariantError",
    "VariantDriver",
    "available_bots",
    "bot_names",
    "default_lineup",
    "find_variant",
    "get_bot",
    "get_variant",
    "load_plugin",
    "loaded_plugin_files",
    "make_bot",
    "missing_modules",
    "parse_rule_option",
    "register_bot",
    "register_variant",
    "reload_plugin_files",
    "unregister_bot",
    "variant_names",
]

AnyBot = Bot[Any, Any]

STRENGTH_ORDER: tuple[str, ...] = ("expert", "hard", "medium", "easy", "heuristic", "random")
"""Bot names from strongest to weakest; :func:`default_lineup` takes the first two present."""

DEFAULT_MAX_DECISIONS = 2_000_000
"""A game that needs more bot decisions than this is stopped as broken."""


# -- errors ------------------------------------------------------------------------------------


# -- the game and outcome --------------------------------------------------------------------


class GameLike(Protocol):
    """The part of a whole-game object (``GinMatch``, ``CarouselGame``) a driver uses."""

    @property
    def is_over(self) -> bool:
        """True once the game has its final result."""
        ...

    @property
    def current_player(self) -> int:
        """The seat to act."""
        ...

    def observation(self, seat: int) -> Any:
        """Everything ``seat`` may know."""
        ...

    def legal_actions(self) -> Sequence[Any]:
        """The finite legal actions of the seat to act."""
        ...

    def apply(self, action: Any) -> object:
        """Apply an action of the seat to act (raises on an illegal one)."""
        ...


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """How one game ended, per seat.

    >>> GameOutcome.from_winners((1, 2), (10, 40, 40), hands=3, decisions=99).shares
    (0.0, 0.5, 0.5)
    """

    shares: tuple[float, ...]
    """Win share per seat: 1 for a sole winner, ``1/k`` for each of ``k`` co-winners."""
    points: tuple[int, ...]
    """Final points per seat (the game's totals, bonuses included)."""
    winners: tuple[int, ...]
    hands: int
    """Hands dealt in the game."""
    decisions: int
    """Bot decisions (actions applied)."""

    @classmethod
    def from_winners(
        cls, winners: Iterable[int], points: Iterable[int], *, hands: int, decisions: int
    ) -> GameOutcome:
        """The outcome with shares split evenly between the ``winners``."""
        won = tuple(sorted(set(winners)))
        totals = tuple(int(p) for p in points)
        share = 1.0 / len(won) if won else 0.0
        shares = tuple(share if seat in won else 0.0 for seat in range(len(totals)))
        return cls(shares, totals, won, hands, decisions)


# -- drivers -------------------------------------------------------------------------------------


class VariantDriver:
    """How to play one variant's whole game between bots.

    Subclasses set the class attributes and implement :meth:`new_game` and
    :meth:`final`; everything else is shared. A driver must be picklable (a plain
    module-level class is), because tournaments send it to worker processes.
    """

    name: ClassVar[str]
    description: ClassVar[str] = ""
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    default_players: ClassVar[int] = 2
    open_action_kinds: ClassVar[frozenset[str]] = frozenset()
    """Action kinds the engine validates itself (melds, layoffs) that need not appear in
    ``legal_actions()``."""
    preset_names: ClassVar[tuple[str, ...]] = ()
    """Named rule presets, usable wherever a variant name is (``rami40``)."""
    requires: ClassVar[tuple[str, ...]] = ()
    """Modules that must be importable for the variant to run."""
    points_label: ClassVar[str] = "points"
    """What the final points are (``penalty`` where lower is better)."""
    modules: ClassVar[tuple[str, ...]] = ()
    """The engine and built-in bot modules: worker processes import them up front."""

    # -- rules -----------------------------------------------------------------------

    @property
    def rules_type(self) -> type[Any]:
        """The variant's frozen rules dataclass."""
        raise NotImplementedError

    def default_rules(self) -> Any:
        """The reference rules."""
        return self.rules_type()

    def preset(self, name: str) -> Any:
        """The rules of a named preset (the variant's own name gives the defaults)."""
        if name == self.name:
            return self.default_rules()
        raise UnknownVariantError(f"{self.name} has no preset {name!r}")

    def make_rules(
        self,
        rules: Any = None,
        *,
        preset: str | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> Any:
        """Rules from a rules object, a mapping of options or ``None`` (the defaults, or
        the ``preset``), with ``options`` applied on top. Unknown option names are an
        error naming the known ones; values are checked by the rules class itself."""
        options = dict(options or {})
        if isinstance(rules, self.rules_type):
            base = rules
        elif rules is None or isinstance(rules, Mapping):
            base = self.preset(preset) if preset is not None else self.default_rules()
            options = {**(rules or {}), **options}
        else:
            raise TypeError(
                f"{self.name} rules must be a {self.rules_type.__name__}, a mapping of "
                f"options or None, not {type(rules).__name__}"
            )
        if not options:
            return base
        known = {f.name for f in dataclasses.fields(base)}
        unknown = sorted(set(options) - known)
        if unknown:
            raise ValueError(
                f"unknown {self.name} option(s) {', '.join(unknown)}; "
                f"known: {', '.join(sorted(known))}"
            )
        return dataclasses.replace(base, **options)

    def rules_to_dict(self, rules: Any) -> dict[str, Any]:
        """JSON-ready options."""
        return dataclasses.asdict(rules)

    # -- players -------------------------------------------------------------------------

    def check_players(self, players: int) -> None:
        """Raise ``ValueError`` unless the variant seats ``players`` players."""
        if isinstance(players, bool) or not isinstance(players, int):
            raise ValueError(f"players must be a whole number, not {players!r}")
        if not self.min_players <= players <= self.max_players:
            seats = (
                str(self.min_players)
                if self.min_players == self.max_players
                else f"{self.min_players}-{self.max_players}"
            )
            raise ValueError(f"{self.name} is for {seats} players, not {players}")

    def missing(self) -> tuple[str, ...]:
        """Required modules that cannot be imported (empty when the variant can run)."""
        return missing_modules(self.requires)

    # -- the game ------------------------------------------------------------------------

    def new_game(self, rules: Any, *, players: int, seed: int, first_dealer: int) -> GameLike:
        """A new whole game, dealt from ``seed`` with ``first_dealer`` dealing first."""
        raise NotImplementedError

    def final(self, game: Any) -> tuple[Sequence[int], Sequence[int]]:
        """(winning seats, final points per seat) of a finished game."""
        raise NotImplementedError

    def hands_played(self, game: Any) -> int:
        """Hands dealt in the game."""
        return int(getattr(game, "hand_number", 1))

    def play(
        self,
        bots: Sequence[AnyBot],
        *,
        rules: Any,
        seed: int,
        first_dealer: int,
        max_decisions: int = DEFAULT_MAX_DECISIONS,
    ) -> GameOutcome:
        """Play one whole game, ``bots[seat]`` at each seat, and return its outcome.

        Raises:
            BotError: a bot chose an action that is neither legal nor an open-ended
                action the engine accepts, or the game needed more than
                ``max_decisions`` decisions.
        """
        self.check_players(len(bots))
        game = self.new_game(rules, players=len(bots), seed=seed, first_dealer=first_dealer)
        open_kinds = self.open_action_kinds
        decisions = 0
        while not game.is_over:
            seat = game.current_player
            legal = game.legal_actions()
            bot = bots[seat]
            action = bot.act(game.observation(seat), legal)
            if action not in legal and getattr(action, "kind", None) not in open_kinds:
                raise BotError(
                    f"bot {bot.name!r} at seat {seat} chose {action}, which is not one of "
                    f"the legal actions ({', '.join(map(str, legal)) or 'none'})",
                    bot.name,
                    seat,
                )
            try:
                game.apply(action)
            except IllegalActionError as error:
                raise BotError(
                    f"bot {bot.name!r} at seat {seat} chose an illegal {action}: {error}",
                    bot.name,
                    seat,
                ) from error
            decisions += 1
            if decisions > max_decisions:
                raise BotError(f"the game did not end within {max_decisions} decisions")
        winners, points = self.final(game)
        return GameOutcome.from_winners(
            winners, points, hands=self.hands_played(game), decisions=decisions
        )

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self)

    def __hash__(self) -> int:
        return hash(type(self))


class GinDriver(VariantDriver):
    """Gin Rummy: a match to the target (``GinMatch``); equal totals share the win."""

    name = "gin"
    description = "Gin Rummy, a match to 100 (rules/gin.md)"
    modules = ("rummykit.games.gin.match", "rummykit.bots")
    open_action_kinds = frozenset({"lay_off"})

    @property
    def rules_type(self) -> type[Any]:
        """:class:`~rummykit.games.gin.hand.GinRules`."""
        from rummykit.games.gin import GinRules

        return GinRules

    def new_game(self, rules: Any, *, players: int, seed: int, first_dealer: int) -> GameLike:
        """A :class:`~rummykit.games.gin.match.GinMatch`."""
        from rummykit.games.gin import GinMatch

        self.check_players(players)
        return GinMatch(rules, seed, first_dealer=first_dealer)

    def final(self, game: Any) -> tuple[Sequence[int], Sequence[int]]:
        """The seats with the highest total (both on a tie) and the totals."""
        totals: tuple[int, ...] = game.result.totals
        best = max(totals)
        return [seat for seat, total in enumerate(totals) if total == best], totals


class CarouselDriver(VariantDriver):
    """Carousel: a game to 150 (``CarouselGame``) for 2-5 players."""

    name = "carousel"
    description = "Carousel, manipulation rummy with knocking, a game to 150 (rules/carousel.md)"
    min_players = 2
    max_players = 5
    default_players = 3
    open_action_kinds = frozenset({"meld"})
    modules = (
        "rummykit.games.carousel.game",
        "rummykit.games.carousel.simple_bots",
        "rummykit.games.carousel.arrange",
    )

    @property
    def rules_type(self) -> type[Any]:
        """:class:`~rummykit.games.carousel.hand.CarouselRules`."""
        from rummykit.games.carousel import CarouselRules

        return CarouselRules

    def new_game(self, rules: Any, *, players: int, seed: int, first_dealer: int) -> GameLike:
        """A :class:`~rummykit.games.carousel.game.CarouselGame`."""
        from rummykit.games.carousel import CarouselGame

        self.check_players(players)
        return CarouselGame(rules, players=players, seed=seed, first_dealer=first_dealer)

    def final(self, game: Any) -> tuple[Sequence[int], Sequence[int]]:
        """The game's winners (equal totals share) and totals."""
        return game.result.winners, game.result.totals


class RamiDriver(VariantDriver):
    """Rami 51 / Rami 40 (rules/rami.md): rounds until the penalty limit (``RamiGame``).

    The presets of ``rummykit.games.rami.round.PRESETS`` are variant names too
    (``rami40``, ``rami51-house``, ...). Points are the final penalty totals: lower is
    better.
    """

    name = "rami"
    description = "Rami 51 / Rami 40, French rummy, rounds to the penalty limit (rules/rami.md)"
    min_players = 2
    max_players = 6
    default_players = 4
    points_label = "penalty"
    open_action_kinds = frozenset({"open", "meld", "layoff", "swap_joker", "take_discard"})
    preset_names = ("rami51", "rami40", "rami51-house", "rami40-house")
    requires = ("rummykit.games.rami.round", "rummykit.games.rami.game")
    modules = ("rummykit.games.rami.game", "rummykit.games.rami.heuristic_bot")

    @property
    def rules_type(self) -> type[Any]:
        """:class:`~rummykit.games.rami.round.RamiRules`."""
        from rummykit.games.rami import RamiRules

        return RamiRules

    def preset(self, name: str) -> Any:
        """A preset of ``rummykit.games.rami.round.PRESETS`` (``rami``: Rami 51)."""
        from rummykit.games.rami import PRESETS

        if name == self.name:
            return self.default_rules()
        if name not in PRESETS:
            raise UnknownVariantError(f"rami has no preset {name!r}; choose one of {list(PRESETS)}")
        return PRESETS[name]

    def new_game(self, rules: Any, *, players: int, seed: int, first_dealer: int) -> GameLike:
        """A :class:`~rummykit.games.rami.game.RamiGame`."""
        from rummykit.games.rami import RamiGame

        self.check_players(players)
        return RamiGame(rules, players=players, seed=seed, first_dealer=first_dealer)

    def final(self, game: Any) -> tuple[Sequence[int], Sequence[int]]:
        """The game's winners (lowest penalty) and penalty totals."""
        return game.result.winners, game.result.totals

    def hands_played(self, game: Any) -> int:
        """Rounds dealt."""
        return int(game.round_number)


# -- the variant registry ------------------------------------------------------------------------

_VARIANTS: dict[str, VariantDriver] = {}


def register_variant(driver: VariantDriver, *, replace: bool = False) -> VariantDriver:
    """Make ``driver`` (and its presets) available by name; returns it."""
    names = (driver.name, *driver.preset_names)
    for name in names:
        owner = _find_owner(name)
        if owner is not None and owner.name != driver.name:
            raise ValueError(f"{name!r} is already a name of variant {owner.name!r}")
    if driver.name in _VARIANTS and not replace and _VARIANTS[driver.name] != driver:
        raise ValueError(f"variant {driver.name!r} is already registered (pass replace=True)")
    _VARIANTS[driver.name] = driver
    return driver


def _find_owner(name: str) -> VariantDriver | None:
    for driver in _VARIANTS.values():
        if name == driver.name or name in driver.preset_names:
            return driver
    return None


def variant_names(*, presets: bool = True, available_only: bool = False) -> list[str]:
    """Registered variant names (and preset names), in registration order."""
    names: list[str] = []
    for driver in _VARIANTS.values():
        if available_only and driver.missing():
            continue
        names.append(driver.name)
        if presets:
            names.extend(driver.preset_names)
    return names


def find_variant(name: str) -> tuple[VariantDriver, str | None]:
    """(driver, preset name or ``None``) for a variant or preset name.

    Raises:
        UnknownVariantError: no such name, or the variant's engine is not installed.
    """
    key = name.strip().lower()
    driver = _find_owner(key)
    if driver is None:
        raise UnknownVariantError(
            f"unknown variant {name!r}; available: {', '.join(variant_names())}"
        )
    missing = driver.missing()
    if missing:
        raise UnknownVariantError(
            f"variant {driver.name!r} needs {', '.join(missing)}, which cannot be imported yet"
        )
    return driver, (key if key != driver.name else None)


def get_variant(name: str) -> VariantDriver:
    """The driver of a variant (or of a preset's variant)."""
    return find_variant(name)[0]


# -- bots ----------------------------------------------------------------------------------------


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
        raise ValueError(f"a bot name must be a non-empty word without , : = or spaces: {name!r}")


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
    driver = _find_owner(variant)
    if driver is None or driver.name != variant:
        raise UnknownVariantError(
            f"unknown variant {variant!r}; available: {', '.join(variant_names(presets=False))}"
        )
    _check_bot_name(name)
    if isinstance(factory, str) and ":" not in factory:
        raise ValueError(f"a factory string must read 'module:attribute', not {factory!r}")
    entry = BotEntry(variant, name, factory, description, tuple(requires))
    old = _BOTS.get((variant, name))
    if old is not None and not replace and not _same_factory(old.factory, factory):
        raise ValueError(
            f"a {variant} bot named {name!r} is already registered (pass replace=True)"
        )
    _BOTS[(variant, name)] = entry
    return entry


def unregister_bot(variant: str, name: str) -> None:
    """Remove a registered bot (tests, notebooks); unknown names are ignored."""
    _BOTS.pop((get_variant(variant).name, name), None)


def bot_names(variant: str) -> list[str]:
    """Every bot name registered for ``variant`` (available or not), in order."""
    driver = get_variant(variant)
    return [name for (v, name) in _BOTS if v == driver.name]


def available_bots(variant: str) -> list[str]:
    """Bot names for ``variant`` whose required modules can be imported."""
    driver = get_variant(variant)
    return [
        entry.name
        for entry in _BOTS.values()
        if entry.variant == driver.name and not entry.missing()
    ]


def get_bot(variant: str, name: str) -> BotEntry:
    """The registered entry of a bot.

    Raises:
        UnknownBotError: no such bot, or it cannot run yet (a required module is missing).
    """
    driver = get_variant(variant)
    entry = _BOTS.get((driver.name, name.strip()))
    if entry is None:
        raise UnknownBotError(
            f"unknown {driver.name} bot {name!r}; available: "
            f"{', '.join(available_bots(driver.name)) or 'none'}"
        )
    missing = entry.missing()
    if missing:
        raise UnknownBotError(
            f"{driver.name} bot {name!r} needs {', '.join(missing)}, which cannot be imported yet"
        )
    return entry


def make_bot(
    variant: str, name: str, *, seed: int, rules: Any = None, players: int | None = None
) -> AnyBot:
    """A bot by variant and name (``rules`` default to the variant's reference rules)."""
    driver = get_variant(variant)
    entry = get_bot(variant, name)
    return entry.create(
        seed=seed,
        rules=driver.default_rules() if rules is None else rules,
        players=driver.default_players if players is None else players,
    )


def default_lineup(variant: str) -> list[str]:
    """The two strongest available bots by :data:`STRENGTH_ORDER` (then registration order)."""
    names = available_bots(variant)
    ranked = sorted(
        names,
        key=lambda n: STRENGTH_ORDER.index(n) if n in STRENGTH_ORDER else len(STRENGTH_ORDER),
    )
    return ranked[:2]


def missing_modules(modules: Iterable[str]) -> tuple[str, ...]:
    """The modules among ``modules`` that cannot be imported (checked without importing).

    >>> missing_modules(["rummykit.cards", "rummykit.no_such_module"])
    ('rummykit.no_such_module',)
    """
    missing = []
    for module in modules:
        try:
            found = importlib.util.find_spec(module) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            missing.append(module)
    return tuple(missing)


# -- rule options from text ----------------------------------------------------------------------


def parse_rule_option(rules_type: type[Any], text: str) -> tuple[str, Any]:
    """``NAME=VALUE`` text as a typed option of ``rules_type`` (a rules dataclass).

    Booleans take true/false/yes/no/1/0, whole numbers are parsed, ``none``/``null``
    clear an optional number; anything else stays text (the rules class checks it).

    >>> from rummykit.games.carousel import CarouselRules
    >>> parse_rule_option(CarouselRules, "decks=2"), parse_rule_option(CarouselRules, "decks=none")
    (('decks', 2), ('decks', None))
    >>> parse_rule_option(CarouselRules, "meld-after-last-draw=yes")
    ('meld_after_last_draw', True)
    """
    name, sep, raw = text.partition("=")
    name = name.strip().replace("-", "_")
    hints = typing.get_type_hints(rules_type)
    fields = {f.name for f in dataclasses.fields(rules_type)}
    if not sep or name not in fields:
        raise ValueError(
            f"an option reads NAME=VALUE with NAME one of: {', '.join(sorted(fields))}"
        )
    raw = raw.strip()
    hint = hints[name]
    args = typing.get_args(hint)
    optional = type(None) in args
    if optional and raw.lower() in ("none", "null", ""):
        return name, None
    kinds = {hint} if not args else set(args)
    if bool in kinds:
        lowered = raw.lower()
        if lowered not in ("true", "false", "yes", "no", "1", "0", "on", "off"):
            raise ValueError(f"{name} takes true or false, not {raw!r}")
        return name, lowered in ("true", "yes", "1", "on")
    if int in kinds:
        try:
            return name, int(raw)
        except ValueError:
            raise ValueError(f"{name} takes a whole number, not {raw!r}") from None
    return name, raw


# -- plugins -------------------------------------------------------------------------------------

_PLUGIN_FILES: dict[str, str] = {}
"""Module name -> file path of plugins loaded from ``.py`` files (workers reload them)."""


def load_plugin(target: str) -> types.ModuleType:
    """Import a module that registers bots: a dotted module name or a ``.py`` file path.

    A file is imported once under the name ``rummykit_plugin_<stem>``; loading the same
    file again returns the same module.
    """
    if not (target.endswith(".py") or "/" in target or "\\" in target):
        return importlib.import_module(target)
    path = Path(target).expanduser().resolve()
    if not path.is_file():
        raise FileNotFoundError(f"no bot plugin file {target!r}")
    for name, known in _PLUGIN_FILES.items():
        if known == str(path) and name in sys.modules:
            return sys.modules[name]
    name = f"rummykit_plugin_{path.stem}"
    if name in sys.modules and _PLUGIN_FILES.get(name) not in (None, str(path)):
        name = f"{name}_{len(_PLUGIN_FILES)}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {target!r} as a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    _PLUGIN_FILES[name] = str(path)
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        del _PLUGIN_FILES[name]
        raise
    return module


def loaded_plugin_files() -> dict[str, str]:
    """Plugins loaded from files: module name -> path."""
    return dict(_PLUGIN_FILES)


def reload_plugin_files(files: Mapping[str, str]) -> None:
    """Load plugin files under the given module names (in a fresh worker process)."""
    for name, path in files.items():
        if name in sys.modules:
            continue
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or spec.loader is None:
            raise ImportError(f"cannot import bot plugin {path!r}")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        _PLUGIN_FILES[name] = path
        spec.loader.exec_module(module)


# -- built-ins -----------------------------------------------------------------------------------


def _gin_random(*, seed: int, rules: Any, players: int) -> AnyBot:
    from rummykit.bots.random_bot import RandomBot

    return RandomBot(seed)


def _gin_heuristic(*, seed: int, rules: Any, players: int) -> AnyBot:
    from rummykit.games.gin.heuristic_bot import GinHeuristicBot

    return GinHeuristicBot(rules)


def _carousel_random(*, seed: int, rules: Any, players: int) -> AnyBot:
    from rummykit.games.carousel.simple_bots import CarouselRandomBot

    return CarouselRandomBot(seed, rules=rules)


def _carousel_heuristic(*, seed: int, rules: Any, players: int) -> AnyBot:
    from rummykit.games.carousel.simple_bots import CarouselHeuristicBot

    return CarouselHeuristicBot(rules, decks=rules.decks_for(players))


def _rami_random(*, seed: int, rules: Any, players: int) -> AnyBot:
    from rummykit.games.rami.heuristic_bot import RamiRandomBot

    return RamiRandomBot(seed)


def _rami_heuristic(*, seed: int, rules: Any, players: int) -> AnyBot:
    from rummykit.games.rami.heuristic_bot import RamiHeuristicBot

    return RamiHeuristicBot(rules)


def _rami_expert_level(level: str, seed: int, rules: Any, players: int) -> AnyBot:
    from rummykit.games.rami.expert_bot import RamiExpertBot

    return RamiExpertBot(seed=seed, rules=rules, players=players, level=level)  # type: ignore[arg-type]


def _rami_easy(*, seed: int, rules: Any, players: int) -> AnyBot:
    return _rami_expert_level("easy", seed, rules, players)


def _rami_medium(*, seed: int, rules: Any, players: int) -> AnyBot:
    return _rami_expert_level("medium", seed, rules, players)


def _rami_hard(*, seed: int, rules: Any, players: int) -> AnyBot:
    return _rami_expert_level("hard", seed, rules, players)


def _rami_expert(*, seed: int, rules: Any, players: int) -> AnyBot:
    return _rami_expert_level("expert", seed, rules, players)


_ARRANGE = ("rummykit.games.carousel.arrange",)
"""The Carousel engine checks every meld with this solver."""

register_variant(GinDriver())
register_variant(CarouselDriver())
register_variant(RamiDriver())
register_bot("gin", "random", _gin_random, description="uniformly random legal actions")
register_bot(
    "gin", "heuristic", _gin_heuristic, description="greedy deadwood play (GinHeuristicBot)"
)
_GIN_EXPERT = "rummykit.games.gin.expert_bot"
register_bot(
    "gin",
    "expert",
    f"{_GIN_EXPERT}:make_expert_bot",
    description="opponent card model, discard safety, live outs, knock judgement",
)
register_bot(
    "gin",
    "hard",
    f"{_GIN_EXPERT}:make_hard_bot",
    description="deadwood and live outs with discard safety; knocks at once",
)
register_bot(
    "gin", "medium", f"{_GIN_EXPERT}:make_medium_bot", description="deadwood and live outs"
)
register_bot(
    "gin", "easy", f"{_GIN_EXPERT}:make_easy_bot", description="heuristic play with random slips"
)
register_bot(
    "carousel",
    "random",
    _carousel_random,
    description="draws; places one random simple meld when it can",
    requires=_ARRANGE,
)
register_bot(
    "carousel",
    "heuristic",
    _carousel_heuristic,
    description="places the most value via the solver; knocks when low",
    requires=_ARRANGE,
)
_CAROUSEL_LEVELS = {
    "easy": "medium, but half its meld decisions see only simple melds (CarouselExpertBot)",
    "medium": "solver placements, knocks whenever it may (CarouselExpertBot)",
    "hard": "solver placements, knocks by an undercut model (CarouselExpertBot)",
    "expert": "hard plus a look-ahead on when to stop drawing (CarouselExpertBot)",
}
for _level, _description in _CAROUSEL_LEVELS.items():
    register_bot(
        "carousel",
        _level,
        f"rummykit.games.carousel.expert_bot:make_{_level}",
        description=_description,
        requires=_ARRANGE,
    )
_RAMI_BOTS = ("rummykit.games.rami.heuristic_bot",)
register_bot(
    "rami",
    "random",
    _rami_random,
    description="random among legal moves and the solvers' plays",
    requires=_RAMI_BOTS,
)
register_bot(
    "rami",
    "heuristic",
    _rami_heuristic,
    description="opens early, lays all it can, keeps jokers (RamiHeuristicBot)",
    requires=_RAMI_BOTS,
)
_RAMI_LEVELS: dict[str, tuple[Any, str]] = {
    "easy": (_rami_easy, "the heuristic's moves with a random discard one time in four"),
    "medium": (_rami_medium, "opening look-ahead on the heuristic's three best discards"),
    "hard": (_rami_hard, "opening look-ahead on every discard and draw, danger-aware"),
    "expert": (_rami_expert, "hard, and holds an opening back for a rami sec when it pays"),
}
for _level, (_factory, _text) in _RAMI_LEVELS.items():
    register_bot(
        "rami",
        _level,
        _factory,
        description=f"{_text} (RamiExpertBot)",
        requires=("rummykit.games.rami.expert_bot",),
    )
