"""The JSON shape of each game's actions, checked before the game's parser sees one.

An action arrives as any JSON object. Before the game's ``from_json`` reads it, the
server checks its shape against the game's declared fields: ``kind`` a string among the
game's kinds, cards strings, lists of cards lists (or one string of notation), indices
integers in range, a bundled play an action of the same game. Only the declared fields
reach the parser. What the values mean (a card in the hand, a combination on the table)
is the engine's to judge. A game without declared shapes here (a plugin's) gets the
generic check: a ``kind`` among the kinds its action type declares.

>>> checked_action("gin", {"kind": "discard", "card": "7H", "pad": 1})
{'kind': 'discard', 'card': '7H'}
>>> checked_action("gin", {"kind": "lay_off", "layoffs": [["7H", -5]]})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
rummykit.server.protocol.ServerError: invalid_action: layoffs[0][1]: an index is an integer ...
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Mapping
from typing import Any, Final

from rummykit.server.protocol import ServerError

__all__ = ["MAX_INDEX", "checked_action", "kinds_of"]

MAX_INDEX: Final = 999
"""Largest index an action may name (the engine says whether it names anything)."""
_MAX_ITEMS: Final = 200
_MAX_TEXT: Final = 1024

Field = Callable[[Any, str], None]
"""Checks one field's value; raises ``invalid_action`` naming the field's place."""


def _refuse(where: str, what: str, value: Any) -> ServerError:
    shown = repr(value)
    if len(shown) > 40:
        shown = shown[:37] + "..."
    return ServerError("invalid_action", f"{where}: {what}, not {shown}")


def card(value: Any, where: str) -> None:
    if not isinstance(value, str) or not 0 < len(value) <= 16:
        raise _refuse(where, 'a card is a string such as "7H"', value)


def cards(value: Any, where: str) -> None:
    """Cards: one string of notation (``"7H 8H 9H"``) or a list of card strings."""
    if isinstance(value, str):
        if len(value) > _MAX_TEXT:
            raise _refuse(where, f"at most {_MAX_TEXT} characters of cards", value[:20])
        return
    if not isinstance(value, list) or len(value) > _MAX_ITEMS:
        raise _refuse(where, "cards are a string of notation or a list of card strings", value)
    for index, item in enumerate(value):
        card(item, f"{where}[{index}]")


def notation(value: Any, where: str) -> None:
    """Cards as one string of notation (``"JK=9S 9C 9D"``)."""
    if not isinstance(value, str) or len(value) > _MAX_TEXT:
        raise _refuse(where, "cards are a string of notation", value)


def index(value: Any, where: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_INDEX:
        raise _refuse(where, f"an index is an integer from 0 to {MAX_INDEX}", value)


def list_of(item: Field) -> Field:
    def check(value: Any, where: str) -> None:
        if not isinstance(value, list) or len(value) > _MAX_ITEMS:
            raise _refuse(where, f"a list (of at most {_MAX_ITEMS})", value)
        for number, element in enumerate(value):
            item(element, f"{where}[{number}]")

    return check


def pair(first: Field, second: Field) -> Field:
    def check(value: Any, where: str) -> None:
        if not isinstance(value, list) or len(value) != 2:
            raise _refuse(where, "a pair [card, index]", value)
        first(value[0], f"{where}[0]")
        second(value[1], f"{where}[1]")

    return check


class Shape:
    """One kind of action: its required and optional fields (``None`` allowed for an
    optional one: absent)."""

    def __init__(self, *, required: Mapping[str, Field] = {}, optional: Mapping[str, Field] = {}):
        self.required = dict(required)
        self.optional = dict(optional)


_PLAIN: Final = Shape()

GIN: Final = {
    "take_upcard": _PLAIN,
    "pass": _PLAIN,
    "draw_stock": _PLAIN,
    "draw_discard": _PLAIN,
    "discard": Shape(required={"card": card}),
    "knock": Shape(required={"card": card}, optional={"melds": list_of(cards)}),
    "big_gin": Shape(optional={"melds": list_of(cards)}),
    "lay_off": Shape(optional={"melds": list_of(cards), "layoffs": list_of(pair(card, index))}),
}


def _rami_play(value: Any, where: str) -> None:
    """The play bundled with ``take_discard``: an open, meld or layoff."""
    if not isinstance(value, dict) or value.get("kind") not in ("open", "meld", "layoff"):
        raise _refuse(where, "the bundled play is an open, meld or layoff action", value)
    _check_fields(RAMI, value, where)


RAMI: Final = {
    "draw_stock": _PLAIN,
    "end_play": _PLAIN,
    "take_discard": Shape(optional={"then": _rami_play}),
    "discard": Shape(required={"card": card}),
    "open": Shape(required={"combos": list_of(cards)}),
    "meld": Shape(required={"combos": list_of(cards)}),
    "layoff": Shape(required={"card": card, "target": index}),
    "swap_joker": Shape(
        required={"card": card, "target": index},
        optional={"joker_target": index, "joker_cards": cards},
    ),
}

CAROUSEL: Final = {
    "draw": _PLAIN,
    "end_turn": _PLAIN,
    "knock": _PLAIN,
    "meld": Shape(required={"layout": list_of(notation)}),
}

SHAPES: Final[dict[str, dict[str, Shape]]] = {"gin": GIN, "rami": RAMI, "carousel": CAROUSEL}
"""Declared action shapes by game name."""


def kinds_of(action_type: Any) -> frozenset[str] | None:
    """The kinds an engine's action type declares (its ``kind: Literal[...]`` field)."""
    try:
        hint = typing.get_type_hints(action_type).get("kind")
    except Exception:
        return None
    values = typing.get_args(hint) if typing.get_origin(hint) is typing.Literal else ()
    return frozenset(str(value) for value in values) or None


def checked_action(game: str, action: Any, action_type: Any = None) -> dict[str, Any]:
    """``action`` checked for shape: the declared fields only (``invalid_action``)."""
    if not isinstance(action, dict):
        raise ServerError("bad_message", '"action" must be a JSON object')
    shapes = SHAPES.get(game)
    kind = action.get("kind")
    known = sorted(shapes) if shapes is not None else sorted(kinds_of(action_type) or ())
    if not isinstance(kind, str) or (known and kind not in known):
        expected = f"; expected one of {', '.join(known)}" if known else ""
        raise _refuse("kind", f"the action's kind is a {game} action kind{expected}", kind)
    if shapes is None:
        return dict(action)
    return _check_fields(shapes, action, "")


def _check_fields(
    shapes: Mapping[str, Shape], action: dict[str, Any], where: str
) -> dict[str, Any]:
    shape = shapes[action["kind"]]
    out: dict[str, Any] = {"kind": action["kind"]}
    prefix = f"{where}." if where else ""
    for name, check in shape.required.items():
        if action.get(name) is None:
            raise ServerError("invalid_action", f"a {action['kind']} action needs {prefix}{name}")
        check(action[name], prefix + name)
        out[name] = action[name]
    for name, check in shape.optional.items():
        if action.get(name) is not None:
            check(action[name], prefix + name)
            out[name] = action[name]
    return out
