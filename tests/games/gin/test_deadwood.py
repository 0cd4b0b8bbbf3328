"""Exact gin deadwood (``rummykit.games.gin.deadwood``): rules/gin.md sections 2, 7 and 9.

The property tests compare the solver with a brute force written here from the rules:
list every meld of the hand by the definition, then try every set of pairwise disjoint
melds. Nothing of the solver's internals is used for the reference values.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummykit.cards import Card, card_value_gin, format_cards, parse_card, parse_cards
from rummykit.errors import InvalidCardError
from rummykit.games.gin.deadwood import (
    best_discard,
    cards_of_mask,
    deadwood_after_each_discard,
    mask_of,
    melds_in_mask,
    min_deadwood,
    min_deadwood_mask,
)
from rummykit.melds import GIN_MELDS, MeldRules, check_meld

GIN_ACE_HIGH = MeldRules(ace_high=True)

# ----------------------------------------------------------------- brute force


def value(cards: Iterable[int]) -> int:
    return sum(min(card % 13 + 1, 10) for card in cards)


def brute_melds(cards: Sequence[int], ace_high: bool = False) -> list[frozenset[int]]:
    """Every meld inside ``cards`` by the definition in rules/gin.md section 2."""
    held = set(cards)
    melds: list[frozenset[int]] = []
    for rank in range(13):
        same_rank = [suit * 13 + rank for suit in range(4) if suit * 13 + rank in held]
        for size in (3, 4):
            melds.extend(frozenset(combo) for combo in combinations(same_rank, size))
    # Ranks 1..13, plus 14 for an ace above the king when allowed.
    top = 14 if ace_high else 13
    for suit in range(4):
        for low in range(1, top - 1):
            run = [suit * 13 + low - 1]
            for rank in range(low + 1, top + 1):
                card = suit * 13 + (rank - 1) % 13
                if run[0] not in held or card not in held or card in run:
                    break  # a missing card ends every run from ``low``; no ace twice
                run.append(card)
                if len(run) >= 3:
                    melds.append(frozenset(run))
    return melds


def brute_min_deadwood(cards: Sequence[int], ace_high: bool = False) -> int:
    """Minimum deadwood over every set of disjoint melds."""
    melds = [(sum(1 << c for c in meld), value(meld)) for meld in brute_melds(cards, ace_high)]
    best = 0

    def search(start: int, used: int, melded: int) -> None:
        nonlocal best
        best = max(best, melded)
        for i in range(start, len(melds)):
            meld_mask, meld_value = melds[i]
            if not used & meld_mask:
                search(i + 1, used | meld_mask, melded + meld_value)

    search(0, 0, 0)
    return value(cards) - best


def rules_for(ace_high: bool) -> MeldRules:
    return GIN_ACE_HIGH if ace_high else GIN_MELDS


def check_arrangement(cards: Sequence[int], ace_high: bool = False) -> int:
    """Assert min_deadwood's arrangement is a legal partition; return its deadwood."""
    arrangement = min_deadwood(cards, ace_high=ace_high)
    covered: list[int] = []
    for meld in arrangement.melds:
        check_meld(meld, rules_for(ace_high))  # raises if illegal
        assert all(isinstance(card, Card) for card in meld)
        covered.extend(meld)
    assert len(covered) == len(set(covered)), "melds overlap"
    assert sorted(covered + list(arrangement.deadwood_cards)) == sorted(cards)
    assert arrangement.deadwood == value(arrangement.deadwood_cards)
    return arrangement.deadwood


# ------------------------------------------------------------------ strategies


@st.composite
def random_hands(draw: st.DrawFn, min_size: int = 0, max_size: int = 11) -> list[int]:
    size = draw(st.integers(min_size, max_size))
    return draw(st.lists(st.integers(0, 51), min_size=size, max_size=size, unique=True))


@st.composite
def crowded_hands(draw: st.DrawFn, min_size: int = 0, max_size: int = 11) -> list[int]:
    """Hands from one or two suits, or from three to five ranks: many overlapping melds."""
    if draw(st.booleans()):
        suits = draw(st.lists(st.integers(0, 3), min_size=1, max_size=2, unique=True))
        pool = [suit * 13 + rank for suit in suits for rank in range(13)]
    else:
        count = draw(st.integers(3, 5))
        if draw(st.booleans()):
            # Neighbouring ranks (possibly Q-K-A, which matters for ace-high runs).
            start = draw(st.integers(0, 13 - count + 1))
            ranks = [(start + i) % 13 for i in range(count)]
        else:
            ranks = draw(st.lists(st.integers(0, 12), min_size=count, max_size=count, unique=True))
        pool = [suit * 13 + rank for suit in range(4) for rank in ranks]
    size = draw(st.integers(min(min_size, len(pool)), min(max_size, len(pool))))
    return [pool.pop(draw(st.integers(0, len(pool) - 1))) for _ in range(size)]


any_hands = st.one_of(random_hands(), crowded_hands())
eleven_cards = st.one_of(random_hands(11, 11), crowded_hands(11, 11))


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def meld_texts(arrangement_melds: tuple[tuple[Card, ...], ...]) -> set[str]:
    return {format_cards(sorted(meld)) for meld in arrangement_melds}


# --------------------------------------------------------- the brute force itself


def test_brute_melds_are_legal_and_complete_on_small_hands() -> None:
    """The reference meld list equals check_meld over every subset (independent check)."""
    hands = [
        "AS 2S 3S 4S 4H 4D 4C",
        "QH KH AH 2H JH",
        "7S 8S 9S 9H 9D 9C TS",
        "AC 2C 3C QC KC 5D 5H",
    ]
    for text in hands:
        hand = [int(card) for card in cards(text)]
        for ace_high in (False, True):
            expected = {
                frozenset(combo)
                for size in range(3, len(hand) + 1)
                for combo in combinations(hand, size)
                if _is_legal(combo, ace_high)
            }
            found = brute_melds(hand, ace_high)
            assert len(found) == len(set(found))
            assert set(found) == expected, text


def _is_legal(combo: tuple[int, ...], ace_high: bool) -> bool:
    try:
        check_meld(combo, rules_for(ace_high))
    except ValueError:
        return False
    return True


@settings(max_examples=150, deadline=None)
@given(hand=st.one_of(random_hands(0, 8), crowded_hands(0, 8)), ace_high=st.booleans())
def test_brute_melds_match_check_meld(hand: list[int], ace_high: bool) -> None:
    expected = {
        frozenset(combo)
        for size in range(3, len(hand) + 1)
        for combo in combinations(hand, size)
        if _is_legal(combo, ace_high)
    }
    assert set(brute_melds(hand, ace_high)) == expected


def test_brute_force_on_known_hands() -> None:
    assert brute_min_deadwood([int(c) for c in cards("7S 8S 9S 9H 9D")]) == 15
    assert brute_min_deadwood([int(c) for c in cards("AS 2S 3S 4S 4H 4D")]) == 0
    assert brute_min_deadwood([int(c) for c in cards("QH KH AH")]) == 21
    assert brute_min_deadwood([int(c) for c in cards("QH KH AH")], ace_high=True) == 0


# ---------------------------------------------- rules/gin.md section 9, cases 3-5


def test_section9_case3_card_in_run_or_set_never_both() -> None:
    """``9S`` may join the run or the set; the set leaves less (15 against 18)."""
    five = cards("7S 8S 9S 9H 9D")
    arrangement = min_deadwood(five)
    assert arrangement.deadwood == 15
    assert meld_texts(arrangement.melds) == {"9S 9D 9H"}
    assert set(arrangement.deadwood_cards) == set(cards("7S 8S"))


def test_section9_case3_with_five_unmatched_cards() -> None:
    unmatched = cards("2C 4D 6H JC KD")
    hand = cards("7S 8S 9S 9H 9D") + unmatched
    arrangement = min_deadwood(hand)
    assert arrangement.deadwood == 15 + value(unmatched)
    assert meld_texts(arrangement.melds) == {"9S 9D 9H"}
    assert set(arrangement.deadwood_cards) == set(cards("7S 8S")) | set(unmatched)
    assert check_arrangement(hand) == brute_min_deadwood(hand)


def test_section9_case4_set_not_the_longer_run() -> None:
    """``AS2S3S`` + ``4S4H4D`` (0), not ``AS2S3S4S`` + ``4H 4D`` (8)."""
    arrangement = min_deadwood(cards("AS 2S 3S 4S 4H 4D"))
    assert arrangement.deadwood == 0
    assert meld_texts(arrangement.melds) == {"AS 2S 3S", "4S 4D 4H"}
    assert arrangement.deadwood_cards == ()


WORKED_EXAMPLE_1 = cards("TH JH QH KH 8C 8D 8H 8S 3C 5D 9S")
"""Eleven cards after the draw: 8 melded cards and deadwood ``3C 5D 9S``."""


def test_section7_example1_hand_is_as_described() -> None:
    arrangement = min_deadwood(WORKED_EXAMPLE_1)
    assert set(arrangement.deadwood_cards) == set(cards("3C 5D 9S"))
    assert arrangement.deadwood == 17
    assert meld_texts(arrangement.melds) == {"TH JH QH KH", "8S 8C 8D 8H"}


def test_section9_case5_knock_deadwood_after_each_discard() -> None:
    """Worked example 1: ``knock(9S)`` leaves 8, ``5D`` leaves 12, ``3C`` leaves 14."""
    after = deadwood_after_each_discard(mask_of(WORKED_EXAMPLE_1))
    assert set(after) == {int(card) for card in WORKED_EXAMPLE_1}
    assert after[parse_card("9S")] == 8  # legal knock (<= 10)
    assert after[parse_card("5D")] == 12  # illegal
    assert after[parse_card("3C")] == 14  # illegal
    # Breaking a 4-card meld by discarding its end costs nothing; the others do.
    assert after[parse_card("KH")] == 17
    assert after[parse_card("8S")] == 17
    assert after[parse_card("QH")] == 17 + 10 + 10 + 10  # TH JH KH now dead
    for card, deadwood in after.items():
        rest = [int(c) for c in WORKED_EXAMPLE_1 if c != card]
        assert deadwood == brute_min_deadwood(rest), Card(card)


def test_section9_case5_best_discard_is_the_nine() -> None:
    choice = best_discard(WORKED_EXAMPLE_1)
    assert choice.card == parse_card("9S")
    assert isinstance(choice.card, Card)
    assert choice.deadwood == 8


def test_module_examples() -> None:
    arrangement = min_deadwood(cards("AS 2S 3S 4S 4H 4D 9C"))
    assert arrangement.deadwood == 9
    choice = best_discard(cards("AS 2S 3S 4H 4D 4C 7C 8C 9C KD 5H"))
    assert (str(choice.card), choice.deadwood) == ("KD", 5)


# ----------------------------------------------------------------- small cases


def test_empty_and_meldless_hands() -> None:
    assert min_deadwood([]).deadwood == 0
    assert min_deadwood([]).melds == ()
    assert min_deadwood([]).deadwood_cards == ()
    loose = cards("AS 3C 5D 7H 9S JC KD")
    arrangement = min_deadwood(loose)
    assert arrangement.melds == ()
    assert arrangement.deadwood == 1 + 3 + 5 + 7 + 9 + 10 + 10
    assert arrangement.deadwood_cards == tuple(sorted(loose))


def test_courts_count_ten_and_ace_one() -> None:
    assert min_deadwood(cards("TS JH QD KC")).deadwood == 40
    assert min_deadwood(cards("AS AH")).deadwood == 2


def test_ace_low_only_by_default_ace_high_option() -> None:
    qka = cards("QH KH AH")
    assert min_deadwood(qka).deadwood == 21
    assert min_deadwood(qka, ace_high=True).deadwood == 0
    # No wrap even with ace-high runs.
    assert min_deadwood(cards("KH AH 2H"), ace_high=True).deadwood == 13
    # With ace-high allowed, the ace may still be low.
    assert min_deadwood(cards("AH 2H 3H"), ace_high=True).deadwood == 0


def test_min_deadwood_mask_beyond_eleven_cards() -> None:
    spades = mask_of(range(13))
    assert min_deadwood_mask(spades) == 0
    assert min_deadwood_mask(spades, ace_high=True) == 0
    assert min_deadwood_mask(spades | mask_of(cards("AH AD"))) == 0  # AS AH AD + 2S..KS
    assert min_deadwood_mask(spades | mask_of(cards("KH"))) == 10
    assert min_deadwood_mask(0) == 0


@pytest.mark.parametrize(
    "bad",
    [
        cards("AS KS AS"),  # duplicate
        [*range(12)],  # twelve cards
        cards("AS KS JK"),  # joker
        [Card(64), Card(1), Card(2)],  # a second deck's ace
        [-1],
    ],
)
def test_min_deadwood_rejects_bad_hands(bad: list[int]) -> None:
    with pytest.raises(InvalidCardError):
        min_deadwood(bad)


def test_best_discard_needs_eleven_cards() -> None:
    with pytest.raises(InvalidCardError, match="11-card hand, got 10"):
        best_discard(list(range(10)))
    with pytest.raises(InvalidCardError):
        best_discard([0] * 11)


def test_mask_helpers() -> None:
    hand = cards("KH AS 5D")
    mask = mask_of(hand)
    assert mask == (1 << 51) | 1 | (1 << (26 + 4))
    assert cards_of_mask(mask) == sorted(hand)
    assert all(isinstance(card, Card) for card in cards_of_mask(mask))
    assert cards_of_mask(0) == []
    assert mask_of([]) == 0
    with pytest.raises(InvalidCardError, match="twice"):
        mask_of(cards("AS AS"))
    with pytest.raises(InvalidCardError, match="single 52-card deck"):
        mask_of([52])
    with pytest.raises(InvalidCardError, match="single 52-card deck"):
        mask_of([-1])


@settings(max_examples=200, deadline=None)
@given(st.sets(st.integers(0, 51)))
def test_mask_round_trip(ids: set[int]) -> None:
    mask = mask_of(ids)
    assert mask.bit_count() == len(ids)
    assert cards_of_mask(mask) == sorted(ids)


# -------------------------------------------------- property tests: brute force


@settings(max_examples=300, deadline=None)
@given(hand=any_hands, ace_high=st.booleans())
def test_melds_in_mask_lists_every_meld_once(hand: list[int], ace_high: bool) -> None:
    found = melds_in_mask(mask_of(hand), ace_high)
    as_sets = [frozenset(cards_of_mask(meld_mask)) for meld_mask, _ in found]
    assert len(as_sets) == len(set(as_sets))
    assert set(as_sets) == set(brute_melds(hand, ace_high))
    for meld_mask, meld_value in found:
        assert meld_value == value(cards_of_mask(meld_mask))


def _check_min_deadwood(hand: list[int]) -> None:
    """Both run rules: value, arrangement and the mask solver against the brute force."""
    expected = brute_min_deadwood(hand)
    assert check_arrangement(hand) == expected
    assert min_deadwood_mask(mask_of(hand)) == expected
    expected_high = brute_min_deadwood(hand, ace_high=True)
    assert check_arrangement(hand, ace_high=True) == expected_high
    assert min_deadwood_mask(mask_of(hand), ace_high=True) == expected_high
    assert expected_high <= expected  # more runs never raise deadwood


@settings(max_examples=700, deadline=None)
@given(hand=random_hands())
def test_min_deadwood_equals_brute_force_random(hand: list[int]) -> None:
    _check_min_deadwood(hand)


@settings(max_examples=700, deadline=None)
@given(hand=crowded_hands())
def test_min_deadwood_equals_brute_force_crowded(hand: list[int]) -> None:
    _check_min_deadwood(hand)


@settings(max_examples=100, deadline=None)
@given(
    hand=st.one_of(random_hands(12, 15), crowded_hands(12, 15)),
    ace_high=st.booleans(),
)
def test_min_deadwood_mask_any_size(hand: list[int], ace_high: bool) -> None:
    assert min_deadwood_mask(mask_of(hand), ace_high) == brute_min_deadwood(hand, ace_high)


@settings(max_examples=150, deadline=None)
@given(hand=any_hands, data=st.data())
def test_min_deadwood_is_canonical(hand: list[int], data: st.DataObject) -> None:
    """The same hand in any order gives the same arrangement."""
    shuffled = data.draw(st.permutations(hand))
    assert min_deadwood(shuffled) == min_deadwood(hand)


@settings(max_examples=300, deadline=None)
@given(hand=st.one_of(random_hands(1, 11), crowded_hands(1, 11)), ace_high=st.booleans())
def test_deadwood_after_each_discard_equals_brute_force(hand: list[int], ace_high: bool) -> None:
    after = deadwood_after_each_discard(mask_of(hand), ace_high)
    assert set(after) == set(hand)
    for card in hand:
        rest = [c for c in hand if c != card]
        assert after[card] == brute_min_deadwood(rest, ace_high)


def _check_best_discard(hand: list[int], ace_high: bool) -> None:
    choice = best_discard(hand, ace_high=ace_high)
    after = {card: brute_min_deadwood([c for c in hand if c != card], ace_high) for card in hand}
    best = min(after.values())
    assert choice.deadwood == best
    assert choice.card in hand
    assert after[choice.card] == best
    # Ties: the highest-valued card, then the highest id.
    tied = [card for card in hand if after[card] == best]
    assert choice.card == max(tied, key=lambda card: (card_value_gin(card), card))


@settings(max_examples=250, deadline=None)
@given(hand=random_hands(11, 11))
def test_best_discard_equals_brute_force_random(hand: list[int]) -> None:
    _check_best_discard(hand, ace_high=False)


@settings(max_examples=250, deadline=None)
@given(hand=crowded_hands(11, 11))
def test_best_discard_equals_brute_force_crowded(hand: list[int]) -> None:
    _check_best_discard(hand, ace_high=False)


@settings(max_examples=100, deadline=None)
@given(hand=eleven_cards)
def test_best_discard_ace_high_equals_brute_force(hand: list[int]) -> None:
    _check_best_discard(hand, ace_high=True)
