"""Gin Rummy's moves and their JSON form.

Build actions with the class methods (``GinAction.discard("7H")``); the common ones are
built once, so comparing and hashing them is cheap.

>>> GinAction.discard("7H").to_json()
{'kind': 'discard', 'card': '7H'}
>>> GinAction.from_json({"kind": "knock", "card": "9S"}) == GinAction.knock("9S")
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal, cast

from rummykit.cards import Card, format_card, format_cards, parse_card, parse_cards
from rummykit.core import FixedAction, action_kind
from rummykit.errors import InvalidActionError

__all__ = ["GinAction"]

ActionKind = Literal[
    "take_upcard", "pass", "draw_stock", "draw_discard", "discard", "knock", "big_gin", "lay_off"
]
_ACTION_KINDS: Final = frozenset(ActionKind.__args__)  # type: ignore[attr-defined]
OPEN_KINDS: Final = frozenset({"lay_off"})
"""Kinds the engine checks itself: the defender's show may be any valid arrangement, not
only the one ``legal_actions`` lists."""

Melds = tuple[tuple[Card, ...], ...]


@dataclass(frozen=True, slots=True)
class GinAction:
    """One move. Build with the class methods: ``GinAction.discard("7H")`` etc.

    ``melds`` carries an explicit arrangement (a knocker's melds, or a defender's own
    melds for ``lay_off``); ``layoffs`` the defender's ``(card, knocker meld index)``
    pairs in the order they are laid.
    """

    kind: ActionKind
    card: Card | None = None
    melds: Melds | None = None
    layoffs: tuple[tuple[Card, int], ...] | None = None

    take_upcard = FixedAction("take_upcard")
    pass_ = FixedAction("pass")
    draw_stock = FixedAction("draw_stock")
    draw_discard = FixedAction("draw_discard")

    @classmethod
    def discard(cls, card: int | str) -> GinAction:
        return DISCARDS[_card_arg(card)]

    @classmethod
    def knock(
        cls, card: int | str, melds: Iterable[Iterable[int | str]] | None = None
    ) -> GinAction:
        card_id = _card_arg(card)
        if melds is None:
            return KNOCKS[card_id]
        return cls("knock", Card(card_id), _melds_arg(melds))

    @classmethod
    def big_gin(cls, melds: Iterable[Iterable[int | str]] | None = None) -> GinAction:
        return BIG_GIN if melds is None else cls("big_gin", None, _melds_arg(melds))

    @classmethod
    def lay_off(
        cls,
        melds: Iterable[Iterable[int | str]] = (),
        layoffs: Iterable[tuple[int | str, int]] = (),
    ) -> GinAction:
        """The defender's show: own melds, then layoffs onto the knocker's melds."""
        return cls(
            "lay_off",
            None,
            _melds_arg(melds),
            tuple((Card(_card_arg(card)), int(index)) for card, index in layoffs),
        )

    def __str__(self) -> str:
        text: str = self.kind
        if self.card is not None:
            text += " " + format_card(self.card)
        if self.melds:
            text += " [" + " | ".join(format_cards(meld) for meld in self.melds) + "]"
        if self.layoffs:
            text += " +" + ",".join(f"{format_card(c)}>{i}" for c, i in self.layoffs)
        return text

    def to_json(self) -> dict[str, Any]:
        """Stable JSON form: ``{"kind": "discard", "card": "7H"}``."""
        data: dict[str, Any] = {"kind": self.kind}
        if self.card is not None:
            data["card"] = format_card(self.card)
        if self.melds is not None:
            data["melds"] = [format_cards(meld) for meld in self.melds]
        if self.layoffs is not None:
            data["layoffs"] = [[format_card(card), index] for card, index in self.layoffs]
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GinAction:
        """Inverse of :meth:`to_json`; raises :class:`InvalidActionError` on bad input."""
        kind = action_kind(data, "gin", _ACTION_KINDS)
        try:
            card = data.get("card")
            melds = data.get("melds")
            layoffs = data.get("layoffs")
            if kind in ("discard", "knock") and not isinstance(card, str | int):
                raise InvalidActionError(f"a {kind} action needs a card, got {card!r}")
            if kind == "discard":
                return cls.discard(cast(str | int, card))
            if kind == "knock":
                return cls.knock(
                    cast(str | int, card),
                    None if melds is None else [parse_cards(m) for m in melds],
                )
            if kind == "big_gin":
                return cls.big_gin(None if melds is None else [parse_cards(m) for m in melds])
            if kind == "lay_off":
                return cls.lay_off(
                    [parse_cards(m) for m in melds or ()],
                    [(c, int(i)) for c, i in layoffs or ()],
                )
        except InvalidActionError:
            raise
        # Any JSON value may arrive here: a number where a list belongs, a list where a
        # card belongs. Whatever the builders trip over, it is a malformed action.
        except (ValueError, TypeError, AttributeError, KeyError, IndexError) as error:
            raise InvalidActionError(f"malformed {kind} action: {error}") from error
        return _SIMPLE_ACTIONS[kind]


def _card_arg(card: int | str) -> int:
    if isinstance(card, str):
        try:
            card = parse_card(card)
        except ValueError as error:
            raise InvalidActionError(str(error)) from error
    card = int(card)
    if not 0 <= card < 52:
        raise InvalidActionError(f"{card} is not a card id of a 52-card deck")
    return card


def _melds_arg(melds: Iterable[Iterable[int | str]]) -> Melds:
    result = []
    for meld in melds:
        if isinstance(meld, str):
            meld = parse_cards(meld)
        result.append(tuple(Card(_card_arg(card)) for card in meld))
    return tuple(result)


# The actions without a payload, and every discard and plain knock, built once.
TAKE_UPCARD: Final = GinAction.take_upcard()
PASS: Final = GinAction.pass_()
DRAW_STOCK: Final = GinAction.draw_stock()
DRAW_DISCARD: Final = GinAction.draw_discard()
BIG_GIN: Final = GinAction("big_gin")
_SIMPLE_ACTIONS: Final = {
    "take_upcard": TAKE_UPCARD,
    "pass": PASS,
    "draw_stock": DRAW_STOCK,
    "draw_discard": DRAW_DISCARD,
}
DISCARDS: Final = tuple(GinAction("discard", Card(card)) for card in range(52))
KNOCKS: Final = tuple(GinAction("knock", Card(card)) for card in range(52))
