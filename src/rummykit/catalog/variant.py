"""A game's entry in the catalog (:class:`Variant`) and how a whole game between bots
ends (:class:`GameOutcome`)."""

from __future__ import annotations

import importlib.util
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from rummykit.bots.base import Bot
from rummykit.errors import (
    BotError,
    IllegalActionError,
    InvalidOptionError,
    UnknownBotError,
    UnknownVariantError,
)
from rummykit.options import Option, option_of, options_of, replace_options
from rummykit.table_game import JSON, TableGame

__all__ = [
    "DEFAULT_BOT_LEVEL",
    "DEFAULT_MAX_DECISIONS",
    "STRENGTH_ORDER",
    "GameOutcome",
    "Variant",
    "missing_modules",
]

AnyBot = Bot[Any, Any]

STRENGTH_ORDER: tuple[str, ...] = ("expert", "hard", "medium", "easy", "heuristic", "random")
"""Bot names from strongest to weakest; :func:`default_lineup` takes the first two present."""

DEFAULT_BOT_LEVEL = "heuristic"
"""The level of a table's bot seat created without one, and of a stand-in: fast, decent."""

DEFAULT_MAX_DECISIONS = 2_000_000
"""A game that needs more bot decisions than this is stopped as broken."""


# -- the game and outcome ----------------------------------------------------------------


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


# -- variants ------------------------------------------------------------------------


class Variant:
    """One game in the catalog: everything the platform needs to host it.

    A game's package subclasses this once (``rummykit.games.gin.variant``), setting the
    class attributes: its name and seats, :attr:`rules_type`, :attr:`action_type`,
    :attr:`game_type` (its :class:`~rummykit.match.Match`), :attr:`table_game_type`,
    :attr:`screen_type`, and :meth:`presets` when it has several. Everything else (rules
    from presets and options, new games and replays, playing a whole game between bots,
    hosting a table, the terminal) is written here once. A variant must be picklable (a
    plain module-level class is), because tournaments send it to worker processes.
    """

    name: ClassVar[str]
    description: ClassVar[str] = ""
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    default_players: ClassVar[int] = 2
    open_action_kinds: ClassVar[frozenset[str]] = frozenset()
    """Action kinds the engine validates itself (melds, layoffs) that need not appear in
    ``legal_actions()``."""
    title: ClassVar[str] = ""
    """The name people read (``Gin Rummy``)."""
    requires: ClassVar[tuple[str, ...]] = ()
    """Modules that must be importable for the variant to run."""
    points_label: ClassVar[str] = "points"
    """What the final points are (``penalty`` where lower is better)."""
    modules: ClassVar[tuple[str, ...]] = ()
    """The engine and built-in bot modules: worker processes import them up front."""

    rules_type: ClassVar[type[Any]]
    """The game's frozen rules dataclass (its options declared with
    :func:`rummykit.options.option`; ``from_dict`` and ``to_dict``)."""
    action_type: ClassVar[type[Any]]
    """The game's action class (``from_json``, ``to_json``, ``kind``)."""
    game_type: ClassVar[type[Any]]
    """The whole game: a :class:`~rummykit.match.Match` taking ``(rules, *, players=,
    seed=, first_dealer=)`` with ``from_record``."""
    table_game_type: ClassVar[type[Any]]
    """The game at a table (:class:`~rummykit.table_game.TableGame`), built on a game."""
    screen_type: ClassVar[type[Any] | None] = None
    """The terminal screen the one turn loop drives, built as
    ``screen_type(game, card_text=..., **screen_options(name))``."""
    screen_translated: ClassVar[bool] = False
    """Whether the screen takes ``language=`` (its texts are in the gettext catalogs)."""
    refusal_templates: ClassVar[Mapping[str, str | tuple[str, str, str]]] = {}
    """A message per refusal code the game raises (marked for the gettext catalogs), or
    ``(singular, plural, the number that decides)``: :func:`rummykit.refusals.explain`
    says its refusals with them in any language."""

    @property
    def hand_word(self) -> str:
        """What one deal is called in this game (``round`` in Rami): its game type's."""
        word: str = self.game_type.hand_word
        return word

    @property
    def game_word(self) -> str:
        """What a whole game is called in this game (``match`` in Gin): its game type's."""
        word: str = self.game_type.game_word
        return word

    # -- rules -----------------------------------------------------------------------

    def presets(self) -> Mapping[str, Any]:
        """Named rules, the default first (its name is usually the variant's)."""
        return {self.name: self.rules_type()}

    @property
    def preset_names(self) -> tuple[str, ...]:
        """Preset names other than the variant's own, usable wherever a variant name is
        (``rami40``)."""
        return tuple(name for name in self.presets() if name != self.name)

    def default_rules(self) -> Any:
        """The reference rules (the first preset)."""
        return next(iter(self.presets().values()))

    def preset(self, name: str) -> Any:
        """The rules of a named preset (the variant's own name gives the defaults)."""
        if name == self.name:
            return self.default_rules()
        presets = self.presets()
        if name not in presets:
            raise UnknownVariantError(
                f"{self.name} has no preset {name!r}; choose one of {', '.join(presets)}"
            )
        return presets[name]

    def options(self) -> tuple[Option, ...]:
        """The rule options, each with its range or choices (:mod:`rummykit.options`)."""
        return options_of(self.rules_type)

    def parse_option(self, text: str) -> tuple[str, Any]:
        """``NAME=VALUE`` text as a checked option (``-`` may stand for ``_``).

        >>> from rummykit.catalog import get_variant
        >>> get_variant("gin").parse_option("knock-limit=7")
        ('knock_limit', 7)
        """
        name, sep, raw = text.partition("=")
        key = name.strip().replace("-", "_")
        known = sorted(o.name for o in self.options())
        if not sep or key not in known:
            raise InvalidOptionError(
                f"an option reads NAME=VALUE with NAME one of: {', '.join(known)}",
                option=key or None,
            )
        return key, option_of(self.rules_type, key).parse(raw)

    def make_rules(
        self,
        rules: Any = None,
        *,
        preset: str | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> Any:
        """Rules from a rules object, a mapping of options or ``None`` (the defaults, or
        the ``preset``), with ``options`` applied on top. Unknown option names are an
        error naming the known ones; values are checked against their declarations."""
        options = dict(options or {})
        if isinstance(rules, self.rules_type):
            base = rules
        elif rules is None or isinstance(rules, Mapping):
            base = self.preset(preset) if preset is not None else self.default_rules()
            options = {**(rules or {}), **options}
        else:
            raise InvalidOptionError(
                f"{self.name} rules must be a {self.rules_type.__name__}, a mapping of "
                f"options or None, not {type(rules).__name__}"
            )
        if not options:
            return base
        self._check_names(options)
        return replace_options(base, options)

    def _check_names(self, options: Mapping[str, Any]) -> None:
        known = sorted(o.name for o in self.options())
        unknown = sorted(str(name) for name in options if name not in known)
        if unknown:
            raise InvalidOptionError(
                f"unknown {self.name} option(s) {', '.join(unknown)}; known: {', '.join(known)}",
                option=unknown[0],
            )

    def rules_from_json(self, data: Mapping[str, Any]) -> Any:
        """Rules from their JSON form (:meth:`rules_to_dict`)."""
        return self.rules_type.from_dict(data)

    def rules_to_dict(self, rules: Any) -> dict[str, Any]:
        """JSON-ready options."""
        return dict(rules.to_dict())

    # -- players -------------------------------------------------------------------------

    def check_players(self, players: int) -> None:
        """Raise :class:`InvalidOptionError` unless the variant seats ``players``."""
        if isinstance(players, bool) or not isinstance(players, int):
            raise InvalidOptionError(
                f"players must be a whole number, not {players!r}", option="players"
            )
        if not self.min_players <= players <= self.max_players:
            seats = (
                str(self.min_players)
                if self.min_players == self.max_players
                else f"{self.min_players}-{self.max_players}"
            )
            raise InvalidOptionError(
                f"{self.name} is for {seats} players, not {players}", option="players"
            )

    def missing(self) -> tuple[str, ...]:
        """Required modules that cannot be imported (empty when the variant can run)."""
        return missing_modules(self.requires)

    # -- the game ------------------------------------------------------------------------

    def new_game(
        self, rules: Any, *, players: int, seed: int | None, first_dealer: int | None = None
    ) -> Any:
        """A new whole game, dealt from ``seed`` with ``first_dealer`` dealing first
        (``None``: drawn from the seed)."""
        self.check_players(players)
        return self.game_type(rules, players=players, seed=seed, first_dealer=first_dealer)

    def game_from_record(self, record: Mapping[str, Any]) -> Any:
        """A whole game rebuilt from its ``to_record()``."""
        return self.game_type.from_record(record)

    def parse_action(self, data: Mapping[str, Any]) -> Any:
        """An action from its JSON form."""
        return self.action_type.from_json(data)

    def final(self, game: Any) -> tuple[Sequence[int], Sequence[int]]:
        """(winning seats, final points per seat) of a finished game: every game's
        result has ``winners`` and ``totals``."""
        return tuple(game.result.winners), tuple(game.result.totals)

    def hands_played(self, game: Any) -> int:
        """Hands dealt in the game."""
        return int(game.hand_number)

    # -- the terminal ----------------------------------------------------------------------

    def terminal_screen(
        self, game: Any, *, card_text: Any, name: str, language: str | None = None
    ) -> Any:
        """The game's terminal screen (its text views and command words), which the
        terminal's one turn loop drives; ``name`` is the variant or preset played.
        ``language`` reaches screens that are translated (``screen_translated``); the
        others speak English."""
        if self.screen_type is None:
            raise UnknownVariantError(f"{self.name} has no terminal screen")
        options = self.screen_options(name)
        if self.screen_translated:
            options["language"] = language
        return self.screen_type(game, card_text=card_text, **options)

    def screen_options(self, name: str) -> dict[str, Any]:
        """What the game's screen takes besides the game and the card style."""
        return {}

    # -- a table (the server) ------------------------------------------------------------

    def table_game(self, game: Any) -> TableGame:
        """The game behind the JSON interface a table host drives (views per seat)."""
        table: TableGame = self.table_game_type(game)
        return table

    def table_rules(self, preset: str, options: Any) -> JSON:
        """Complete, checked rule options for a table: the preset's, then ``options``
        (as a browser sends them: choices may arrive as strings) over them."""
        presets = self.presets()
        if preset not in presets:
            raise InvalidOptionError(
                f"unknown {self.name} preset {preset!r}; choose one of {', '.join(presets)}",
                option="preset",
            )
        if not isinstance(options, Mapping):
            raise InvalidOptionError("rule options are a JSON object of name: value")
        self._check_names(options)
        changes = {}
        for name, value in options.items():
            found = option_of(self.rules_type, name)
            changes[found.name] = found.from_json(value)
        rules = replace_options(presets[preset], changes) if changes else presets[preset]
        return dict(self.rules_to_dict(rules))

    def preset_options(self) -> dict[str, JSON]:
        """Each preset as the options it changes from the defaults (for a lobby)."""
        defaults = self.rules_to_dict(self.rules_type())
        return {
            name: {k: v for k, v in self.rules_to_dict(rules).items() if defaults.get(k) != v}
            for name, rules in self.presets().items()
        }

    def new_table_game(
        self, rules: Mapping[str, Any], *, seats: int, seed: int | None
    ) -> TableGame:
        """A table's game from its stored options, seats and seed."""
        self.check_players(seats)
        return self.table_game(self.new_game(self.rules_from_json(rules), players=seats, seed=seed))

    def replay_table(
        self,
        rules: Mapping[str, Any],
        *,
        seats: int,
        seed: int | None,
        actions: Iterable[tuple[int, JSON]],
    ) -> TableGame:
        """A table's game rebuilt from its seed and its ordered ``(seat, action)`` log."""
        game = self.new_table_game(rules, seats=seats, seed=seed)
        for seat, action in actions:
            game.apply(seat, action)
        return game

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

    # -- bots ----------------------------------------------------------------------------

    def bot_levels(self) -> tuple[str, ...]:
        """Registered bots that can run, weakest first: the built-in names by
        :data:`STRENGTH_ORDER`, then any other (a plugin's) in registration order. Read
        when asked, so a bot registered later is listed too."""
        from rummykit.catalog.bots import available_bots

        names = available_bots(self.name)
        weakest_first = tuple(reversed(STRENGTH_ORDER))
        known = sorted((n for n in names if n in weakest_first), key=weakest_first.index)
        return (*known, *(n for n in names if n not in weakest_first))

    def default_bot_level(self) -> str:
        """:data:`DEFAULT_BOT_LEVEL` when offered, else the weakest level."""
        levels = self.bot_levels()
        if DEFAULT_BOT_LEVEL in levels:
            return DEFAULT_BOT_LEVEL
        if not levels:
            raise UnknownBotError(f"no bot is registered for {self.name}")
        return levels[0]

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self)

    def __hash__(self) -> int:
        return hash(type(self))


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
