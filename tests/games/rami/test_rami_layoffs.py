"""Rami lay-offs and joker swaps (``rummykit.games.rami.layoffs``): rules/rami.md 3-4."""

from __future__ import annotations

import random

import pytest

from rummykit.cards import parse_cards
from rummykit.core import IllegalActionError
from rummykit.games.rami import RamiAction, RamiRound, RamiRules, new_round
from rummykit.games.rami.heuristic_bot import RamiRandomBot
from rummykit.games.rami.layoffs import (
    joker_destinations,
    layoff_chain,
    layoff_moves,
    legal_moves,
    swap_moves,
)
from rummykit.games.rami.table import combination_from_cards, lay_off


def table(*texts: str, shifts: bool = False) -> list:  # type: ignore[type-arg]
    return [combination_from_cards(parse_cards(t), owner=1, shifts=shifts) for t in texts]


def test_layoffs_include_shifts_and_joker_layoffs() -> None:
    """With end_joker_shifts=true (§rami-3.7) the shifting card is a lay-off."""
    hand = parse_cards("6S 9S JK KD")
    moves = layoff_moves(hand, table("JK 7S 8S", "KH KS KC", shifts=True))
    assert [str(m) for m in moves] == [
        "layoff 6S to 1",
        "layoff 9S to 1",
        "layoff KD to 2",
        "layoff JK to 2",
    ]
    joker = layoff_moves(hand, table("4C 5C 6C"))
    assert [str(m) for m in joker] == ["layoff JK to 1"]


def test_swaps_list_every_destination() -> None:
    hand = parse_cards("8S 4D 5D 2C")
    moves = swap_moves(hand, table("7S JK 9S", "QH KH AH"))
    shown = [str(m) for m in moves]
    assert "swap_joker 8S to 1, joker to 1" in shown
    assert "swap_joker 8S to 1, joker to 2" in shown
    first = swap_moves(hand, table("7S JK 9S", "QH KH AH"), all_destinations=False)
    assert len(first) == 1


def test_swap_without_any_placement_keeps_the_joker() -> None:
    full = "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"
    moves = swap_moves(parse_cards("9S 2C 9D"), table("9C 9D 9H JK", full))
    assert [str(m) for m in moves] == ["swap_joker 9S to 1"]


def test_joker_destinations() -> None:
    targets, pairs = joker_destinations(parse_cards("4D 6D 9C 9H KS"), table("5S 6S 7S"))
    assert targets == [0]
    assert [(str(a), str(b)) for a, b in pairs] == [("9C", "9H"), ("4D", "6D")]


def test_layoff_chain_grows_a_run_card_by_card() -> None:
    plan = layoff_chain(parse_cards("9S TS JS 2C"), table("6S 7S 8S"))
    assert [str(m) for m in plan] == ["layoff 9S to 1", "layoff TS to 1", "layoff JS to 1"]


def test_mandatory_final_discard_filters_going_out() -> None:
    rules = RamiRules(mandatory_final_discard=True)
    assert legal_moves(parse_cards("9S"), table("6S 7S 8S"), rules) == []
    assert len(legal_moves(parse_cards("9S"), table("6S 7S 8S"))) == 1


def _positions(count: int) -> list[RamiRound]:
    """Mid-round positions from random play, with the player to act in the play phase
    and opened."""
    found = []
    rng = random.Random(5)
    for seed in range(200):
        # Both readings of an end joker's real card (§rami-3.7): a swap, or a shift.
        rnd = new_round(RamiRules(end_joker_shifts=seed % 2 == 1), 4, seed=seed)
        bots = [RamiRandomBot(seed * 4 + s) for s in range(4)]
        while not rnd.is_over and len(found) < count:
            seat = rnd.current_player
            if rnd.phase == "play" and rnd.opened[seat] and rnd.table and rng.random() < 0.3:
                found.append(rnd.clone())
            rnd.apply(bots[seat].act(rnd.observation(seat), rnd.legal_actions()))
        if len(found) >= count:
            break
    return found


@pytest.mark.parametrize("rnd", _positions(60))
def test_solver_moves_are_exactly_the_engines(rnd: RamiRound) -> None:
    """Every move listed is accepted by the engine, and every single lay-off or swap the
    engine accepts (by brute force over cards and combinations) is listed."""
    seat = rnd.current_player
    hand = rnd.hands[seat]
    moves = legal_moves(hand, rnd.table, rnd.rules, taken=rnd.taken_card)
    for move in moves:
        rnd.check(move)
    listed_layoffs = {(m.card & 63, m.target) for m in moves if m.kind == "layoff"}
    listed_swaps = {(m.card & 63, m.target) for m in moves if m.kind == "swap_joker"}
    for card in hand:
        for index in range(len(rnd.table)):
            try:
                rnd.check(RamiAction.layoff(card, index))
            except IllegalActionError:
                pass
            else:
                assert (card & 63, index) in listed_layoffs
            destinations = [None, *range(len(rnd.table))]
            for destination in destinations:
                try:
                    rnd.check(RamiAction.swap_joker(card, index, joker_target=destination))
                except IllegalActionError:
                    continue
                assert (card & 63, index) in listed_swaps
                break


def test_lay_off_results_stay_valid_combinations() -> None:
    for rnd in _positions(30):
        for move in layoff_moves(rnd.hands[rnd.current_player], rnd.table):
            assert move.card is not None and move.target is not None
            grown = lay_off(rnd.table[move.target], move.card, shifts=rnd.rules.end_joker_shifts)
            assert len(grown.cards) == len(rnd.table[move.target].cards) + 1
