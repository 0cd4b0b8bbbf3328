"""Meld validation (``rummykit.melds``): rules/gin.md sections 2 and 9, rules/rami.md 3."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummykit.cards import SUITS, Card, natural_card, parse_card, parse_cards
from rummykit.melds import (
    CAROUSEL_MELDS,
    GIN_MELDS,
    RAMI_MELDS,
    InvalidMeldError,
    Meld,
    MeldRules,
    check_meld,
    is_meld,
)

GIN_ACE_HIGH = MeldRules(ace_high=True)
"""Gin with the ``ace_high_runs`` option (rules/gin.md section 8)."""


def faces(meld: Meld) -> list[str]:
    return [str(face) for face in meld.faces]


def invalid(text: str | list[Card], rules: MeldRules, reason: str) -> None:
    """Assert the cards are no meld, and that the message says ``reason``."""
    cards = parse_cards(text) if isinstance(text, str) else text
    assert not is_meld(cards, rules)
    with pytest.raises(InvalidMeldError, match=reason):
        check_meld(cards, rules)


# ------------------------------------------------------- gin.md section 9, case 1


def test_section9_case1_ace_low_only_qka_invalid() -> None:
    invalid("QH KH AH", GIN_MELDS, "the ace is low only, no Q-K-A run")


def test_section9_case1_a23_valid() -> None:
    meld = check_meld(parse_cards("AH 2H 3H"), GIN_MELDS)
    assert meld.kind == "run"
    assert (meld.rank, meld.high_rank, meld.suit) == (1, 3, "H")
    assert faces(meld) == ["AH", "2H", "3H"]
    assert meld.cards == tuple(parse_cards("AH 2H 3H"))
    assert str(meld) == "AH 2H 3H"
    assert is_meld(parse_cards("AH 2H 3H"), GIN_MELDS)


def test_section9_case1_no_wrap_ka2_invalid() -> None:
    invalid("KH AH 2H", GIN_MELDS, "no wrap around the ace")


@pytest.mark.parametrize("text", ["QH KH AH 2H", "JS QS KS AS", "KD AD 2D 3D"])
def test_section9_case1_longer_runs_through_the_ace_are_invalid(text: str) -> None:
    invalid(text, GIN_MELDS, "ace")


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("QH KH AH", "low only"),
        ("JS QS KS AS", "low only"),
        ("3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD", "low only"),
        ("KH AH 2H", "no wrap"),
        ("QH KH AH 2H", "no wrap"),
        ("KD AD 2D 3D", "no wrap"),
        ("AH KH 5H", "ranks A 5 K are not consecutive"),
    ],
)
def test_section9_case1_the_message_names_the_ace_problem(text: str, reason: str) -> None:
    invalid(text, GIN_MELDS, reason)


@pytest.mark.parametrize("text", ["3H AH 2H", "2H 3H AH", "AH 2H 3H 4H 5H"])
def test_section9_case1_card_order_does_not_matter(text: str) -> None:
    meld = check_meld(parse_cards(text), GIN_MELDS)
    assert (meld.kind, meld.rank, meld.suit) == ("run", 1, "H")


# ------------------------------------------------------- gin.md section 9, case 2


def test_section9_case2_set_of_four_valid() -> None:
    meld = check_meld(parse_cards("8H 8S 8D 8C"), GIN_MELDS)
    assert (meld.kind, meld.rank, meld.suit) == ("set", 8, None)
    assert faces(meld) == ["8H", "8S", "8D", "8C"]
    assert meld.high_rank == 8


@pytest.mark.parametrize("suits", list(combinations(SUITS, 3)))
def test_section9_case2_every_set_of_three_valid(suits: tuple[str, ...]) -> None:
    cards = [parse_card("8" + suit) for suit in suits]
    meld = check_meld(cards, GIN_MELDS)
    assert meld.kind == "set"
    assert meld.rank == 8


def test_section9_case2_set_of_two_invalid_too_short() -> None:
    invalid("8H 8S", GIN_MELDS, "at least 3 cards are needed")


@pytest.mark.parametrize("text", ["", "AS", "AS 2S"])
def test_section9_case2_fewer_than_three_cards_is_no_meld(text: str) -> None:
    invalid(text, GIN_MELDS, "at least 3 cards")


# ----------------------------------------------------------- gin, other reasons


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("5S 6H 7S", "a set needs one rank, a run needs one suit"),
        ("5S 5H 6S", "a set needs one rank, a run needs one suit"),
        ("5S 6S 8S", "ranks 5 6 8 are not consecutive"),
        ("AH 3H 5H", "not consecutive"),
        ("JK 5H 6H", "jokers are not played in this variant"),
        ("JK=4H 5H 6H", "jokers are not played"),
        ("8S 8S 8H", "two cards of suit S"),
        ("5S 5S 6S", "a rank appears twice"),
    ],
)
def test_gin_invalid_melds_say_why(text: str, reason: str) -> None:
    invalid(text, GIN_MELDS, reason)


def test_gin_thirteen_card_run_is_the_longest() -> None:
    run = [natural_card(rank, "C") for rank in range(1, 14)]
    meld = check_meld(run, GIN_MELDS)
    assert (meld.kind, meld.rank, meld.high_rank) == ("run", 1, 13)


def test_invalid_meld_error_is_a_value_error() -> None:
    assert issubclass(InvalidMeldError, ValueError)
    with pytest.raises(ValueError):
        check_meld(parse_cards("AS KD 7H"), GIN_MELDS)


def _simple_gin_rule(cards: list[int], ace_high: bool) -> bool:
    """An independent statement of gin.md section 2 for one 52-card deck."""
    if len(cards) < 3:
        return False
    ranks = sorted(card % 13 + 1 for card in cards)
    suits = {card // 13 for card in cards}
    if len(set(ranks)) == 1:
        return len(cards) <= 4
    if len(suits) != 1:
        return False
    if ranks == list(range(ranks[0], ranks[0] + len(ranks))):
        return True
    if ace_high and ranks[0] == 1:
        high = sorted(14 if r == 1 else r for r in ranks)
        return high == list(range(high[0], high[0] + len(high)))
    return False


@pytest.mark.parametrize("rules", [GIN_MELDS, GIN_ACE_HIGH], ids=["ace-low", "ace-high"])
def test_every_three_card_combination_against_the_simple_rule(rules: MeldRules) -> None:
    legal = 0
    for combo in combinations(range(52), 3):
        expected = _simple_gin_rule(list(combo), rules.ace_high)
        assert is_meld(combo, rules) == expected, combo
        legal += expected
    # 13 ranks x 4 triples of suits, plus 4 suits x 11 (or 12 with Q-K-A) runs.
    assert legal == 52 + 4 * (12 if rules.ace_high else 11)


def _one_suit_groups(suit: int) -> st.SearchStrategy[list[int]]:
    return st.lists(st.integers(0, 12), min_size=3, max_size=7, unique=True).map(
        lambda ranks: [suit * 13 + rank for rank in ranks]
    )


_CARD_GROUPS = st.one_of(
    st.lists(st.integers(0, 51), min_size=3, max_size=7, unique=True),
    st.integers(0, 3).flatmap(_one_suit_groups),  # runs or near misses
    st.integers(0, 12).flatmap(  # sets, or one rank plus a stray card
        lambda rank: st.lists(
            st.one_of(st.integers(0, 3).map(lambda suit: suit * 13 + rank), st.integers(0, 51)),
            min_size=3,
            max_size=5,
            unique=True,
        )
    ),
)


@settings(max_examples=800, deadline=None)
@given(cards=_CARD_GROUPS, ace_high=st.booleans())
def test_random_card_groups_against_the_simple_rule(cards: list[int], ace_high: bool) -> None:
    rules = GIN_ACE_HIGH if ace_high else GIN_MELDS
    assert is_meld(cards, rules) == _simple_gin_rule(cards, ace_high)


@st.composite
def gin_runs(draw: st.DrawFn) -> list[int]:
    """A legal gin run (possibly Q-K-A style when drawn for ace-high), shuffled."""
    suit = draw(st.integers(0, 3))
    length = draw(st.integers(3, 13))
    start = draw(st.integers(1, 14 - length))
    cards = [suit * 13 + rank - 1 for rank in range(start, start + length)]
    return draw(st.permutations(cards))


@settings(max_examples=300, deadline=None)
@given(gin_runs())
def test_every_run_is_valid_and_reports_its_span(cards: list[int]) -> None:
    meld = check_meld(cards, GIN_MELDS)
    ranks = sorted(card % 13 + 1 for card in cards)
    assert meld.kind == "run"
    assert (meld.rank, meld.high_rank) == (ranks[0], ranks[-1])
    assert meld.suit == SUITS[cards[0] // 13]
    assert list(meld.faces) == [Card(card) for card in cards]


# --------------------------------------------------------- ace-high (Rami, option)


def test_rami_section3_qka_valid_with_ace_high() -> None:
    for rules in (RAMI_MELDS, GIN_ACE_HIGH):
        meld = check_meld(parse_cards("QH KH AH"), rules)
        assert (meld.kind, meld.rank, meld.high_rank, meld.suit) == ("run", 12, 14, "H")
        assert faces(meld) == ["QH", "KH", "AH"]


def test_rami_section3_a23_still_valid_with_ace_high() -> None:
    meld = check_meld(parse_cards("AH 2H 3H"), RAMI_MELDS)
    assert (meld.rank, meld.high_rank) == (1, 3)


@pytest.mark.parametrize("text", ["KH AH 2H", "QH KH AH 2H", "KS AS 2S 3S"])
def test_rami_section3_no_wrap_even_with_ace_high(text: str) -> None:
    invalid(text, RAMI_MELDS, "no wrap")
    invalid(text, GIN_ACE_HIGH, "no wrap")


def test_rami_section3_ace_is_never_low_and_high_at_once() -> None:
    full = [natural_card(rank, "D") for rank in range(1, 14)]
    assert check_meld(full, RAMI_MELDS).rank == 1
    three_to_ace = [natural_card(rank, "D") for rank in range(3, 14)] + [natural_card(1, "D")]
    meld = check_meld(three_to_ace, RAMI_MELDS)
    assert (meld.rank, meld.high_rank) == (3, 14)
    invalid(three_to_ace, GIN_MELDS, "low only")
    # Two decks: A..K plus the other ace would need the ace at both ends.
    both = [*full, natural_card(1, "D", 1)]
    invalid(both, RAMI_MELDS, "at most 13 cards")


def test_ace_only_low_option_off() -> None:
    high_only = MeldRules(ace_low=False, ace_high=True)
    assert is_meld(parse_cards("QH KH AH"), high_only)
    invalid("AH 2H 3H", high_only, "the ace is high only")


# ---------------------------------------------------------- Rami jokers (rami.md 3)


@pytest.mark.parametrize(
    ("text", "expected", "low"),
    [
        ("JK 7S 8S", ["6S", "7S", "8S"], 6),
        ("7S 8S JK", ["7S", "8S", "6S"], 6),
        ("JK QH KH", ["JH", "QH", "KH"], 11),
        ("JK 2S 3S", ["AS", "2S", "3S"], 1),
        ("2S 3S JK", ["2S", "3S", "AS"], 1),
        ("AS 2S JK", ["AS", "2S", "3S"], 1),
        ("JK KH AH", ["QH", "KH", "AH"], 12),
        ("KH AH JK", ["KH", "AH", "QH"], 12),
        ("7S JK 9S", ["7S", "8S", "9S"], 7),
        ("AH JK 3H", ["AH", "2H", "3H"], 1),
        ("QD JK AD", ["QD", "KD", "AD"], 12),
        ("JK 5C 6C 7C 8C", ["4C", "5C", "6C", "7C", "8C"], 4),
    ],
)
def test_rami_section3_end_joker_takes_the_lower_position(
    text: str, expected: list[str], low: int
) -> None:
    meld = check_meld(parse_cards(text), RAMI_MELDS)
    assert meld.kind == "run"
    assert faces(meld) == expected
    assert meld.rank == low
    assert meld.high_rank == low + len(expected) - 1


def test_rami_section3_at_most_one_joker_per_combination() -> None:
    invalid("JK JK 5H 6H", RAMI_MELDS, "at most 1 joker")
    invalid("JK 9C 9D JK", RAMI_MELDS, "at most 1 joker")
    invalid("JK JK 5H", RAMI_MELDS, "at most 1 joker")


def test_rami_section3_a_joker_fills_one_gap_only() -> None:
    invalid("JK 5S 9S", RAMI_MELDS, "gaps that 1 joker")
    invalid("JK 5S 8S", RAMI_MELDS, "gaps that 1 joker")


def test_rami_section3_joker_cannot_make_a_wrap() -> None:
    invalid("JK KH 2H", RAMI_MELDS, "gaps")
    # Q-K-A plus a joker: the joker goes below (J), never above the ace.
    meld = check_meld(parse_cards("QS KS AS JK"), RAMI_MELDS)
    assert faces(meld) == ["QS", "KS", "AS", "JS"]


def test_jokers_need_a_natural_card_unless_declared() -> None:
    invalid("JK", RAMI_MELDS, "at least 3")
    any_jokers = MeldRules(max_jokers=None)
    invalid("JK JK JK", any_jokers, "needs at least one natural card")
    assert is_meld(parse_cards("JK JK 4D"), any_jokers)


def test_rami_section3_set_suits_must_differ_with_two_decks() -> None:
    eight_s, eight_s2, eight_h = (
        natural_card(8, "S"),
        natural_card(8, "S", 1),
        natural_card(8, "H"),
    )
    assert eight_s != eight_s2
    invalid([eight_s, eight_s2, eight_h], RAMI_MELDS, "two cards of suit S.*suits must all differ")
    invalid("7S 7S 7H", RAMI_MELDS, "suits must all differ")
    invalid("7S 7S JK", RAMI_MELDS, "suits must all differ")


def test_rami_section3_sets_of_three_and_four() -> None:
    meld = check_meld(parse_cards("7S 7H 7D 7C"), RAMI_MELDS)
    assert (meld.kind, meld.rank) == ("set", 7)
    invalid("7S 7H 7D 7C JK", RAMI_MELDS, "at most 4 cards")
    invalid([*parse_cards("7S 7H 7D 7C"), natural_card(7, "S", 1)], RAMI_MELDS, "at most 4 cards")


def test_rami_section3_set_joker_resolves_only_with_three_naturals() -> None:
    four = check_meld(parse_cards("9C 9D 9H JK"), RAMI_MELDS)
    assert four.kind == "set"
    assert faces(four) == ["9C", "9D", "9H", "9S"]
    three = check_meld(parse_cards("JK 9C 9D"), RAMI_MELDS)
    assert three.kind == "set"
    assert three.faces[0] is None
    assert faces(three)[1:] == ["9C", "9D"]


def test_rami_section3_joker_stand_in_for_a_used_suit_is_rejected() -> None:
    invalid("JK=9C 9C 9D", CAROUSEL_MELDS, "two cards of suit C")


def test_rami_section3_run_of_fourteen_rejected() -> None:
    fourteen = [natural_card(rank, "S") for rank in range(1, 14)] + parse_cards("JK")
    invalid(fourteen, RAMI_MELDS, "at most 13 cards")


def _lowest_joker_rank(naturals: list[int], size: int) -> int | None:
    """Where one joker goes beside ``naturals`` (ranks 1-13) in a run of ``size`` cards.

    rules/rami.md section 3: an interior joker is fixed; at an end it takes the lower
    position. When the ace can be read low or high (12-13 card runs), both readings are
    legal and the joker again takes the lower-valued place.
    """
    options = []
    for ace in (1, 14) if 1 in naturals else (1,):
        ranks = sorted(ace if r == 1 else r for r in naturals)
        low, high = ranks[0], ranks[-1]
        if high - low + 1 == size:
            options += [r for r in range(low, high + 1) if r not in ranks]
        elif high - low + 2 == size:
            if low - 1 >= 1:
                options.append(low - 1)
            elif high + 1 <= 14:
                options.append(high + 1)
    return min(options, default=None)


@st.composite
def rami_runs_with_a_joker(draw: st.DrawFn) -> tuple[list[Card], int, list[int]]:
    """A run window with one card taken out and a joker put in.

    Returns the cards (shuffled), the index of the joker, and the expected face id per
    card (see :func:`_lowest_joker_rank`).
    """
    suit = draw(st.integers(0, 3))
    length = draw(st.integers(3, 13))
    start = draw(st.integers(1, 15 - length))  # ranks 1..14, 14 = ace high
    window = list(range(start, start + length))
    removed = draw(st.sampled_from(window))
    naturals = [(r - 1) % 13 + 1 for r in window if r != removed]
    joker_rank = _lowest_joker_rank(naturals, length)
    assert joker_rank is not None
    joker = Card(52)
    cards = [natural_card(r, suit) for r in naturals] + [joker]
    expected = [suit * 13 + (r - 1) % 13 for r in [*naturals, joker_rank]]
    order = draw(st.permutations(range(len(cards))))
    return (
        [cards[i] for i in order],
        order.index(len(cards) - 1),
        [expected[i] for i in order],
    )


def test_lowest_joker_rank_oracle() -> None:
    assert _lowest_joker_rank([7, 8], 3) == 6
    assert _lowest_joker_rank([12, 13], 3) == 11
    assert _lowest_joker_rank([1, 2], 3) == 3
    assert _lowest_joker_rank([13, 1], 3) == 12
    assert _lowest_joker_rank([7, 9], 3) == 8
    assert _lowest_joker_rank([1, *range(3, 13)], 12) == 2  # A 2 3..Q, not 3..Q K A
    assert _lowest_joker_rank([5, 9], 3) is None


@settings(max_examples=500, deadline=None)
@given(rami_runs_with_a_joker())
def test_rami_runs_with_one_joker(case: tuple[list[Card], int, list[int]]) -> None:
    cards, joker_index, expected = case
    meld = check_meld(cards, RAMI_MELDS)
    assert meld.kind == "run"
    assert [int(face) for face in meld.faces if face is not None] == expected
    assert cards[joker_index].is_joker
    # The same cards are never legal in gin (no jokers).
    assert not is_meld(cards, GIN_MELDS)


# -------------------------------------------------------------- Carousel jokers


def test_carousel_jokers_must_be_declared() -> None:
    invalid("JK 6S 7S", CAROUSEL_MELDS, "must be declared")
    meld = check_meld(parse_cards("JK=5S 6S 7S"), CAROUSEL_MELDS)
    assert faces(meld) == ["5S", "6S", "7S"]


def test_carousel_allows_several_declared_jokers() -> None:
    meld = check_meld(parse_cards("JK=5S JK=6S 7S JK=8S"), CAROUSEL_MELDS)
    assert (meld.kind, meld.rank, meld.high_rank) == ("run", 5, 8)
    only_jokers = check_meld(parse_cards("JK=QD JK=QS JK=QH"), CAROUSEL_MELDS)
    assert only_jokers.kind == "set"


def test_carousel_declaration_must_fit_the_meld() -> None:
    invalid("JK=9S 6S 7S", CAROUSEL_MELDS, "not consecutive")
    invalid("JK=5H 6S 7S", CAROUSEL_MELDS, "one suit")
