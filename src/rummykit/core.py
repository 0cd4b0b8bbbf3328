"""Vocabulary shared by every game's engine: events, and the action errors
(:mod:`rummykit.errors` holds the whole error tree; they are re-exported here).

Every illegal action raises :class:`IllegalActionError`, whose message names the seat,
the card and the rule, and whose :attr:`~IllegalActionError.code` is a stable string a
program can test. A malformed action (unknown kind, unparsable card) raises
:class:`InvalidActionError`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import asdict, dataclass, field, fields
from typing import Any, ClassVar, Generic, Self, TypeVar, cast

from rummykit.cards import Card, format_card, parse_card
from rummykit.errors import (
    IllegalActionError,
    InvalidActionError,
    InvalidOptionError,
    RummykitError,
)
from rummykit.options import check_options

__all__ = [
    "Event",
    "FixedAction",
    "IllegalActionError",
    "InvalidActionError",
    "RulesBase",
    "RummykitError",
    "SeatObservation",
    "action_kind",
    "rules_from_dict",
]


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened in a hand, as the engine reports it.

    ``visible_to`` is ``None`` for a public event; otherwise only that seat may see the
    card (a card drawn from the stock). :meth:`seen_by` gives the version a seat may see.
    """

    kind: str
    seat: int | None = None
    card: Card | None = None
    visible_to: int | None = None
    detail: Mapping[str, Any] = field(default_factory=dict)

    def seen_by(self, seat: int | None) -> Event:
        """This event as ``seat`` may see it (``None``: a spectator)."""
        if self.visible_to is None or self.visible_to == seat or self.card is None:
            return self
        return Event(self.kind, self.seat, None, self.visible_to, self.detail)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict; cards in notation."""
        data: dict[str, Any] = {"kind": self.kind}
        if self.seat is not None:
            data["seat"] = self.seat
        if self.card is not None:
            data["card"] = format_card(self.card)
        if self.visible_to is not None:
            data["visible_to"] = self.visible_to
        if self.detail:
            data["detail"] = dict(self.detail)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Event:
        """Inverse of :meth:`to_json`."""
        card = data.get("card")
        return cls(
            kind=str(data["kind"]),
            seat=data.get("seat"),
            card=parse_card(card) if card is not None else None,
            visible_to=data.get("visible_to"),
            detail=dict(data.get("detail", {})),
        )


PhaseT = TypeVar("PhaseT", bound=str)


@dataclass(frozen=True, slots=True)
class SeatObservation(Generic[PhaseT]):
    """What every game's observation opens with: whose view it is and where the hand
    stands. A game's observation adds its own fields after these; ``PhaseT`` is the
    game's ``Literal`` of phases."""

    seat: int
    phase: PhaseT
    current_player: int
    dealer: int


RulesT = TypeVar("RulesT")
ActionT = TypeVar("ActionT")


class FixedAction:
    """The builder of an action without a payload, as a class attribute:
    ``draw_stock = FixedAction("draw_stock")`` makes ``Action.draw_stock()`` return one
    instance, built once per action class, so the engines' legal lists compare and hash
    cheaply and may test it by identity.

    >>> @dataclass(frozen=True)
    ... class Move:
    ...     kind: str
    ...     rest = FixedAction("rest")
    >>> Move.rest() is Move.rest(), Move.rest()
    (True, Move(kind='rest'))
    """

    __slots__ = ("_built", "_kind")

    def __init__(self, kind: str) -> None:
        self._kind = kind
        # Keyed by class: a ``slots`` dataclass is a new class, made after this is set.
        self._built: dict[type, object] = {}

    def __get__(self, instance: object, owner: type[ActionT]) -> Callable[[], ActionT]:
        built = self._built.get(owner)
        if built is None:
            built = self._built[owner] = cast(Callable[[str], object], owner)(self._kind)
        action = cast(ActionT, built)
        return lambda: action


def rules_from_dict(cls: type[RulesT], data: Mapping[str, Any], variant: str) -> RulesT:
    """Build a variant's rules dataclass from a dict; unknown names are an error, not
    silently dropped (every variant's ``from_dict``)."""
    known = {f.name for f in fields(cls)}  # type: ignore[arg-type]
    unknown = sorted(set(data) - known)
    if unknown:
        raise InvalidOptionError(
            f"unknown {variant} option(s): {', '.join(unknown)}", option=unknown[0]
        )
    return cls(**dict(data))


class RulesBase:
    """What every game's rules dataclass shares: its options are checked when it is
    built, and it reads and writes the plain dict that records and the server keep.
    A subclass names its game in :attr:`variant` (for the errors of :meth:`from_dict`)."""

    __slots__ = ()
    variant: ClassVar[str]

    def __post_init__(self) -> None:
        check_options(self)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready options."""
        return asdict(cast(Any, self))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """Options from a dict; unknown names are an error, not silently dropped."""
        return rules_from_dict(cls, data, cls.variant)


def action_kind(data: object, variant: str, kinds: Collection[str]) -> str:
    """The ``kind`` of a JSON action, once ``data`` is an object and the kind is one of
    ``kinds`` (the first checks of every variant's ``from_json``)."""
    if not isinstance(data, Mapping):
        raise InvalidActionError(f"an action is a JSON object, got {data!r}")
    kind = data.get("kind")
    if not isinstance(kind, str) or kind not in kinds:
        text = repr(kind)  # any JSON value may come: at most 40 characters of it
        if len(text) > 40:
            text = text[:37] + "..."
        raise InvalidActionError(
            f"unknown {variant} action kind {text}; expected one of {', '.join(sorted(kinds))}"
        )
    return kind
