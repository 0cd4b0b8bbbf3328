"""The Rami solvers' fast paths agree with the straightforward ones (hypothesis).

Run templates looked up from the whole suit's against the window-by-window definition;
the quick tests before the opening search (threshold cut, joker-aware bound, "holds no
combination") and the bound memo shared between searches against the plain search
with a fresh memo; the lay-off listing, which only rebuilds the table when the hand
could be left empty or with the taken card, against the engine itself.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rummykit.cards import JOKER_FACE, DeckSpec, build_deck
from rummykit.core import IllegalActionError
from rummykit.games.rami import RamiAction, RamiRound, RamiRules, new_round
from rummykit.games.rami import candidates as rami_candidates
from rummykit.games.rami import opening as rami_opening
from rummykit.games.rami.candidates import hand_combinations, has_combination
from rummykit.games.rami.heuristic_bot import RamiRandomBot
from rummykit.games.rami.layoffs import legal_moves

PACK = build_deck(DeckSpec(decks=3, jokers=4))
"""The 160 physical cards of Rami with five or six players (three copies of a face)."""

RULES = [
    RamiRules(),
    RamiRules(opening_threshold=40, joker_hand_value=25, ace_hand_value=1),
    RamiRules(opening_requires_pure_run=True, mandatory_final_discard=True),
    RamiRules(rami_sec_exempt_opening=True, opening_threshold=30),
]


@settings(max_examples=400, deadline=None)
@given(st.integers(0, (1 << 13) - 1))
def test_suit_runs_match_the_window_by_window_definition(mask: int) -> None:
    assert rami_candidates._suit_runs(mask)[:2] == rami_candidates._run_templates_direct(mask)


def test_suit_runs_of_crowded_and_edge_masks() -> None:
    full = (1 << 13) - 1
    for mask in (0, 1, full, full ^ 1, full ^ (1 << 12), 0b1_1000_0000_0011, 0b0111_1111_1100):
        assert rami_candidates._suit_runs(mask)[:2] == rami_candidates._run_templates_direct(mask)


hands = st.lists(st.sampled_from(PACK), min_size=1, max_size=15, unique=True)


@settings(max_examples=400, deadline=None)
@given(
    hands,
    st.sampled_from(RULES),
    st.sampled_from([None, 0, 15, 40, 51, 80]),
    st.booleans(),
    st.booleans(),
    st.booleans(),
)
def test_quick_cuts_and_shared_memo_agree_with_the_plain_search(
    hand: list[int],
    rules: RamiRules,
    threshold: int | None,
    use_jokers: bool,
    with_taken: bool,
    with_must_lay: bool,
) -> None:
    taken = hand[-1] if with_taken else None
    must_lay = hand[0] if with_must_lay else None
    limit = rules.opening_threshold if threshold is None else threshold
    exempt = rules.rami_sec_exempt_opening and limit > 0
    for first_only in (False, True):
        found = []
        for cuts in (True, False):
            if not cuts:
                rami_opening._BOUNDS.clear()  # the reference starts from an empty memo
            found.append(
                rami_opening._solve(
                    hand,
                    rules,
                    threshold=limit,
                    exempt_ok=exempt,
                    taken=taken,
                    must_lay=must_lay,
                    use_jokers=use_jokers,
                    first_only=first_only,
                    pure_run=rules.opening_requires_pure_run,
                    cuts=cuts,
                )
            )
        assert found[0] == found[1]


@settings(max_examples=300, deadline=None)
@given(hands, st.booleans())
def test_has_combination_is_exactly_some_candidate(hand: list[int], use_jokers: bool) -> None:
    lanes = 0
    jokers = 0
    for card in hand:
        face = card & 63
        if face == JOKER_FACE:
            jokers += 1
        else:
            lanes |= rami_candidates.LANE[face]
    expected = bool(hand_combinations(hand, use_jokers=use_jokers))
    assert has_combination(lanes, jokers if use_jokers else 0) == expected


def _small_hand_position(seed: int, rules: RamiRules) -> RamiRound | None:
    """A position of random play with an opened player to act in the play phase holding
    at most four cards (where the whole-hand checks can bite), or None."""
    rnd = new_round(rules, 4, seed=seed)
    bots = [RamiRandomBot(seed * 4 + seat) for seat in range(4)]
    rng = random.Random(seed)
    while not rnd.is_over:
        seat = rnd.current_player
        if (
            rnd.phase == "play"
            and rnd.opened[seat]
            and len(rnd.hands[seat]) <= 4
            and rnd.table
            and rng.random() < 0.5
        ):
            return rnd
        rnd.apply(bots[seat].act(rnd.observation(seat), rnd.legal_actions()))
    return None


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 10_000),
    st.sampled_from([RamiRules(), RamiRules(mandatory_final_discard=True)]),
)
def test_small_hand_moves_are_exactly_the_engines(seed: int, rules: RamiRules) -> None:
    rnd = _small_hand_position(seed, rules)
    if rnd is None:
        return
    hand = rnd.hands[rnd.current_player]
    moves = legal_moves(hand, rnd.table, rules, taken=rnd.taken_card)
    for move in moves:
        rnd.check(move)
    listed = {(m.kind, m.card, m.target) for m in moves}
    # Every single lay-off the engine accepts is listed (one card per face: the taken
    # card is preferred, so compare by face when another copy is named).
    for card in set(hand):
        for index in range(len(rnd.table)):
            try:
                rnd.check(RamiAction.layoff(card, index))
            except IllegalActionError:
                continue
            assert any(
                kind == "layoff"
                and listed_card is not None
                and listed_card & 63 == card & 63
                and target == index
                for kind, listed_card, target in listed
            )


@settings(max_examples=400, deadline=None)
@given(st.integers(0, (1 << 13) - 1))
def test_run_ranks_by_bits_match_the_templates(mask: int) -> None:
    pure, joker, in_pure, in_joker, _ = rami_candidates._suit_runs(mask)
    assert rami_candidates._run_ranks(mask) == (in_pure, in_joker)
    assert bool(pure) == bool(in_pure) and bool(joker) == bool(in_joker)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, (1 << 13) - 1), min_size=4, max_size=4))
def test_lane_runs_are_the_run_ranks_of_every_suit(masks: list[int]) -> None:
    lanes = sum(mask << (16 * suit) for suit, mask in enumerate(masks))
    in_pure, in_joker = rami_candidates._lane_runs(lanes)
    for suit, mask in enumerate(masks):
        lane = (in_pure >> (16 * suit) & 0xFFFF, in_joker >> (16 * suit) & 0xFFFF)
        assert lane == rami_candidates._run_ranks(mask)
