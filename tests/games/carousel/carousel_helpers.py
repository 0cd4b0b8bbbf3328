"""Shared helpers for the Carousel tests: exact deals, constructed positions, snapshots.

``new_hand(rules, players=N, dealer=d, deck=order)`` deals from an explicit order, top
card first: cards ``0 .. 10N-1`` go one at a time to seats ``d+1, d+2, ...`` and the rest
is the stock, card ``10N`` on top (the first player's automatic first draw takes it).
:func:`deck_order` builds such an order from the seats' hands and the first stock cards.

:func:`position` builds a mid-hand state directly (hands of any size, a table with
declared jokers, a chosen stock), for the rule tests that start from a table the spec
describes. With two decks a face named twice is two physical cards (copy 0, then copy
1), in the order hands, table, stock.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

import pytest

from rummykit.cards import Card, DeckSpec, build_deck, parse_cards
from rummykit.core import IllegalActionError
from rummykit.games.carousel.actions import CarouselAction
from rummykit.games.carousel.hand import CarouselHand, new_hand
from rummykit.games.carousel.rules import CarouselRules, carousel_hand_value

CardsLike = str | Iterable[int | str]

DRAW = CarouselAction.draw()
END = CarouselAction.end_turn()
KNOCK = CarouselAction.knock()


def meld(*melds: str) -> CarouselAction:
    """A meld action from the whole new table, one string per meld."""
    return CarouselAction.meld(list(melds))


def full_pack(decks: int) -> list[Card]:
    """Every physical card of a Carousel pack: ``decks`` decks and as many jokers."""
    return build_deck(DeckSpec(decks=decks, jokers=decks))


class Allocator:
    """Hands out physical cards for notation: the first ``5S`` named is copy 0, the next
    copy 1; jokers likewise (a declaration is kept)."""

    def __init__(self, decks: int) -> None:
        self.decks = decks
        self.free: dict[int, list[Card]] = {}
        for physical in full_pack(decks):
            self.free.setdefault(physical.face, []).append(physical)

    def take(self, cards: CardsLike) -> list[Card]:
        """Physical cards for ``cards`` (notation, or card ids whose face is used)."""
        named = parse_cards(cards) if isinstance(cards, str) else _as_cards(cards)
        out: list[Card] = []
        for card in named:
            copies = self.free.get(card.face)
            if not copies:
                raise AssertionError(f"{card} is named more often than the pack holds it")
            physical = copies.pop(0)
            declared = card.declared
            out.append(physical.declare(declared) if declared is not None else physical)
        return out

    def rest(self) -> list[Card]:
        """The physical cards not yet handed out, ascending."""
        return sorted(card for copies in self.free.values() for card in copies)


def _as_cards(cards: Iterable[int | str]) -> list[Card]:
    return [parse_cards([c])[0] if isinstance(c, str) else Card(c) for c in cards]


def card(name: str) -> Card:
    """One card (copy 0) from notation."""
    return parse_cards(name)[0]


def deck_order(
    hands: Sequence[CardsLike],
    stock: CardsLike = (),
    *,
    dealer: int | None = None,
    decks: int | None = None,
) -> list[Card]:
    """A complete pack order dealing ``hands[s]`` (10 cards each) to seat ``s`` and with
    ``stock`` as the first stock cards (top first); the rest follows in id order.

    ``dealer`` defaults to the last seat, so that seat 0 starts; ``decks`` defaults to
    the rule (one deck for two players, two for three to five)."""
    players = len(hands)
    dealer = players - 1 if dealer is None else dealer
    decks = decks if decks is not None else (1 if players == 2 else 2)
    allocator = Allocator(decks)
    dealt = [allocator.take(cards) for cards in hands]
    assert all(len(cards) == 10 for cards in dealt), "each hand is dealt 10 cards"
    top = allocator.take(stock)
    order = [dealt[(dealer + 1 + i) % players][i // players] for i in range(10 * players)]
    order += top + allocator.rest()
    assert sorted(order) == sorted(full_pack(decks))
    return order


def deal(
    hands: Sequence[CardsLike],
    stock: CardsLike = (),
    *,
    rules: CarouselRules | None = None,
    dealer: int | None = None,
) -> CarouselHand:
    """A hand dealt from an exact order (seat 0 starts unless ``dealer`` says otherwise)."""
    rules = rules or CarouselRules()
    players = len(hands)
    dealer = players - 1 if dealer is None else dealer
    order = deck_order(hands, stock, dealer=dealer, decks=rules.decks_for(players))
    return new_hand(rules, players=players, dealer=dealer, deck=order)


def position(
    hands: Sequence[CardsLike],
    table: Sequence[CardsLike] = (),
    *,
    stock: CardsLike | None = None,
    top: CardsLike = (),
    rules: CarouselRules | None = None,
    current: int = 0,
    draws: int = 1,
    melded: bool = False,
    dealer: int | None = None,
) -> CarouselHand:
    """A state in the middle of a hand: seat ``current`` to act after ``draws`` draws
    this turn, ``hands[s]`` in seat ``s``'s hand, ``table`` on the table (jokers written
    ``JK=5S``).

    ``stock=None`` puts ``top`` (top first) and then every other card of the pack in
    the stock (id order), so every physical card is in exactly one place. An explicit
    ``stock`` (top first) is the whole stock; the cards named nowhere are then out of
    play for the test. An empty stock means the current player took the last card
    this turn: the final lap follows his turn (as after the engine's own draw).
    """
    rules = rules or CarouselRules()
    players = len(hands)
    dealer = (current - 1) % players if dealer is None else dealer
    hand = new_hand(rules, players=players, dealer=dealer, seed=0)
    allocator = Allocator(hand.decks)
    hand.hands = [allocator.take(cards) for cards in hands]
    hand.table = [tuple(allocator.take(cards)) for cards in table]
    if stock is not None:
        pile = allocator.take(stock)
    else:
        named = allocator.take(top)
        pile = named + allocator.rest()
    hand.stock = list(reversed(pile))
    hand.current_player = current
    hand.draws = draws
    hand.melded = melded
    hand.final_lap = False
    hand.lap_left = players if not hand.stock else 0
    hand.history = []
    hand.actions = []
    return hand


def final_lap_position(
    hands: Sequence[CardsLike],
    table: Sequence[CardsLike] = (),
    *,
    current: int,
    turns_left: int,
    rules: CarouselRules | None = None,
) -> CarouselHand:
    """Seat ``current`` to play a final (draw-less) turn, ``turns_left`` final turns
    left including this one."""
    hand = position(hands, table, stock=(), rules=rules, current=current, draws=0)
    hand.final_lap = True
    hand.lap_left = turns_left
    return hand


def values(hand: CarouselHand) -> list[int]:
    """Every seat's hand value now."""
    return [hand.hand_value(seat) for seat in range(hand.players)]


_SUIT_CARDS = "KQJT98765432A"


def cards_worth(value: int, suit: str) -> str:
    """Cards of one suit worth exactly ``value`` (0-85): kings, queens, ... down to the
    ace, each used once."""
    remaining = value
    chosen: list[str] = []
    for rank in _SUIT_CARDS:
        worth = 10 if rank in "KQJT" else 1 if rank == "A" else int(rank)
        if worth <= remaining:
            chosen.append(rank + suit)
            remaining -= worth
    assert remaining == 0, f"cannot make {value} from one suit"
    text = " ".join(chosen)
    assert carousel_hand_value(parse_cards(text)) == value
    return text


def physical_cards(hand: CarouselHand) -> Counter[int]:
    """Every physical card in play: the hands, the table (jokers without their
    declaration) and the stock."""
    where: Counter[int] = Counter()
    for cards in hand.hands:
        where.update(int(c) for c in cards)
    for meld_cards in hand.table:
        where.update(int(c.physical) for c in meld_cards)
    where.update(int(c) for c in hand.stock)
    return where


def snapshot(hand: CarouselHand) -> dict[str, Any]:
    """Every attribute of the state (copies of the lists); not the private ones, such
    as the meld check :meth:`CarouselHand.check` keeps for ``apply``."""
    state: dict[str, Any] = {}
    for name in CarouselHand.__slots__:
        if name.startswith("_"):
            continue
        value = getattr(hand, name)
        if isinstance(value, list):
            value = [list(v) if isinstance(v, list) else v for v in value]
        state[name] = value
    return state


def core_state(hand: CarouselHand) -> tuple[Any, ...]:
    """The game-relevant state, for replay comparisons."""
    return (
        tuple(tuple(cards) for cards in hand.hands),
        tuple(hand.table),
        tuple(hand.stock),
        hand.phase,
        hand.current_player,
        hand.dealer,
        hand.draws,
        hand.melded,
        hand.final_lap,
        hand.lap_left,
        hand.result,
        tuple(hand.history),
        # Actions as JSON: a layout written with table ids and one written in notation
        # are the same action.
        tuple(json.dumps(action.to_json()) for action in hand.actions),
    )


def assert_illegal(
    hand: CarouselHand, action: CarouselAction, code: str, *words: str
) -> IllegalActionError:
    """The action raises IllegalActionError with ``code`` (and every word of ``words``
    in its message), names the seat, and changes nothing."""
    before = snapshot(hand)
    with pytest.raises(IllegalActionError) as info:
        hand.apply(action)
    error = info.value
    assert error.code == code, str(error)
    for word in words:
        assert word in str(error), f"{word!r} not in {error}"
    assert error.seat == hand.current_player
    assert f"seat {hand.current_player}" in str(error)
    assert snapshot(hand) == before
    assert not hand.is_legal(action)
    return error


def table_text(hand: CarouselHand) -> list[str]:
    """The table in notation, one string per meld."""
    return [" ".join(str(c) for c in m) for m in hand.table]
