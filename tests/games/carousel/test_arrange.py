"""Carousel table arrangement: layout checks (rules/carousel.md sections 2-3, 7, 10) and
the exact placement solver against an ILP reference and a brute force.

``ilp_reference`` sits beside this file; pytest's default ``prepend`` import mode puts
this folder on ``sys.path`` (there is no ``__init__.py`` here).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ilp_reference import face_melds, ilp_optimum, random_instance

from rummykit.cards import JOKER_FACE, Card, card_value_gin, format_cards, parse_cards
from rummykit.games.carousel.arrange import best_placement
from rummykit.games.carousel.layout import IllegalLayoutError, check_layout
from rummykit.games.carousel.placement_problem import PlacementProblem, live_hand
from rummykit.games.carousel.rules import placement_value
from rummykit.melds import CAROUSEL_MELDS, MeldRules


def melds(*texts: str) -> list[list[Card]]:
    return [parse_cards(text) for text in texts]


def hand(text: str) -> list[Card]:
    return parse_cards(text)


def rejected(old: Sequence[str], new: Sequence[str], cards: str, **kwargs: object) -> str:
    with pytest.raises(IllegalLayoutError) as caught:
        check_layout(melds(*old), melds(*new), hand(cards), **kwargs)  # type: ignore[arg-type]
    return caught.value.code


# --------------------------------------------------------------------------- spec examples


def test_example_11_group_from_a_run_end() -> None:
    """rules/carousel.md 7.11: 8H leaves the run for a group with two hand cards."""
    check = check_layout(melds("5H 6H 7H 8H"), melds("5H 6H 7H", "8H 8C 8D"), hand("8C 8D"))
    assert format_cards(check.cards) == "8C 8D"
    assert check.remaining == ()
    assert check.value == 16
    assert check.freed == ()
    assert [m.kind for m in check.melds] == ["run", "set"]


def test_example_12_joker_freed_and_reused() -> None:
    """rules/carousel.md 7.12: a real 5S frees the joker, which joins the nines."""
    old = ["4S JK=5S 6S", "9H 9S 9C"]
    check = check_layout(melds(*old), melds("4S 5S 6S", "9H 9S 9C JK=9D"), hand("5S 2D"))
    assert format_cards(check.cards) == "5S"
    assert format_cards(check.remaining) == "2D"
    assert format_cards(check.freed) == "5S"
    # The same layout without the joker: the freed joker must stay on the table.
    assert rejected(old, ["4S 5S 6S", "9H 9S 9C"], "5S 2D") == "joker_removed"
    # Declared 9H beside the real 9H: a duplicate suit in the group.
    assert rejected(old, ["4S 5S 6S", "9H 9S 9C JK=9H"], "5S 2D") == "invalid_meld"
    # With one deck the copy limit catches it first.
    assert rejected(old, ["4S 5S 6S", "9H 9S 9C JK=9H"], "5S 2D", decks=1) == "copy_limit"


def test_example_13_nothing_fits() -> None:
    """rules/carousel.md 7.13: no hand card can be added, so every layout is illegal."""
    old = ["7D 7S 7C"]
    assert rejected(old, ["7D 7S 7C"], "KH 2C 9D") == "no_hand_card"
    assert rejected(old, ["7D 7S 7C", "KH"], "KH 2C 9D") == "invalid_meld"
    assert rejected(old, ["7D 7S 7C 9D"], "KH 2C 9D") == "invalid_meld"
    assert best_placement(melds(*old), hand("KH 2C 9D")) is None


def test_case_1_groups_need_distinct_suits() -> None:
    """rules/carousel.md 10.1 through a meld action."""
    assert rejected([], ["8S 8S 8H"], "8S 8S 8H") == "invalid_meld"
    check_layout([], melds("8S 8H 8D 8C"), hand("8S 8H 8D 8C"))
    assert rejected([], ["8S 8H 8D 8C 8S"], "8S 8H 8D 8C 8S") == "invalid_meld"


def test_case_2_ace_low_or_high_never_both() -> None:
    """rules/carousel.md 10.2 through a meld action."""
    check_layout([], melds("QD KD AD"), hand("QD KD AD"))
    check_layout([], melds("AD 2D 3D"), hand("AD 2D 3D"))
    assert rejected([], ["KD AD 2D"], "KD AD 2D") == "invalid_meld"


def test_case_5_missing_table_card() -> None:
    """rules/carousel.md 10.5: a layout missing a table card is rejected."""
    with pytest.raises(IllegalLayoutError, match="cannot remove 7H from the table") as caught:
        check_layout(melds("5H 6H 7H", "9S 9C 9D"), melds("5H 6H", "9S 9C 9D 9H"), hand("9H"))
    assert caught.value.code == "table_card_removed"
    assert caught.value.card == parse_cards("7H")[0]


def test_case_6_rearranging_only() -> None:
    """rules/carousel.md 10.6: only table cards rearranged, no hand card: rejected."""
    with pytest.raises(IllegalLayoutError, match="no card from your hand is added"):
        check_layout(melds("3S 4S 5S 6S 7S 8S"), melds("3S 4S 5S", "6S 7S 8S"), hand("KD"))


def test_case_7_joker_kept_unless_freed() -> None:
    """rules/carousel.md 10.7: re-declaring JK=5S as 7S needs a real 5S on the table."""
    with pytest.raises(
        IllegalLayoutError,
        match=r"JK=7S \(meld 1\): the joker declared 5S was not freed \(no real 5S on the table\)",
    ) as caught:
        check_layout(melds("4S JK=5S 6S"), melds("4S 6S JK=7S 8S 9S"), hand("8S 9S"))
    assert caught.value.code == "joker_not_freed"
    check = check_layout(melds("4S JK=5S 6S"), melds("4S 5S 6S JK=7S 8S"), hand("5S 8S"))
    assert format_cards(check.cards) == "5S 8S"
    assert format_cards(check.freed) == "5S"


def test_case_8_freed_joker_kept_in_hand() -> None:
    """rules/carousel.md 10.8: a freed joker missing from the layout: rejected."""
    with pytest.raises(IllegalLayoutError, match="cannot remove a joker") as caught:
        check_layout(melds("4S JK=5S 6S"), melds("4S 5S 6S"), hand("5S"))
    assert caught.value.code == "joker_removed"


def test_case_18_second_meld_action_keeps_the_first() -> None:
    """rules/carousel.md 10.18: the second layout may not drop a card laid by the first."""
    first = check_layout(melds("5H 6H 7H"), melds("5H 6H 7H 8H"), hand("8H 2C 2D 2S"))
    assert format_cards(first.cards) == "8H"
    after_first = ["5H 6H 7H 8H"]
    assert rejected(after_first, ["5H 6H 7H", "2C 2D 2S"], "2C 2D 2S") == "table_card_removed"
    check_layout(melds(*after_first), melds("5H 6H 7H 8H", "2C 2D 2S"), hand("2C 2D 2S"))


def test_case_19_freeing_with_a_table_card() -> None:
    """rules/carousel.md 10.19: the table's own 5S frees the joker (two decks)."""
    check = check_layout(
        melds("4S JK=5S 6S", "5S 5H 5D 5C"),
        melds("4S 5S 6S", "5H 5D 5C", "9C 9D JK=9S"),
        hand("9C 9D"),
        decks=2,
    )
    assert format_cards(check.cards) == "9C 9D"
    assert format_cards(check.freed) == "5S"
    # No real 5S anywhere: the joker is not freed (the table-level rule is reported).
    with pytest.raises(IllegalLayoutError, match="no real 5S on the table"):
        check_layout(
            melds("4S JK=5S 6S", "7H 8H 9H"),
            melds("4S 6S", "7H 8H 9H", "9C 9D JK=9S"),
            hand("9C 9D"),
        )
    # The same with every meld legal.
    assert (
        rejected(
            ["4S JK=5S 6S 7S 8S", "4H 4D 4C", "7H 8H 9H"],
            ["4S 4H 4D 4C", "6S 7S 8S", "7H 8H 9H", "9C 9D JK=9S"],
            "9C 9D",
        )
        == "joker_not_freed"
    )


# --------------------------------------------------------------------------- more checks


def test_cards_must_come_from_the_hand() -> None:
    with pytest.raises(IllegalLayoutError, match="8C is not in your hand") as caught:
        check_layout(melds("5H 6H 7H 8H"), melds("5H 6H 7H", "8H 8C 8D"), hand("8D 8S"))
    assert caught.value.code == "not_in_hand"
    assert rejected(["5H 6H 7H"], ["5H 6H 7H JK=8H"], "8S") == "not_in_hand"


def test_hand_joker_needs_a_declaration() -> None:
    assert rejected(["5H 6H 7H"], ["5H 6H 7H JK"], "JK") == "undeclared_joker"
    check = check_layout(melds("5H 6H 7H"), melds("5H 6H 7H JK=8H"), hand("JK 2C"))
    assert format_cards(check.cards) == "JK"
    assert check.value == 25
    assert format_cards(check.remaining) == "2C"


def test_copy_limit() -> None:
    """A real card may not join while a joker still stands for its last copy."""
    old = ["4S JK=5S 6S", "5H 5D 5C"]
    new = ["4S JK=5S 6S", "5H 5D 5C 5S"]
    assert rejected(old, new, "5S", decks=1) == "copy_limit"
    check_layout(melds(*old), melds(*new), hand("5S"), decks=1, joker_copy_limit=False)
    check_layout(melds(*old), melds(*new), hand("5S"), decks=2)
    # A new declaration counts too.
    old = ["9H 9S 9C", "9D TD JD"]
    new = ["9H 9S 9C JK=9D", "9D TD JD"]
    with pytest.raises(IllegalLayoutError, match="9D appears 2 times") as caught:
        check_layout(melds(*old), melds(*new), hand("JK"), decks=1)
    assert caught.value.code == "copy_limit"
    check_layout(melds(*old), melds(*new), hand("JK"), decks=2)


def test_jokers_are_interchangeable() -> None:
    """Two jokers swapping declarations is no change at all."""
    old = ["4S JK=5S 6S", "7H JK=8H 9H"]
    check = check_layout(melds(*old), melds("4S JK=5S 6S", "7H JK=8H 9H TH"), hand("TH"))
    assert check.freed == ()
    swapped = check_layout(melds(*old), melds("7H JK=8H 9H TH", "4S JK=5S 6S"), hand("TH"))
    assert swapped.freed == ()


def test_copies_of_one_face_are_interchangeable() -> None:
    table = [[Card(int(c) + 64) for c in parse_cards("5S 6S 7S")]]  # deck-2 copies
    check = check_layout(table, melds("5S 6S 7S 8S"), [Card(int(parse_cards("8S")[0]) + 64)])
    assert [c.copy for c in check.cards] == [1]


def test_old_table_joker_needs_a_declaration() -> None:
    with pytest.raises(ValueError, match="declaration"):
        check_layout([[*parse_cards("4S 6S"), Card(JOKER_FACE)]], melds("4S 5S 6S"), hand("5S"))


# --------------------------------------------------------------------------- best_placement


def test_best_placement_examples() -> None:
    best = best_placement(melds("5H 6H 7H 8H"), hand("8C 8D KS"))
    assert best is not None
    assert (best.value, best.count, format_cards(best.cards)) == (16, 2, "8C 8D")
    assert [format_cards(m) for m in best.layout] == ["5H 6H 7H", "8H 8C 8D"]
    check_layout(melds("5H 6H 7H 8H"), best.layout, hand("8C 8D KS"))

    best = best_placement(melds("4S JK=5S 6S", "9H 9S 9C"), hand("5S 2D"))
    assert best is not None
    assert (best.value, format_cards(best.cards), format_cards(best.freed)) == (5, "5S", "5S")
    assert best.untouched == 1  # the nines stay as they were
    check_layout(melds("4S JK=5S 6S", "9H 9S 9C"), best.layout, hand("5S 2D"))


def test_best_placement_keeps_untouched_melds_in_place() -> None:
    table = melds("AC 2C 3C", "7D 7S 7C", "JH QH KH", "4S 5S 6S", "TD TS TC")
    best = best_placement(table, hand("7S 9H"))
    assert best is not None
    assert format_cards(best.cards) == "7S"
    assert best.untouched == 4
    assert [format_cards(m) for m in best.layout][:3] == ["AC 2C 3C", "7D 7S 7C", "JH QH KH"]
    assert [format_cards(m) for m in best.layout][3] == "4S 5S 6S 7S"


def test_value_and_count_objectives_differ() -> None:
    # Either the joker (25) or the three small cards (3 cards, value 6).
    table = melds("KH KD KC")
    cards = hand("JK AS 2S 3S")
    value = best_placement(table, cards, decks=1)
    assert value is not None
    assert (value.value, value.count) == (31, 4)
    # With the joker worth nothing and the copy limit, still all four fit.
    count = best_placement(table, cards, decks=1, objective="count")
    assert count is not None and count.count == 4

    table = melds("5S 6S 7S")
    cards = hand("KD KC 8S 9S TS")  # KD KC cannot be placed without a third king
    best = best_placement(table, cards, decks=1, objective="count")
    assert best is not None and format_cards(best.cards) == "8S 9S TS"


def test_count_objective_prefers_more_cards() -> None:
    table = melds("2H 3H 4H")
    cards = hand("5H JK")
    # Value: both (30). Count: both. With the joker only one card could also go.
    for objective in ("value", "count"):
        best = best_placement(table, cards, decks=1, objective=objective)
        assert best is not None and best.count == 2


def test_best_placement_on_an_empty_table() -> None:
    best = best_placement([], hand("7C 8C 9C 2D KS"))
    assert best is not None
    assert format_cards(best.cards) == "7C 8C 9C"
    assert best.layout == (tuple(parse_cards("7C 8C 9C")),)
    assert best_placement([], hand("7C 9C KS")) is None


def test_best_placement_uses_a_table_card_to_free_a_joker() -> None:
    table = melds("4S JK=5S 6S", "5S 5H 5D 5C")
    best = best_placement(table, hand("9C 9D"), decks=2)
    assert best is not None
    assert format_cards(best.cards) == "9C 9D"
    assert format_cards(best.freed) == "5S"
    check_layout(table, best.layout, hand("9C 9D"), decks=2)


def test_placement_value() -> None:
    assert [placement_value(c) for c in parse_cards("AS 7H TD JC QS KH JK")] == [
        1,
        7,
        10,
        10,
        10,
        10,
        25,
    ]


def test_unsupported_rules_are_rejected() -> None:
    with pytest.raises(ValueError, match="jokers per meld"):
        best_placement([], hand("7C 8C 9C"), rules=MeldRules(max_jokers=1))
    with pytest.raises(ValueError, match="objective"):
        best_placement([], hand("7C 8C 9C"), objective="points")  # type: ignore[arg-type]


# --------------------------------------------------------------------------- against the ILP


def _check_against_ilp(seed: int, objective: str = "value", copy_limit: bool = True) -> None:
    inst = random_instance(seed)
    found = best_placement(
        inst.table,
        inst.hand,
        decks=inst.decks,
        objective=objective,  # type: ignore[arg-type]
        joker_copy_limit=copy_limit,
    )
    expected = ilp_optimum(
        inst.table, inst.hand, decks=inst.decks, objective=objective, joker_copy_limit=copy_limit
    )
    got = (0, 0) if found is None else (found.value, found.count)
    assert got == expected, f"seed {seed}: solver {got}, ILP {expected}"
    if found is not None:
        check = check_layout(
            inst.table, found.layout, inst.hand, decks=inst.decks, joker_copy_limit=copy_limit
        )
        assert sorted(check.cards) == sorted(found.cards)
        assert check.value == found.value


@pytest.mark.slow
@pytest.mark.parametrize("block", range(10))
def test_500_random_instances_match_the_ilp(block: int) -> None:
    """500 seeded instances (1-2 decks, 0-2 jokers, tables of 10-80 cards from random
    legal melds, hands of 5-20): the solver's optimum equals the ILP's and its layout
    passes check_layout."""
    for seed in range(block * 50, block * 50 + 50):
        _check_against_ilp(seed)


@pytest.mark.parametrize("seed", range(1000, 1025))
def test_count_objective_matches_the_ilp(seed: int) -> None:
    _check_against_ilp(seed, objective="count")


@pytest.mark.parametrize("seed", range(2000, 2020))
def test_without_copy_limit_matches_the_ilp(seed: int) -> None:
    _check_against_ilp(seed, copy_limit=False)


def test_ilp_reference_knows_the_examples() -> None:
    assert ilp_optimum(melds("5H 6H 7H 8H"), hand("8C 8D KS")) == (16, 2)
    assert ilp_optimum(melds("4S JK=5S 6S", "9H 9S 9C"), hand("5S 2D")) == (5, 1)
    assert ilp_optimum(melds("7D 7S 7C"), hand("KH 2C 9D")) == (0, 0)
    assert ilp_optimum(melds("4S JK=5S 6S", "7H 8H 9H"), hand("9C 9D"), decks=2) == (0, 0)


# --------------------------------------------------------------------------- brute force


@cache
def _partitionable(faces: tuple[int, ...]) -> bool:
    """Whether a sorted multiset of faces splits into legal Carousel melds."""
    if not faces:
        return True
    first = faces[0]
    have = Counter(faces)
    for meld in _melds_with(first):
        if all(have[f] >= 1 for f in meld):
            rest = have.copy()
            rest.subtract(meld)
            if _partitionable(tuple(sorted(rest.elements()))):
                return True
    return False


@cache
def _melds_with(face: int) -> tuple[tuple[int, ...], ...]:
    return tuple(m for m in face_melds() if face in m)


def _near(faces: set[int]) -> set[int]:
    out: set[int] = set()
    for face in faces:
        suit, rank = divmod(face, 13)
        out.update(s * 13 + rank for s in range(4))
        # Two ranks either way, round the ace both ways (QS and KS below a high AS).
        for delta in (-2, -1, 1, 2):
            out.add(suit * 13 + (rank + delta) % 13)
    return out


def brute_force(
    table: Sequence[Sequence[Card]], cards: Sequence[Card], decks: int, objective: str
) -> tuple[int, int]:
    """The best (value, count) by trying every hand subset and joker declaration."""
    real = Counter(c.face for m in table for c in m if not c.is_joker)
    old = Counter(int(c.declared) for m in table for c in m if c.is_joker)  # type: ignore[arg-type]
    naturals = Counter(c.face for c in cards if not c.is_joker)
    jokers_in_hand = sum(1 for c in cards if c.is_joker)
    options = [range(k + 1) for k in naturals.values()]
    best = (0, 0)
    for counts in itertools.product(*options):
        chosen = Counter(dict(zip(naturals, counts, strict=True)))
        for joker_count in range(jokers_in_hand + 1):
            placed = sum(chosen.values()) + joker_count
            if not placed:
                continue
            value = sum(card_value_gin(f) * k for f, k in chosen.items()) + 25 * joker_count
            key = (value, placed) if objective == "value" else (placed, value)
            if key <= (best if objective == "value" else best[::-1]):
                continue
            faces = real + chosen
            total_jokers = sum(old.values()) + joker_count
            candidates = sorted(_near(set(faces)) | set(old))
            for declared in itertools.combinations_with_replacement(candidates, total_jokers):
                new = Counter(declared)
                if any(max(0, old[f] - new[f]) > faces[f] for f in old):
                    continue
                if any(faces[f] + new[f] > decks for f in set(faces) | set(new)):
                    continue
                if _partitionable(tuple(sorted((faces + new).elements()))):
                    best = key if objective == "value" else key[::-1]
                    break
    return best


@st.composite
def small_instances(draw: st.DrawFn) -> tuple[list[list[Card]], list[Card], int]:
    decks = draw(st.sampled_from([1, 2]))
    used: Counter[int] = Counter()
    table: list[list[Card]] = []
    jokers = 0
    for _ in range(draw(st.integers(0, 2))):
        meld = draw(st.sampled_from([m for m in face_melds() if len(m) <= 5]))
        if any(used[f] >= decks for f in meld):
            continue
        cards = [Card(f) for f in meld]
        if jokers < 1 and draw(st.booleans()):
            at = draw(st.integers(0, len(cards) - 1))
            cards[at] = Card(JOKER_FACE).declare(meld[at])
            jokers += 1
        used.update(meld)
        table.append(cards)
    faces = draw(
        st.lists(st.integers(0, 51), min_size=1, max_size=5).filter(
            lambda fs: all(used[f] + fs.count(f) <= decks for f in fs)
        )
    )
    cards = [Card(f) for f in faces]
    if draw(st.integers(0, 3)) == 0:
        cards.append(Card(JOKER_FACE + (jokers << 6)))
    return table, cards, decks


@settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(small_instances(), st.sampled_from(["value", "count"]))
def test_small_instances_match_brute_force(
    instance: tuple[list[list[Card]], list[Card], int], objective: str
) -> None:
    table, cards, decks = instance
    found = best_placement(table, cards, decks=decks, objective=objective)  # type: ignore[arg-type]
    got = (0, 0) if found is None else (found.value, found.count)
    assert got == brute_force(table, cards, decks, objective)
    if found is not None:
        check_layout(table, found.layout, cards, decks=decks)


def test_brute_force_agrees_with_the_examples() -> None:
    assert brute_force(melds("5H 6H 7H 8H"), hand("8C 8D KS"), 2, "value") == (16, 2)
    assert brute_force(melds("4S JK=5S 6S", "9H 9S 9C"), hand("5S 2D"), 2, "value") == (5, 1)
    assert brute_force(melds("7D 7S 7C"), hand("KH 2C 9D"), 2, "value") == (0, 0)


def test_rules_constant_is_carousel() -> None:
    assert CAROUSEL_MELDS.ace_high and CAROUSEL_MELDS.max_jokers is None


# --------------------------------------------------------------------------- pre-reduction


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(small_instances(), st.sampled_from(["value", "count"]))
def test_dropping_dead_hand_cards_keeps_the_optimum(
    instance: tuple[list[list[Card]], list[Card], int], objective: str
) -> None:
    """The hand cards ``live_hand`` keeps reach the same optimum as the whole hand."""
    table, cards, decks = instance
    real = [0] * 52
    jokers = [0] * 52
    for meld in table:
        for card in meld:
            if card.is_joker:
                jokers[int(card.declared)] += 1  # type: ignore[arg-type]
            else:
                real[card.face] += 1
    counts = Counter(c.face for c in cards if not c.is_joker)
    problem = PlacementProblem(
        real=real,
        jokers=jokers,
        hand=[counts[f] for f in range(52)],
        cap=[decks] * 52,
        weight=[1] * 52,
        hand_jokers=sum(1 for c in cards if c.is_joker),
        joker_weight=1,
        ace_low=True,
        ace_high=True,
        min_size=3,
        max_set=4,
    )
    live, _wild = live_hand(problem)
    kept: list[Card] = []
    left = dict(enumerate(live))
    for card in cards:
        if card.is_joker or left[card.face]:
            kept.append(card)
            if not card.is_joker:
                left[card.face] -= 1
    assert brute_force(table, kept, decks, objective) == brute_force(table, cards, decks, objective)


@pytest.mark.parametrize(
    ("table", "cards", "layout"),
    [
        (["3S 4S 5S", "6S 7S 8S"], "9S", ["3S 4S 5S", "6S 7S 8S 9S"]),
        (["3S 4S 5S", "6S 7S 8S"], "2S", ["2S 3S 4S 5S", "6S 7S 8S"]),
        (["8S 8C 8D", "8H 8S 8C"], "8D", ["8S 8C 8D", "8H 8S 8C 8D"]),
        (["5H 6H 7H", "8H 9H TH", "JK=JH QH KH"], "AH", ["5H 6H 7H", "8H 9H TH", "JK=JH QH KH AH"]),
        (
            ["2D 3D 4D", "3C 4C 5C", "JK=5S 6S 7S 8S 9S TS JS"],
            "4H JK TH AS 6H KS",
            ["2D 3D 4D", "3C 4C 5C", "JK=5S 6S 7S 8S 9S TS JS", "JK=QS KS AS"],
        ),
        (
            ["6H 7H 8H 9H TH JH", "3D 4D JK=5D", "6D 7D 8D 9D TD"],
            "2H 2S 4H 3H 5S AS 3S",
            ["6H 7H 8H 9H TH JH", "3D 4D JK=5D", "6D 7D 8D 9D TD", "AS 2S 3S", "2H 3H 4H"],
        ),
    ],
)
def test_layouts_keep_old_melds_whole(table: list[str], cards: str, layout: list[str]) -> None:
    """A long run is cut, and a rank's groups shared out, so that the old melds stay as
    they were (the player only sees the new card join)."""
    for few_changes in (False, True):
        best = best_placement(melds(*table), hand(cards), few_changes=few_changes)
        assert best is not None
        assert [format_cards(m) for m in best.layout] == layout
        assert best.untouched >= len(table) - 1
