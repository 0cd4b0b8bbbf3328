"""``can_place``, the quick exact test of whether any placement exists, against the full
search (``best_placement``) it stands in for, and ``tries_quick_path``.

``ilp_reference`` sits beside this file (pytest's ``prepend`` import mode).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ilp_reference import random_instance

from rummykit.cards import JOKER_FACE, Card, parse_cards
from rummykit.errors import InvalidMeldError, InvalidOptionError
from rummykit.games.carousel import rank_dp_select
from rummykit.games.carousel.arrange import best_placement, can_place, tries_quick_path
from rummykit.melds import MeldRules


def _agree(seed: int, hand_size: int, jokers: int, copy_limit: bool) -> bool:
    inst = random_instance(seed, jokers=jokers, hand_size=hand_size)
    options = {"decks": inst.decks, "joker_copy_limit": copy_limit}
    quick = can_place(inst.table, inst.hand, **options)  # type: ignore[arg-type]
    for objective in ("value", "count"):
        found = best_placement(inst.table, inst.hand, objective=objective, **options)  # type: ignore[arg-type]
        assert quick == (found is not None and bool(found.cards)), (seed, objective)
    return quick


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(0, 10**9),
    st.integers(1, 6),
    st.integers(0, 2),
    st.booleans(),
)
def test_can_place_agrees_with_the_full_search(
    seed: int, hand_size: int, jokers: int, copy_limit: bool
) -> None:
    """Small hands on random legal tables: both answers occur, and always agree."""
    _agree(seed, hand_size, jokers, copy_limit)


def test_both_answers_are_covered() -> None:
    answers = {_agree(seed, 1 + seed % 4, seed % 3, True) for seed in range(60)}
    assert answers == {True, False}


def test_can_place_agrees_with_the_python_rank_dp(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rank_dp_select, "use_compiled", False)
    for seed in range(12):
        _agree(seed, 1 + seed % 3, seed % 2, True)


def test_can_place_examples() -> None:
    table = [parse_cards("4S JK=5S 6S"), parse_cards("9H 9S 9C")]
    assert can_place(table, parse_cards("5S 2D"))  # frees the joker
    assert not can_place(table, parse_cards("2D KC"))
    assert not can_place(table, [])
    assert can_place([], [Card(JOKER_FACE), *parse_cards("7C 8C")])
    with pytest.raises(ValueError, match="jokers per meld"):
        can_place([], parse_cards("7C 8C 9C"), rules=MeldRules(max_jokers=1))


def test_can_place_reports_too_many_jokers_first() -> None:
    """Nine jokers with one undeclared on the table: the joker limit is reported (the
    declaration is, once the jokers are few enough), as by best_placement's checks."""
    table = [parse_cards("JK=5S JK=6S JK=7S"), parse_cards("JK=5H JK=6H JK=7H")]
    hand_jokers = [Card(JOKER_FACE + (k << 6)) for k in range(3)]
    with pytest.raises(InvalidOptionError, match="at most 8 jokers"):
        can_place(table, [*hand_jokers, *parse_cards("2C")])
    undeclared = [*table, parse_cards("5D 6D JK")]
    with pytest.raises(InvalidOptionError, match="at most 8 jokers"):
        can_place(undeclared, [*hand_jokers, *parse_cards("2C")])
    with pytest.raises(InvalidMeldError, match="declaration"):
        can_place(undeclared, parse_cards("2C"))
    assert not can_place(table, parse_cards("2C"))


def test_few_changes_is_the_best_placement_off_the_quick_path() -> None:
    """Where ``tries_quick_path`` says no, ``few_changes`` gives the same placement."""
    checked = 0
    for seed in range(40):
        inst = random_instance(seed, hand_size=4)
        if tries_quick_path(inst.table, inst.hand, few_changes=True):
            continue
        checked += 1
        assert best_placement(inst.table, inst.hand, decks=inst.decks) == best_placement(
            inst.table, inst.hand, decks=inst.decks, few_changes=True
        )
    assert checked >= 10
