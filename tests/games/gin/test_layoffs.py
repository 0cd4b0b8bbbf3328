"""The defender's layoffs against a knock (``layoff_deadwood``): rules/gin.md section 4.

The property tests compare the solver with a brute force written here: the defender
picks any packing of own melds, then plays any sequence of single layoffs, each one
legal at the moment it is played (the knocker's meld with the card added must still be
a meld: a 4th card onto a 3-card set, or a card at either end of a run, which grows as
cards are laid when layoffs chain). Legality comes from ``check_meld``; nothing of the
solver's internals is used.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations, permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummykit.cards import Card, parse_card, parse_cards
from rummykit.errors import InvalidCardError
from rummykit.games.gin import LayoffResult, layoff_deadwood
from rummykit.melds import GIN_MELDS, MeldRules, is_meld

GIN_ACE_HIGH = MeldRules(ace_high=True)


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def melds(*texts: str) -> list[list[Card]]:
    return [parse_cards(text) for text in texts]


def value(hand: Sequence[int] | frozenset[int]) -> int:
    return sum(min(card % 13 + 1, 10) for card in hand)


# ----------------------------------------------------------------- brute force


@cache
def legal(meld: frozenset[int], ace_high: bool) -> bool:
    return is_meld(sorted(meld), GIN_ACE_HIGH if ace_high else GIN_MELDS)


def own_melds(hand: Sequence[int], ace_high: bool) -> list[frozenset[int]]:
    """Every meld inside the defender's hand (sets of 3-4, runs of 3+), by check_meld."""
    found = []
    by_rank: dict[int, list[int]] = {}
    by_suit: dict[int, list[int]] = {}
    for card in hand:
        by_rank.setdefault(card % 13, []).append(card)
        by_suit.setdefault(card // 13, []).append(card)
    groups = [*by_rank.values(), *by_suit.values()]
    for group in groups:
        for size in range(3, len(group) + 1):
            for combo in combinations(group, size):
                if legal(frozenset(combo), ace_high):
                    found.append(frozenset(combo))
    return found


def brute_layoff(
    knocker: Sequence[Sequence[int]],
    defender: Sequence[int],
    *,
    chained: bool = True,
    ace_high: bool = False,
) -> int:
    """Minimum deadwood over every packing of own melds and every layoff sequence."""
    originals = tuple(frozenset(int(c) for c in meld) for meld in knocker)
    mine = own_melds([int(c) for c in defender], ace_high)
    packings: set[frozenset[int]] = set()

    def pack(start: int, used: frozenset[int]) -> None:
        packings.add(used)
        for i in range(start, len(mine)):
            if not used & mine[i]:
                pack(i + 1, used | mine[i])

    pack(0, frozenset())

    @cache
    def most_laid(table: tuple[frozenset[int], ...], free: frozenset[int]) -> int:
        """Greatest value the defender can still lay off from ``free``."""
        best = 0
        for card in free:
            for i, meld in enumerate(table):
                grown = meld | {card}
                if not legal(grown, ace_high):
                    continue
                if not chained and not legal(originals[i] | {card}, ace_high):
                    continue  # only cards next to the knocker's original meld
                after = (*table[:i], grown, *table[i + 1 :])
                best = max(best, value([card]) + most_laid(after, free - {card}))
        return best

    hand = frozenset(int(c) for c in defender)
    return min(value(hand - used) - most_laid(originals, hand - used) for used in packings)


def check_result(
    knocker: Sequence[Sequence[int]],
    defender: Sequence[int],
    result: LayoffResult,
    *,
    chained: bool = True,
    ace_high: bool = False,
) -> None:
    """The result is a real play: legal own melds, layoffs playable in order, the rest dead."""
    hand = [int(c) for c in defender]
    own: list[int] = []
    for meld in result.melds:
        assert legal(frozenset(meld), ace_high), meld
        own.extend(meld)
    assert len(own) == len(set(own)), "own melds overlap"
    assert set(own) <= set(hand)
    table = [list(meld) for meld in knocker]
    laid: list[int] = []
    for card, index in result.layoffs:
        assert isinstance(card, Card)
        assert card in hand and card not in own and card not in laid, card
        assert 0 <= index < len(knocker)
        assert legal(frozenset([*table[index], card]), ace_high), (card, table[index])
        if not chained:
            assert legal(frozenset([*knocker[index], card]), ace_high), (card, knocker[index])
        table[index].append(card)
        laid.append(card)
    dead = sorted(set(hand) - set(own) - set(laid))
    assert sorted(result.deadwood_cards) == dead
    assert result.deadwood == value(dead)


def solve_and_check(
    knocker: Sequence[Sequence[int]],
    defender: Sequence[int],
    *,
    chained: bool = True,
    ace_high: bool = False,
) -> LayoffResult:
    result = layoff_deadwood(knocker, defender, chained=chained, ace_high=ace_high)
    check_result(knocker, defender, result, chained=chained, ace_high=ace_high)
    return result


def laid_cards(result: LayoffResult) -> list[str]:
    return [str(card) for card, _ in result.layoffs]


# --------------------------------------------------------- rules/gin.md, section 7

EXAMPLE_2_KNOCKER = melds("4H 5H 6H", "9C 9D 9S", "JS QS KS")
EXAMPLE_2_DEFENDER = cards("3C 3D 3H 7H 8H 9H TS AS 5C 6D")


def test_section7_example2_chained_layoffs_leave_12() -> None:
    result = solve_and_check(EXAMPLE_2_KNOCKER, EXAMPLE_2_DEFENDER)
    assert result.deadwood == 12
    assert sorted(result.deadwood_cards) == sorted(cards("AS 5C 6D"))
    assert set(cards("3C 3D 3H")) <= {card for meld in result.melds for card in meld}
    assert (parse_card("TS"), 2) in result.layoffs
    assert brute_layoff(EXAMPLE_2_KNOCKER, EXAMPLE_2_DEFENDER) == 12


@pytest.mark.parametrize("order", list(permutations(range(3))))
def test_section7_example2_any_order_of_the_knockers_melds(order: tuple[int, ...]) -> None:
    knocker = [EXAMPLE_2_KNOCKER[i] for i in order]
    result = solve_and_check(knocker, EXAMPLE_2_DEFENDER)
    assert result.deadwood == 12
    # TS is laid on JS QS KS, wherever that meld is in the list.
    assert (parse_card("TS"), order.index(2)) in result.layoffs


def test_section7_example2_unchained_keeps_own_run() -> None:
    """Without chaining the defender keeps 7-8-9H as his own run: same result."""
    result = solve_and_check(EXAMPLE_2_KNOCKER, EXAMPLE_2_DEFENDER, chained=False)
    assert result.deadwood == 12


EXAMPLE_3_KNOCKER = melds("AS 2S 3S", "7D 7C 7H", "TH JH QH")
EXAMPLE_3_DEFENDER = cards("5D 5C 5H 4S 5S 7S KH 2C 3D 2D")


def test_section7_example3_undercut_through_layoffs_leaves_7() -> None:
    result = solve_and_check(EXAMPLE_3_KNOCKER, EXAMPLE_3_DEFENDER)
    assert result.deadwood == 7
    assert sorted(result.deadwood_cards) == sorted(cards("2C 3D 2D"))
    laid = laid_cards(result)
    assert {"4S", "7S", "KH"} <= set(laid)
    assert (parse_card("7S"), 1) in result.layoffs
    assert (parse_card("KH"), 2) in result.layoffs
    assert brute_layoff(EXAMPLE_3_KNOCKER, EXAMPLE_3_DEFENDER) == 7


def test_section7_example3_without_chaining() -> None:
    # 4S is still next to AS2S3S and 5S joins the defender's set of fives.
    assert solve_and_check(EXAMPLE_3_KNOCKER, EXAMPLE_3_DEFENDER, chained=False).deadwood == 7


# ---------------------------------------------------- rules/gin.md section 9, case 17

RUN_5_7H = melds("5H 6H 7H")


def test_section9_case17_chain_8h_then_9h_both_accepted() -> None:
    result = solve_and_check(RUN_5_7H, cards("8H 9H KC"))
    assert result.layoffs == ((parse_card("8H"), 0), (parse_card("9H"), 0))
    assert result.deadwood == 10
    assert result.deadwood_cards == (parse_card("KC"),)


def test_section9_case17_9h_alone_is_rejected() -> None:
    result = solve_and_check(RUN_5_7H, cards("9H KC"))
    assert result.layoffs == ()
    assert result.deadwood == 19
    assert set(result.deadwood_cards) == set(cards("9H KC"))


def test_section9_case17_chain_down_and_up() -> None:
    result = solve_and_check(RUN_5_7H, cards("4H 3H 2H 8H 9H TH"), chained=True)
    assert result.deadwood == 0
    laid = laid_cards(result)
    assert laid.index("4H") < laid.index("3H") < laid.index("2H")


def test_chained_false_lays_only_adjacent_cards() -> None:
    result = solve_and_check(RUN_5_7H, cards("3H 4H 8H 9H"), chained=False)
    assert set(laid_cards(result)) == {"4H", "8H"}
    assert set(result.deadwood_cards) == set(cards("3H 9H"))
    assert result.deadwood == 12
    chained = solve_and_check(RUN_5_7H, cards("3H 4H 8H 9H"), chained=True)
    assert chained.deadwood == 0


# ------------------------------------------------------------------ other cases


def test_a_set_of_three_takes_its_fourth_card_a_set_of_four_nothing() -> None:
    result = solve_and_check(melds("9C 9D 9S"), cards("9H 8H"))
    assert result.layoffs == ((parse_card("9H"), 0),)
    assert result.deadwood == 8
    full = solve_and_check(melds("9C 9D 9S 9H"), cards("8H TH"))
    assert full.layoffs == ()
    assert full.deadwood == 18


def test_a_set_card_that_also_extends_a_run_goes_on_the_run() -> None:
    """Regression: ``8H`` completes ``8C8D8S`` but also extends ``5H6H7H``; only on the
    run can ``9H`` follow it. The solver used to give it to the set when the set came
    first in the knocker's list, leaving ``9H`` dead (9 instead of 0)."""
    for knocker in (melds("8C 8D 8S", "5H 6H 7H"), melds("5H 6H 7H", "8C 8D 8S")):
        result = solve_and_check(knocker, cards("8H 9H"))
        assert result.deadwood == 0, knocker
        run_index = next(i for i, meld in enumerate(knocker) if parse_card("5H") in meld)
        assert result.layoffs == ((parse_card("8H"), run_index), (parse_card("9H"), run_index))


def test_a_chain_through_a_set_card_in_the_middle() -> None:
    result = solve_and_check(melds("9C 9D 9S", "5H 6H 7H"), cards("8H 9H TH KD"))
    assert result.deadwood == 10  # everything but KD, by layoffs or as an own run


def test_ace_is_low_only_for_layoffs_by_default() -> None:
    assert solve_and_check(melds("2H 3H 4H"), cards("AH")).deadwood == 0
    assert solve_and_check(melds("JH QH KH"), cards("AH")).deadwood == 1
    assert solve_and_check(melds("JH QH KH"), cards("AH"), ace_high=True).deadwood == 0


def test_ace_high_runs_never_wrap() -> None:
    qka = melds("QH KH AH")
    result = solve_and_check(qka, cards("JH TH 2H"), ace_high=True)
    assert set(laid_cards(result)) == {"JH", "TH"}
    assert result.deadwood == 2
    # A-2-3 with ace-high allowed: the ace stays low, K cannot go below it.
    low = solve_and_check(melds("AH 2H 3H"), cards("KH 4H"), ace_high=True)
    assert laid_cards(low) == ["4H"]
    assert low.deadwood == 10


def test_own_melds_are_kept_when_that_is_better() -> None:
    # 8H could go on 5H6H7H, but 8S8C8H is the defender's own set: either way 0.
    result = solve_and_check(RUN_5_7H, cards("8S 8C 8H"))
    assert result.deadwood == 0
    # 8H on the run lets 9H follow; the set 8S8C8D stays whole.
    result = solve_and_check(RUN_5_7H, cards("8S 8C 8D 8H 9H"))
    assert result.deadwood == 0


def test_the_defender_breaks_an_own_run_to_lay_off_more() -> None:
    """Own run ``5H6H7H`` leaves ``5S 5C`` (10); the set ``5S5C5H`` plus ``7H``, ``6H``
    laid on ``8H9HTH`` leaves nothing."""
    knocker = melds("8H 9H TH")
    defender = cards("5H 6H 7H 5S 5C")
    result = solve_and_check(knocker, defender)
    assert result.deadwood == 0
    assert [sorted(meld) for meld in result.melds] == [sorted(cards("5S 5C 5H"))]
    assert laid_cards(result) == ["7H", "6H"]
    assert brute_layoff(knocker, defender) == 0
    assert solve_and_check(knocker, defender, chained=False).deadwood == 6


def test_empty_defender_and_no_knocker_melds() -> None:
    assert solve_and_check(RUN_5_7H, []).deadwood == 0
    result = solve_and_check([], cards("8H 9H"))
    assert (result.deadwood, result.layoffs) == (17, ())


def test_rejects_shared_or_duplicate_cards() -> None:
    with pytest.raises(InvalidCardError, match="shares cards"):
        layoff_deadwood(RUN_5_7H, cards("7H 8H"))
    with pytest.raises(InvalidCardError, match="twice"):
        layoff_deadwood(RUN_5_7H, cards("8H 8H"))
    with pytest.raises(InvalidCardError, match="twice"):
        layoff_deadwood(melds("5H 6H 7H", "7H 7S 7D"), cards("8H"))


def test_brute_force_sanity() -> None:
    assert brute_layoff(RUN_5_7H, cards("8H 9H")) == 0
    assert brute_layoff(RUN_5_7H, cards("8H 9H"), chained=False) == 9
    assert brute_layoff(RUN_5_7H, cards("9H")) == 9
    assert brute_layoff(melds("8C 8D 8S", "5H 6H 7H"), cards("8H 9H")) == 0


# ------------------------------------------------------------------ strategies


def _legal_knocker_meld(draw: st.DrawFn, ace_high: bool) -> list[int]:
    if draw(st.booleans()):
        rank = draw(st.integers(0, 12))
        suits = draw(st.sampled_from([*combinations(range(4), 3), (0, 1, 2, 3)]))
        return [suit * 13 + rank for suit in suits]
    suit = draw(st.integers(0, 3))
    length = draw(st.integers(3, 6))
    top = 14 if ace_high else 13
    start = draw(st.integers(1, top - length + 1))  # ranks 1..14, 14 = ace high
    return [suit * 13 + (rank - 1) % 13 for rank in range(start, start + length)]


@st.composite
def knocks(
    draw: st.DrawFn, crowded: bool = False, ace_high: bool = False
) -> tuple[list[list[int]], list[int]]:
    """The knocker's melds (1-3, disjoint) and the defender's hand (0-11 other cards).

    A crowded hand is drawn from the suits of the knocker's runs and the ranks of his
    sets (and their neighbours), so layoffs, chains and own melds compete; a crowded
    knock may also hold a set right next to the end of a run, without the run's suit,
    so that one card both completes the set and extends the run.
    """
    knocker: list[list[int]] = []
    used: set[int] = set()
    for _ in range(draw(st.integers(1, 3))):
        meld = _legal_knocker_meld(draw, ace_high)
        if not used & set(meld):
            knocker.append(meld)
            used |= set(meld)
    runs = [meld for meld in knocker if len({card % 13 for card in meld}) > 1]
    if crowded and runs and draw(st.booleans()):
        run = draw(st.sampled_from(runs))
        suit = run[0] // 13
        run_ranks = sorted(card % 13 for card in run)
        rank = draw(st.sampled_from([(run_ranks[-1] + 1) % 13, (run_ranks[0] - 1) % 13]))
        others = [s for s in range(4) if s != suit]
        meld = [s * 13 + rank for s in draw(st.sampled_from(list(combinations(others, 3))))]
        if not used & set(meld):
            knocker.append(meld)
            used |= set(meld)
        knocker = draw(st.permutations(knocker))
    pool = [card for card in range(52) if card not in used]
    if crowded:
        suits = {card // 13 for meld in knocker for card in meld}
        ranks = {card % 13 for meld in knocker for card in meld}
        near = {(rank + step) % 13 for rank in ranks for step in (-1, 0, 1)}
        pool = [card for card in pool if card // 13 in suits and card % 13 in near] + [
            card for card in pool if card % 13 in ranks and card // 13 not in suits
        ]
        if len(suits) == 1 and len(pool) < 11:
            pool += [card for card in range(52) if card // 13 in suits and card not in pool]
            pool = [card for card in pool if card not in used]
    size = draw(st.integers(0, min(11, len(pool))))
    defender = [pool.pop(draw(st.integers(0, len(pool) - 1))) for _ in range(size)]
    return knocker, defender


# -------------------------------------------------- property tests: brute force


def _check(case: tuple[list[list[int]], list[int]], chained: bool, ace_high: bool) -> None:
    knocker, defender = case
    result = solve_and_check(knocker, defender, chained=chained, ace_high=ace_high)
    assert result.deadwood == brute_layoff(knocker, defender, chained=chained, ace_high=ace_high)


@settings(max_examples=600, deadline=None)
@given(case=knocks())
def test_layoffs_equal_brute_force_random(case: tuple[list[list[int]], list[int]]) -> None:
    _check(case, chained=True, ace_high=False)


@settings(max_examples=800, deadline=None)
@given(case=knocks(crowded=True))
def test_layoffs_equal_brute_force_crowded(case: tuple[list[list[int]], list[int]]) -> None:
    _check(case, chained=True, ace_high=False)


@settings(max_examples=400, deadline=None)
@given(case=st.one_of(knocks(), knocks(crowded=True)))
def test_unchained_layoffs_equal_brute_force(case: tuple[list[list[int]], list[int]]) -> None:
    _check(case, chained=False, ace_high=False)


@settings(max_examples=400, deadline=None)
@given(
    case=st.one_of(knocks(ace_high=True), knocks(crowded=True, ace_high=True)),
    chained=st.booleans(),
)
def test_ace_high_layoffs_equal_brute_force(
    case: tuple[list[list[int]], list[int]], chained: bool
) -> None:
    _check(case, chained=chained, ace_high=True)


@settings(max_examples=200, deadline=None)
@given(case=st.one_of(knocks(), knocks(crowded=True)), data=st.data())
def test_the_order_of_the_knockers_melds_does_not_matter(
    case: tuple[list[list[int]], list[int]], data: st.DataObject
) -> None:
    knocker, defender = case
    reordered = data.draw(st.permutations(knocker))
    assert (
        layoff_deadwood(reordered, defender).deadwood == layoff_deadwood(knocker, defender).deadwood
    )
