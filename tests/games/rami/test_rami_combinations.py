"""Rami table combinations (``rummykit.games.rami.table``): rules/rami.md sections 2-4."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rami_helpers import card, cards

from rummykit.cards import natural_card
from rummykit.errors import RummykitError
from rummykit.games.rami.table import (
    JOKER_BIT,
    CombinationError,
    combination_from_cards,
    lay_off,
    pairs_with_joker,
    swap_joker,
)
from rummykit.melds import InvalidMeldError


def combo(text: str, owner: int = 0, *, shifts: bool = False):  # type: ignore[no-untyped-def]
    return combination_from_cards(cards(text), owner, shifts=shifts)


# --------------------------------------------------------------- section 9, cases 1-3


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("7S 7S@1 7H", "suits must all differ"),
        ("7S 7H 7D 7C JK", "at most 4"),
        ("KH AH 2H", "no wrap"),
        ("JK JK@1 5H 6H", "at most 1 joker"),
    ],
)
def test_section9_illegal_combinations(text: str, reason: str) -> None:
    with pytest.raises(InvalidMeldError, match=reason):
        combo(text)


@pytest.mark.parametrize(
    ("text", "value", "shown"),
    [
        ("7S 7H 7D 7C", 28, "7S 7H 7D 7C"),
        ("QH KH AH", 31, "QH KH AH"),
        ("AH 2H 3H", 6, "AH 2H 3H"),
        ("JK 7S 8S", 21, "JK=6S 7S 8S"),
        ("JK QH KH", 30, "JK=JH QH KH"),
        ("JK 2S 3S", 6, "JK=AS 2S 3S"),
        ("AS 2S JK", 6, "AS 2S JK=3S"),
        ("AC AH AS", 33, "AC AH AS"),
        ("9C 9D 9H JK", 36, "9C 9D 9H JK=9S"),
        ("9C 9D JK", 27, "9C 9D JK"),
        ("2D 3D 4D", 9, "2D 3D 4D"),
    ],
)
def test_section2_and_7_table_values(text: str, value: int, shown: str) -> None:
    built = combo(text)
    assert built.value == value
    assert str(built) == shown


def test_section3_set_joker_suit_open_with_two_naturals() -> None:
    built = combo("9C 9D JK")
    assert built.joker_face is None and built.swap_face == -1
    grown = lay_off(built, card("9H"))
    assert str(grown) == "9C 9D JK=9S 9H" and grown.swap_face == card("9S")
    with pytest.raises(CombinationError, match="set is full; only a joker swap") as info:
        lay_off(grown, card("9S@1"))
    assert info.value.code == "needs_swap"
    with pytest.raises(CombinationError, match="full") as info:
        lay_off(grown, card("9C@1"))
    assert info.value.code == "combination_full"


def test_section9_case3_joker_onto_a_run_with_a_joker() -> None:
    with pytest.raises(CombinationError, match="at most one") as info:
        lay_off(combo("JK 7S 8S"), card("JK@1"))
    assert info.value.code == "joker_limit"
    # In the error tree: a lay-off that makes no combination is an invalid meld.
    assert isinstance(info.value, InvalidMeldError) and isinstance(info.value, RummykitError)


def test_joker_layoff_takes_the_lower_end() -> None:
    assert str(lay_off(combo("7S 8S 9S"), card("JK"))) == "JK=6S 7S 8S 9S"
    assert str(lay_off(combo("AS 2S 3S"), card("JK"))) == "AS 2S 3S JK=4S"
    assert str(lay_off(combo("9C 9D 9H"), card("JK"))) == "9C 9D 9H JK=9S"
    assert not combo("9C 9D 9H 9S").accepts & JOKER_BIT


# ------------------------------------------------------------------ section 9, case 4


def test_section9_case4_layoffs_on_both_ends() -> None:
    run = combo("JK 7S 8S")
    run = lay_off(run, card("9S"))
    assert str(run) == "JK=6S 7S 8S 9S"
    run = lay_off(run, card("5S"))
    assert str(run) == "5S JK=6S 7S 8S 9S" and run.swap_face == card("6S")


def test_ace_layoffs_and_the_thirteen_card_limit() -> None:
    assert str(lay_off(combo("QH KH JH"), card("AH"))) == "JH QH KH AH"
    assert str(lay_off(combo("2H 3H 4H"), card("AH"))) == "AH 2H 3H 4H"
    full = combination_from_cards([natural_card(r, "D") for r in range(1, 14)])
    assert full.accepts == 0
    with pytest.raises(CombinationError, match="full"):
        lay_off(full, card("AD@1"))
    with pytest.raises(CombinationError, match="next card"):
        lay_off(combo("5C 6C 7C"), card("9C"))


# ----------------------------------------------------------------- section 9, case 18


def test_section9_case18_end_joker_shift() -> None:
    """§rami-3.7 with end_joker_shifts=true: the real card of an end joker shifts it."""
    run = combo("JK 7S 8S", shifts=True)
    assert run.shift_face == card("6S") and run.swap_face == -1
    assert str(lay_off(run, card("6S"), shifts=True)) == "6S 7S 8S JK=9S"
    high = combo("AS 2S JK", shifts=True)  # Jo=3S, the other end is beyond the ace
    assert high.shift_face == -1 and high.swap_face == card("3S")
    with pytest.raises(CombinationError, match="only a joker swap") as info:
        lay_off(high, card("3S"), shifts=True)
    assert info.value.code == "needs_swap"
    interior = combo("7S JK 9S", shifts=True)
    with pytest.raises(CombinationError, match="only a joker swap"):
        lay_off(interior, card("8S"), shifts=True)
    swapped, joker = swap_joker(interior, card("8S"), shifts=True)
    assert str(swapped) == "7S 8S 9S" and joker == card("JK")


def test_shift_at_the_high_end_goes_down() -> None:
    """§rami-3.7 with end_joker_shifts=true, at the high end."""
    run = lay_off(combo("JK 7S 8S", shifts=True), card("6S"), shifts=True)  # 6S 7S 8S JK=9S
    assert str(lay_off(run, card("9S"), shifts=True)) == "JK=5S 6S 7S 8S 9S"


def test_no_shift_option_makes_end_jokers_swappable() -> None:
    """§rami-3.7, the default: an end joker is taken by a swap; with
    end_joker_shifts=true the same swap is refused (the card is laid off instead)."""
    run = combination_from_cards(cards("JK 7S 8S"), shifts=False)
    assert run.shift_face == -1 and run.swap_face == card("6S")
    swapped, _ = swap_joker(run, card("6S"), shifts=False)
    assert str(swapped) == "6S 7S 8S"
    with pytest.raises(CombinationError) as info:
        swap_joker(combo("JK 7S 8S", shifts=True), card("6S"), shifts=True)
    assert info.value.code == "joker_shifts"


# --------------------------------------------------------------- swaps (section 4)


def test_section9_case9_swaps_on_sets() -> None:
    with pytest.raises(CombinationError, match="3 natural") as info:
        swap_joker(combo("9C 9D JK"), card("9S"))
    assert info.value.code == "set_too_small"
    swapped, joker = swap_joker(combo("9C 9D 9H JK"), card("9S"))
    assert str(swapped) == "9C 9D 9H 9S" and joker == card("JK")
    with pytest.raises(CombinationError, match="stands for 9S") as info:
        swap_joker(combo("9C 9D 9H JK"), card("9C@1"))
    assert info.value.code == "wrong_card"
    with pytest.raises(CombinationError, match="no joker"):
        swap_joker(combo("9C 9D 9H"), card("9S"))


def test_pairs_with_joker() -> None:
    assert pairs_with_joker(card("9C"), card("9D"))
    assert not pairs_with_joker(card("9C"), card("9C@1"))
    assert pairs_with_joker(card("5H"), card("7H"))
    assert not pairs_with_joker(card("5H"), card("8H"))
    assert pairs_with_joker(card("QS"), card("AS")) and pairs_with_joker(card("AS"), card("3S"))
    assert not pairs_with_joker(card("JS"), card("AS"))


@settings(max_examples=200, deadline=None)
@given(
    suit=st.sampled_from("SCDH"),
    low=st.integers(1, 12),
    size=st.integers(3, 13),
    joker_at=st.integers(-1, 12),
    extra=st.integers(1, 13),
)
def test_layoffs_agree_with_meld_validation(
    suit: str, low: int, size: int, joker_at: int, extra: int
) -> None:
    """A lay-off is accepted exactly when the result is a valid run (or a shift)."""
    high = min(low + size - 1, 14)
    if low == 1 and high == 14:
        high = 13
    ranks = list(range(low, high + 1))
    if len(ranks) < 3:
        return
    run_cards = [natural_card((r - 1) % 13 + 1, suit) for r in ranks]
    if 0 <= joker_at < len(run_cards):
        run_cards[joker_at] = card("JK")
    try:
        run = combination_from_cards(run_cards)
    except InvalidMeldError:
        return
    new = natural_card(extra, suit, 1)
    try:
        grown = lay_off(run, new)
    except CombinationError:
        accepted = False
    else:
        accepted = True
        assert len(grown.cards) == len(run.cards) + 1
        assert grown.joker == -1 or grown.cards[grown.joker].declared is not None
    plain = bool(run.accepts >> (new & 63) & 1) or run.shift_face == new & 63
    assert accepted == plain
