"""Carousel's actions: draw again, meld (the whole new table), end the turn, knock.

>>> action = CarouselAction.meld(["7H 8H 9H", "5S 5D JK=5C"])
>>> str(action)
'meld 7H 8H 9H | 5S 5D JK=5C'
>>> CarouselAction.from_json(action.to_json()) == action
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from rummykit.cards import Card, format_cards, parse_cards
from rummykit.core import FixedAction, action_kind
from rummykit.errors import InvalidActionError

__all__ = ["ActionKind", "CarouselAction", "Layout"]

ActionKind = Literal["draw", "meld", "end_turn", "knock"]
Layout = tuple[tuple[Card, ...], ...]
"""A table layout: its melds, each as cards (jokers declared)."""


@dataclass(frozen=True, slots=True)
class CarouselAction:
    """``draw`` (draw again), ``meld`` (a complete new table layout), ``end_turn``,
    ``knock`` (end the turn and knock)."""

    kind: ActionKind
    layout: Layout | None = None

    draw = FixedAction("draw")
    end_turn = FixedAction("end_turn")
    knock = FixedAction("knock")

    @classmethod
    def meld(cls, layout: Iterable[Iterable[int | str] | str]) -> CarouselAction:
        """A meld action from the whole new table (melds as cards or notation)."""
        melds: list[tuple[Card, ...]] = []
        try:
            for meld in layout:
                cards = parse_cards(meld) if isinstance(meld, str) else [Card(c) for c in meld]
                melds.append(tuple(cards))
        except ValueError as error:
            raise InvalidActionError(f"malformed layout: {error}") from error
        return cls("meld", tuple(melds))

    def __str__(self) -> str:
        if self.layout is None:
            return self.kind
        return "meld " + " | ".join(format_cards(meld) for meld in self.layout)

    def to_json(self) -> dict[str, Any]:
        """Stable JSON form."""
        data: dict[str, Any] = {"kind": self.kind}
        if self.layout is not None:
            data["layout"] = [format_cards(meld) for meld in self.layout]
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> CarouselAction:
        """Inverse of :meth:`to_json`."""
        kind = action_kind(data, "carousel", ("draw", "meld", "end_turn", "knock"))
        if kind == "meld":
            layout = data.get("layout")
            if not isinstance(layout, list) or not all(isinstance(m, str) for m in layout):
                raise InvalidActionError("a meld action needs a layout: a list of meld strings")
            return cls.meld(layout)
        return {"draw": cls.draw, "end_turn": cls.end_turn, "knock": cls.knock}[kind]()
