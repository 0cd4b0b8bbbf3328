"""The rank DP's problem building against plain per-card counting: the packed per-face
counts of :meth:`Regions.region` (of one region, and of every region of one
:class:`Regions`), the face masks of :func:`rings` and the shapes of :func:`meld_shape`
must give exactly what counting card by card gives, on seeded random tables."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from ilp_reference import random_instance

from rummykit.cards import Card
from rummykit.games.carousel.layout import as_melds
from rummykit.games.carousel.rank_dp_problem import (
    NO_LIMIT,
    Regions,
    meld_shape,
    rings,
)
from rummykit.games.carousel.rank_dp_select import suit_order
from rummykit.melds import CAROUSEL_MELDS


def _counted(
    melds: list[tuple[Card, ...]], opened: set[int], decks: int, limit: bool
) -> dict[str, list[int]]:
    """The problem's per-face lists, counted card by card."""
    lists = {
        name: [0] * 52
        for name in ("real", "jokers", "real_ext", "decl_ext", "in_runs", "in_groups", "in_high")
    }
    for index, meld in enumerate(melds):
        faces, jokers_at, is_run, high = meld_shape(meld)
        for face, joker in zip(faces, jokers_at, strict=True):
            if index not in opened:
                lists["decl_ext" if joker else "real_ext"][face] += 1
                continue
            lists["jokers" if joker else "real"][face] += 1
            if is_run:
                lists["in_runs"][face] += 1
                if high and face % 13 == 0:
                    lists["in_high"][face] += 1
            else:
                lists["in_groups"][face] += 1
    ext = [r + d for r, d in zip(lists.pop("real_ext"), lists.pop("decl_ext"), strict=True)]
    lists["cap"] = [max(0, decks - n) if limit else NO_LIMIT for n in ext]
    return lists


def _ringed(melds: list[tuple[Card, ...]], seeds: set[int], count: int) -> list[list[int]]:
    """:func:`rings` by sets of ranks and (suit, rank) neighbours."""
    faces = set(seeds)
    opened: set[int] = set()
    grown_sets: list[list[int]] = []
    meld_faces = [set(meld_shape(m)[0]) for m in melds]
    for _ in range(count):
        ranks = {face % 13 for face in faces}
        spots = {(face // 13, (face % 13 + step) % 13) for face in faces for step in (-1, 0, 1)}
        grown = {
            i
            for i, mf in enumerate(meld_faces)
            if i in opened or any(f % 13 in ranks or (f // 13, f % 13) in spots for f in mf)
        }
        if grown == opened:
            break
        opened = grown
        grown_sets.append(sorted(opened))
        for i in opened:
            faces |= meld_faces[i]
    return grown_sets


@pytest.mark.parametrize("seed", range(40))
def test_region_counts_every_face(seed: int) -> None:
    rng = random.Random(seed)
    inst = random_instance(seed, jokers=rng.choice((0, 1, 2)))
    melds = as_melds(inst.table)
    opened = sorted(rng.sample(range(len(melds)), rng.randint(1, len(melds))))
    hand = Counter(Card(c).face for c in inst.hand if not Card(c).is_joker)
    limit = rng.random() < 0.7

    def region_of(counts: Any) -> Any:
        return Regions(
            melds,
            counts,
            0,
            rules=CAROUSEL_MELDS,
            decks=inst.decks,
            joker_copy_limit=limit,
            weight=[1] * 52,
            joker_weight=1,
            unit=1,
        ).region(opened)

    problem = region_of(hand).problem
    for name, want in _counted(melds, set(opened), inst.decks, limit).items():
        assert list(getattr(problem, name)) == want, (seed, name)
    assert problem.hand == [hand[f] for f in range(52)]
    assert region_of(problem.hand).problem == problem  # the hand as a list of counts


@pytest.mark.parametrize("seed", range(40))
def test_rings_grow_by_rank_and_neighbour(seed: int) -> None:
    rng = random.Random(seed)
    melds = as_melds(random_instance(seed).table)
    seeds = set(rng.sample(range(52), rng.randint(1, 4)))
    for count in (1, 3):
        assert rings(melds, seeds, count) == _ringed(melds, seeds, count), seed


def _shape(meld: tuple[Card, ...]) -> tuple[Any, ...]:
    """:func:`meld_shape` read through :class:`Card`'s properties: the declared face,
    and ranks as ``id % 13`` of the card or of the natural card a joker stands for."""
    jokers_at = tuple(card.is_joker for card in meld)
    naturals = [card.declared if card.is_joker else card for card in meld]
    assert None not in naturals  # a table joker is declared
    faces = tuple(
        int(n) if card.is_joker else n.face  # type: ignore[arg-type,union-attr]
        for card, n in zip(meld, naturals, strict=True)
    )
    ranks = {int(n) % 13 for n in naturals}  # type: ignore[arg-type]
    is_run = len(ranks) != 1
    return faces, jokers_at, is_run, is_run and any(r >= 11 for r in ranks)


@pytest.mark.parametrize("seed", range(20))
def test_meld_shape_reads_the_ids(seed: int) -> None:
    rng = random.Random(seed)
    melds = as_melds(random_instance(seed, jokers=2, decks=2).table)
    # Groups of mixed copies too: their ranks read as id % 13 differ (a run, so to speak).
    rank = rng.randrange(13)
    mixed = tuple(Card(s * 13 + rank + (rng.randrange(2) << 6)) for s in range(3))
    for meld in [*melds, mixed]:
        assert meld_shape(meld) == _shape(meld), [str(c) for c in meld]


@pytest.mark.parametrize("seed", range(20))
def test_regions_of_one_table_count_every_face(seed: int) -> None:
    """Several regions of one :class:`Regions` (the whole table, rings, any subset):
    each counted as on its own, and the suit order the DP is given is suit_order's."""
    rng = random.Random(seed)
    inst = random_instance(seed, jokers=rng.choice((0, 1, 2)))
    melds = as_melds(inst.table)
    hand = Counter(Card(c).face for c in inst.hand if not Card(c).is_joker)
    regions = Regions(
        melds,
        hand,
        1,
        rules=CAROUSEL_MELDS,
        decks=inst.decks,
        joker_copy_limit=True,
        weight=[1] * 52,
        joker_weight=1,
        unit=1,
    )
    every = list(range(len(melds)))
    seeds = set(rng.sample(range(52), 3))
    for opened in [
        every,
        *rings(melds, seeds, 3),
        sorted(rng.sample(every, len(every) // 2)),
        every,
    ]:
        region = regions.region(opened)
        for name, want in _counted(melds, set(opened), inst.decks, True).items():
            assert list(getattr(region.problem, name)) == want, (seed, name)
        assert region.order == suit_order(region.problem)
        assert regions.size(opened) == sum(len(melds[i]) for i in opened)
        items: tuple[dict[int, list[Any]], dict[int, list[Any]]] = ({}, {})
        for index in opened:
            faces, jokers_at, is_run, _high = meld_shape(melds[index])
            for card, face, joker in zip(melds[index], faces, jokers_at, strict=True):
                items[joker].setdefault(face, []).append((card, is_run))
        assert (region.table_items, region.joker_items) == items
