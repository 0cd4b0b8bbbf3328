"""The interface between the table server and a variant's engine.

The server knows nothing of any rule. For each variant an adapter says which seats,
presets, rule options and bot levels exist, builds a game from (rules, seats, seed),
and wraps it in a :class:`Game` that applies JSON actions for a seat, lists the legal
actions, checks an action without playing it, computes the solver's hint and renders
views. Every view derives from the engine's ``observation(seat)`` (the one place that
hides information); a spectator view keeps only what every seat may see. A game is a
pure function of (rules, seats, seed, actions), so the server persists exactly that and
rebuilds a table by :meth:`VariantAdapter.replay`.

The adapters themselves are Gin's in :mod:`rummykit.server.variants` (which registers
them all), :mod:`rummykit.server.rami_adapter` and :mod:`rummykit.server.carousel_adapter`.
"""

from __future__ import annotations

import secrets
import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, Literal, Protocol

from rummykit.core import Event, IllegalActionError, InvalidActionError

__all__ = [
    "DEFAULT_BOT_LEVEL",
    "JSON",
    "Applied",
    "Game",
    "RegisteredBots",
    "RuleOption",
    "VariantAdapter",
    "checked",
    "default_level_of",
    "error_json",
    "make_registered_bot",
    "merge_options",
    "registered_bot_levels",
    "rule_options_of",
]

JSON = dict[str, Any]

DEFAULT_BOT_LEVEL = "heuristic"
"""The level of a bot seat created without one, and of a stand-in: fast and decent."""


@dataclass(frozen=True, slots=True)
class RuleOption:
    """One rule option as the lobby shows it (a number, a yes/no, a choice or a short
    text such as ``flat:100``)."""

    name: str
    kind: Literal["int", "bool", "choice", "text"]
    default: Any
    choices: tuple[str, ...] = ()

    def to_json(self) -> JSON:
        """JSON-ready form for ``GET /api/variants``."""
        data: JSON = {"name": self.name, "kind": self.kind, "default": self.default}
        if self.choices:
            data["choices"] = list(self.choices)
        return data


@dataclass(frozen=True, slots=True)
class Applied:
    """An accepted action: its normalised JSON (what is persisted) and its events."""

    action: JSON
    events: list[Event] = field(default_factory=list)


class Game(Protocol):
    """A running game of one variant, as the server drives it."""

    @property
    def seats(self) -> int:
        """Number of seats."""
        ...

    @property
    def current_seat(self) -> int | None:
        """The seat to act, or ``None`` once the game is over."""
        ...

    @property
    def is_over(self) -> bool:
        """True once the whole game (the match) is finished."""
        ...

    def legal_actions(self) -> list[JSON]:
        """Legal actions of the seat to act, in JSON form (empty when over)."""
        ...

    def apply(self, seat: int, action: Mapping[str, Any]) -> Applied:
        """Apply a JSON action for ``seat``.

        Raises:
            InvalidActionError: malformed action.
            IllegalActionError: well formed but not allowed now (code ``not_your_turn``
                when another seat is to act); the game is unchanged.
        """
        ...

    def view(self, seat: int | None) -> JSON:
        """What ``seat`` may see (``None``: a spectator, public information only)."""
        ...

    def events_for(self, events: Sequence[Event], seat: int | None) -> list[JSON]:
        """The events as ``seat`` may see them, JSON-ready."""
        ...

    def check(self, seat: int, action: Mapping[str, Any]) -> JSON:
        """Whether ``seat`` may play ``action`` now, without playing it.

        Returns ``{"ok": bool, "error": {"code", "message", "rule"} | None}`` plus what
        the variant can say about the action (an opening's total against the threshold,
        the cards a layout lays). Never changes the game.

        Raises:
            InvalidActionError: malformed action.
        """
        ...

    def hint(self, seat: int) -> Callable[[], JSON]:
        """The solver's advice for ``seat``, as a function to run later.

        The function works on a snapshot taken now (the seat's observation), so the
        server may run it in another thread while the table plays on.
        """
        ...

    def bot_action(self, seat: int, bot: Any) -> JSON:
        """The action ``bot`` chooses for ``seat`` from that seat's observation."""
        ...

    def summary(self) -> JSON:
        """Public scores and, when over, the final result."""
        ...

    def reveal(self) -> JSON:
        """The full state, every hand shown (only for finished games' replays)."""
        ...


class VariantAdapter(Protocol):
    """What the server needs to host one variant."""

    name: str
    title: str
    min_seats: int
    max_seats: int
    presets: Mapping[str, Mapping[str, Any]]

    @property
    def bot_levels(self) -> tuple[str, ...]:
        """The bot levels a table may seat, weakest first (read when asked, so a bot
        registered later, by a plugin for instance, is listed too)."""
        ...

    @property
    def default_bot_level(self) -> str:
        """The level of a bot seat created without one (one of :attr:`bot_levels`)."""
        ...

    def rule_options(self) -> list[RuleOption]:
        """The options a table creator may set."""
        ...

    def make_rules(self, preset: str, options: Mapping[str, Any]) -> JSON:
        """Validated, complete rule options: the preset, then ``options`` over it.

        Raises:
            ValueError: unknown preset or option, or a bad value (readable message).
        """
        ...

    def new_game(self, rules: Mapping[str, Any], *, seats: int, seed: int) -> Game:
        """Deal a new game from a seed."""
        ...

    def make_bot(
        self, level: str, rules: Mapping[str, Any], *, seed: int | None, players: int | None = None
    ) -> Any:
        """A bot of ``level`` (one of :attr:`bot_levels`) for a table of ``players`` seats
        (``None``: the variant's usual number).

        Raises:
            ValueError: an unknown level (or one whose modules cannot be imported).
        """
        ...

    def replay(
        self,
        rules: Mapping[str, Any],
        *,
        seats: int,
        seed: int,
        actions: Iterable[tuple[int, JSON]],
    ) -> Game:
        """Rebuild a game from its seed and its ordered ``(seat, action)`` log."""
        ...


class _EngineAction(Protocol):
    """What the engines' actions offer the server: a kind and a JSON form."""

    @property
    def kind(self) -> str: ...

    def to_json(self) -> JSON: ...


class TurnBasedTableGame:
    """The part of :class:`Game` every multi-seat engine game shares: whose turn it is,
    the legal actions as JSON, a seat's action parsed, checked for its turn and applied,
    events as a seat sees them, and a bot's move for its seat.

    Subclasses set :attr:`action_type` (the engine's action class, with ``from_json``)
    and hold the engine's game in :attr:`game` (``players``, ``current_player``,
    ``is_over``, ``legal_actions()``, ``apply(action)``, ``observation(seat)``); views and
    hints stay with each variant.
    """

    action_type: Any
    game: Any

    @property
    def seats(self) -> int:
        return int(self.game.players)

    @property
    def current_seat(self) -> int | None:
        return None if self.game.is_over else int(self.game.current_player)

    @property
    def is_over(self) -> bool:
        return bool(self.game.is_over)

    def legal_actions(self) -> list[JSON]:
        return [action.to_json() for action in self.game.legal_actions()]

    def _parse_for(self, seat: int, action: Mapping[str, Any]) -> Any:
        """Parse ``action`` and make sure ``seat`` is the one to act."""
        if self.game.is_over:
            raise IllegalActionError("the game is over; no more moves", code="game_over")
        parsed: _EngineAction = self.action_type.from_json(action)
        current = self.game.current_player
        if seat != current:
            raise IllegalActionError(
                f"seat {seat} cannot {parsed.kind.replace('_', ' ')}: it is seat {current}'s turn",
                code="not_your_turn",
                seat=seat,
            )
        return parsed

    def apply(self, seat: int, action: Mapping[str, Any]) -> Applied:
        parsed = self._parse_for(seat, action)
        events = self.game.apply(parsed)
        # The action as parsed is persisted: replaying it resolves card copies the same way.
        return Applied(parsed.to_json(), events)

    def events_for(self, events: Sequence[Event], seat: int | None) -> list[JSON]:
        return [event.seen_by(seat).to_json() for event in events]

    def bot_action(self, seat: int, bot: Any) -> JSON:
        if self.game.is_over or seat != self.game.current_player:
            raise IllegalActionError(f"seat {seat} is not to act", code="not_your_turn")
        chosen: _EngineAction = bot.act(self.game.observation(seat), self.game.legal_actions())
        return chosen.to_json()


def registered_bot_levels(variant: str) -> tuple[str, ...]:
    """The bots registered for ``variant`` in :mod:`rummykit.sim.registry` that can run,
    weakest first: the built-in names by :data:`~rummykit.sim.registry.STRENGTH_ORDER`
    (``random``, ``heuristic``, ``easy`` ... ``expert``), then any other name (a plugin's)
    in registration order."""
    from rummykit.sim.registry import STRENGTH_ORDER, available_bots

    names = available_bots(variant)
    weakest_first = tuple(reversed(STRENGTH_ORDER))
    known = sorted((n for n in names if n in weakest_first), key=weakest_first.index)
    return (*known, *(n for n in names if n not in weakest_first))


def default_level_of(levels: Sequence[str]) -> str:
    """:data:`DEFAULT_BOT_LEVEL` when offered, else the first (weakest) level."""
    if DEFAULT_BOT_LEVEL in levels:
        return DEFAULT_BOT_LEVEL
    if not levels:
        raise ValueError("no bot is registered for this variant")
    return levels[0]


def make_registered_bot(
    variant: str, level: str, rules: Any, *, seed: int | None, players: int | None
) -> Any:
    """A bot of ``level`` from the registry's factory for ``variant``, given the game's
    rules object; without a seed, one from the system's secure source."""
    from rummykit.sim.registry import make_bot

    return make_bot(
        variant,
        level,
        seed=secrets.randbits(63) if seed is None else seed,
        rules=rules,
        players=players,
    )


class RegisteredBots:
    """An adapter's bots, from :mod:`rummykit.sim.registry` under the adapter's ``name``.

    Every bot registered for the variant (built in, or by a plugin, at any time) is a
    level the lobby offers and a table may seat; the adapter only says how its stored
    rule options become the rules object a bot factory takes (:meth:`bot_rules`).
    """

    name: str

    def bot_rules(self, rules: Mapping[str, Any]) -> Any:
        """The rules object of a table's stored options."""
        raise NotImplementedError

    @property
    def bot_levels(self) -> tuple[str, ...]:
        """Registered bots that can run, weakest first (:func:`registered_bot_levels`)."""
        return registered_bot_levels(self.name)

    @property
    def default_bot_level(self) -> str:
        """``heuristic`` (fast and decent), whatever else is registered."""
        return default_level_of(self.bot_levels)

    def make_bot(
        self, level: str, rules: Mapping[str, Any], *, seed: int | None, players: int | None = None
    ) -> Any:
        """A bot of ``level`` built by its registered factory."""
        return make_registered_bot(
            self.name, level, self.bot_rules(rules), seed=seed, players=players
        )


def rule_options_of(rules_type: type[Any]) -> list[RuleOption]:
    """Lobby options read off a frozen rules dataclass (ints, bools, Literals, strings).

    Fields of other types (a union such as ``int | Literal["auto"]``) are left to the
    adapter, which knows their choices.
    """
    hints = typing.get_type_hints(rules_type)
    defaults = rules_type()
    options = []
    for item in fields(rules_type):
        default = getattr(defaults, item.name)
        hint = hints[item.name]
        if typing.get_origin(hint) is Literal:
            choices = tuple(str(choice) for choice in typing.get_args(hint))
            options.append(RuleOption(item.name, "choice", default, choices))
        elif isinstance(default, bool):
            options.append(RuleOption(item.name, "bool", default))
        elif isinstance(default, int):
            options.append(RuleOption(item.name, "int", default))
        elif isinstance(default, str):
            options.append(RuleOption(item.name, "text", default))
    return options


def merge_options(
    variant: str,
    presets: Mapping[str, Mapping[str, Any]],
    preset: str,
    options: Any,
    option_list: Sequence[RuleOption],
) -> JSON:
    """The preset's options with ``options`` over them, choice values coerced.

    The lobby sends every choice as a string; a choice between a word and numbers
    (Rami's ``decks``: ``auto``, ``2``, ``3``) becomes the number the rules expect.
    """
    if preset not in presets:
        raise ValueError(f"unknown {variant} preset {preset!r}; choose one of {', '.join(presets)}")
    if not isinstance(options, Mapping):
        raise ValueError("rule options are a JSON object of name: value")
    kinds = {option.name: option for option in option_list}
    merged: JSON = dict(presets[preset])
    for name, value in options.items():
        option = kinds.get(name)
        if (
            option is not None
            and option.kind == "choice"
            and isinstance(value, str)
            and value.lstrip("-").isdigit()
        ):
            value = int(value)
        merged[name] = value
    return merged


def error_json(error: IllegalActionError | InvalidActionError) -> JSON:
    """An engine refusal as a check reports it: a stable code and the engine's words."""
    if isinstance(error, IllegalActionError):
        return {"code": "illegal_action", "message": str(error), "rule": error.code}
    return {"code": "invalid_action", "message": str(error), "rule": None}


def checked(run: Callable[[], Any], **details: Any) -> JSON:
    """Run an engine check; ``{"ok": True}`` or ``{"ok": False, "error": ...}``.

    Only the engine's refusals are caught: a malformed action propagates as
    :class:`InvalidActionError` only when the caller did not parse it first.
    """
    try:
        run()
    except (IllegalActionError, InvalidActionError) as error:
        return {"ok": False, "error": error_json(error), **details}
    return {"ok": True, "error": None, **details}
