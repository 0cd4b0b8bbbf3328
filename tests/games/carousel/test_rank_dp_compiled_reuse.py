"""The compiled rank DP keeps the tables of finished problems (emptied) for the next
ones: whichever tables a problem gets, and however many problems are alive at once,
every problem must give the same bound, layouts and searched states as when it is
solved alone.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from ilp_reference import random_instance

from rummykit.cards import Card, card_value_gin
from rummykit.games.carousel import rank_dp_select
from rummykit.games.carousel.layout import as_melds
from rummykit.games.carousel.rank_dp_problem import Regions
from rummykit.melds import CAROUSEL_MELDS

compiled = pytest.importorskip("rummykit.games.carousel._rank_dp")


def _arguments(seed: int) -> tuple[Any, ...]:
    """The compiled DP's arguments for a seeded problem (a whole table or a region)."""
    rng = random.Random(seed)
    inst = random_instance(
        seed, table_size=rng.randint(8, 45), jokers=rng.choice((0, 1, 2)), decks=None
    )
    melds = as_melds(inst.table)
    hand = [Card(c) for c in inst.hand]
    stable = 2 * sum(len(m) for m in melds) + 1
    per_count = len(hand) + 1
    opened = list(range(len(melds)))
    if seed % 2:
        opened = sorted(rng.sample(opened, max(1, len(opened) // 2)))
    region = Regions(
        melds,
        Counter(c.face for c in hand if not c.is_joker),
        sum(1 for c in hand if c.is_joker),
        rules=CAROUSEL_MELDS,
        decks=inst.decks,
        joker_copy_limit=rng.random() < 0.8,
        weight=[(card_value_gin(f) * per_count + 1) * stable for f in range(52)],
        joker_weight=(25 * per_count + 1) * stable,
        unit=stable,
    ).region(opened)
    problem = region.problem
    return (*rank_dp_select.compiled_arguments(problem), rank_dp_select.suit_order(problem))


def _answers(dp: Any) -> list[Any]:
    """The bound, then each search's answer and the states it expanded."""
    found: list[Any] = [dp.upper_bound()]
    for floor, target in ((-1, -1), (0, -1), (0, 1), (2, -1)):
        found.append((dp.depth_first(floor, target), dp.nodes()))
    return found


SEEDS = range(40, 52)


def _alone() -> dict[int, list[Any]]:
    return {seed: _answers(compiled.RankDp(*_arguments(seed))) for seed in SEEDS}


def test_problems_alive_together_answer_as_alone() -> None:
    """More problems alive than tables kept, searched in turn, then released in
    another order: each answers as when solved alone."""
    want = _alone()
    alive = {seed: compiled.RankDp(*_arguments(seed)) for seed in SEEDS}
    got: dict[int, list[Any]] = {seed: [dp.upper_bound()] for seed, dp in alive.items()}
    for floor, target in ((-1, -1), (0, -1), (0, 1), (2, -1)):
        for seed in reversed(SEEDS):
            dp = alive[seed]
            got[seed].append((dp.depth_first(floor, target), dp.nodes()))
    assert got == want
    for seed in list(SEEDS)[::3]:
        del alive[seed]
    assert {seed: _answers(dp) for seed, dp in alive.items()} == {
        seed: want[seed] for seed in alive
    }
    del alive
    assert _alone() == want


def test_refused_problems_leave_the_tables_clean() -> None:
    """A refused problem (too many jokers) or bad arguments do not disturb the next
    problems."""
    want = _alone()
    arguments = list(_arguments(7))
    arguments[9] = 8  # hand jokers beyond the compiled limit
    for seed in SEEDS:
        with pytest.raises(compiled.RankDpUnsupportedError):
            compiled.RankDp(*arguments)
        with pytest.raises(ValueError, match="52 entries"):
            compiled.RankDp(*arguments[:4], [0] * 51, *arguments[5:])
        assert _answers(compiled.RankDp(*_arguments(seed))) == want[seed]


def test_a_search_repeated_gives_the_same_states() -> None:
    """A new search on the same tables starts from an empty transposition table."""
    for seed in SEEDS:
        dp = compiled.RankDp(*_arguments(seed))
        first = _answers(dp)
        assert _answers(dp) == first


def test_an_uninitialised_dp_is_refused() -> None:
    dp = compiled.RankDp.__new__(compiled.RankDp)
    with pytest.raises(RuntimeError, match="not initialised"):
        dp.upper_bound()
    with pytest.raises(RuntimeError, match="not initialised"):
        dp.depth_first(-1, -1)
