"""The quick placement: small changes to the table, then a search around what is left.

Used first by :func:`rummykit.games.carousel.arrange.best_placement` on large tables
when the rank DP is not compiled (or when a person will follow the layout). It drops
the hand cards that fit in no meld (:func:`~rummykit.games.carousel.placement_problem.live_hand`),
lays the others by small changes to the table
(:mod:`rummykit.games.carousel.placement_greedy`) and searches the melds around whatever
is left (:func:`~rummykit.games.carousel.placement_search.solve_placement`, within a
budget). A layout that lays every live hand card and joker is optimal; otherwise it is
a lower bound for the rank DP.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final, Literal

from rummykit.cards import FACES, JOKER_FACE, Card
from rummykit.games.carousel.layout import IllegalLayoutError, check_layout, split_hand
from rummykit.games.carousel.placement import (
    TABLE_FACES,
    Placement,
    group_in_old_order,
    homes,
    objective_weights,
    table_face,
    token,
    untouched,
)
from rummykit.games.carousel.placement_greedy import greedy_layout
from rummykit.games.carousel.placement_problem import PlacementProblem, live_hand
from rummykit.games.carousel.placement_search import (
    SearchBudgetError,
    SearchResult,
    solve_placement,
)
from rummykit.games.carousel.rank_dp_problem import NO_LIMIT
from rummykit.melds import MeldRules

__all__ = ["REPAIR_BUDGET", "QuickPlacement", "quick_placement"]

REPAIR_BUDGET: Final = 600
"""States one search around the cards the quick moves left may remember."""


@dataclass(frozen=True, slots=True)
class QuickPlacement:
    """What the quick moves reached."""

    best: Placement | None
    """A layout that lays every live hand card and joker: nothing can be better."""
    floor: int
    """The primary score the quick layout reached (0 when a freed joker found no
    place: then it is no legal layout)."""
    fallback: Callable[[], Placement]
    """The quick layout as a placement (checked), for when nothing beats :attr:`floor`."""


def quick_placement(
    melds: list[tuple[Card, ...]],
    hand_cards: list[Card],
    real: list[int],
    jokers: list[int],
    *,
    rules: MeldRules,
    decks: int,
    joker_copy_limit: bool,
    objective: Literal["value", "count"],
    joker_value: int,
) -> QuickPlacement | None:
    """The quick layout of ``hand_cards`` on ``melds`` (``real`` and ``jokers``: the
    table's cards per face); None when no hand card can be laid."""
    hand_naturals, hand_jokers = split_hand(hand_cards)
    weight, joker_weight = objective_weights(hand_cards, objective, joker_value)
    joker_count = sum(jokers) + len(hand_jokers)
    # Slots of a face never exceed its real cards plus the jokers (at most 6 < 8).
    cap = [decks if joker_copy_limit else decks + joker_count] * 52
    problem = PlacementProblem(
        real=real,
        jokers=jokers,
        hand=[len(hand_naturals.get(f, ())) for f in range(52)],
        cap=cap,
        weight=weight,
        hand_jokers=len(hand_jokers),
        joker_weight=joker_weight,
        ace_low=rules.ace_low,
        ace_high=rules.ace_high,
        min_size=rules.min_size,
        max_set=rules.max_set_size,
        old_melds=frozenset(tuple(sorted(table_face(c) for c in m)) for m in melds),
    )
    live, _wild = live_hand(problem)
    if not any(live) and not hand_jokers:
        return None
    # First small changes to the table, then a search around the cards they leave: a
    # layout that lays every live hand card and joker is optimal, and most tables
    # with more than a few melds have one.
    copy_cap = decks if joker_copy_limit else NO_LIMIT
    live_cards = [c for f, cards in hand_naturals.items() for c in cards[: live[f]]]
    layout, placed, freed, left = greedy_layout(
        melds,
        live_cards,
        hand_jokers,
        decks_cap=copy_cap,
        ace_low=rules.ace_low,
        ace_high=rules.ace_high,
        min_size=rules.min_size,
        max_set=rules.max_set_size,
    )

    def placement(
        final: list[tuple[Card, ...]], laid: list[Card], gave_up: list[Card]
    ) -> Placement:
        check_layout(
            melds, final, hand_cards, rules=rules, decks=decks, joker_copy_limit=joker_copy_limit
        )
        return Placement.laying(final, laid, gave_up, untouched(melds, final), joker_value)

    jokers_placed = all(not c.is_joker or c in hand_jokers for c in left)
    done: tuple[list[tuple[Card, ...]], list[Card], list[Card]] | None = None
    if not left:
        done = [tuple(m) for m in layout], placed, [Card(f) for f in freed]
    elif jokers_placed:
        done = _repair(melds, layout, placed, freed, left, problem, rules, copy_cap)
    if done is not None:
        try:
            best = placement(*done)
        except IllegalLayoutError:  # pragma: no cover - every move keeps the rules
            pass
        else:
            return QuickPlacement(best, 0, lambda: best)
    # The quick layout is a legal lower bound unless a freed joker found no place.
    floor = 0
    if jokers_placed:
        floor = sum(joker_weight if c.is_joker else weight[c.face] for c in placed)
    return QuickPlacement(
        None,
        floor,
        lambda: placement([tuple(m) for m in layout], placed, [Card(f) for f in freed]),
    )


def _near(melds: Sequence[Sequence[Card]], faces: set[int]) -> list[int]:
    """Melds with a card of one of ``faces``' ranks, or of its suit two ranks away."""
    ranks = {f % 13 for f in faces}
    spots = {f - f % 13 + (f % 13 + d) % 13 for f in faces for d in (-2, -1, 0, 1, 2)}
    at = TABLE_FACES
    return [
        i
        for i, meld in enumerate(melds)
        if any(at[c] % 13 in ranks or at[c] in spots for c in meld)
    ]


def _repair(
    melds: list[tuple[Card, ...]],
    layout: list[list[Card]],
    placed: list[Card],
    freed: list[int],
    left: list[Card],
    problem: PlacementProblem,
    rules: MeldRules,
    cap: int,
) -> tuple[list[tuple[Card, ...]], list[Card], list[Card]] | None:
    """Lay the cards the quick moves left by searching the melds around them (growing
    rings of the quick layout, the rest kept as it is; past 60% of the table, all of
    it). The cards the quick moves laid stay forced: a layout that lays every live
    card lays them too. None when no ring lays all within the search budget."""
    total = sum(len(m) for m in layout)
    naturals: dict[int, list[Card]] = {}
    for card in left:
        if not card.is_joker:
            naturals.setdefault(card.face, []).append(card)
    jokers_left = [c for c in left if c.is_joker]
    seeds = {c.face for c in left if not c.is_joker}
    if not seeds:  # only jokers are left: look everywhere near the table's cards
        seeds = {TABLE_FACES[c] for m in layout for c in m}
    ring: list[int] = []
    everything = list(range(len(layout)))
    for _ in range(3):
        grown = _near(layout, seeds)
        if grown == ring or sum(len(layout[i]) for i in grown) > 0.6 * total:
            grown = everything  # the last try: the whole quick layout
        if grown == ring:
            return None
        ring = grown
        seeds |= {TABLE_FACES[c] for i in ring for c in layout[i]}
        inside = set(ring)
        real = [0] * 52
        jokers = [0] * 52
        outside = [0] * 52
        for index, meld in enumerate(layout):
            for card in meld:
                face = TABLE_FACES[card]
                if index not in inside:
                    outside[face] += 1
                elif FACES[card] == JOKER_FACE:
                    jokers[face] += 1
                else:
                    real[face] += 1
        sub = PlacementProblem(
            real=real,
            jokers=jokers,
            hand=[len(naturals.get(f, ())) for f in range(52)],
            cap=[max(0, cap - outside[f]) for f in range(52)],
            weight=problem.weight,
            hand_jokers=len(jokers_left),
            joker_weight=problem.joker_weight,
            ace_low=rules.ace_low,
            ace_high=rules.ace_high,
            min_size=rules.min_size,
            max_set=rules.max_set_size,
            old_melds=frozenset(tuple(sorted(TABLE_FACES[c] for c in layout[i])) for i in ring),
        )
        live, wild = live_hand(sub)
        if live != sub.hand or wild >= rules.min_size or wild > 2:
            continue  # some card cannot be laid in this ring
        goal = sum(sub.weight[f] * live[f] for f in range(52)) + sub.joker_weight * len(jokers_left)
        faces = [f for f in range(52) if real[f] + jokers[f] + live[f]]
        try:
            found = solve_placement(sub, faces, live, wild, goal - 1, budget=REPAIR_BUDGET)
        except SearchBudgetError:
            continue
        if found is None:
            continue
        ring_melds = [tuple(layout[i]) for i in ring]
        new, laid, gave_up, _ = _assemble(ring_melds, [(set(faces), found)], naturals, jokers_left)
        kept = [tuple(m) for i, m in enumerate(layout) if i not in inside]
        return kept + new, placed + laid, [Card(f) for f in freed] + gave_up
    return None


def _assemble(
    melds: list[tuple[Card, ...]],
    solved: list[tuple[set[int], SearchResult]],
    hand_naturals: dict[int, list[Card]],
    hand_jokers: list[Card],
) -> tuple[list[tuple[Card, ...]], list[Card], list[Card], int]:
    """Physical cards for the solved components' melds: (layout, placed hand cards,
    freed declarations, untouched old melds)."""
    result: list[tuple[Card, ...] | None] = list(melds)
    placed: list[Card] = []
    freed_faces: list[Card] = []
    appended: list[tuple[Card, ...]] = []
    kept = len(melds)
    for faces, found in solved:
        mine = [i for i, m in enumerate(melds) if m and table_face(m[0]) in faces]
        kept -= len(mine)
        # Item slots left per face, and the jokers that stay at their declaration.
        items_left = [0] * 52
        kept_left = [0] * 52
        in_mine = Counter(TABLE_FACES[c] for i in mine for c in melds[i])
        for f in faces:
            items_left[f] = in_mine[f]
        for f in range(52):
            items_left[f] += found.hand_used[f] - found.freed[f]
        table_jokers: dict[int, list[Card]] = {}
        for i in mine:
            for c in melds[i]:
                if c.is_joker:
                    table_jokers.setdefault(table_face(c), []).append(c)
        for f, at_face in table_jokers.items():
            kept_left[f] = len(at_face) - found.freed[f]
        # Old melds that a new meld reproduces stay exactly as they were.
        by_faces: dict[tuple[int, ...], list[int]] = {}
        for n, meld_faces in enumerate(found.melds):
            by_faces.setdefault(tuple(sorted(meld_faces)), []).append(n)
        kept_jokers: set[int] = set()
        matched: set[int] = set()
        matched_new: set[int] = set()
        for i in mine:
            key = tuple(sorted(table_face(c) for c in melds[i]))
            candidates = by_faces.get(key)
            if not candidates:
                continue
            need = Counter(table_face(c) for c in melds[i] if c.is_joker)
            if any(items_left[f] < 1 for f in key) or any(
                kept_left[f] < k for f, k in need.items()
            ):
                continue
            matched_new.add(candidates.pop(0))
            matched.add(i)
            for c in melds[i]:
                f = table_face(c)
                items_left[f] -= 1
                if c.is_joker:
                    kept_left[f] -= 1
                    kept_jokers.add(int(c))
        kept += len(matched)
        # Pools for the other melds: table cards, kept jokers, hand cards, wild jokers.
        pools: dict[int, list[Card]] = {}
        wild_pool: list[Card] = []
        for i in mine:
            if i in matched:
                continue
            for c in melds[i]:
                f = table_face(c)
                if not c.is_joker:
                    pools.setdefault(f, []).append(c)
        for f, at_face in table_jokers.items():
            rest = [c for c in at_face if int(c) not in kept_jokers]
            stay = kept_left[f]
            pools.setdefault(f, []).extend(rest[:stay])
            wild_pool.extend(c.physical for c in rest[stay:])
            freed_faces.extend([Card(f)] * found.freed[f])
        for f in range(52):
            if found.hand_used[f]:
                laid = hand_naturals[f][: found.hand_used[f]]
                pools.setdefault(f, []).extend(laid)
                placed.extend(laid)
        jokers_laid = hand_jokers[: found.hand_jokers_used]
        placed.extend(c.physical for c in jokers_laid)
        wild_pool.extend(c.physical for c in jokers_laid)
        leftovers: list[tuple[Card, ...]] = []
        for n, meld_faces in enumerate(found.melds):
            if n in matched_new:
                continue
            cards: list[Card] = []
            for f in meld_faces:
                # Items of a face first, then its wild slots (any split is legal).
                if items_left[f] > 0:
                    items_left[f] -= 1
                    cards.append(pools[f].pop(0))
                else:
                    cards.append(wild_pool.pop(0).declare(f))
            leftovers.append(tuple(cards))
        free = [i for i in mine if i not in matched]
        for i in free:
            result[i] = None
        _place_changed(melds, free, leftovers, result, appended, {int(c) for c in placed})
    layout = [m for m in result if m is not None] + appended
    return layout, placed, freed_faces, kept


def _place_changed(
    melds: list[tuple[Card, ...]],
    free: list[int],
    leftovers: list[tuple[Card, ...]],
    result: list[tuple[Card, ...] | None],
    appended: list[tuple[Card, ...]],
    from_hand: set[int],
) -> None:
    """A changed meld takes the place of the free old meld it shares most cards with;
    runs are shown in rank order, groups in the old meld's order, new cards last."""
    home = homes([Counter(token(c) for c in cards) for cards in leftovers], melds, free)
    for n, cards in enumerate(leftovers):
        index = home.get(n, -1)
        faces = [table_face(c) for c in cards]
        if len({f % 13 for f in faces}) == 1:
            old = melds[index] if index >= 0 else ()
            shown = group_in_old_order(cards, old, from_hand, table_face)
        else:
            high = any(f % 13 == 12 for f in faces)
            shown = tuple(sorted(cards, key=lambda c: table_face(c) % 13 or (13 if high else 0)))
        if index >= 0:
            result[index] = shown
        else:
            appended.append(shown)
