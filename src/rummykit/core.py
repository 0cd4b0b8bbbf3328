"""Vocabulary shared by every variant's engine: errors and events.

Every illegal action raises :class:`IllegalActionError`, whose message names the seat,
the card and the rule, and whose :attr:`~IllegalActionError.code` is a stable string a
program can test. A malformed action (unknown kind, unparsable card) raises
:class:`InvalidActionError`. Both are ``ValueError`` subclasses, as in python-chess.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, TypeVar

from rummykit.cards import Card, format_card, parse_card

__all__ = [
    "Event",
    "IllegalActionError",
    "InvalidActionError",
    "RummykitError",
    "rules_from_dict",
]


class RummykitError(ValueError):
    """Base class of every error rummykit raises on bad input."""


class InvalidActionError(RummykitError):
    """The action is malformed: unknown kind, missing card, unparsable notation."""


class IllegalActionError(RummykitError):
    """The action is well formed but the rules forbid it here and now.

    The state is left unchanged. ``code`` is stable (for programs), the message is for
    people and names the seat, the card and the rule.
    """

    def __init__(
        self,
        message: str,
        *,
        code: str,
        seat: int | None = None,
        card: int | None = None,
        rule: str | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.seat = seat
        self.card = None if card is None else Card(card)
        self.rule = rule


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


RulesT = TypeVar("RulesT")


def rules_from_dict(cls: type[RulesT], data: Mapping[str, Any], variant: str) -> RulesT:
    """Build a variant's rules dataclass from a dict; unknown names are an error, not
    silently dropped (every variant's ``from_dict``)."""
    known = {f.name for f in fields(cls)}  # type: ignore[arg-type]
    unknown = sorted(set(data) - known)
    if unknown:
        raise ValueError(f"unknown {variant} option(s): {', '.join(unknown)}")
    return cls(**dict(data))
