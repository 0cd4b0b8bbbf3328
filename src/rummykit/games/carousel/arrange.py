"""Carousel placement: the hand cards worth the most that can be laid, exactly.

In Carousel (the Carousel rules, sections 2-3) a meld action submits the whole new table.
:func:`best_placement` finds, exactly, the hand cards worth the most (or the most cards)
that can be laid, together with a complete legal layout that shows how: one that
:func:`rummykit.games.carousel.layout.check_layout` (the engine's rule) accepts.

>>> from rummykit.cards import format_cards, parse_cards as p
>>> best = best_placement([p("5H 6H 7H 8H")], p("8C 8D KS"))
>>> [format_cards(meld) for meld in best.layout], best.value
(['5H 6H 7H', '8H 8C 8D'], 16)

How the solver works. :func:`best_placement` runs the exact rank DP
(:mod:`rummykit.games.carousel.rank_dp`; compiled when ``_rank_dp.c`` is built, see
:mod:`rummykit.games.carousel.rank_dp_select`). Without the compiled module (or for a
layout a person will follow) it first tries something cheaper on large tables: the
quick placement (:mod:`rummykit.games.carousel.placement_quick`), small changes to the
table and a search around what they leave. A layout that lays every live hand card and
joker is optimal; otherwise the rank DP runs, looking only for layouts better than
the quick one.

The rank DP (:func:`rank_dp_placement`) first solves the whole table for the best
value, then looks for a layout as good that opens only the melds around the cards that
move (:func:`~rummykit.games.carousel.rank_dp_problem.rings`). Ties are broken towards
layouts that keep table cards in the kind of meld they were in, and the layout keeps
the old melds that need not change (:mod:`rummykit.games.carousel.rank_dp_layout`).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Final, Literal

from rummykit.cards import FACES, JOKER_FACE, MAX_COPIES, PHYSICAL_IDS, Card
from rummykit.errors import InvalidMeldError, InvalidOptionError
from rummykit.games.carousel.layout import as_melds, split_hand
from rummykit.games.carousel.placement import Placement, objective_weights
from rummykit.games.carousel.placement_quick import quick_placement
from rummykit.games.carousel.rank_dp_layout import lay_out
from rummykit.games.carousel.rank_dp_problem import (
    RankDpSolution,
    Region,
    Regions,
    TableCounts,
    table_counts,
)
from rummykit.games.carousel.rank_dp_select import compiled_in_use, dp_for
from rummykit.melds import CAROUSEL_MELDS, MeldRules

__all__ = ["Placement", "best_placement", "can_place", "tries_quick_path"]

_QUICK_JOKER_TABLE: Final = 20
"""With a joker in the hand, tables of at least this many cards try it first too (a
joker lets almost every hand fit)."""
_QUICK_TABLE: Final = 60
"""Tables of at least this many cards try the quick layout first. On smaller tables
the hand rarely fits entirely, so the rank DP alone is faster (benchmarks/bench_arrange.py)."""
_RING_SHARE = 0.6
"""The rank DP re-solves around the cards that move only while the melds it opens
hold at most this share of the table."""


def best_placement(
    table: Sequence[Sequence[int]],
    hand: Sequence[int],
    *,
    rules: MeldRules = CAROUSEL_MELDS,
    decks: int = 2,
    joker_copy_limit: bool = True,
    objective: Literal["value", "count"] = "value",
    joker_value: int = 25,
    few_changes: bool = False,
) -> Placement | None:
    """The hand cards to lay for the greatest value (or count), with a legal layout.

    ``objective="value"`` maximises the Carousel hand value laid (joker
    ``joker_value``, courts 10, pips, ace 1), ties going to more cards;
    ``objective="count"`` maximises the cards laid, ties going to more value. Every
    table card is used, jokers keep their declaration unless freed by a real card
    (§carousel-3.7, §carousel-3.8), freed jokers are re-declared and stay on the table,
    and with ``joker_copy_limit`` no face appears more than ``decks`` times. Returns
    ``None`` when no hand card can be laid (a meld action needs one). The table's
    melds are taken to be legal (an engine's table always is).

    ``few_changes`` is for layouts a person will follow (hints): on tables of 60 cards
    or more (20 with a joker in the hand) the quick layout of small table changes is
    tried first, which on 60-80-card tables changes 10-25% fewer melds than the rank
    DP's layout, at a few milliseconds' cost. Without the compiled rank DP it is
    always tried (there it is also the faster way).

    The answer is exact (checked against an ILP and a brute force in the tests). The
    rank DP finds it; its layout keeps the old melds that need not change. When the
    quick layout is tried first (a layout of small changes, then a search around the
    cards they leave) and lays every hand card able to join a meld, it is returned at
    once: nothing can be better, and it keeps the other melds as they were. Otherwise
    the rank DP looks only for a better layout.

    >>> from rummykit.cards import format_cards, parse_cards as p
    >>> from rummykit.games.carousel.layout import check_layout
    >>> table, hand = [p("4S JK=5S 6S"), p("9H 9S 9C")], p("5S 2D")
    >>> best = best_placement(table, hand)
    >>> format_cards(best.cards), best.value, format_cards(best.freed), best.untouched
    ('5S', 5, '5S', 1)
    >>> check_layout(table, best.layout, hand).cards == best.cards
    True
    >>> best_placement([p("7D 7S 7C")], p("KH 2C 9D")) is None
    True

    Raises:
        InvalidOptionError: unsupported ``rules`` (the solver needs any number of jokers
            per meld, ``max_run_size >= 13``), ``decks`` or ``objective``.
        InvalidMeldError: a table joker without a declaration.
    """
    _check_arguments(rules, decks, objective)
    melds = as_melds(table)
    counts = table_counts(melds)  # checks every table joker's declaration
    hand_cards = [Card(c) for c in hand]
    exact = functools.partial(
        _rank_dp_placement,
        melds,
        hand_cards,
        rules=rules,
        decks=decks,
        joker_copy_limit=joker_copy_limit,
        objective=objective,
        joker_value=joker_value,
        counts=counts,
    )
    if not tries_quick_path(melds, hand_cards, rules=rules, few_changes=few_changes):
        return exact()
    real, jokers, *_ = counts.every
    quick = quick_placement(
        melds,
        hand_cards,
        list(real),
        list(jokers),
        rules=rules,
        decks=decks,
        joker_copy_limit=joker_copy_limit,
        objective=objective,
        joker_value=joker_value,
    )
    if quick is None:
        return None
    if quick.best is not None:
        return quick.best
    # The exact search only looks for layouts better than the quick one.
    better = exact(floor=quick.floor)
    return better if better is not None or not quick.floor else quick.fallback()


def tries_quick_path(
    table: Sequence[Sequence[int]],
    hand: Sequence[int],
    *,
    rules: MeldRules = CAROUSEL_MELDS,
    few_changes: bool = False,
) -> bool:
    """Whether :func:`best_placement` tries the quick layout before the rank DP. When
    it does not, ``few_changes`` changes nothing: the answer is the rank DP's either way."""
    if compiled_in_use() and not few_changes:
        return False  # the compiled rank DP is faster than the quick moves
    table_size = sum(map(len, table))
    jokers = _jokers_in(table)
    hand_jokers = [card & _FACE_MASK for card in hand].count(JOKER_FACE)
    quick_first = table_size >= _QUICK_TABLE or (hand_jokers and table_size >= _QUICK_JOKER_TABLE)
    joker_count = jokers + hand_jokers
    return bool(quick_first) and joker_count <= 2 and joker_count < rules.min_size


def can_place(
    table: Sequence[Sequence[int]],
    hand: Sequence[int],
    *,
    rules: MeldRules = CAROUSEL_MELDS,
    decks: int = 2,
    joker_copy_limit: bool = True,
) -> bool:
    """Whether some layout lays a hand card: exactly when :func:`best_placement` (with
    any objective) finds a placement, at a fraction of its cost.

    The rank DP on the whole table, each hand card worth one, stops at the first layout
    that lays one; no layout is built. (Any placement the search on fewer melds finds
    is also a layout of the whole table, so nothing else needs searching.)

    >>> from rummykit.cards import parse_cards as p
    >>> can_place([p("5H 6H 7H 8H")], p("8C 8D KS")), can_place([p("7D 7S 7C")], p("KH 2C"))
    (True, False)

    Raises:
        InvalidOptionError: as :func:`best_placement`.
    """
    _check_arguments(rules, decks, "count")
    melds = as_melds(table)
    if not hand:
        return False
    hand_real, hand_jokers = _hand_counts(hand)
    counts = _table_counts(melds, hand_jokers)
    unit = 2 * counts.items + 1  # above the layout tie-break, as the search's
    regions = Regions(
        melds,
        hand_real,
        hand_jokers,
        rules=rules,
        decks=decks,
        joker_copy_limit=joker_copy_limit,
        weight=[unit] * 52,
        joker_weight=unit,
        unit=unit,
        counts=counts,
    )
    region = regions.region(list(range(len(melds))))
    return dp_for(region.problem, region.order).depth_first(floor=0, target=1) is not None


def rank_dp_placement(
    table: Sequence[Sequence[int]],
    hand: Sequence[int],
    *,
    floor: int = 0,
    rules: MeldRules = CAROUSEL_MELDS,
    decks: int = 2,
    joker_copy_limit: bool = True,
    objective: Literal["value", "count"] = "value",
    joker_value: int = 25,
) -> Placement | None:
    """The rank DP of van Rijn, Takes and Vis (see :mod:`rummykit.games.carousel.rank_dp`):
    any number of jokers. :func:`best_placement` uses it when the quick moves leave
    cards over, with ``floor`` the primary score they reached (see
    :func:`~rummykit.games.carousel.placement.objective_weights`): then None means that
    nothing beats it."""
    _check_arguments(rules, decks, objective)
    return _rank_dp_placement(
        as_melds(table),
        [Card(c) for c in hand],
        floor=floor,
        rules=rules,
        decks=decks,
        joker_copy_limit=joker_copy_limit,
        objective=objective,
        joker_value=joker_value,
    )


def _rank_dp_placement(
    melds: list[tuple[Card, ...]],
    hand_cards: list[Card],
    *,
    floor: int = 0,
    rules: MeldRules,
    decks: int,
    joker_copy_limit: bool,
    objective: Literal["value", "count"],
    joker_value: int,
    counts: TableCounts | None = None,
) -> Placement | None:
    """:func:`rank_dp_placement` of a table read as melds, its arguments checked
    (``counts``: the table's, when known)."""
    hand_naturals, hand_jokers = split_hand(hand_cards)
    hand_real = [0] * 52
    for face, cards in hand_naturals.items():
        hand_real[face] = len(cards)
    counts = _table_counts(melds, len(hand_jokers), counts)

    # Lexicographic objective packed into one integer, above the layout tie-break.
    stable = 2 * counts.items + 1
    weight, joker_weight = objective_weights(hand_cards, objective, joker_value, stable)
    regions = Regions(
        melds,
        hand_real,
        len(hand_jokers),
        rules=rules,
        decks=decks,
        joker_copy_limit=joker_copy_limit,
        weight=weight,
        joker_weight=joker_weight,
        unit=stable,
        counts=counts,
    )
    chosen = _choose_region(regions, hand_cards, stable, floor)
    if chosen is None:
        return None
    chosen_region, chosen_solved = chosen
    layout, placed, freed, kept = lay_out(
        chosen_region,
        chosen_solved,
        melds,
        hand_naturals,
        hand_jokers,
        rules.min_size,
        rules.max_set_size,
    )
    return Placement.laying(layout, placed, freed, kept, joker_value)


def _choose_region(
    regions: Regions,
    hand_cards: list[Card],
    stable: int,
    floor: int,
) -> tuple[Region, RankDpSolution] | None:
    """The best layout beating ``floor``, solved on as few melds as give it: the melds
    around the hand's cards when they hold enough, else the whole table and then the
    melds around the cards that move."""
    most = _RING_SHARE * regions.items
    everything = regions.region(list(range(len(regions.melds))))
    full = dp_for(everything.problem, everything.order)
    top = full.upper_bound()
    if top // stable <= max(0, floor):
        return None  # the table cannot be laid out, nothing fits, or nothing beats floor

    # First the melds around the hand's cards only: often that is all a player needs.
    chosen: tuple[Region, RankDpSolution] | None = None
    hand_faces = 0
    for card in hand_cards:
        face = FACES[card]
        if face != JOKER_FACE:
            hand_faces |= 1 << face
    for ring in regions.rings(hand_faces, 1):
        if regions.size(ring) <= most:
            local = regions.region(ring)
            found = dp_for(local.problem, local.order).depth_first(floor=floor)
            if found is not None and found.score // stable > max(0, floor):
                chosen = (local, found)
    if chosen is not None:
        floor = chosen[1].score // stable  # a meld lays >= 1 card
    better = full.depth_first(floor=floor)
    if better is not None:
        chosen = (everything, better)
        # Re-solve with only the melds around the cards that move opened.
        primary = better.score // stable
        seeds = 0
        for rank, suit, x, o, w, _u, _g, _h in better.choices:
            if x or o or w:  # jokers freed, hand cards, wild jokers
                seeds |= 1 << (suit * 13 + rank - 1)
        for ring in regions.rings(seeds, 3):
            if regions.size(ring) > most:
                break
            candidate = regions.region(ring)
            attempt = dp_for(candidate.problem, candidate.order).depth_first(
                floor=primary - 1, target=primary
            )
            if attempt is not None:
                chosen = (candidate, attempt)
                break
    return chosen


def _hand_counts(hand: Sequence[int]) -> tuple[list[int], int]:
    """A hand's natural cards counted per face, and its jokers."""
    counts = [0] * 52
    jokers = 0
    for card in hand:
        face = card & _FACE_MASK
        if face == JOKER_FACE:
            jokers += 1
        else:
            counts[face] += 1
    return counts, jokers


def _jokers_in(melds: Sequence[Sequence[int]]) -> int:
    """The jokers on a table (declared or not)."""
    return [card & _FACE_MASK for meld in melds for card in meld].count(JOKER_FACE)


_FACE_MASK: Final = PHYSICAL_IDS // MAX_COPIES - 1
"""The face bits of a card id (:func:`~rummykit.cards.face_of` without a call)."""


def _table_counts(
    melds: list[tuple[Card, ...]], hand_jokers: int, counts: TableCounts | None = None
) -> TableCounts:
    """The table's counts (``counts`` when already known), its jokers checked: too many
    jokers is reported before a table joker without a declaration."""
    if counts is None:
        try:
            counts = table_counts(melds)
        except InvalidMeldError:
            _check_jokers(melds, hand_jokers)
            raise
    if counts.joker_count + hand_jokers > _MOST_JOKERS:
        _check_jokers(melds, hand_jokers)
    return counts


_MOST_JOKERS: Final = 8


def _check_jokers(melds: Sequence[Sequence[Card]], hand_jokers: int) -> None:
    if _jokers_in(melds) + hand_jokers > _MOST_JOKERS:
        raise InvalidOptionError("the arrangement solver handles at most 8 jokers", option="jokers")


def _check_arguments(rules: MeldRules, decks: int, objective: str) -> None:
    if not 1 <= decks <= 4:
        raise InvalidOptionError(f"decks must be 1-4, got {decks}", option="decks")
    if rules.min_size < 2 or not rules.min_size <= rules.max_set_size <= 4:
        raise InvalidOptionError(
            "the arrangement solver needs 2 <= min_size <= max_set_size <= 4", option="rules"
        )
    if rules.max_run_size < 13:
        raise InvalidOptionError("the arrangement solver needs max_run_size >= 13", option="rules")
    if rules.max_jokers is not None:
        raise InvalidOptionError(
            "the arrangement solver handles any number of jokers per meld only", option="rules"
        )
    if objective not in ("value", "count"):
        raise InvalidOptionError(
            f"objective must be 'value' or 'count', not {objective!r}", option="objective"
        )
