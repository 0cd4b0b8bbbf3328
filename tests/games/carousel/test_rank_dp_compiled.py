"""The compiled rank DP (``rummykit.games.carousel._rank_dp``) against the Python ``_Dp`` it
mirrors: the same bound and the same layout choices, state for state, on seeded
random problems of every kind the solver sees (whole tables and opened regions, value
and count objectives, with and without the copy limit, one and two decks, jokers).
The Python path of :func:`best_placement` is also checked against the ILP here, since
with the module built the other tests exercise the compiled path.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest
from ilp_reference import ilp_optimum, random_instance

from rummykit.cards import Card, card_value_gin
from rummykit.games.carousel import rank_dp_select
from rummykit.games.carousel.arrange import best_placement
from rummykit.games.carousel.layout import as_melds, check_layout
from rummykit.games.carousel.rank_dp import PythonRankDp
from rummykit.games.carousel.rank_dp_problem import RankDpProblem, Regions
from rummykit.melds import CAROUSEL_MELDS, MeldRules

compiled = pytest.importorskip("rummykit.games.carousel._rank_dp")


def _problem(seed: int, *, ring: bool, rules: MeldRules = CAROUSEL_MELDS) -> RankDpProblem:
    """A placement problem as ``arrange.rank_dp_placement`` builds it."""
    rng = random.Random(seed)
    inst = random_instance(
        seed, table_size=rng.randint(10, 45), jokers=rng.choice((0, 0, 1, 2)), decks=None
    )
    melds = as_melds(inst.table)
    hand_cards = [Card(c) for c in inst.hand]
    naturals = Counter(c.face for c in hand_cards if not c.is_joker)
    hand_jokers = sum(1 for c in hand_cards if c.is_joker)
    stable = 2 * sum(len(m) for m in melds) + 1
    values = [card_value_gin(f) for f in range(52)]
    if rng.random() < 0.5:  # objective "value"
        per_count = len(hand_cards) + 1
        weight = [(v * per_count + 1) * stable for v in values]
        joker_weight = (25 * per_count + 1) * stable
    else:  # objective "count"
        per_value = sum(values[c.face] for c in hand_cards if not c.is_joker)
        per_value += 25 * hand_jokers + 1
        weight = [(per_value + v) * stable for v in values]
        joker_weight = (per_value + 25) * stable
    opened = list(range(len(melds)))
    if ring:  # a region: some melds stay locked (real_ext, smaller caps)
        opened = sorted(rng.sample(opened, max(1, len(opened) // 2)))
    region = Regions(
        melds,
        naturals,
        hand_jokers,
        rules=rules,
        decks=inst.decks,
        joker_copy_limit=rng.random() < 0.8,
        weight=weight,
        joker_weight=joker_weight,
        unit=stable,
    ).region(opened)
    return region.problem


@pytest.mark.parametrize("block", range(4))
def test_compiled_dp_matches_the_python_dp(block: int) -> None:
    """Same upper bound and the same solution (score, jokers, choices) as ``_Dp``."""
    for seed in range(block * 20, block * 20 + 20):
        problem = _problem(seed, ring=seed % 3 == 0)
        python = PythonRankDp(problem)
        fast = rank_dp_select.make_dp(problem)
        assert isinstance(fast, rank_dp_select.CompiledRankDp)
        assert fast.upper_bound() == python.upper_bound(), seed
        for floor, target in ((-1, None), (0, None), (3, None)):
            want = python.depth_first(floor=floor, target=target)
            got = fast.depth_first(floor=floor, target=target)
            assert (got is None) == (want is None), (seed, floor)
            if want is not None and got is not None:
                assert (got.score, got.used, got.freed) == (want.score, want.used, want.freed)
                assert [tuple(c) for c in got.choices] == want.choices, seed
        if (top := python.upper_bound()) > 0:  # a target below the bound
            target = top // problem.unit - 1
            want = python.depth_first(floor=-1, target=target)
            got = fast.depth_first(floor=-1, target=target)
            assert (None if got is None else got.score) == (None if want is None else want.score)


@pytest.mark.parametrize("seed", range(3000, 3040))
def test_python_path_matches_the_ilp(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the compiled DP switched off, best_placement (quick layout, then the Python
    rank DP) still finds the ILP's optimum and a legal layout."""
    monkeypatch.setattr(rank_dp_select, "use_compiled", False)
    inst = random_instance(seed, table_size=random.Random(seed).randint(10, 50))
    found = best_placement(inst.table, inst.hand, decks=inst.decks)
    got = (0, 0) if found is None else (found.value, found.count)
    assert got == ilp_optimum(inst.table, inst.hand, decks=inst.decks), seed
    if found is not None:
        check = check_layout(inst.table, found.layout, inst.hand, decks=inst.decks)
        assert check.value == found.value


@pytest.mark.parametrize(
    "rules",
    [
        dataclasses.replace(CAROUSEL_MELDS, max_set_size=3),
        dataclasses.replace(CAROUSEL_MELDS, ace_high=False),
        dataclasses.replace(CAROUSEL_MELDS, ace_low=False),
        dataclasses.replace(CAROUSEL_MELDS, min_size=2, max_set_size=3),
        dataclasses.replace(CAROUSEL_MELDS, min_size=4),
    ],
    ids=["sets-of-3", "ace-low-only", "ace-high-only", "min-2", "min-4"],
)
def test_compiled_dp_matches_the_python_dp_under_other_rules(rules: MeldRules) -> None:
    """The meld-rule parameters the solver accepts give the same results too."""
    for seed in range(500, 512):
        problem = _problem(seed, ring=seed % 2 == 0, rules=rules)
        python = PythonRankDp(problem)
        fast = rank_dp_select.make_dp(problem)
        assert fast.upper_bound() == python.upper_bound(), seed
        want = python.depth_first(floor=-1)
        got = fast.depth_first(floor=-1)
        assert (got is None) == (want is None), seed
        if want is not None and got is not None:
            assert (got.score, got.choices) == (want.score, want.choices), seed


@pytest.mark.parametrize("seed", range(100, 130))
def test_suit_order_changes_the_search_not_the_optimum(seed: int) -> None:
    """Visiting the suits in another order (as _rank_dp does) finds the same optimum,
    and its choices, given back in the original suits, follow rank and suit order."""
    problem = _problem(seed, ring=seed % 4 == 0)
    plain = rank_dp_select.make_dp(problem).depth_first(floor=0)
    order = [3, 1, 0, 2]
    relabelled = rank_dp_select.SuitOrderDp(problem, order)
    found = relabelled.depth_first(floor=0)
    assert (found is None) == (plain is None)
    if found is not None and plain is not None:
        # The bounds may differ (jokers are charged to the first suit), never the optimum.
        assert relabelled.upper_bound() >= found.score
        assert found.score // problem.unit == plain.score // problem.unit
        assert [(c[0], c[1]) for c in found.choices] == [
            (rank, suit) for rank in range(1, 14) for suit in range(4)
        ]
        # The Python DP under the same renaming agrees with the compiled one.
        monkeypatched = rank_dp_select.use_compiled
        try:
            rank_dp_select.use_compiled = False
            python = rank_dp_select.SuitOrderDp(problem, order).depth_first(floor=0)
        finally:
            rank_dp_select.use_compiled = monkeypatched
        assert python is not None and python.choices == found.choices


@pytest.mark.parametrize("seed", range(200, 216))
def test_compiled_suit_order_matches_the_relabelled_problem(seed: int) -> None:
    """The compiled DP given a suit order (as :func:`dp_for` passes it) renames the suits
    itself: the same bound and answers as the relabelled problem, in the original suits."""
    problem = _problem(seed, ring=seed % 3 == 0)
    rng = random.Random(seed)
    orders = [rank_dp_select.suit_order(problem)] + [rng.sample(range(4), 4) for _ in range(3)]
    arguments = rank_dp_select.compiled_arguments(problem)
    for order in orders:
        own = rank_dp_select.CompiledRankDp(problem, compiled.RankDp(*arguments, order), order)
        renamed = rank_dp_select.SuitOrderDp(problem, order)
        python = rank_dp_select.SuitOrderDp(
            problem, order, PythonRankDp(rank_dp_select.relabel(problem, order))
        )
        assert own.upper_bound() == renamed.upper_bound() == python.upper_bound()
        for floor, target in ((-1, None), (0, None), (0, 1), (2, None)):
            want = renamed.depth_first(floor, target)
            assert own.depth_first(floor, target) == want, (seed, order, floor, target)
            assert python.depth_first(floor, target) == want, (seed, order, floor, target)
    dp = rank_dp_select.dp_for(problem)
    best = dp.depth_first(floor=0)
    assert best == rank_dp_select.SuitOrderDp(problem, orders[0]).depth_first(floor=0)


@pytest.mark.parametrize("order", [[0, 1, 2], [0, 1, 2, 2], [0, 1, 2, 4], [-1, 0, 1, 2]])
def test_bad_suit_orders_are_refused(order: list[int]) -> None:
    arguments = rank_dp_select.compiled_arguments(_problem(9, ring=False))
    with pytest.raises(ValueError, match="permutation"):
        compiled.RankDp(*arguments, order)


def test_problems_beyond_the_compiled_limits_run_in_python() -> None:
    """Eight wild jokers exceed the compiled key: the Python DP takes the problem."""
    problem = _problem(7, ring=False)
    problem.hand_jokers = 8
    assert isinstance(rank_dp_select.make_dp(problem), PythonRankDp)
    with pytest.raises(compiled.RankDpUnsupportedError):
        compiled.RankDp(*rank_dp_select.compiled_arguments(problem))


def test_bad_arguments_are_refused() -> None:
    problem = _problem(8, ring=False)
    arguments = rank_dp_select.compiled_arguments(problem)
    short = list(arguments)
    short[4] = problem.real[:51]
    with pytest.raises(ValueError, match="52 entries"):
        compiled.RankDp(*short)
    dp = compiled.RankDp(*arguments)
    with pytest.raises(RuntimeError, match="once"):
        dp.__init__(*arguments)
    assert dp.upper_bound() == PythonRankDp(problem).upper_bound()


@pytest.mark.parametrize("seed", range(4000, 4012))
def test_few_changes_keeps_the_optimum(seed: int) -> None:
    """``few_changes`` (the quick layout first, for hints) lays the same value."""
    inst = random_instance(seed, decks=2, table_size=70)
    fast = best_placement(inst.table, inst.hand, decks=inst.decks)
    careful = best_placement(inst.table, inst.hand, decks=inst.decks, few_changes=True)
    assert (fast is None) == (careful is None)
    if fast is not None and careful is not None:
        assert (careful.value, careful.count) == (fast.value, fast.count)
        check_layout(inst.table, careful.layout, inst.hand, decks=inst.decks)
