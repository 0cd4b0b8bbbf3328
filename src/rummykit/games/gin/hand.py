"""Gin Rummy: rules, the hand engine and its scoring (rules/gin.md).

A hand is a pure state machine: :func:`new_hand` deals from a seed (or an explicit card
order), :meth:`GinHand.legal_actions` lists what the player to act may do,
:meth:`GinHand.apply` changes the state and returns the events it caused, and
:meth:`GinHand.observation` is all one seat may know. Illegal actions raise
:class:`~rummykit.core.IllegalActionError` and change nothing.

>>> hand = new_hand(GinRules(), seed=7)
>>> hand.phase, hand.current_player
('offer', 1)
>>> [str(action) for action in hand.legal_actions()]
['take_upcard', 'pass']
>>> events = hand.apply(GinAction.pass_())
>>> hand.current_player
0
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any, Final, Literal, cast

from rummykit.cards import (
    Card,
    DeckSpec,
    format_card,
    format_cards,
    ordered_deck,
    parse_card,
    parse_cards,
    shuffled_deck,
)
from rummykit.core import Event, IllegalActionError, InvalidActionError, rules_from_dict
from rummykit.games.gin.deadwood import (
    CARD_VALUES,
    cards_of_mask,
    deadwood_after_each_discard,
    layoff_deadwood,
    mask_of,
    mask_value,
    meld_union,
    min_deadwood,
    min_deadwood_mask,
    top_card_value,
)
from rummykit.melds import GIN_MELDS, InvalidMeldError, MeldRules, check_meld

__all__ = [
    "GinAction",
    "GinHand",
    "GinHandResult",
    "GinObservation",
    "GinRules",
    "new_hand",
]

Phase = Literal["offer", "draw", "discard", "layoff", "over"]
ActionKind = Literal[
    "take_upcard", "pass", "draw_stock", "draw_discard", "discard", "knock", "big_gin", "lay_off"
]
Outcome = Literal["knock", "undercut", "gin", "big_gin", "draw"]
_ACTION_KINDS: Final = frozenset(ActionKind.__args__)  # type: ignore[attr-defined]
_SPEC: Final = "rules/gin.md"


@dataclass(frozen=True, slots=True, kw_only=True)
class GinRules:
    """Every option of rules/gin.md section 8; the defaults are the reference rules."""

    knock_limit: int = 10
    target: int = 100
    gin_bonus: int = 25
    big_gin_bonus: int = 31
    """0 disables big gin."""
    undercut_bonus: int = 25
    undercut_on_tie: bool = True
    """False: when the defender's deadwood equals the knocker's, nobody scores."""
    game_bonus: int = 100
    line_bonus: int = 25
    shutout_multiplier: int = 2
    shutout_allows_draws: bool = False
    stock_floor: int = 2
    first_turn_after_double_pass: Literal["stock_only", "any"] = "stock_only"
    big_gin_from_discard: bool = True
    chained_layoffs: bool = True
    auto_layoff: bool = True
    """False: the defender submits own melds and layoffs; the engine validates them."""
    knocker_arrangement: Literal["auto", "explicit"] = "auto"
    """``explicit``: a knock must name the knocker's melds."""
    redeal_after_draw: Literal["same_dealer", "alternate"] = "same_dealer"
    ace_high_runs: bool = False

    def __post_init__(self) -> None:
        numbers = {
            "knock_limit": (0, 200),
            "target": (1, 100_000),
            "gin_bonus": (0, 1000),
            "big_gin_bonus": (0, 1000),
            "undercut_bonus": (0, 1000),
            "game_bonus": (0, 10_000),
            "line_bonus": (0, 1000),
            "shutout_multiplier": (1, 10),
            "stock_floor": (0, 30),
        }
        for name, (low, high) in numbers.items():
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise ValueError(
                    f"gin option {name} must be an integer {low}-{high}, got {value!r}"
                )
        choices = {
            "first_turn_after_double_pass": ("stock_only", "any"),
            "knocker_arrangement": ("auto", "explicit"),
            "redeal_after_draw": ("same_dealer", "alternate"),
        }
        for name, allowed in choices.items():
            if getattr(self, name) not in allowed:
                raise ValueError(
                    f"gin option {name} must be one of {', '.join(allowed)}, "
                    f"got {getattr(self, name)!r}"
                )
        for name in (
            "undercut_on_tie",
            "shutout_allows_draws",
            "big_gin_from_discard",
            "chained_layoffs",
            "auto_layoff",
            "ace_high_runs",
        ):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"gin option {name} must be true or false")

    @property
    def meld_rules(self) -> MeldRules:
        """The meld rules these options imply (ace low only unless ``ace_high_runs``)."""
        return MeldRules(ace_high=True) if self.ace_high_runs else GIN_MELDS

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready options."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GinRules:
        """Options from a dict; unknown names are an error, not silently dropped."""
        return rules_from_dict(cls, data, "gin")


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

    @classmethod
    def take_upcard(cls) -> GinAction:
        return _TAKE_UPCARD

    @classmethod
    def pass_(cls) -> GinAction:
        return _PASS

    @classmethod
    def draw_stock(cls) -> GinAction:
        return _DRAW_STOCK

    @classmethod
    def draw_discard(cls) -> GinAction:
        return _DRAW_DISCARD

    @classmethod
    def discard(cls, card: int | str) -> GinAction:
        return _DISCARDS[_card_arg(card)]

    @classmethod
    def knock(
        cls, card: int | str, melds: Iterable[Iterable[int | str]] | None = None
    ) -> GinAction:
        card_id = _card_arg(card)
        if melds is None:
            return _KNOCKS[card_id]
        return cls("knock", Card(card_id), _melds_arg(melds))

    @classmethod
    def big_gin(cls, melds: Iterable[Iterable[int | str]] | None = None) -> GinAction:
        return _BIG_GIN if melds is None else cls("big_gin", None, _melds_arg(melds))

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
        if not isinstance(data, Mapping):
            raise InvalidActionError(f"an action is a JSON object, got {data!r}")
        kind = data.get("kind")
        if kind not in _ACTION_KINDS:
            raise InvalidActionError(
                f"unknown gin action kind {kind!r}; "
                f"expected one of {', '.join(sorted(_ACTION_KINDS))}"
            )
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
        except (ValueError, TypeError) as error:
            raise InvalidActionError(f"malformed {kind} action: {error}") from error
        return _SIMPLE_ACTIONS[str(kind)]


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


_TAKE_UPCARD: Final = GinAction("take_upcard")
_PASS: Final = GinAction("pass")
_DRAW_STOCK: Final = GinAction("draw_stock")
_DRAW_DISCARD: Final = GinAction("draw_discard")
_BIG_GIN: Final = GinAction("big_gin")
_SIMPLE_ACTIONS: Final = {
    "take_upcard": _TAKE_UPCARD,
    "pass": _PASS,
    "draw_stock": _DRAW_STOCK,
    "draw_discard": _DRAW_DISCARD,
}
_DISCARDS: Final = tuple(GinAction("discard", Card(card)) for card in range(52))
_KNOCKS: Final = tuple(GinAction("knock", Card(card)) for card in range(52))
_DISCARD_ACTION: Final = _DISCARDS.__getitem__


def _card_events(kind: str, *, private: bool = False) -> tuple[tuple[Event, ...], ...]:
    """Per seat and card, the event of ``kind`` (``private``: seen only by that seat).

    Events are immutable, so the frequent ones are built once here rather than at
    every step (building one costs as much as the rest of a discard).
    """
    return tuple(
        tuple(
            Event(kind, seat, Card(card), visible_to=seat if private else None)
            for card in range(52)
        )
        for seat in (0, 1)
    )


_DISCARD_EVENTS: Final = _card_events("discard")
_DRAW_STOCK_EVENTS: Final = _card_events("draw_stock", private=True)
_DRAW_DISCARD_EVENTS: Final = _card_events("draw_discard")
_TAKE_UPCARD_EVENTS: Final = _card_events("take_upcard")
_PASS_EVENTS: Final = (Event("pass", 0), Event("pass", 1))
_HIDDEN_DRAWS: Final = tuple(_DRAW_STOCK_EVENTS[seat][0].seen_by(1 - seat) for seat in (0, 1))
"""Per drawing seat, its stock draw as the other seat sees it (the card blanked)."""


@dataclass(frozen=True, slots=True)
class GinHandResult:
    """How a hand ended, with everything revealed at the showdown."""

    outcome: Outcome
    winner: int | None
    """The seat that scored, or ``None`` (drawn hand, or a tie without undercut)."""
    points: int
    knocker: int | None = None
    knocker_deadwood: int = 0
    defender_deadwood: int = 0
    knock_card: Card | None = None
    knocker_melds: Melds = ()
    knocker_deadwood_cards: tuple[Card, ...] = ()
    defender_melds: Melds = ()
    layoffs: tuple[tuple[Card, int], ...] = ()
    defender_deadwood_cards: tuple[Card, ...] = ()
    hands: tuple[tuple[Card, ...], tuple[Card, ...]] = ((), ())
    """Both seats' cards at the end (the knock card excluded)."""

    @property
    def is_draw(self) -> bool:
        """True when the stock floor ended the hand with no score."""
        return self.outcome == "draw"

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form, cards in notation."""
        return {
            "outcome": self.outcome,
            "winner": self.winner,
            "points": self.points,
            "knocker": self.knocker,
            "knocker_deadwood": self.knocker_deadwood,
            "defender_deadwood": self.defender_deadwood,
            "knock_card": None if self.knock_card is None else format_card(self.knock_card),
            "knocker_melds": [format_cards(m) for m in self.knocker_melds],
            "knocker_deadwood_cards": format_cards(self.knocker_deadwood_cards),
            "defender_melds": [format_cards(m) for m in self.defender_melds],
            "layoffs": [[format_card(c), i] for c, i in self.layoffs],
            "defender_deadwood_cards": format_cards(self.defender_deadwood_cards),
            "hands": [format_cards(h) for h in self.hands],
        }


@dataclass(frozen=True, slots=True)
class GinObservation:
    """What one seat may know. Never the other hand, never the stock order."""

    seat: int
    phase: Phase
    current_player: int
    dealer: int
    hand: tuple[Card, ...]
    discard_pile: tuple[Card, ...]
    """Bottom to top; every card in it was seen face up."""
    stock_size: int
    opponent_hand_size: int
    opponent_known_cards: tuple[Card, ...]
    """Cards the opponent took from the discard pile and still holds (public knowledge)."""
    taken_card: Card | None
    """The card this seat took from the pile this turn (it may not be discarded)."""
    knocker_melds: Melds
    """During the defender's layoff phase: the knocker's melds."""
    history: tuple[Event, ...]
    result: GinHandResult | None
    scores: tuple[int, int] = (0, 0)
    """Match scores before this hand (filled in by a match)."""
    target: int = 100

    @property
    def upcard(self) -> Card | None:
        """The top of the discard pile."""
        return self.discard_pile[-1] if self.discard_pile else None


class GinHand:
    """One hand of Gin Rummy between seats 0 and 1. Build with :func:`new_hand`."""

    __slots__ = (
        "_options",
        "actions",
        "current_player",
        "dealer",
        "deck",
        "discard_pile",
        "first_draw_stock_only",
        "hands",
        "history",
        "knock_arrangement",
        "knock_card",
        "knocker",
        "known",
        "offers",
        "phase",
        "result",
        "rules",
        "seed",
        "seen",
        "stock",
        "taken_card",
    )

    rules: GinRules
    phase: Phase
    current_player: int
    dealer: int
    hands: list[int]
    stock: list[int]
    discard_pile: list[int]
    offers: int
    taken_card: int | None
    first_draw_stock_only: bool
    knocker: int | None
    knock_card: int | None
    knock_arrangement: Melds
    known: list[int]
    result: GinHandResult | None
    history: list[Event]
    seen: tuple[list[Event], list[Event]]
    """Each seat's view of :attr:`history` (hidden cards blanked), kept as it grows."""
    actions: list[GinAction]
    seed: int | None
    deck: tuple[Card, ...]
    _options: tuple[int, list[int], bool] | None

    # -- public state ------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """True once the hand is scored (or drawn)."""
        return self.phase == "over"

    @property
    def starting_player(self) -> int:
        """The non-dealer, who is offered the upcard first."""
        return 1 - self.dealer

    @property
    def upcard(self) -> Card | None:
        """Top card of the discard pile."""
        return Card(self.discard_pile[-1]) if self.discard_pile else None

    def hand_cards(self, seat: int) -> list[Card]:
        """The cards a seat holds (engine-side; players see them via observation)."""
        return cards_of_mask(self.hands[seat])

    def deadwood(self, seat: int) -> int:
        """The seat's current minimum deadwood (on 11 cards: before discarding)."""
        return min_deadwood_mask(self.hands[seat], self.rules.ace_high_runs)

    # -- legal actions -----------------------------------------------------------------

    def legal_actions(self) -> list[GinAction]:
        """Every legal action of the player to act (empty when the hand is over).

        In the layoff phase (``auto_layoff`` off) the defender may show any valid
        arrangement; this list offers the optimal one and :meth:`check` validates others.
        """
        phase = self.phase
        if phase == "draw":
            if self.discard_pile and not self.first_draw_stock_only:
                return [_DRAW_STOCK, _DRAW_DISCARD]
            return [_DRAW_STOCK]
        if phase == "discard":
            seat = self.current_player
            mask = self.hands[seat]
            taken = self.taken_card
            discardable = mask if taken is None else mask & ~(1 << taken)
            actions = list(map(_DISCARD_ACTION, cards_of_mask(discardable)))
            knocks, big_gin = self._discard_options()
            if knocks:
                explicit = self.rules.knocker_arrangement == "explicit"
                for card in sorted(knocks):
                    if card == taken:
                        continue
                    if explicit:
                        best = min_deadwood(
                            cards_of_mask(mask & ~(1 << card)), ace_high=self.rules.ace_high_runs
                        )
                        actions.append(GinAction("knock", Card(card), best.melds))
                    else:
                        actions.append(_KNOCKS[card])
            if big_gin:
                actions.append(_BIG_GIN)
            return actions
        if phase == "offer":
            return [_TAKE_UPCARD, _PASS]
        if phase == "layoff":
            return [self._optimal_show()]
        return []

    def check(self, action: GinAction) -> None:
        """Raise :class:`IllegalActionError` if ``action`` is illegal now; else nothing."""
        self.clone().apply(action)

    def is_legal(self, action: GinAction) -> bool:
        """True when ``action`` may be applied now."""
        try:
            self.check(action)
        except IllegalActionError:
            return False
        return True

    def _discard_options(self) -> tuple[list[int], bool]:
        """(cards the player may knock with, whether big gin is possible), cached per hand."""
        mask = self.hands[self.current_player]
        cached = self._options
        if cached is not None and cached[0] == mask:
            return cached[1], cached[2]
        rules = self.rules
        limit = rules.knock_limit
        union = meld_union(mask, rules.ace_high_runs)
        loose = mask & ~union
        knocks: list[int] = []
        # Cheap bound first: cards in no meld stay deadwood whatever is discarded.
        if mask_value(loose) - top_card_value(loose) <= limit:
            if union:
                after = deadwood_after_each_discard(mask, rules.ace_high_runs)
                knocks = [card for card, deadwood in after.items() if deadwood <= limit]
            else:
                total = mask_value(mask)
                knocks = [c for c in cards_of_mask(mask) if total - CARD_VALUES[c] <= limit]
        big_gin = (
            union == mask
            and rules.big_gin_bonus > 0
            and (self.taken_card is None or rules.big_gin_from_discard)
            and min_deadwood_mask(mask, rules.ace_high_runs) == 0
        )
        self._options = (mask, knocks, big_gin)
        return knocks, big_gin

    # -- applying actions ----------------------------------------------------------------

    def apply(self, action: GinAction) -> list[Event]:
        """Apply ``action`` for the player to act; return the events it caused.

        Raises:
            IllegalActionError: the action is not legal now (the state is unchanged).
            InvalidActionError: the action is malformed.
        """
        if not isinstance(action, GinAction):
            raise InvalidActionError(f"not a gin action: {action!r}")
        phase = self.phase
        seat = self.current_player
        kind = action.kind
        if phase == "over":
            raise IllegalActionError(
                f"seat {seat} cannot {action}: the hand is over",
                code="hand_over",
                seat=seat,
                card=action.card,
            )
        if phase == "offer":
            if kind == "take_upcard":
                events = self._take_upcard(seat)
            elif kind == "pass":
                events = self._pass(seat)
            else:
                raise self._wrong_phase(action, "take the upcard or pass", "3 (upcard offer)")
        elif phase == "draw":
            if kind == "draw_stock":
                events = self._draw_stock(seat)
            elif kind == "draw_discard":
                events = self._draw_discard(seat)
            else:
                raise self._wrong_phase(action, "draw from the stock or the discard pile", "3")
        elif phase == "discard":
            if kind == "discard":
                events = self._discard(seat, action)
            elif kind == "knock":
                events = self._knock(seat, action)
            elif kind == "big_gin":
                events = self._big_gin(seat, action)
            else:
                raise self._wrong_phase(action, "discard, knock or declare big gin", "3")
        else:
            if kind != "lay_off":
                raise self._wrong_phase(action, "show melds and lay off", "4")
            events = self._lay_off(seat, action)
        self.actions.append(action)
        self._record(events)
        return events

    def _record(self, events: list[Event]) -> None:
        self.history.extend(events)
        first, second = self.seen
        for event in events:
            private = event.visible_to
            if private is None:
                first.append(event)
                second.append(event)
                continue
            # Only a stock draw is private: the other seat sees it with the card blanked.
            hidden = (
                _HIDDEN_DRAWS[private]
                if event.kind == "draw_stock" and event.seat == private
                else event.seen_by(1 - private)
            )
            first.append(event if private == 0 else hidden)
            second.append(event if private == 1 else hidden)

    def _wrong_phase(self, action: GinAction, expected: str, section: str) -> IllegalActionError:
        what = action.kind.replace("_", " ")
        if action.card is not None:
            what += " " + format_card(action.card)
        return IllegalActionError(
            f"seat {self.current_player} cannot {what} now: "
            f"in the {self.phase} phase the player must {expected} ({_SPEC} section {section})",
            code="wrong_phase",
            seat=self.current_player,
            card=action.card,
            rule=f"{_SPEC} section {section}",
        )

    def _take_upcard(self, seat: int) -> list[Event]:
        card = self.discard_pile.pop()
        self.hands[seat] |= 1 << card
        self.taken_card = card
        self.known[seat] |= 1 << card
        self.phase = "discard"
        return [_TAKE_UPCARD_EVENTS[seat][card]]

    def _pass(self, seat: int) -> list[Event]:
        self.offers += 1
        if self.offers == 1:
            self.current_player = 1 - seat
        else:
            self.current_player = self.starting_player
            self.phase = "draw"
            self.first_draw_stock_only = self.rules.first_turn_after_double_pass == "stock_only"
        return [_PASS_EVENTS[seat]]

    def _draw_stock(self, seat: int) -> list[Event]:
        card = self.stock.pop()
        self.hands[seat] |= 1 << card
        self.taken_card = None
        self.first_draw_stock_only = False
        self.phase = "discard"
        return [_DRAW_STOCK_EVENTS[seat][card]]

    def _draw_discard(self, seat: int) -> list[Event]:
        if self.first_draw_stock_only:
            raise IllegalActionError(
                f"seat {seat} cannot take {format_card(self.discard_pile[-1])} from the discard "
                "pile: after both players passed the upcard the first draw is from the stock "
                f"({_SPEC} section 3, first_turn_after_double_pass=stock_only)",
                code="stock_only_after_double_pass",
                seat=seat,
                card=self.discard_pile[-1] if self.discard_pile else None,
                rule="first_turn_after_double_pass",
            )
        if not self.discard_pile:
            raise IllegalActionError(
                f"seat {seat} cannot draw from the discard pile: it is empty ({_SPEC} section 3)",
                code="discard_pile_empty",
                seat=seat,
            )
        card = self.discard_pile.pop()
        self.hands[seat] |= 1 << card
        self.known[seat] |= 1 << card
        self.taken_card = card
        self.phase = "discard"
        return [_DRAW_DISCARD_EVENTS[seat][card]]

    def _require_in_hand(self, seat: int, card: int, verb: str) -> None:
        if not self.hands[seat] >> card & 1:
            raise IllegalActionError(
                f"seat {seat} cannot {verb} {format_card(card)}: not in the hand",
                code="card_not_in_hand",
                seat=seat,
                card=card,
                rule="cards in hand",
            )

    def _discard(self, seat: int, action: GinAction) -> list[Event]:
        card = int(action.card)  # type: ignore[arg-type]
        if not self.hands[seat] >> card & 1:
            self._require_in_hand(seat, card, "discard")  # raises
        if card == self.taken_card:
            raise IllegalActionError(
                f"seat {seat} cannot discard {format_card(card)}: a card taken from the "
                f"discard pile may not be discarded in the same turn ({_SPEC} section 3)",
                code="discard_taken_card",
                seat=seat,
                card=card,
                rule=f"{_SPEC} section 3",
            )
        self.hands[seat] &= ~(1 << card)
        self.known[seat] &= ~(1 << card)
        self.discard_pile.append(card)
        self.taken_card = None
        events = [_DISCARD_EVENTS[seat][card]]
        if len(self.stock) <= self.rules.stock_floor:
            self._finish(
                GinHandResult(
                    outcome="draw",
                    winner=None,
                    points=0,
                    hands=(
                        tuple(cards_of_mask(self.hands[0])),
                        tuple(cards_of_mask(self.hands[1])),
                    ),
                )
            )
            events.append(Event("hand_drawn", None, detail={"stock": len(self.stock)}))
            return events
        self.phase = "draw"
        self.current_player = 1 - seat
        return events

    def _validate_arrangement(self, seat: int, melds: Melds, cards_mask: int, what: str) -> int:
        """Check explicit melds within ``cards_mask``; return the mask they cover."""
        covered = 0
        for meld in melds:
            try:
                check_meld(meld, self.rules.meld_rules)
            except InvalidMeldError as error:
                raise IllegalActionError(
                    f"seat {seat} cannot {what}: {error} ({_SPEC} section 2)",
                    code="invalid_meld",
                    seat=seat,
                    card=meld[0] if meld else None,
                    rule=f"{_SPEC} section 2",
                ) from None
            for card in meld:
                bit = 1 << card
                if not cards_mask & bit:
                    raise IllegalActionError(
                        f"seat {seat} cannot {what}: {format_card(card)} is not available "
                        "for a meld (not in the hand, or the knock card)",
                        code="card_not_in_hand",
                        seat=seat,
                        card=card,
                        rule="cards in hand",
                    )
                if covered & bit:
                    raise IllegalActionError(
                        f"seat {seat} cannot {what}: {format_card(card)} is used in two melds "
                        f"({_SPEC} section 2: a card belongs to at most one meld)",
                        code="card_in_two_melds",
                        seat=seat,
                        card=card,
                        rule=f"{_SPEC} section 2",
                    )
                covered |= bit
        return covered

    def _knock(self, seat: int, action: GinAction) -> list[Event]:
        card = int(action.card)  # type: ignore[arg-type]
        self._require_in_hand(seat, card, "knock with")
        rules = self.rules
        if card == self.taken_card:
            raise IllegalActionError(
                f"seat {seat} cannot knock with {format_card(card)}: the card just taken from "
                f"the discard pile may not be the knock card ({_SPEC} section 3)",
                code="knock_with_taken_card",
                seat=seat,
                card=card,
                rule=f"{_SPEC} section 3",
            )
        rest = self.hands[seat] & ~(1 << card)
        if action.melds is None:
            if rules.knocker_arrangement == "explicit":
                raise IllegalActionError(
                    f"seat {seat} must name the melds when knocking with {format_card(card)} "
                    "(knocker_arrangement=explicit)",
                    code="arrangement_required",
                    seat=seat,
                    card=card,
                    rule="knocker_arrangement",
                )
            best = min_deadwood(cards_of_mask(rest), ace_high=rules.ace_high_runs)
            melds, deadwood = best.melds, best.deadwood
        else:
            covered = self._validate_arrangement(seat, action.melds, rest, "knock")
            melds = tuple(tuple(sorted(meld)) for meld in action.melds)
            deadwood = mask_value(rest & ~covered)
        if deadwood > rules.knock_limit:
            raise IllegalActionError(
                f"seat {seat} cannot knock with {format_card(card)}: the other cards leave "
                f"{deadwood} deadwood, more than the knock limit of {rules.knock_limit} "
                f"({_SPEC} section 3)",
                code="deadwood_over_knock_limit",
                seat=seat,
                card=card,
                rule="knock_limit",
            )
        covered_mask = mask_of(c for meld in melds for c in meld)
        self.hands[seat] = rest
        self.knocker = seat
        self.knock_card = card
        self.knock_arrangement = melds
        self.taken_card = None
        outcome = "gin" if deadwood == 0 else "knock"
        events = [
            Event(
                outcome,
                seat,
                Card(card),
                detail={
                    "melds": [format_cards(m) for m in melds],
                    "deadwood": deadwood,
                    "deadwood_cards": format_cards(cards_of_mask(rest & ~covered_mask)),
                },
            )
        ]
        if rules.auto_layoff:
            events.extend(self._score(self._optimal_show()))
        else:
            self.phase = "layoff"
            self.current_player = 1 - seat
        return events

    def _big_gin(self, seat: int, action: GinAction) -> list[Event]:
        rules = self.rules
        if rules.big_gin_bonus <= 0:
            raise IllegalActionError(
                f"seat {seat} cannot declare big gin: it is disabled (big_gin_bonus=0)",
                code="big_gin_disabled",
                seat=seat,
                rule="big_gin_bonus",
            )
        if self.taken_card is not None and not rules.big_gin_from_discard:
            raise IllegalActionError(
                f"seat {seat} cannot declare big gin with {format_card(self.taken_card)} taken "
                "from the discard pile (big_gin_from_discard=false)",
                code="big_gin_from_discard",
                seat=seat,
                card=self.taken_card,
                rule="big_gin_from_discard",
            )
        mask = self.hands[seat]
        if action.melds is None:
            best = min_deadwood(cards_of_mask(mask), ace_high=rules.ace_high_runs)
            melds, deadwood_cards = best.melds, best.deadwood_cards
        else:
            covered = self._validate_arrangement(seat, action.melds, mask, "declare big gin")
            melds = tuple(tuple(sorted(meld)) for meld in action.melds)
            deadwood_cards = tuple(cards_of_mask(mask & ~covered))
        if deadwood_cards:
            raise IllegalActionError(
                f"seat {seat} cannot declare big gin: {format_cards(deadwood_cards)} "
                f"fit(s) in no meld; all 11 cards must be melded ({_SPEC} section 3)",
                code="big_gin_not_melded",
                seat=seat,
                card=deadwood_cards[0],
                rule=f"{_SPEC} section 3",
            )
        self.knocker = seat
        self.knock_card = None
        self.knock_arrangement = melds
        self.taken_card = None
        events = [Event("big_gin", seat, detail={"melds": [format_cards(m) for m in melds]})]
        if rules.auto_layoff:
            events.extend(self._score(self._optimal_show()))
        else:
            self.phase = "layoff"
            self.current_player = 1 - seat
        return events

    def _gin_or_big(self) -> bool:
        knocker = self.knocker
        assert knocker is not None
        if self.knock_card is None:
            return True
        covered = mask_of(c for meld in self.knock_arrangement for c in meld)
        return mask_value(self.hands[knocker] & ~covered) == 0

    def _optimal_show(self) -> GinAction:
        """The defender's best melds and layoffs (no layoffs against gin)."""
        knocker = self.knocker
        assert knocker is not None
        defender_cards = cards_of_mask(self.hands[1 - knocker])
        if self._gin_or_big():
            best = min_deadwood(defender_cards, ace_high=self.rules.ace_high_runs)
            return GinAction("lay_off", None, best.melds, ())
        result = layoff_deadwood(
            self.knock_arrangement,
            defender_cards,
            chained=self.rules.chained_layoffs,
            ace_high=self.rules.ace_high_runs,
        )
        return GinAction("lay_off", None, result.melds, result.layoffs)

    def _lay_off(self, seat: int, action: GinAction) -> list[Event]:
        return self._score(action)

    def _score(self, show: GinAction) -> list[Event]:
        """Validate the defender's show, score the hand, and end it."""
        rules = self.rules
        knocker = self.knocker
        assert knocker is not None
        defender = 1 - knocker
        defender_mask = self.hands[defender]
        melds = show.melds or ()
        layoffs = show.layoffs or ()
        covered = self._validate_arrangement(defender, melds, defender_mask, "show these melds")
        gin_like = self._gin_or_big()
        if layoffs and gin_like:
            raise IllegalActionError(
                f"seat {defender} cannot lay off {format_card(layoffs[0][0])}: no layoffs "
                f"against gin ({_SPEC} section 4)",
                code="no_layoff_on_gin",
                seat=defender,
                card=layoffs[0][0],
                rule=f"{_SPEC} section 4",
            )
        targets = [list(meld) for meld in self.knock_arrangement]
        for card, index in layoffs:
            bit = 1 << card
            if not defender_mask & bit or covered & bit:
                raise IllegalActionError(
                    f"seat {defender} cannot lay off {format_card(card)}: it is not a free card "
                    "of the defender's hand",
                    code="card_not_in_hand",
                    seat=defender,
                    card=card,
                    rule="cards in hand",
                )
            if not 0 <= index < len(targets):
                raise IllegalActionError(
                    f"seat {defender} cannot lay off {format_card(card)} onto meld {index}: the "
                    f"knocker has {len(targets)} meld(s)",
                    code="no_such_meld",
                    seat=defender,
                    card=card,
                    rule=f"{_SPEC} section 4",
                )
            base = targets[index] if rules.chained_layoffs else list(self.knock_arrangement[index])
            try:
                check_meld([*base, card], rules.meld_rules)
            except InvalidMeldError:
                raise IllegalActionError(
                    f"seat {defender} cannot lay off {format_card(card)} onto "
                    f"{format_cards(targets[index])}: it does not extend that meld "
                    f"({_SPEC} section 4"
                    + ("" if rules.chained_layoffs else ", chained_layoffs=false")
                    + ")",
                    code="layoff_does_not_fit",
                    seat=defender,
                    card=card,
                    rule=f"{_SPEC} section 4",
                ) from None
            targets[index].append(card)
            covered |= bit
        defender_deadwood_mask = defender_mask & ~covered
        defender_deadwood = mask_value(defender_deadwood_mask)
        knocker_covered = mask_of(c for meld in self.knock_arrangement for c in meld)
        knocker_deadwood_mask = self.hands[knocker] & ~knocker_covered
        knocker_deadwood = mask_value(knocker_deadwood_mask)
        winner: int | None
        outcome: Outcome
        if self.knock_card is None:
            outcome = "big_gin"
            winner, points = knocker, defender_deadwood + rules.big_gin_bonus
        elif knocker_deadwood == 0:
            outcome = "gin"
            winner, points = knocker, defender_deadwood + rules.gin_bonus
        elif knocker_deadwood < defender_deadwood:
            outcome = "knock"
            winner, points = knocker, defender_deadwood - knocker_deadwood
        elif knocker_deadwood == defender_deadwood and not rules.undercut_on_tie:
            outcome = "knock"
            winner, points = None, 0
        else:
            outcome = "undercut"
            winner, points = defender, rules.undercut_bonus + knocker_deadwood - defender_deadwood
        result = GinHandResult(
            outcome=outcome,
            winner=winner,
            points=points,
            knocker=knocker,
            knocker_deadwood=knocker_deadwood,
            defender_deadwood=defender_deadwood,
            knock_card=None if self.knock_card is None else Card(self.knock_card),
            knocker_melds=self.knock_arrangement,
            knocker_deadwood_cards=tuple(cards_of_mask(knocker_deadwood_mask)),
            defender_melds=tuple(tuple(sorted(meld)) for meld in melds),
            layoffs=tuple((Card(card), index) for card, index in layoffs),
            defender_deadwood_cards=tuple(cards_of_mask(defender_deadwood_mask)),
            hands=(tuple(cards_of_mask(self.hands[0])), tuple(cards_of_mask(self.hands[1]))),
        )
        self._finish(result)
        return [
            Event(
                "show",
                defender,
                detail={
                    "melds": [format_cards(m) for m in result.defender_melds],
                    "layoffs": [[format_card(c), i] for c, i in result.layoffs],
                    "deadwood": defender_deadwood,
                },
            ),
            Event(
                "hand_scored",
                winner,
                detail={"outcome": outcome, "points": points},
            ),
        ]

    def _finish(self, result: GinHandResult) -> None:
        self.result = result
        self.phase = "over"

    # -- views ----------------------------------------------------------------------------

    def observation(self, seat: int) -> GinObservation:
        """Everything ``seat`` may know, and nothing else."""
        if seat not in (0, 1):
            raise ValueError(f"gin has seats 0 and 1, not {seat!r}")
        other = 1 - seat
        return GinObservation(
            seat=seat,
            phase=self.phase,
            current_player=self.current_player,
            dealer=self.dealer,
            hand=tuple(cards_of_mask(self.hands[seat])),
            discard_pile=tuple(Card(c) for c in self.discard_pile),
            stock_size=len(self.stock),
            opponent_hand_size=self.hands[other].bit_count(),
            opponent_known_cards=tuple(cards_of_mask(self.known[other] & self.hands[other])),
            taken_card=(
                Card(self.taken_card)
                if self.taken_card is not None and self.current_player == seat
                else None
            ),
            knocker_melds=self.knock_arrangement if self.knocker is not None else (),
            history=tuple(self.seen[seat]),
            result=self.result,
        )

    def clone(self) -> GinHand:
        """An independent copy (cheap: a few small lists)."""
        other = GinHand.__new__(GinHand)
        other.rules = self.rules
        other.phase = self.phase
        other.current_player = self.current_player
        other.dealer = self.dealer
        other.hands = self.hands.copy()
        other.stock = self.stock.copy()
        other.discard_pile = self.discard_pile.copy()
        other.offers = self.offers
        other.taken_card = self.taken_card
        other.first_draw_stock_only = self.first_draw_stock_only
        other.knocker = self.knocker
        other.knock_card = self.knock_card
        other.knock_arrangement = self.knock_arrangement
        other.known = self.known.copy()
        other.result = self.result
        other.history = self.history.copy()
        other.seen = (self.seen[0].copy(), self.seen[1].copy())
        other.actions = self.actions.copy()
        other.seed = self.seed
        other.deck = self.deck
        other._options = self._options
        return other

    # -- records and replay -------------------------------------------------------------

    def to_record(self) -> dict[str, Any]:
        """A JSON-ready record (rules, seed, deal order, actions) that replays this hand."""
        return {
            "variant": "gin",
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "dealer": self.dealer,
            "deck": format_cards(self.deck),
            "actions": [action.to_json() for action in self.actions],
        }

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> GinHand:
        """Rebuild a hand from :meth:`to_record` by replaying its actions."""
        if record.get("variant", "gin") != "gin":
            raise ValueError(f"not a gin record: variant {record.get('variant')!r}")
        rules = GinRules.from_dict(record.get("rules", {}))
        deck = parse_cards(record["deck"]) if record.get("deck") else None
        seed = record.get("seed")
        hand = new_hand(rules, seed=seed, dealer=record.get("dealer", 0), deck=deck)
        # The recorded deck overrides the seed; keep the seed too, so the rebuilt hand
        # is identical to the recorded one (and its own record keeps the seed).
        hand.seed = seed if isinstance(seed, int) else None
        for data in record.get("actions", ()):
            hand.apply(GinAction.from_json(data))
        return hand

    def __repr__(self) -> str:
        return (
            f"<GinHand phase={self.phase} player={self.current_player} "
            f"stock={len(self.stock)} upcard={self.upcard}>"
        )


GIN_DECK: Final = DeckSpec(decks=1, jokers=0)


def new_hand(
    rules: GinRules | None = None,
    seed: int | random.Random | None = None,
    *,
    dealer: int = 0,
    deck: Sequence[int] | None = None,
) -> GinHand:
    """Deal a hand: 10 cards each (non-dealer first), one upcard, 31 in the stock.

    Args:
        rules: the options (reference rules by default).
        seed: an int or RNG for a reproducible shuffle; ``None`` shuffles from a
            cryptographically secure source.
        dealer: seat 0 or 1; the other seat is offered the upcard first.
        deck: an explicit card order, top card first (tests, replays, puzzles); it
            overrides ``seed``.
    """
    rules = rules or GinRules()
    if dealer not in (0, 1):
        raise ValueError(f"dealer must be seat 0 or 1, not {dealer!r}")
    order = ordered_deck(deck, GIN_DECK) if deck is not None else shuffled_deck(GIN_DECK, seed)
    hand = GinHand.__new__(GinHand)
    hand.rules = rules
    hand.dealer = dealer
    hand.seed = seed if isinstance(seed, int) and deck is None else None
    hand.deck = tuple(order)
    first = 1 - dealer
    masks = [0, 0]
    for i in range(20):
        masks[first if i % 2 == 0 else dealer] |= 1 << order[i]
    hand.hands = masks
    hand.discard_pile = [int(order[20])]
    # The stock is a list with its top card last, so drawing is a pop().
    hand.stock = [int(card) for card in reversed(order[21:])]
    hand.phase = "offer"
    hand.current_player = first
    hand.offers = 0
    hand.taken_card = None
    hand.first_draw_stock_only = False
    hand.knocker = None
    hand.knock_card = None
    hand.knock_arrangement = ()
    hand.known = [0, 0]
    hand.result = None
    hand.history = []
    hand.seen = ([], [])
    hand._record([Event("deal", dealer, detail={"upcard": format_card(order[20])})])
    hand.actions = []
    hand._options = None
    return hand
