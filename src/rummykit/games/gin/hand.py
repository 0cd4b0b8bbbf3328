"""Gin Rummy's hand engine: dealing, the turn, knocking and the showdown (the Gin rules).

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
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from rummykit.cards import (
    Card,
    DeckSpec,
    format_card,
    format_cards,
    ordered_deck,
    parse_cards,
    shuffled_deck,
)
from rummykit.core import Event, IllegalActionError, InvalidActionError
from rummykit.errors import InvalidOptionError
from rummykit.games.gin.actions import (
    BIG_GIN,
    DISCARDS,
    DRAW_DISCARD,
    DRAW_STOCK,
    KNOCKS,
    PASS,
    TAKE_UPCARD,
    GinAction,
    Melds,
)
from rummykit.games.gin.deadwood import (
    cards_of_mask,
    mask_of,
    min_deadwood,
    min_deadwood_mask,
)
from rummykit.games.gin.events import (
    DISCARD_EVENTS,
    DRAW_DISCARD_EVENTS,
    DRAW_STOCK_EVENTS,
    PASS_EVENTS,
    TAKE_UPCARD_EVENTS,
    record_events,
)
from rummykit.games.gin.knocking import check_big_gin, check_knock, knock_options
from rummykit.games.gin.observation import GinObservation, Phase
from rummykit.games.gin.result import GinHandResult
from rummykit.games.gin.rules import GinRules
from rummykit.games.gin.showdown import optimal_show, score_show, showdown_events
from rummykit.hand_engine import HandEngine

__all__ = [
    # The types the engine speaks, importable from here as well as from the package.
    "GinAction",
    "GinHand",
    "GinHandResult",
    "GinObservation",
    "GinRules",
    "new_hand",
]

_DISCARD_ACTION: Final = DISCARDS.__getitem__


class GinHand(HandEngine):
    """One hand of Gin Rummy between seats 0 and 1. Build with :func:`new_hand`."""

    record_kind = "gin"
    action_type = GinAction

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
                return [DRAW_STOCK, DRAW_DISCARD]
            return [DRAW_STOCK]
        if phase == "discard":
            seat = self.current_player
            mask = self.hands[seat]
            taken = self.taken_card
            discardable = mask if taken is None else mask & ~(1 << taken)
            actions = list(map(_DISCARD_ACTION, cards_of_mask(discardable)))
            # Cached per hand mask: callers ask for the same state's actions more than once.
            options = self._options
            if options is None or options[0] != mask:
                options = self._options = (mask, *knock_options(self.rules, mask, taken))
            knocks, big_gin = options[1], options[2]
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
                        actions.append(KNOCKS[card])
            if big_gin:
                actions.append(BIG_GIN)
            return actions
        if phase == "offer":
            return [TAKE_UPCARD, PASS]
        if phase == "layoff":
            return [self._optimal_show()]
        return []

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
                rule="gin-3.1",
            )
        moves, duty, rule = _PHASE_MOVES[phase]
        move = moves.get(kind)
        if move is None:
            raise self._wrong_phase(action, duty, rule)
        events = move(self, seat, action)
        self.actions.append(action)
        record_events(self.history, self.seen, events)
        return events

    def _wrong_phase(self, action: GinAction, expected: str, rule: str) -> IllegalActionError:
        """The refusal of an action out of its phase; ``rule`` is the one for this phase."""
        what = action.kind.replace("_", " ")
        if action.card is not None:
            what += " " + format_card(action.card)
        return IllegalActionError(
            f"seat {self.current_player} cannot {what} now: "
            f"in the {self.phase} phase the player must {expected}",
            code="wrong_phase",
            seat=self.current_player,
            card=action.card,
            rule=rule,
        )

    def _take_upcard(self, seat: int, action: GinAction) -> list[Event]:
        card = self.discard_pile.pop()
        self.hands[seat] |= 1 << card
        self.taken_card = card
        self.known[seat] |= 1 << card
        self.phase = "discard"
        return [TAKE_UPCARD_EVENTS[seat][card]]

    def _pass(self, seat: int, action: GinAction) -> list[Event]:
        self.offers += 1
        if self.offers == 1:
            self.current_player = 1 - seat
        else:
            self.current_player = self.starting_player
            self.phase = "draw"
            self.first_draw_stock_only = self.rules.first_turn_after_double_pass == "stock_only"
        return [PASS_EVENTS[seat]]

    def _draw_stock(self, seat: int, action: GinAction) -> list[Event]:
        card = self.stock.pop()
        self.hands[seat] |= 1 << card
        self.taken_card = None
        self.first_draw_stock_only = False
        self.phase = "discard"
        return [DRAW_STOCK_EVENTS[seat][card]]

    def _draw_discard(self, seat: int, action: GinAction) -> list[Event]:
        if self.first_draw_stock_only:
            raise IllegalActionError(
                f"seat {seat} cannot take {format_card(self.discard_pile[-1])} from the discard "
                "pile: with first_turn_after_double_pass=stock_only, the first draw after "
                "both players passed the upcard is from the stock",
                code="stock_only_after_double_pass",
                seat=seat,
                card=self.discard_pile[-1] if self.discard_pile else None,
                rule="gin-3.3",
            )
        if not self.discard_pile:
            raise IllegalActionError(
                f"seat {seat} cannot draw from the discard pile: it is empty",
                code="discard_pile_empty",
                seat=seat,
                rule="gin-3.4",
            )
        card = self.discard_pile.pop()
        self.hands[seat] |= 1 << card
        self.known[seat] |= 1 << card
        self.taken_card = card
        self.phase = "discard"
        return [DRAW_DISCARD_EVENTS[seat][card]]

    def _require_in_hand(self, seat: int, card: int, verb: str) -> None:
        if not self.hands[seat] >> card & 1:
            raise IllegalActionError(
                f"seat {seat} cannot {verb} {format_card(card)}: not in the hand",
                code="card_not_in_hand",
                seat=seat,
                card=card,
            )

    def _discard(self, seat: int, action: GinAction) -> list[Event]:
        card = int(action.card)  # type: ignore[arg-type]
        if not self.hands[seat] >> card & 1:
            self._require_in_hand(seat, card, "discard")  # raises
        if card == self.taken_card:
            raise IllegalActionError(
                f"seat {seat} cannot discard {format_card(card)}: a card taken from the "
                "discard pile may not be discarded in the same turn",
                code="discard_taken_card",
                seat=seat,
                card=card,
                rule="gin-3.5",
            )
        self.hands[seat] &= ~(1 << card)
        self.known[seat] &= ~(1 << card)
        self.discard_pile.append(card)
        self.taken_card = None
        events = [DISCARD_EVENTS[seat][card]]
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

    def _knock(self, seat: int, action: GinAction) -> list[Event]:
        card = int(action.card)  # type: ignore[arg-type]
        self._require_in_hand(seat, card, "knock with")
        rest = self.hands[seat] & ~(1 << card)
        melds, deadwood = check_knock(self.rules, seat, rest, card, self.taken_card, action.melds)
        covered_mask = mask_of(c for meld in melds for c in meld)
        self.hands[seat] = rest
        self.knocker = seat
        self.knock_card = card
        self.knock_arrangement = melds
        self.taken_card = None
        detail = {
            "melds": [format_cards(m) for m in melds],
            "deadwood": deadwood,
            "deadwood_cards": format_cards(cards_of_mask(rest & ~covered_mask)),
        }
        outcome = "gin" if deadwood == 0 else "knock"
        return self._after_knock(seat, Event(outcome, seat, Card(card), detail=detail))

    def _big_gin(self, seat: int, action: GinAction) -> list[Event]:
        mask = self.hands[seat]
        melds = check_big_gin(self.rules, seat, mask, self.taken_card, action.melds)
        self.knocker = seat
        self.knock_card = None
        self.knock_arrangement = melds
        self.taken_card = None
        detail = {"melds": [format_cards(m) for m in melds]}
        return self._after_knock(seat, Event("big_gin", seat, detail=detail))

    def _after_knock(self, seat: int, announced: Event) -> list[Event]:
        """Score the hand at once, or wait for the defender's show (``auto_layoff`` off)."""
        events = [announced]
        if self.rules.auto_layoff:
            events.extend(self._score(self._optimal_show()))
        else:
            self.phase = "layoff"
            self.current_player = 1 - seat
        return events

    def _optimal_show(self) -> GinAction:
        """The defender's best melds and layoffs (no layoffs against gin)."""
        knocker = self.knocker
        assert knocker is not None
        return optimal_show(
            self.rules, self.hands, knocker, self.knock_card, self.knock_arrangement
        )

    def _lay_off(self, seat: int, action: GinAction) -> list[Event]:
        return self._score(action)

    def _score(self, show: GinAction) -> list[Event]:
        """Validate the defender's show, score the hand, and end it."""
        knocker = self.knocker
        assert knocker is not None
        result = score_show(
            self.rules, self.hands, knocker, self.knock_card, self.knock_arrangement, show
        )
        self._finish(result)
        return showdown_events(result)

    def _finish(self, result: GinHandResult) -> None:
        self.result = result
        self.phase = "over"

    # -- views ----------------------------------------------------------------------------

    def observation(self, seat: int) -> GinObservation:
        """Everything ``seat`` may know, and nothing else."""
        if seat not in (0, 1):
            raise InvalidOptionError(f"gin has seats 0 and 1, not {seat!r}", option="seat")
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
        return self._record(seed=self.seed, dealer=self.dealer, deck=format_cards(self.deck))

    @classmethod
    def _dealt_from_record(cls, record: Mapping[str, Any]) -> GinHand:
        rules = GinRules.from_dict(record.get("rules", {}))
        deck = parse_cards(record["deck"]) if record.get("deck") else None
        seed = record.get("seed")
        hand = new_hand(rules, seed=seed, dealer=record.get("dealer", 0), deck=deck)
        # The recorded deck overrides the seed; keep the seed too, so the rebuilt hand
        # is identical to the recorded one (and its own record keeps the seed).
        hand.seed = seed if isinstance(seed, int) else None
        return hand

    def __repr__(self) -> str:
        return (
            f"<GinHand phase={self.phase} player={self.current_player} "
            f"stock={len(self.stock)} upcard={self.upcard}>"
        )


GIN_DECK: Final = DeckSpec(decks=1, jokers=0)


_Move = Callable[[GinHand, int, GinAction], list[Event]]

# Per phase (but "over"): its moves, each action kind to the method that applies it;
# then what the player must do in it and the rule saying so, for refusing other kinds.
_PHASE_MOVES: Final[Mapping[str, tuple[Mapping[str, _Move], str, str]]] = {
    "offer": (
        {"take_upcard": GinHand._take_upcard, "pass": GinHand._pass},
        "take the upcard or pass",
        "gin-3.2",
    ),
    "draw": (
        {"draw_stock": GinHand._draw_stock, "draw_discard": GinHand._draw_discard},
        "draw from the stock or the discard pile",
        "gin-3.4",
    ),
    "discard": (
        {"discard": GinHand._discard, "knock": GinHand._knock, "big_gin": GinHand._big_gin},
        "discard, knock or declare big gin",
        "gin-3.4",
    ),
    "layoff": ({"lay_off": GinHand._lay_off}, "show melds and lay off", "gin-5.1"),
}


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
        raise InvalidOptionError(f"dealer must be seat 0 or 1, not {dealer!r}", option="dealer")
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
    deal = Event("deal", dealer, detail={"upcard": format_card(order[20])})
    record_events(hand.history, hand.seen, [deal])
    hand.actions = []
    hand._options = None
    return hand
