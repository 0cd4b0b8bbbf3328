"""Card ids, notation, decks and shuffles (``rummykit.cards``)."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummykit.cards import (
    JOKER_FACE,
    MAX_COPIES,
    RANKS,
    SUITS,
    Card,
    DeckSpec,
    build_deck,
    card_value_gin,
    face_of,
    format_card,
    format_cards,
    make_rng,
    natural_card,
    ordered_deck,
    parse_card,
    parse_cards,
    shuffled_deck,
)

# --------------------------------------------------------------------------- ids


def test_card_ids_are_suit_major_spades_clubs_diamonds_hearts_ace_low() -> None:
    assert [int(parse_card(t)) for t in ("AS", "2S", "KS", "AC", "KC", "AD", "AH", "KH")] == [
        0,
        1,
        12,
        13,
        25,
        26,
        39,
        51,
    ]


def test_every_face_has_rank_suit_and_notation() -> None:
    seen = set()
    for face in range(52):
        card = Card(face)
        assert card.rank == face % 13 + 1
        assert card.suit == SUITS[face // 13]
        assert str(card) == RANKS[face % 13] + SUITS[face // 13]
        assert parse_card(str(card)) == face
        assert not card.is_joker
        assert card.declared is None
        seen.add(str(card))
    assert len(seen) == 52


def test_card_is_an_int_equal_to_its_id() -> None:
    card = parse_card("TD")
    assert isinstance(card, int)
    assert card == 26 + 9
    assert {35: "x"}[card] == "x"
    assert hash(card) == hash(35)
    assert repr(card) == "Card('TD')"


# ----------------------------------------------------------------------- parsing


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("as 2s td", "AS 2S TD"),
        ("As 2S tD", "AS 2S TD"),
        ("kh QC jd", "KH QC JD"),
        ("jk", "JK"),
        ("Jk=5s", "JK=5S"),
        ("jk=th", "JK=TH"),
    ],
)
def test_parsing_is_case_insensitive(text: str, canonical: str) -> None:
    assert parse_cards(text) == parse_cards(canonical)
    assert format_cards(parse_cards(text)) == canonical


@pytest.mark.parametrize("suit", list(SUITS))
def test_ten_is_written_t_or_10(suit: str) -> None:
    ten = parse_card("T" + suit)
    assert parse_card("10" + suit) == ten
    assert parse_card("10" + suit.lower()) == ten
    assert ten.rank == 10
    assert str(parse_card("10" + suit)) == "T" + suit


def test_separators_commas_and_any_whitespace() -> None:
    expected = parse_cards("AS KS 5D")
    assert parse_cards("AS,KS,5D") == expected
    assert parse_cards(" AS ,  KS\t5D\n") == expected
    assert parse_cards(["AS", "ks", " 5d "]) == expected
    assert parse_cards("") == []
    assert parse_cards([]) == []


def test_undeclared_joker() -> None:
    joker = parse_card("JK")
    assert joker.is_joker
    assert joker.face == JOKER_FACE
    assert joker.declared is None
    assert joker.rank == 0
    assert joker.suit is None
    assert str(joker) == "JK"
    for alias in ("jo", "Joker", "JOKER"):
        assert parse_card(alias) == joker


def test_declared_joker() -> None:
    joker = parse_card("JK=5S")
    assert joker.is_joker
    assert joker.face == JOKER_FACE
    assert joker.declared == parse_card("5S")
    assert str(joker.declared) == "5S"
    assert (joker.rank, joker.suit) == (5, "S")
    assert str(joker) == "JK=5S"
    assert joker.physical == parse_card("JK")
    assert joker.physical.declared is None
    assert parse_card("jo=5s") == joker
    assert parse_card("JK=10H").declared == parse_card("TH")


def test_jokers_are_numbered_in_order_of_appearance() -> None:
    cards = parse_cards("JK AS JK=7C JK")
    jokers = [card for card in cards if card.is_joker]
    assert [joker.copy for joker in jokers] == [0, 1, 2]
    assert len({card.physical for card in jokers}) == 3
    # Natural cards are copy 0.
    assert cards[1].copy == 0


def test_declare_replaces_a_previous_declaration_and_rejects_naturals() -> None:
    joker = parse_card("JK=5S")
    redeclared = joker.declare(parse_card("KH"))
    assert str(redeclared) == "JK=KH"
    assert redeclared.physical == joker.physical
    with pytest.raises(ValueError, match="only a joker"):
        parse_card("5S").declare(0)
    with pytest.raises(ValueError, match="natural card"):
        parse_card("JK").declare(JOKER_FACE)


_TOKENS = st.one_of(
    st.tuples(st.sampled_from([*RANKS, "10"]), st.sampled_from(SUITS)).map("".join),
    st.just("JK"),
    st.tuples(st.sampled_from([*RANKS, "10"]), st.sampled_from(SUITS)).map(
        lambda pair: "JK=" + "".join(pair)
    ),
)


@settings(max_examples=300, deadline=None)
@given(
    tokens=st.lists(_TOKENS, max_size=MAX_COPIES),  # never more jokers than MAX_COPIES
    lower=st.lists(st.booleans(), min_size=MAX_COPIES, max_size=MAX_COPIES),
)
def test_round_trip_format_parse(tokens: list[str], lower: list[bool]) -> None:
    text = " ".join(t.lower() if low else t for t, low in zip(tokens, lower, strict=False))
    cards = parse_cards(text)
    canonical = " ".join(t.replace("10", "T") for t in tokens)
    assert format_cards(cards) == canonical
    assert parse_cards(format_cards(cards)) == cards
    assert [str(card) for card in cards] == canonical.split()


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 51), max_size=20))
def test_round_trip_from_ids(ids: list[int]) -> None:
    cards = [Card(i) for i in ids]
    assert parse_cards(format_cards(cards)) == cards


@pytest.mark.parametrize(
    ("text", "token", "position"),
    [
        ("XX", "XX", 1),
        ("AS XX KD", "XX", 2),
        ("AS KD 1X", "1X", 3),
        ("AS ZS", "ZS", 2),
        ("AS 11H", "11H", 2),
        ("0H", "0H", 1),
        ("AS KD QD S", "S", 4),
        ("AS,KD,QD,JD,TD,JK=ZZ", "JK=ZZ", 6),
        ("JK=JK", "JK=JK", 1),
        ("AS AS+", "AS+", 2),
        ("ASS", "ASS", 1),
    ],
)
def test_bad_token_names_token_and_position(text: str, token: str, position: int) -> None:
    with pytest.raises(ValueError) as info:
        parse_cards(text)
    message = str(info.value)
    assert repr(token) in message
    assert re.search(rf"\bposition {position}\b", message), message


def test_bad_token_in_an_iterable_names_its_position() -> None:
    with pytest.raises(ValueError, match=r"'' at position 2"):
        parse_cards(["AS", "", "KD"])
    with pytest.raises(ValueError, match=r"'AS KD' at position 1"):
        parse_cards(["AS KD"])


def test_too_many_jokers_names_token_and_position() -> None:
    assert len(parse_cards(["JK"] * MAX_COPIES)) == MAX_COPIES
    with pytest.raises(ValueError, match=rf"'jk' at position {MAX_COPIES + 2}: too many jokers"):
        parse_cards(["JK"] * MAX_COPIES + ["AS", "jk"])


def test_parse_card_wants_exactly_one_card() -> None:
    assert parse_card(" qh ") == parse_card("QH")
    with pytest.raises(ValueError, match="expected one card, got 2"):
        parse_card("AS KS")
    with pytest.raises(ValueError, match="expected one card, got 0"):
        parse_card("")
    with pytest.raises(ValueError, match="'XH' at position 1"):
        parse_card("XH")


def test_format_card_rejects_ids_that_are_no_card() -> None:
    for bad in (53, 60, 63):
        with pytest.raises(ValueError, match="not a card id"):
            format_card(bad)


# ------------------------------------------------------------- helpers and values


def test_card_value_gin() -> None:
    expected = {"A": 1, "2": 2, "5": 5, "9": 9, "T": 10, "J": 10, "Q": 10, "K": 10}
    for rank, value in expected.items():
        for suit in SUITS:
            assert card_value_gin(parse_card(rank + suit)) == value


@pytest.mark.parametrize("copy", [1, 2])
def test_card_value_gin_ignores_the_deck_copy(copy: int) -> None:
    # Regression: the value used to be computed from the raw id, so the ace of the
    # second deck (id 64) was worth 10.
    for rank in range(1, 14):
        for suit in SUITS:
            card = natural_card(rank, suit, copy)
            assert card_value_gin(card) == card_value_gin(natural_card(rank, suit)) == min(rank, 10)


def test_natural_card() -> None:
    assert natural_card(1, "S") == parse_card("AS")
    assert natural_card(13, "h") == parse_card("KH")
    assert natural_card(10, 2) == parse_card("TD")
    second = natural_card(7, "C", 1)
    assert second != parse_card("7C")
    assert (second.rank, second.suit, second.copy, str(second)) == (7, "C", 1, "7C")
    assert face_of(second) == parse_card("7C")


@pytest.mark.parametrize(
    ("rank", "suit", "copy"),
    [
        (0, "S", 0),
        (14, "S", 0),
        (5, "X", 0),
        (5, "", 0),  # "SCDH".index("") is 0: used to give the five of spades
        (5, "SC", 0),
        (5, 4, 0),
        (5, -1, 0),
        (5, "S", MAX_COPIES),
        (5, "S", -1),
    ],
)
def test_natural_card_rejects_bad_arguments(rank: int, suit: str | int, copy: int) -> None:
    with pytest.raises(ValueError):
        natural_card(rank, suit, copy)


# ------------------------------------------------------------------------- decks


@pytest.mark.parametrize("decks", [1, 2, 3])
@pytest.mark.parametrize("jokers", [0, 1, 2, 4])
def test_deck_sizes_and_unique_ids(decks: int, jokers: int) -> None:
    spec = DeckSpec(decks=decks, jokers=jokers)
    deck = build_deck(spec)
    assert len(deck) == spec.size == 52 * decks + jokers
    assert len(set(deck)) == len(deck)
    naturals = [card for card in deck if not card.is_joker]
    assert len(naturals) == 52 * decks
    for face in range(52):
        assert sorted(card.copy for card in naturals if card.face == face) == list(range(decks))
    assert sorted(card.copy for card in deck if card.is_joker) == list(range(jokers))
    assert all(card.declared is None for card in deck)


@pytest.mark.parametrize(("decks", "jokers", "size"), [(1, 0, 52), (2, 4, 108), (3, 4, 160)])
def test_reference_pack_sizes(decks: int, jokers: int, size: int) -> None:
    assert len(build_deck(DeckSpec(decks=decks, jokers=jokers))) == size


def test_deck_spec_defaults_to_one_deck_no_jokers() -> None:
    assert build_deck(DeckSpec()) == [Card(face) for face in range(52)]


@pytest.mark.parametrize(("decks", "jokers"), [(0, 0), (4, 0), (1, -1), (1, MAX_COPIES)])
def test_deck_spec_rejects_bad_sizes(decks: int, jokers: int) -> None:
    with pytest.raises(ValueError):
        DeckSpec(decks=decks, jokers=jokers)


@pytest.mark.parametrize("spec", [DeckSpec(), DeckSpec(decks=2, jokers=4)])
def test_seeded_shuffle_is_reproducible_permutation(spec: DeckSpec) -> None:
    first = shuffled_deck(spec, 12345)
    assert first == shuffled_deck(spec, 12345)
    assert sorted(first) == sorted(build_deck(spec))
    assert first != build_deck(spec)
    # An int seed and an RNG seeded with it give the same order.
    assert shuffled_deck(spec, random.Random(12345)) == first


def test_different_seeds_give_different_orders() -> None:
    spec = DeckSpec(decks=2, jokers=2)
    orders = {tuple(shuffled_deck(spec, seed)) for seed in range(20)}
    assert len(orders) == 20


def test_shuffles_never_touch_the_global_random_state() -> None:
    random.seed(99)
    state = random.getstate()
    shuffled_deck(DeckSpec(), 3)
    shuffled_deck(DeckSpec())
    make_rng(None).random()
    assert random.getstate() == state


def test_unseeded_shuffles_are_permutations_and_differ() -> None:
    spec = DeckSpec(decks=2, jokers=4)
    first, second = shuffled_deck(spec), shuffled_deck(spec)
    assert sorted(first) == sorted(second) == sorted(build_deck(spec))
    assert first != second  # 108! orders: equal only by a miracle


def test_make_rng() -> None:
    rng = random.Random(1)
    assert make_rng(rng) is rng
    assert make_rng(7).random() == random.Random(7).random()
    assert isinstance(make_rng(None), random.Random)
    assert make_rng(None).random() != make_rng(None).random()


def test_a_shared_rng_advances_between_shuffles() -> None:
    rng = make_rng(5)
    assert shuffled_deck(DeckSpec(), rng) != shuffled_deck(DeckSpec(), rng)


# ----------------------------------------------------------------- ordered decks


@pytest.mark.parametrize("spec", [DeckSpec(), DeckSpec(decks=3, jokers=3)])
def test_ordered_deck_keeps_a_complete_order(spec: DeckSpec) -> None:
    order = shuffled_deck(spec, 8)
    assert ordered_deck(order, spec) == order
    assert ordered_deck([int(card) for card in order], spec) == order
    assert all(isinstance(card, Card) for card in ordered_deck(order, spec))


def test_ordered_deck_rejects_a_missing_card() -> None:
    order = build_deck(DeckSpec())
    del order[51]
    with pytest.raises(ValueError, match="not a complete pack; missing KH"):
        ordered_deck(order, DeckSpec())


def test_ordered_deck_rejects_a_duplicated_card() -> None:
    order = build_deck(DeckSpec())
    order[51] = order[0]
    with pytest.raises(ValueError, match="missing KH; duplicated or foreign AS"):
        ordered_deck(order, DeckSpec())
    with pytest.raises(ValueError, match="duplicated or foreign AS"):
        ordered_deck([*build_deck(DeckSpec()), Card(0)], DeckSpec())


def test_ordered_deck_rejects_the_wrong_copy_of_a_card() -> None:
    spec = DeckSpec(decks=2)
    order = build_deck(spec)
    order[order.index(natural_card(5, "D", 1))] = natural_card(5, "D", 0)
    with pytest.raises(ValueError, match="missing 5D; duplicated or foreign 5D"):
        ordered_deck(order, spec)


@pytest.mark.parametrize("foreign", [JOKER_FACE, 60, -1, 64, 512])
def test_ordered_deck_rejects_foreign_ids(foreign: int) -> None:
    order = [*build_deck(DeckSpec())[1:], foreign]
    with pytest.raises(ValueError, match="not a complete pack; missing AS; duplicated or foreign"):
        ordered_deck(order, DeckSpec())


def test_ordered_deck_drops_joker_declarations() -> None:
    spec = DeckSpec(jokers=2)
    order = build_deck(spec)
    order[52] = order[52].declare(parse_card("5S"))
    result = ordered_deck(order, spec)
    assert result == build_deck(spec)
    assert result[52].declared is None
    assert str(result[52]) == "JK"
