"""Carousel: manipulation rummy with up to three draws and a knock (the Carousel rules).

Every turn begins with an automatic draw. While the player has drawn fewer than three
cards and has not melded, he either draws again or submits a meld: the **complete new
table layout**, checked as a whole by :func:`rummykit.games.carousel.layout.check_layout`.
After a meld he may meld again or end the turn; at the end of his turn he may knock
with a hand value of 5 or less. When the stock runs out every player gets one final,
draw-less turn.

>>> hand = new_hand(CarouselRules(), players=3, seed=1)
>>> hand.current_player, len(hand.hand_cards(hand.current_player)), hand.draws
(1, 11, 1)
>>> [str(a) for a in hand.legal_actions()]
['draw']
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import chain, compress
from operator import not_
from typing import Any, Final, Literal

from rummykit.cards import (
    FACES,
    PHYSICAL_IDS,
    Card,
    DeckSpec,
    format_card,
    format_cards,
    ordered_deck,
    shuffled_deck,
)
from rummykit.core import Event, IllegalActionError, InvalidActionError
from rummykit.errors import InvalidOptionError
from rummykit.games.carousel.actions import CarouselAction, Layout
from rummykit.games.carousel.layout import (
    IllegalLayoutError,
    LayoutCheck,
    resolve_layout,
)
from rummykit.games.carousel.rules import (
    CarouselRules,
    carousel_hand_value,
    score_carousel_hand,
)
from rummykit.games.carousel.under_rules import check_layout_under
from rummykit.hand_engine import HandEngine
from rummykit.memo import Memo

__all__ = [
    "CarouselAction",
    "CarouselHand",
    "CarouselHandResult",
    "CarouselObservation",
    "CarouselRules",
    "carousel_hand_value",
    "new_hand",
    "score_carousel_hand",
]

Phase = Literal["play", "over"]


@dataclass(frozen=True, slots=True)
class CarouselHandResult:
    """How a hand ended and what each seat scored."""

    reason: Literal["knock", "went_out", "stock_exhausted"]
    knocker: int | None
    """The knocker, or the player who went out."""
    values: tuple[int, ...]
    """Each seat's hand value at the end."""
    winners: tuple[int, ...]
    points: tuple[int, ...]
    hands: tuple[tuple[Card, ...], ...]

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "reason": self.reason,
            "knocker": self.knocker,
            "values": list(self.values),
            "winners": list(self.winners),
            "points": list(self.points),
            "hands": [format_cards(hand) for hand in self.hands],
        }


@dataclass(frozen=True, slots=True)
class CarouselObservation:
    """What one seat may know: own hand, the table, counts. Never another hand or the
    stock order."""

    seat: int
    players: int
    phase: Phase
    current_player: int
    dealer: int
    hand: tuple[Card, ...]
    table: Layout
    hand_sizes: tuple[int, ...]
    stock_size: int
    draws: int
    """Cards the player to act has drawn this turn."""
    melded: bool
    """Whether the player to act has melded this turn."""
    final_lap: bool
    history: tuple[Event, ...]
    result: CarouselHandResult | None
    scores: tuple[int, ...] = ()
    target: int = 150


@dataclass(frozen=True, slots=True)
class _CheckedMeld:
    """A meld action checked in one state: kept so that applying it checks nothing again."""

    state: tuple[object, ...]
    action: CarouselAction
    table: Layout
    """The new table on physical cards."""
    check: LayoutCheck


class CarouselHand(HandEngine):
    """One hand of Carousel for 2-5 players. Build with :func:`new_hand`.

    **Check once.** A meld is checked by :func:`~rummykit.games.carousel.layout.check_layout`
    (the whole new table against the old). :meth:`check` returns that
    :class:`~rummykit.games.carousel.layout.LayoutCheck` (what the meld lays, the hand
    after it, the jokers it frees) and keeps it; :meth:`apply` of the same action
    (equal, e.g. parsed again from the same JSON) in the same state reuses it instead
    of checking again. So a server that checks a move, shows what it lays and applies
    it runs ``check_layout`` once::

        laid = hand.check(action)  # IllegalActionError if illegal; LayoutCheck for a meld
        hand.apply(action)  # no second check_layout

    Only the last check is kept, and only until the state changes.
    """

    record_kind = "carousel"
    record_kind_required = True
    action_type = CarouselAction

    __slots__ = (
        "_kept_check",
        "_seen",
        "actions",
        "current_player",
        "dealer",
        "deck",
        "decks",
        "draws",
        "final_lap",
        "hands",
        "history",
        "lap_left",
        "melded",
        "phase",
        "players",
        "result",
        "rules",
        "seed",
        "stock",
        "table",
    )

    rules: CarouselRules
    players: int
    decks: int
    phase: Phase
    current_player: int
    dealer: int
    hands: list[list[Card]]
    stock: list[Card]
    table: list[tuple[Card, ...]]
    draws: int
    melded: bool
    final_lap: bool
    lap_left: int
    result: CarouselHandResult | None
    history: list[Event]
    actions: list[CarouselAction]
    seed: int | None
    deck: tuple[Card, ...]
    _kept_check: _CheckedMeld | None
    _seen: dict[int, tuple[list[Event], list[Event]]]
    """Per seat, the history list its view was taken from, and that view so far."""

    # -- state -----------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """True once the hand is scored."""
        return self.phase == "over"

    def hand_cards(self, seat: int) -> list[Card]:
        """A seat's cards (engine-side; players see theirs through observation)."""
        return list(self.hands[seat])

    def hand_value(self, seat: int) -> int:
        """The seat's hand value now."""
        return carousel_hand_value(self.hands[seat], self.rules)

    def may_draw(self) -> bool:
        """Whether the player to act may draw again now."""
        return (
            self.phase == "play"
            and not self.final_lap
            and not self.melded
            and self.draws < self.rules.max_draws
            and bool(self.stock)
        )

    def may_meld(self) -> bool:
        """Whether the player to act may submit a meld now (§carousel-3.2, §carousel-3.3)."""
        if self.phase != "play":
            return False
        if self.final_lap or self.melded or self.draws < self.rules.max_draws:
            return True
        return self.rules.meld_after_last_draw

    def may_end_turn(self) -> bool:
        """Whether the turn may end now: after a meld, after the last draw, on an empty
        stock, or in a final turn."""
        if self.phase != "play":
            return False
        return self.final_lap or self.melded or self.draws >= self.rules.max_draws or not self.stock

    def legal_actions(self) -> list[CarouselAction]:
        """The finite legal actions: draw, end_turn, knock. Melds are open-ended: use
        :meth:`check` or the solver (``rummykit.games.carousel.arrange.best_placement``)."""
        actions: list[CarouselAction] = []
        if self.may_draw():
            actions.append(_DRAW)
        if self.may_end_turn():
            actions.append(_END_TURN)
            if self.hand_value(self.current_player) <= self.rules.knock_limit:
                actions.append(_KNOCK)
        return actions

    def check(self, action: CarouselAction) -> LayoutCheck | None:
        """Raise :class:`IllegalActionError` when ``action`` is illegal now; for a legal
        meld return its :class:`LayoutCheck` (what it lays, the hand after it).

        The state is not changed. A meld's check is kept for :meth:`apply`, which then
        applies the same action without checking the layout again (see the class
        docstring)."""
        seat = self._acting_seat(action)
        kind = action.kind
        if kind == "meld":
            return self._checked_meld(seat, action).check
        if kind == "draw":
            self._check_draw(seat)
        elif kind == "end_turn" or kind == "knock":
            self._check_end_turn(seat, knock=kind == "knock")
        else:
            raise InvalidActionError(f"unknown carousel action kind {kind!r}")
        return None

    # -- actions ---------------------------------------------------------------------

    def apply(self, action: CarouselAction) -> list[Event]:
        """Apply an action of the player to act; return the events.

        Raises:
            IllegalActionError: not legal now (the state is unchanged).
            InvalidActionError: malformed.
        """
        seat = self._acting_seat(action)
        kind = action.kind
        if kind == "draw":
            self._check_draw(seat)
            events = self._draw(seat)
        elif kind == "meld":
            events = self._meld(seat, self._checked_meld(seat, action))
        elif kind == "end_turn" or kind == "knock":
            knock = kind == "knock"
            self._check_end_turn(seat, knock=knock)
            events = self._end_turn(seat, knock=knock)
        else:
            raise InvalidActionError(f"unknown carousel action kind {kind!r}")
        self.actions.append(action)
        self.history.extend(events)
        return events

    def _acting_seat(self, action: CarouselAction) -> int:
        """The seat to act, once ``action`` is a Carousel action and the hand goes on."""
        if not isinstance(action, CarouselAction):
            raise InvalidActionError(f"not a carousel action: {action!r}")
        seat = self.current_player
        if self.phase == "over":
            raise IllegalActionError(
                f"seat {seat}: the hand is over; {action.kind} is not possible",
                code="hand_over",
                seat=seat,
                rule="carousel-4.1",
            )
        return seat

    def _check_draw(self, seat: int) -> None:
        if self.may_draw():
            return
        if self.final_lap:
            why, rule, cause = "final-lap turns have no draw", "carousel-4.4", "final_lap"
        elif self.melded:
            why, rule = "once a meld has been made no further draw that turn", "carousel-3.3"
            cause = "draw_after_meld"
        elif self.draws >= self.rules.max_draws:
            why, rule = f"at most {self.rules.max_draws} draws per turn", "carousel-3.1"
            cause = "max_draws"
        else:
            why, rule, cause = "the stock is empty", "carousel-4.4", "stock_empty"
        raise IllegalActionError(
            f"seat {seat} cannot draw again: {why}",
            code="draw_not_allowed",
            seat=seat,
            rule=rule,
            numbers={"max_draws": self.rules.max_draws},
            cause=cause,
        )

    def _draw(self, seat: int) -> list[Event]:
        card = self.stock.pop()
        self.hands[seat].append(card)
        self.draws += 1
        events = [Event("draw", seat, card, visible_to=seat, detail={"draw": self.draws})]
        if not self.stock:
            # Every player gets one final turn, from the next one round to this one.
            self.lap_left = self.players
            events.append(Event("stock_exhausted", seat))
        return events

    def _checked_meld(self, seat: int, action: CarouselAction) -> _CheckedMeld:
        """The meld resolved onto physical cards and its layout check: the one kept by
        the last :meth:`check` when it was of this action in this state, else made now."""
        state = self._state_key()
        kept = self._kept_check
        if kept is not None and kept.state == state and kept.action == action:
            return kept
        if not self.may_meld():
            raise IllegalActionError(
                f"seat {seat} cannot meld now: no melding after the last "
                f"({self.rules.max_draws}) draw of a turn",
                code="meld_after_last_draw",
                seat=seat,
                numbers={"max_draws": self.rules.max_draws},
                rule="carousel-3.2",
            )
        hand = self.hands[seat]
        new_table = resolve_layout(self.table, hand, action.layout or (), seat)
        try:
            check = check_layout_under(self.rules, self.decks, self.table, new_table, hand)
        except IllegalLayoutError as error:
            # The checker's reason names the meld and the card; its rule is cited once.
            raise IllegalActionError(
                f"seat {seat}: {error.reason}",
                code="illegal_layout",
                seat=seat,
                card=error.card,
                rule=error.rule,
                numbers=error.numbers,
                # A meld's own reason (run_gaps) says more than invalid_meld.
                cause=error.cause or error.code,
            ) from None
        kept = self._kept_check = _CheckedMeld(state, action, tuple(new_table), check)
        return kept

    def _state_key(self) -> tuple[object, ...]:
        """What a kept meld check depends on: it is reused only while all of this is
        unchanged (the table and the hand compare as the same objects at once)."""
        seat = self.current_player
        return (
            len(self.actions),
            seat,
            self.draws,
            self.melded,
            self.final_lap,
            self.table,
            self.hands[seat],
        )

    def _meld(self, seat: int, checked: _CheckedMeld) -> list[Event]:
        new_table = checked.table
        laid = checked.check.cards
        # The hand cards laid, in table order: a natural card has the same id on the
        # table as in the hand; a joker is declared there, so when one is laid the new
        # table's cards are compared with the old one's by physical id.
        cards = list(chain.from_iterable(new_table))
        placed = list(filter(set(laid).__contains__, cards))
        if len(placed) != len(laid):
            on_table = set(map(_PHYSICAL, chain.from_iterable(self.table)))
            placed = list(
                compress(cards, map(not_, map(on_table.__contains__, map(_PHYSICAL, cards))))
            )
        self.hands[seat] = list(checked.check.remaining)
        self.table = list(new_table)
        self.melded = True
        self._kept_check = None
        layout = list(map(_MELD_TEXTS.__getitem__, new_table))
        from_hand = _meld_text(placed)
        events = [Event("meld", seat, detail={"layout": layout, "from_hand": from_hand})]
        if not self.hands[seat]:
            events.append(Event("went_out", seat))
            events.extend(self._score(knocker=seat, went_out=True, reason="went_out"))
        return events

    def _check_end_turn(self, seat: int, *, knock: bool) -> None:
        if not self.may_end_turn():
            raise IllegalActionError(
                f"seat {seat} cannot {'knock' if knock else 'end the turn'} yet: after drawing "
                f"{self.draws} card(s) without melding the player must meld or draw again",
                code="turn_not_finished",
                seat=seat,
                numbers={"draws": self.draws},
                rule="carousel-3.11",
            )
        if knock:
            value = self.hand_value(seat)
            if value > self.rules.knock_limit:
                raise IllegalActionError(
                    f"seat {seat} cannot knock: hand value {value} is over the knock limit of "
                    f"{self.rules.knock_limit}",
                    code="hand_over_knock_limit",
                    seat=seat,
                    numbers={"value": value, "limit": self.rules.knock_limit},
                    rule="carousel-4.2",
                )

    def _end_turn(self, seat: int, *, knock: bool) -> list[Event]:
        if knock:
            return [
                Event("knock", seat, detail={"value": self.hand_value(seat)}),
                *self._score(knocker=seat, went_out=False, reason="knock"),
            ]
        events = [Event("end_turn", seat)]
        if self.final_lap:
            self.lap_left -= 1
            if self.lap_left <= 0:
                events.extend(self._score(knocker=None, went_out=False, reason="stock_exhausted"))
                return events
        elif not self.stock:
            self.final_lap = True
            events.append(Event("final_lap", None, detail={"turns": self.lap_left}))
        self._next_turn(events)
        return events

    def _next_turn(self, events: list[Event]) -> None:
        self.current_player = (self.current_player + 1) % self.players
        self.draws = 0
        self.melded = False
        if not self.final_lap:
            events.extend(self._draw(self.current_player))

    def _score(
        self,
        *,
        knocker: int | None,
        went_out: bool,
        reason: Literal["knock", "went_out", "stock_exhausted"],
    ) -> list[Event]:
        values = tuple(self.hand_value(seat) for seat in range(self.players))
        winners, points = score_carousel_hand(
            values,
            knocker=knocker,
            went_out=went_out,
            rules=self.rules,
            first_seat=(self.current_player + 1) % self.players,
        )
        self.result = CarouselHandResult(
            reason=reason,
            knocker=knocker,
            values=values,
            winners=winners,
            points=points,
            hands=tuple(tuple(hand) for hand in self.hands),
        )
        self.phase = "over"
        return [Event("hand_scored", None, detail=self.result.to_json())]

    # -- views -----------------------------------------------------------------------

    def observation(self, seat: int) -> CarouselObservation:
        """Everything ``seat`` may know, and nothing else."""
        if not 0 <= seat < self.players:
            raise InvalidOptionError(
                f"this hand has seats 0-{self.players - 1}, not {seat!r}", option="seat"
            )
        acting = self.current_player
        return CarouselObservation(
            seat=seat,
            players=self.players,
            phase=self.phase,
            current_player=acting,
            dealer=self.dealer,
            # By face: suit, then rank, the jokers (face 52) last.
            hand=tuple(sorted(self.hands[seat], key=FACES.__getitem__)),
            table=tuple(self.table),
            hand_sizes=tuple(len(hand) for hand in self.hands),
            stock_size=len(self.stock),
            draws=self.draws,
            melded=self.melded,
            final_lap=self.final_lap,
            history=self._history_seen_by(seat),
            result=self.result,
        )

    def _history_seen_by(self, seat: int) -> tuple[Event, ...]:
        """The history as ``seat`` sees it. The history only grows, so each seat's view
        is kept and extended by the events since (rebuilt if the history was replaced)."""
        history = self.history
        source, seen = self._seen.get(seat, (None, []))
        if source is not history or len(seen) > len(history):
            seen = []
            self._seen[seat] = (history, seen)
        if len(seen) < len(history):
            seen.extend(event.seen_by(seat) for event in history[len(seen) :])
        return tuple(seen)

    def clone(self) -> CarouselHand:
        """An independent copy."""
        other = CarouselHand.__new__(CarouselHand)
        for name in CarouselHand.__slots__:
            setattr(other, name, getattr(self, name))
        other.hands = [hand.copy() for hand in self.hands]
        other.stock = self.stock.copy()
        other.table = self.table.copy()
        other.history = self.history.copy()
        other.actions = self.actions.copy()
        other._seen = {}
        return other

    # -- records ---------------------------------------------------------------------

    def to_record(self) -> dict[str, Any]:
        """JSON-ready record (rules, players, seed, deal order, actions)."""
        return self._record(
            players=self.players,
            seed=self.seed,
            dealer=self.dealer,
            deck=[int(card) for card in self.deck],
        )

    @classmethod
    def _dealt_from_record(cls, record: Mapping[str, Any]) -> CarouselHand:
        rules = CarouselRules.from_dict(record.get("rules", {}))
        players = int(record["players"])
        deck = [Card(int(card)) for card in record["deck"]]
        return new_hand(rules, players=players, dealer=int(record.get("dealer", 0)), deck=deck)


def new_hand(
    rules: CarouselRules | None = None,
    *,
    players: int = 3,
    seed: int | random.Random | None = None,
    dealer: int = 0,
    deck: Sequence[int] | None = None,
) -> CarouselHand:
    """Deal a hand: 10 cards each from the dealer's left, the rest is the stock; the
    player left of the dealer starts (with the automatic first draw done)."""
    rules = rules or CarouselRules()
    if not 2 <= players <= 5:
        raise InvalidOptionError(f"carousel is for 2-5 players, not {players!r}", option="players")
    if not 0 <= dealer < players:
        raise InvalidOptionError(
            f"dealer must be a seat 0-{players - 1}, not {dealer!r}", option="dealer"
        )
    decks = rules.decks_for(players)
    spec = DeckSpec(decks=decks, jokers=decks)
    if 10 * players >= spec.size:
        raise InvalidOptionError(
            f"{decks} deck(s) are too few for {players} players", option="decks"
        )
    order = ordered_deck(deck, spec) if deck is not None else shuffled_deck(spec, seed)
    hand = CarouselHand.__new__(CarouselHand)
    hand.rules = rules
    hand.players = players
    hand.decks = decks
    hand.dealer = dealer
    hand.seed = seed if isinstance(seed, int) and deck is None else None
    hand.deck = tuple(order)
    hand.hands = [[] for _ in range(players)]
    for i in range(10 * players):
        hand.hands[(dealer + 1 + i) % players].append(order[i])
    # The stock keeps its top card last, so a draw is a pop().
    hand.stock = list(reversed(order[10 * players :]))
    hand.table = []
    hand.phase = "play"
    hand.current_player = (dealer + 1) % players
    hand.draws = 0
    hand.melded = False
    hand.final_lap = False
    hand.lap_left = 0
    hand.result = None
    hand.history = [Event("deal", dealer, detail={"players": players, "decks": decks})]
    hand.actions = []
    hand._kept_check = None
    hand._seen = {}
    hand.history.extend(hand._draw(hand.current_player))
    return hand


def _meld_text(cards: Sequence[Card]) -> str:
    """``format_cards`` from the kept per-card texts."""
    return " ".join(map(_CARD_TEXTS.__getitem__, cards))


_CARD_TEXTS: Final = Memo(format_card)
"""Per card id, its notation: a meld's text joins its cards'."""
_MELD_TEXTS: Final = Memo(_meld_text)
"""Per table meld, its notation (it depends only on the card ids): most melds of a
layout were on the table before."""
_DRAW: Final = CarouselAction.draw()
_END_TURN: Final = CarouselAction.end_turn()
_KNOCK: Final = CarouselAction.knock()
_PHYSICAL: Final = (PHYSICAL_IDS - 1).__and__
""":func:`~rummykit.cards.physical_of` as a method of an int (mapped over many cards)."""
