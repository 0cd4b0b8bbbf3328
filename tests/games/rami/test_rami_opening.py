"""Best Rami opening (``rummykit.games.rami.opening``): rules/rami.md sections 2-4, 7."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummykit.cards import Card, natural_card, parse_cards
from rummykit.games.rami import RamiRules, hand_value, new_round
from rummykit.games.rami.opening import best_melds, best_opening, can_open
from rummykit.games.rami.table import combination_from_cards
from rummykit.melds import InvalidMeldError


def texts(combos: Sequence[Sequence[Card]]) -> list[str]:
    return [" ".join(str(c) for c in combo) for combo in combos]


# ----------------------------------------------------------- worked examples (section 7)


def test_section7_example1_rami51_opening_with_ace_high_and_joker_set() -> None:
    best = best_opening(parse_cards("QH KH AH 9C 9D 9H JK 4S"))
    assert best is not None
    # The example's 31 + 36 = 67 leaves 4S; so does JK Q K A (41) + 9 9 9 (27) = 68,
    # and the tie goes to the higher table value.
    assert best.cards_left == tuple(parse_cards("4S"))
    assert best.value == 68
    assert sorted(texts(best.combos)) == ["9C 9D 9H", "AH QH KH JK"]
    example = [parse_cards("QH KH AH"), parse_cards("9C 9D 9H JK")]
    assert sum(combination_from_cards(combo).value for combo in example) == 67


def test_section7_example2_exact_threshold_with_ambiguous_joker() -> None:
    hand = parse_cards("JK 7S 8S KH KS KD 2C 5D")
    best = best_opening(hand)
    assert best is not None and best.value == 51  # 21 (Jo=6S) + 30, never 24 + 30
    weaker = parse_cards("JK 7S 8S 9C 9D 9H 2C 5D")
    assert best_opening(weaker) is None
    assert not can_open(weaker)
    rami40 = best_opening(weaker, RamiRules(opening_threshold=40))
    assert rami40 is not None and rami40.value == 48


def test_section7_example3_ace_values() -> None:
    assert best_opening(parse_cards("AC AH AS 8D KC"), RamiRules(opening_threshold=40)) is None
    best = best_opening(parse_cards("AC AH AS 2D 3D 4D KC"), RamiRules(opening_threshold=40))
    assert best is not None and best.value == 42
    low = best_opening(parse_cards("AH 2H 3H 9C"), threshold=0)
    assert low is not None and low.value == 6
    assert best_opening(parse_cards("JK 2S 3S 9C"), threshold=0).value == 6  # type: ignore[union-attr]
    assert best_opening(parse_cards("JK QH KH 9C"), threshold=0).value == 30  # type: ignore[union-attr]


def test_section4_rami_sec_exemption_below_threshold() -> None:
    """§rami-4.6 with rami_sec_exempt_opening=true: 13 cards worth 34 laid, one left to
    discard, is a legal opening; by default the threshold binds it too."""
    exempt = RamiRules(rami_sec_exempt_opening=True)
    hand = parse_cards("AS 2S 3S 4S AC 2C 3C 2D 3D 4D 2H 3H 4H KC")
    best = best_opening(hand, exempt)
    assert best is not None and best.exempt
    assert best.value == 34 and best.cards_left == tuple(parse_cards("KC"))
    assert best_opening(hand) is None
    # The one card left may not be the card just taken from the discard pile.
    assert best_opening(hand, exempt, taken=parse_cards("KC")[0]) is None
    # Two cards left: no exemption.
    assert best_opening([*hand, *parse_cards("9D")], exempt) is None


def test_opening_prefers_the_least_penalty_left() -> None:
    # Both 7s-set and the 5-6-7 run open; laying more penalty wins.
    hand = parse_cards("KS KH KD KC QS QH QD 2C 9H")
    best = best_opening(hand)
    assert best is not None
    assert best.penalty_left == 11
    assert best.value == 70


def test_use_jokers_false_keeps_the_joker() -> None:
    hand = parse_cards("KS KH KD QS QH QD JK 4C 5C")
    best = best_opening(hand, use_jokers=False)
    assert best is not None
    assert all(not c.is_joker for combo in best.combos for c in combo)
    assert best_opening(hand) is not None


def test_pure_run_option() -> None:
    rules = RamiRules(opening_requires_pure_run=True)
    hand = parse_cards("KS KH KD QS QH QD 4C 5C")
    assert best_opening(hand, rules) is None
    best = best_opening([*hand, *parse_cards("6C")], rules)
    assert best is not None and "4C 5C 6C" in texts(best.combos)


def test_must_lay_the_taken_card() -> None:
    hand = parse_cards("KS KH KD QS QH QD 4C 5C 6C 9D")
    taken = parse_cards("6C")[0]
    best = best_opening(hand, must_lay=taken)
    assert best is not None and any(taken in combo for combo in best.combos)
    assert best_opening(hand, must_lay=parse_cards("9D")[0]) is None


def test_best_melds_after_opening() -> None:
    melds = best_melds(parse_cards("4C 5C 6C 9D"))
    assert melds is not None and texts(melds.combos) == ["4C 5C 6C"]
    assert best_melds(parse_cards("4C 5C 9D")) is None


def test_two_decks_two_runs_of_one_suit() -> None:
    hand = [*parse_cards("4C 5C 6C"), *(natural_card(r, "C", 1) for r in (4, 5, 6)), Card(52 + 64)]
    best = best_melds(hand)
    assert best is not None and len(best.combos) == 2
    assert len({c for combo in best.combos for c in combo}) == 7  # every physical card
    assert best.cards_left == ()


# ------------------------------------------------------------ brute force comparison


def _brute(
    hand: list[Card], rules: RamiRules, threshold: int, taken: Card | None
) -> tuple[int, int] | None:
    """(laid penalty, table value) of the best legal opening by exhaustive search."""
    values = rules.hand_values()
    best: tuple[int, int] | None = None
    n = len(hand)

    def visit(remaining: list[int], combos: list[list[int]], left: list[int]) -> None:
        nonlocal best
        if not remaining:
            if not combos:
                return
            built = [combination_from_cards([hand[i] for i in combo]) for combo in combos]
            value = sum(c.value for c in built)
            left_cards = [hand[i] for i in left]
            if len(left_cards) == 0 and rules.mandatory_final_discard:
                return
            if len(left_cards) == 1 and taken is not None and left_cards[0] == taken:
                return
            if value < threshold and not (rules.rami_sec_exempt_opening and len(left_cards) <= 1):
                return
            laid = sum(values[hand[i]] for combo in combos for i in combo)
            key = (laid, value)
            if best is None or key > best:
                best = key
            return
        first, rest = remaining[0], remaining[1:]
        visit(rest, combos, [*left, first])
        for size in range(2, min(len(rest), 12) + 1):
            for group in _subsets(rest, size):
                cards = [hand[first], *(hand[i] for i in group)]
                try:
                    combination_from_cards(cards)
                except InvalidMeldError:
                    continue
                visit([i for i in rest if i not in group], [*combos, [first, *group]], left)

    visit(list(range(n)), [], [])
    return best


def _subsets(items: list[int], size: int) -> list[tuple[int, ...]]:
    from itertools import combinations

    return list(combinations(items, size))


POOL = [
    natural_card(rank, suit, copy)
    for rank in (1, 2, 3, 4, 12, 13)
    for suit in "SH"
    for copy in (0, 1)
]
POOL += [natural_card(rank, "C") for rank in (1, 2, 3, 13)]
POOL += [Card(52), Card(52 + 64)]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(POOL), min_size=3, max_size=8, unique=True),
    st.sampled_from([0, 15, 30, 51]),
    st.booleans(),
    st.booleans(),
)
def test_best_opening_matches_brute_force(
    hand: list[Card], threshold: int, exempt: bool, with_taken: bool
) -> None:
    rules = RamiRules(opening_threshold=threshold, rami_sec_exempt_opening=exempt)
    taken = hand[-1] if with_taken else None
    expected = _brute(hand, rules, threshold, taken)
    found = best_opening(hand, rules, taken=taken)
    if expected is None:
        assert found is None
        assert not can_open(hand, rules, taken=taken)
        return
    assert found is not None
    assert can_open(hand, rules, taken=taken)
    values = rules.hand_values()
    laid = sum(values[c] for combo in found.combos for c in combo)
    assert (laid, found.value) == expected
    assert found.penalty_left == hand_value(hand, rules) - laid
    # The combinations are valid, disjoint and drawn from the hand.
    used = [c for combo in found.combos for c in combo]
    assert len(used) == len(set(used)) and set(used) <= set(hand)
    assert sum(combination_from_cards(combo).value for combo in found.combos) == found.value


@pytest.mark.parametrize("seed", range(20))
def test_dealt_hands_solutions_are_legal_openings(seed: int) -> None:
    rnd = new_round(RamiRules(), players=4, seed=seed)
    for seat in range(4):
        hand = rnd.hands[seat]
        found = best_opening(hand)
        assert (found is not None) == can_open(hand)
        if found is not None:
            trial = rnd.clone()
            trial.current_player = seat
            trial.phase = "play"
            trial.apply(found.action())
            assert trial.opened[seat]
