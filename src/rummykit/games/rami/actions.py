"""Rami actions: one move of a round, its builders, its text and its stable JSON form.

Cards in actions are physical (:mod:`rummykit.games.rami.tokens`); ``target`` and
``joker_target`` index the table from 0 in the action and its JSON, while the text of
an action, which is for people, numbers the combinations from 1.

>>> action = RamiAction.layoff("9S@1", 0)
>>> str(action), action.to_json()
('layoff 9S@1 to 1', {'kind': 'layoff', 'card': '9S@1', 'target': 0})
>>> RamiAction.from_json(action.to_json()) == action
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal

from rummykit.cards import PHYSICAL_IDS, Card
from rummykit.core import FixedAction, action_kind
from rummykit.errors import InvalidActionError
from rummykit.games.rami.tokens import card_arg, card_token, cards_arg

__all__ = ["ActionKind", "RamiAction"]

ActionKind = Literal[
    "draw_stock", "take_discard", "open", "meld", "layoff", "swap_joker", "end_play", "discard"
]
_ACTION_KINDS: Final = frozenset(ActionKind.__args__)  # type: ignore[attr-defined]
OPEN_KINDS: Final = frozenset({"open", "meld", "layoff", "swap_joker", "take_discard"})
"""Kinds the engine checks itself: the plays that lay hand cards (and a take bundled with
one), which ``legal_actions`` does not list in every form."""


Combos = tuple[tuple[Card, ...], ...]


@dataclass(frozen=True, slots=True)
class RamiAction:
    """One move. Build with the class methods: ``RamiAction.layoff("9S", 2)`` etc.

    ``combos`` carries an opening's combinations (one for a meld); ``target`` the table
    index of a lay-off or swap; ``joker_target``/``joker_cards`` where a swapped joker
    goes (a lay-off onto that combination, or a new combination with those hand cards);
    ``then`` the play bundled with ``take_discard`` (option ``discard_must_be_melded``).
    """

    kind: ActionKind
    card: Card | None = None
    combos: Combos | None = None
    target: int | None = None
    joker_target: int | None = None
    joker_cards: tuple[Card, ...] | None = None
    then: RamiAction | None = None

    draw_stock = FixedAction("draw_stock")
    end_play = FixedAction("end_play")

    @classmethod
    def take_discard(cls, then: RamiAction | None = None) -> RamiAction:
        """Take the discard pile's top card; ``then``: the play that lays it."""
        if then is None:
            return TAKE_DISCARD
        if then.kind not in ("open", "meld", "layoff"):
            raise InvalidActionError(
                f"the play bundled with take_discard is an open, meld or layoff, not {then.kind}"
            )
        return cls("take_discard", then=then)

    @classmethod
    def open(cls, combos: Iterable[Iterable[int | str] | str]) -> RamiAction:
        """Open with one or several combinations of hand cards."""
        built = tuple(cards_arg(combo) for combo in combos)
        if not built:
            raise InvalidActionError("an opening lays at least one combination")
        return cls("open", combos=built)

    @classmethod
    def meld(cls, cards: Iterable[int | str] | str) -> RamiAction:
        """Lay one new combination (after opening)."""
        return cls("meld", combos=(cards_arg(cards),))

    @classmethod
    def layoff(cls, card: int | str, target: int) -> RamiAction:
        """Lay ``card`` off onto table combination ``target`` (any player's)."""
        return cls("layoff", card_arg(card), target=int(target))

    @classmethod
    def swap_joker(
        cls,
        card: int | str,
        target: int,
        *,
        joker_target: int | None = None,
        joker_cards: Iterable[int | str] | str | None = None,
    ) -> RamiAction:
        """Give ``card`` for the joker of combination ``target``; the joker goes onto
        ``joker_target`` or into a new combination with ``joker_cards`` (or stays in
        hand when it has no legal placement)."""
        if joker_target is not None and joker_cards is not None:
            raise InvalidActionError("a swapped joker goes to one place: a target or new cards")
        return cls(
            "swap_joker",
            card_arg(card),
            target=int(target),
            joker_target=None if joker_target is None else int(joker_target),
            joker_cards=None if joker_cards is None else cards_arg(joker_cards),
        )

    @classmethod
    def discard(cls, card: int | str) -> RamiAction:
        card_id = card_arg(card)
        return DISCARDS[card_id]

    def __str__(self) -> str:
        text: str = self.kind
        if self.card is not None:
            text += " " + card_token(self.card)
        if self.combos is not None:
            text += " " + " | ".join(" ".join(map(card_token, combo)) for combo in self.combos)
        # Combinations are numbered from 1 for people (from 0 in the fields).
        if self.target is not None:
            text += f" to {self.target + 1}"
        if self.joker_target is not None:
            text += f", joker to {self.joker_target + 1}"
        if self.joker_cards is not None:
            text += ", joker with " + " ".join(map(card_token, self.joker_cards))
        if self.then is not None:
            text += " + " + str(self.then)
        return text

    def to_json(self) -> dict[str, Any]:
        """Stable JSON form, cards as physical tokens: ``{"kind": "discard", "card": "7H@1"}``."""
        data: dict[str, Any] = {"kind": self.kind}
        if self.card is not None:
            data["card"] = card_token(self.card)
        if self.combos is not None:
            data["combos"] = [" ".join(map(card_token, combo)) for combo in self.combos]
        if self.target is not None:
            data["target"] = self.target
        if self.joker_target is not None:
            data["joker_target"] = self.joker_target
        if self.joker_cards is not None:
            data["joker_cards"] = " ".join(map(card_token, self.joker_cards))
        if self.then is not None:
            data["then"] = self.then.to_json()
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RamiAction:
        """Inverse of :meth:`to_json`; raises :class:`InvalidActionError` on bad input."""
        kind = action_kind(data, "rami", _ACTION_KINDS)
        try:
            if kind == "draw_stock":
                return DRAW_STOCK
            if kind == "end_play":
                return END_PLAY
            if kind == "take_discard":
                then = data.get("then")
                if isinstance(then, Mapping) and then.get("kind") == "take_discard":
                    # Refused before parsing it: a chain of them would only recurse.
                    raise InvalidActionError("the play bundled with take_discard is a play")
                return cls.take_discard(None if then is None else cls.from_json(then))
            if kind == "discard":
                return cls.discard(data["card"])
            if kind == "open":
                return cls.open(data["combos"])
            if kind == "meld":
                combos = data["combos"]
                if len(combos) != 1:
                    raise InvalidActionError("a meld lays exactly one combination")
                return cls.meld(combos[0])
            if kind == "layoff":
                return cls.layoff(data["card"], int(data["target"]))
            return cls.swap_joker(
                data["card"],
                int(data["target"]),
                joker_target=data.get("joker_target"),
                joker_cards=data.get("joker_cards"),
            )
        except InvalidActionError:
            raise
        # Any JSON value may arrive here: a number where a list belongs, a list where a
        # card belongs. Whatever the builders trip over, it is a malformed action.
        except (KeyError, ValueError, TypeError, AttributeError, IndexError) as error:
            raise InvalidActionError(f"malformed {kind} action: {error!r}") from error


# The finite actions, built once and shared (the engine lists them every turn).
DRAW_STOCK: Final = RamiAction.draw_stock()
TAKE_DISCARD: Final = RamiAction("take_discard")
END_PLAY: Final = RamiAction.end_play()
DISCARDS: Final = tuple(RamiAction("discard", Card(card)) for card in range(PHYSICAL_IDS))
"""The discard of every physical card, by card id."""
