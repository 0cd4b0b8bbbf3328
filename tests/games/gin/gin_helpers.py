"""Shared helpers for the Gin Rummy tests: exact deals, scripted play, state snapshots.

``new_hand(rules, deck=order)`` deals from an explicit order, top card first: the
non-dealer gets cards 0, 2, ..., 18, the dealer 1, 3, ..., 19, card 20 is the upcard and
cards 21.. are the stock (card 21 is drawn first). :func:`deck_order` builds such an
order from the two hands, the upcard and the first stock cards.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import pytest

from rummykit.cards import Card, parse_cards
from rummykit.core import Event, IllegalActionError
from rummykit.games.gin import GinAction, GinHand, GinHandResult, GinMatch, GinRules, new_hand

CardsLike = str | Iterable[int | str]


def as_cards(cards: CardsLike) -> list[Card]:
    """Cards from notation (``"AS 2S"``) or from ids / card names."""
    if isinstance(cards, str):
        return parse_cards(cards)
    return [parse_cards([c])[0] if isinstance(c, str) else Card(c) for c in cards]


def card(name: str) -> Card:
    """One card from notation."""
    return parse_cards(name)[0]


def deck_order(
    starter: CardsLike,
    dealer_cards: CardsLike,
    upcard: str | int,
    stock: Sequence[str | int | None] = (),
) -> list[Card]:
    """A complete 52-card order dealing ``starter`` to the non-dealer and ``dealer_cards``
    to the dealer, with ``upcard`` face up and ``stock`` as the first stock cards (top
    first). ``None`` in ``stock`` is a placeholder filled, like the rest of the stock,
    with the remaining cards in ascending id order."""
    first = as_cards(starter)
    second = as_cards(dealer_cards)
    up = as_cards([upcard])[0]
    named_stock = [None if c is None else as_cards([c])[0] for c in stock]
    assert len(first) == 10 and len(second) == 10, "each hand is dealt 10 cards"
    used = [*first, *second, up, *(c for c in named_stock if c is not None)]
    assert len(set(used)) == len(used), f"a card is named twice: {sorted(used)}"
    rest = iter(sorted(set(range(52)) - set(used)))
    order: list[Card] = []
    for a, b in zip(first, second, strict=True):
        order += [a, b]
    order.append(up)
    order += [next(rest) if c is None else c for c in named_stock]
    order += [Card(c) for c in rest]
    assert sorted(order) == list(range(52))
    return order


def deal(
    starter: CardsLike,
    dealer_cards: CardsLike,
    upcard: str | int,
    stock: Sequence[str | int | None] = (),
    *,
    rules: GinRules | None = None,
    dealer: int = 1,
) -> GinHand:
    """A hand dealt from an exact order. With the default ``dealer=1`` seat 0 is the
    starting player (non-dealer) and holds ``starter``."""
    return new_hand(
        rules or GinRules(), dealer=dealer, deck=deck_order(starter, dealer_cards, upcard, stock)
    )


def hand_of(hand: GinHand, seat: int) -> set[Card]:
    """The set of cards a seat holds (engine side)."""
    return set(hand.hand_cards(seat))


def run_down_stock(hand: GinHand, until: int) -> None:
    """From a double pass, let both players draw from the stock and discard the card
    just drawn until ``until`` cards are left in the stock, ending with the player to
    act in the draw phase. The hands stay exactly as dealt."""
    if hand.phase == "offer":
        hand.apply(GinAction.pass_())
        hand.apply(GinAction.pass_())
    while len(hand.stock) > until:
        assert hand.phase == "draw", hand
        drawn = draw_stock(hand)
        hand.apply(GinAction.discard(drawn))
    assert hand.phase == "draw" and len(hand.stock) == until


def draw_stock(hand: GinHand) -> Card:
    """Draw from the stock; return the card drawn (from the private event)."""
    events = hand.apply(GinAction.draw_stock())
    drawn = events[0].card
    assert drawn is not None
    return drawn


def snapshot(hand: GinHand) -> dict[str, Any]:
    """Every attribute of the state (copies of the lists), except the private cache."""
    state: dict[str, Any] = {}
    for name in GinHand.__slots__:
        if name == "_options":
            continue
        value = getattr(hand, name)
        state[name] = list(value) if isinstance(value, list) else value
    return state


def core_state(hand: GinHand) -> tuple[Any, ...]:
    """The game-relevant state: hands, stock, discard pile, phase, player, result."""
    return (
        tuple(sorted(hand.hand_cards(0))),
        tuple(sorted(hand.hand_cards(1))),
        tuple(hand.stock),
        tuple(hand.discard_pile),
        hand.phase,
        hand.current_player,
        hand.dealer,
        hand.knocker,
        hand.knock_card,
        hand.knock_arrangement,
        hand.taken_card,
        hand.result,
    )


def events_of_kind(events: Iterable[Event], kind: str) -> list[Event]:
    """The events of one kind."""
    return [event for event in events if event.kind == kind]


def meld_index(hand: GinHand, name: str) -> int:
    """Index of the knocker's meld holding the named card (layoff targets)."""
    wanted = card(name)
    for index, meld in enumerate(hand.knock_arrangement):
        if wanted in meld:
            return index
    raise AssertionError(f"{name} is in no meld of {hand.knock_arrangement}")


# -- scripted matches ----------------------------------------------------------------------

# The knocker is dealt these 9 cards plus the junk card 7H, takes the upcard and knocks
# with 7H. Upcard JD completes 8D-JD: gin. Upcard AH stays deadwood: a knock with K = 1.
KNOCKER_BASE = "AS 2S 3S 4C 4D 4H 8D 9D TD 7H"
# Defender hands by the points the knocker scores (none can lay off on the knocker).
GIN_DEFENDERS = {
    30: "KS KC KH KD QS QC QH AC 2C 2H",  # D = 5
    35: "KS KC KH KD QS QC QH 2C 3H 5C",  # D = 10
    40: "KS KC KH KD QS QC QH 5C 3H 7S",  # D = 15
    100: "KS KC QH QD JS JC TH AC 2H 2C",  # D = 75, nothing melds
}
KNOCK_DEFENDERS = {
    9: "KS KC KH QS QC QH AC 2C 2H 5C",  # D = 10
    10: "KS KC KH QS QC QH AC 2C 3H 5C",  # D = 11
    15: "KS KC KH QS QC QH 2C 3H 5C 6H",  # D = 16
    20: "KS KC KH QS QC QH 2H 5C 6H 8S",  # D = 21
}


def replace_hand(match: GinMatch, starter: str, dealer_cards: str, upcard: str) -> int:
    """Swap the match's fresh hand for one with the same dealer dealt from an exact order.

    A match deals each hand from its own shuffle. To play exact positions, the freshly
    dealt hand (phase ``offer``, no action yet) is replaced by a hand with the *same
    dealer* dealt from an explicit order (``GinMatch.hand`` is a plain attribute). The
    dealer therefore always comes from the match itself, and since an unseeded match
    records every hand's deck, its record still replays exactly.
    """
    fresh = match.hand
    assert fresh.phase == "offer" and not fresh.actions
    match.hand = new_hand(
        match.rules, dealer=fresh.dealer, deck=deck_order(starter, dealer_cards, upcard)
    )
    return fresh.dealer


def play_won_hand(match: GinMatch, winner: int, points: int) -> GinHandResult:
    """Play a hand that ``winner`` wins with ``points`` (gin for 25+, else a knock)."""
    if points in GIN_DEFENDERS:
        defender, upcard = GIN_DEFENDERS[points], "JD"
    else:
        defender, upcard = KNOCK_DEFENDERS[points], "AH"
    starter = 1 - match.hand.dealer
    if winner == starter:
        replace_hand(match, KNOCKER_BASE, defender, upcard)
        actions = [GinAction.take_upcard(), GinAction.knock("7H")]
    else:
        replace_hand(match, defender, KNOCKER_BASE, upcard)
        actions = [GinAction.pass_(), GinAction.take_upcard(), GinAction.knock("7H")]
    hands_before = len(match.results)
    for action in actions:
        assert match.current_player == (winner if action.kind != "pass" else starter)
        match.apply(action)
    assert len(match.results) == hands_before + 1
    result = match.results[-1]
    assert (result.winner, result.points) == (winner, points)
    return result


def play_drawn_hand(match: GinMatch) -> GinHandResult:
    """Both pass, then each player discards the card drawn until the stock floor."""
    hands_before = len(match.results)
    match.apply(GinAction.pass_())
    match.apply(GinAction.pass_())
    while len(match.results) == hands_before:
        drawn = match.apply(GinAction.draw_stock())[0].card
        assert drawn is not None
        match.apply(GinAction.discard(drawn))
    result = match.results[-1]
    assert result.is_draw
    return result


# -- positions of rules/gin.md sections 7 and 9 --------------------------------------------

# Example 1 / case 5: 8 melded cards (AH-4H, the four kings) and deadwood 3C 5D; the
# stock gives 9S. The opponent's cards meld with nothing (D = 71).
KNOCK_THRESHOLD_HAND = "AH 2H 3H 4H KS KC KD KH 3C 5D"
KNOCK_THRESHOLD_OPPONENT = "5S 7S 9C JD QH 2D 6C 8D TS 4C"

# Example 2: K = 2 (2D); the defender lays off 7H-9H (or keeps them) and TS: D = 12.
EXAMPLE2_KNOCKER = "4H 5H 6H 9C 9D 9S JS QS KS 2D"
EXAMPLE2_DEFENDER = "3C 3D 3H 7H 8H 9H TS AS 5C 6D"

# Example 3: K = 8 (8C); the defender lays off 4S, 5S, 7S, KH: D = 7, undercut 26.
EXAMPLE3_KNOCKER = "AS 2S 3S 7D 7C 7H TH JH QH 8C"
EXAMPLE3_DEFENDER = "5D 5C 5H 4S 5S 7S KH 2C 3D 2D"

# Example 4: K = 6 (6C); the defender lays off 4S and KH and keeps 2C 4C: D = 6.
TIE_KNOCKER = "AS 2S 3S 7D 7C 7H TH JH QH 6C"
TIE_DEFENDER = "4S KH 8D 8S 8H 9S 9C 9D 2C 4C"

# Example 5: gin against a fully melded defender (D = 0).
GIN_KNOCKER = "AS 2S 3S 4S 5C 5D 5H 9C 9D 9H"
GIN_DEFENDER_MELDED = "TS TC TD TH 6H 7H 8H QC QD QS"

# Example 6: gin with 5H6H7H; the defender holds 8H and 31 more deadwood, no melds.
GIN_BLOCK_KNOCKER = "5H 6H 7H AS 2S 3S 4S KC KD KS"
GIN_BLOCK_DEFENDER = "8H AC AD 2H 2D 3C 4D 6C 4C 8C"

# Example 7: these ten plus 5C are AC-5C 6S6H6D JD-KD; the defender has D = 30.
BIG_GIN_TEN = "AC 2C 3C 4C 6S 6H 6D JD QD KD"
BIG_GIN_DEFENDER = "7H 8H 9H TS TC TH KS QH 5D 5S"

# Case 16: with JD this is gin (2H the knock card); without it K = 2.
TAKEN_KNOCK_HAND = "AS 2S 3S 4C 4D 4H 8D 9D TD 2H"

# Case 17: K = 2 (2D) with 5H6H7H; the defender holds 8H and 9H (D = 32 after both).
CHAIN_KNOCKER = "5H 6H 7H 4C 4D 4S JS QS KS 2D"
CHAIN_DEFENDER = "8H 9H 3C 3D 3H AS 5C 6D KC QD"


def assert_illegal(hand: GinHand, action: GinAction, code: str) -> IllegalActionError:
    """The action raises IllegalActionError with ``code`` and changes nothing."""
    before = snapshot(hand)
    with pytest.raises(IllegalActionError) as info:
        hand.apply(action)
    assert info.value.code == code, str(info.value)
    assert snapshot(hand) == before
    assert not hand.is_legal(action)
    return info.value


def knock_after_stock_draw(
    knocker: str, defender: str, drawn: str, knock_card: str, *, rules: GinRules | None = None
) -> GinHand:
    """Seat 0 holds ``knocker``, seat 1 ``defender``; both pass the upcard JC, seat 0
    draws ``drawn`` from the stock and knocks with ``knock_card``."""
    hand = deal(knocker, defender, "JC", [drawn], rules=rules)
    hand.apply(GinAction.pass_())
    hand.apply(GinAction.pass_())
    hand.apply(GinAction.draw_stock())
    hand.apply(GinAction.knock(knock_card))
    return hand


def knock_threshold_position(rules: GinRules | None = None) -> GinHand:
    """Example 1 after seat 0's draw of 9S (both passed the upcard)."""
    hand = deal(KNOCK_THRESHOLD_HAND, KNOCK_THRESHOLD_OPPONENT, "JC", ["9S"], rules=rules)
    hand.apply(GinAction.pass_())
    hand.apply(GinAction.pass_())
    hand.apply(GinAction.draw_stock())
    assert hand.phase == "discard" and hand.current_player == 0
    assert card("9S") in hand_of(hand, 0)
    return hand


def chain_position(rules: GinRules) -> GinHand:
    """Case 17 right after seat 0's knock (K = 2, run 5H6H7H)."""
    return knock_after_stock_draw(CHAIN_KNOCKER, CHAIN_DEFENDER, "8C", "8C", rules=rules)
