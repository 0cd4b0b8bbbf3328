"""The rank DP's problem: the part of the table it may rearrange, counted by face.

:func:`make_region` turns the melds opened (a *region*; the others stay as they are and
only limit the copies and free jokers) and the hand into a :class:`RankDpProblem`;
:func:`rings` grows the sets of melds worth opening around some faces.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from rummykit.cards import Card
from rummykit.games.carousel.layout import declared_face
from rummykit.melds import MeldRules

__all__ = [
    "NO_LIMIT",
    "RankDpProblem",
    "RankDpSolution",
    "Region",
    "make_region",
    "meld_shape",
    "rings",
]

NO_LIMIT: Final = 1 << 12
"""A copy cap that never binds (``joker_copy_limit=False``)."""


@dataclass(slots=True)
class RankDpProblem:
    """One placement problem as the rank DP sees it: per-face counts (faces 0-51)."""

    min_size: int
    max_set: int
    ace_low: bool
    ace_high: bool
    real: list[int]
    """Per face: real table cards in the open region (forced)."""
    jokers: list[int]
    """Per face: open-region table jokers declared as it."""
    real_ext: list[int]
    """Per face: real cards in locked (untouched) melds, for the freeing rule."""
    cap: list[int]
    """Per face: most items the open region may hold (copy limit)."""
    hand: list[int]
    """Per face: hand cards (optional items)."""
    hand_jokers: int
    weight: list[int]
    """Per face: score of placing one hand card of it (primary objective, scaled)."""
    joker_weight: int
    in_runs: list[int]
    """Per face: open-region table items that were in runs (tie-break: keep them there)."""
    in_groups: list[int]
    in_high: list[int]
    """Per ace: open-region table aces that were at the top of a run."""
    unit: int
    """Scale of the primary objective: scores are ``primary * unit + tie-break``."""


@dataclass(slots=True)
class RankDpSolution:
    """The best layout the rank DP found, as its choices."""

    score: int
    used: int
    freed: int
    choices: list[tuple[int, int, int, int, int, int, int, int]]
    """Per step: (rank, suit, freed x, hand cards o, wild w, run items u, group g, high h)."""


_Items = dict[int, list[tuple[Card, bool]]]


@dataclass(slots=True)
class Region:
    """The melds the solver may rearrange, with everything it needs to lay them out."""

    open_melds: list[int]
    problem: RankDpProblem
    melds: list[tuple[Card, ...]]
    """The whole table."""
    _items: tuple[_Items, _Items] | None = None

    @property
    def table_items(self) -> _Items:
        """Per natural face: open-region table cards and whether each sat in a run."""
        return self._collect()[0]

    @property
    def joker_items(self) -> _Items:
        """Per declared face: open-region table jokers and whether each sat in a run."""
        return self._collect()[1]

    def _collect(self) -> tuple[_Items, _Items]:
        # Only the region that is laid out needs its cards: collected on first use.
        if self._items is None:
            table_items: _Items = {}
            joker_items: _Items = {}
            for index in sorted(set(self.open_melds)):
                meld = self.melds[index]
                faces, jokers_at, is_run, _high = meld_shape(meld)
                for card, face, joker in zip(meld, faces, jokers_at, strict=True):
                    items = joker_items if joker else table_items
                    items.setdefault(face, []).append((card, is_run))
            self._items = (table_items, joker_items)
        return self._items


def make_region(
    melds: list[tuple[Card, ...]],
    open_melds: list[int],
    hand_real: Counter[int],
    hand_jokers: int,
    *,
    rules: MeldRules,
    decks: int,
    joker_copy_limit: bool,
    weight: list[int],
    joker_weight: int,
    unit: int,
) -> Region:
    real = [0] * 52
    jokers = [0] * 52
    real_ext = [0] * 52
    decl_ext = [0] * 52
    in_runs = [0] * 52
    in_groups = [0] * 52
    in_high = [0] * 52
    opened = set(open_melds)
    for index, meld in enumerate(melds):
        faces, jokers_at, is_run, high = meld_shape(meld)
        if index not in opened:  # a locked meld only limits the copies and the freeing
            for face, joker in zip(faces, jokers_at, strict=True):
                (decl_ext if joker else real_ext)[face] += 1
            continue
        for face, joker in zip(faces, jokers_at, strict=True):
            (jokers if joker else real)[face] += 1
            if is_run:
                in_runs[face] += 1
                if high and face % 13 == 0:
                    in_high[face] += 1
            else:
                in_groups[face] += 1
    cap = [
        max(0, decks - real_ext[f] - decl_ext[f]) if joker_copy_limit else NO_LIMIT
        for f in range(52)
    ]
    problem = RankDpProblem(
        min_size=rules.min_size,
        max_set=rules.max_set_size,
        ace_low=rules.ace_low,
        ace_high=rules.ace_high,
        real=real,
        jokers=jokers,
        real_ext=real_ext,
        cap=cap,
        hand=[hand_real[f] for f in range(52)],
        hand_jokers=hand_jokers,
        weight=weight,
        joker_weight=joker_weight,
        in_runs=in_runs,
        in_groups=in_groups,
        in_high=in_high,
        unit=unit,
    )
    return Region(open_melds, problem, melds)


MeldShape = tuple[tuple[int, ...], tuple[bool, ...], bool, bool]
_MELD_SHAPES: dict[tuple[Card, ...], MeldShape] = {}
"""Per table meld, what :func:`make_region` reads of it: a meld outlives many searches."""
_MELD_SHAPES_KEPT: Final = 100_000


def meld_shape(meld: tuple[Card, ...]) -> MeldShape:
    """The faces the cards stand for (a joker's declaration), which are jokers, whether
    the meld is a run, and whether the run counts as high for the tie-break."""
    found = _MELD_SHAPES.get(meld)
    if found is None:
        jokers_at = tuple(card.is_joker for card in meld)
        faces = tuple(
            declared_face(card, "on the table") if joker else card.face
            for card, joker in zip(meld, jokers_at, strict=True)
        )
        is_run = not _is_group(meld)
        high = is_run and any(
            int(card.declared if joker else card) % 13 >= 11  # type: ignore[arg-type]
            for card, joker in zip(meld, jokers_at, strict=True)
        )
        if len(_MELD_SHAPES) >= _MELD_SHAPES_KEPT:
            _MELD_SHAPES.clear()
        found = _MELD_SHAPES[meld] = (faces, jokers_at, is_run, high)
    return found


def _is_group(meld: Sequence[Card]) -> bool:
    """True when every card of ``meld`` (declarations for jokers) has one rank."""
    ranks = set()
    for card in meld:
        face = card.declared if card.is_joker else card
        if face is not None:
            ranks.add(int(face) % 13)
    return len(ranks) == 1


def _near_faces(faces: set[int]) -> tuple[set[int], set[tuple[int, int]]]:
    """Ranks, and (suit, rank) neighbours, a face near one of ``faces`` may have."""
    ranks: set[int] = set()
    spots: set[tuple[int, int]] = set()
    for face in faces:
        suit, rank = divmod(face, 13)
        rank += 1
        ranks.add(rank)
        for r in (rank - 1, rank, rank + 1):
            spots.add((suit, 13 if r == 0 else 1 if r == 14 else r))
    return ranks, spots


def rings(melds: list[tuple[Card, ...]], seeds: set[int], count: int) -> list[list[int]]:
    """Growing sets of melds around ``seeds``: melds with a card of a seed's rank, or of
    its suit one rank away, then the same around everything opened so far."""
    faces = set(seeds)
    opened: set[int] = set()
    grown_sets: list[list[int]] = []
    meld_faces = [set(meld_shape(m)[0]) for m in melds]
    for _ in range(count):
        ranks, spots = _near_faces(faces)
        grown = {
            i
            for i, mf in enumerate(meld_faces)
            if i in opened or any(f % 13 + 1 in ranks or (f // 13, f % 13 + 1) in spots for f in mf)
        }
        if grown == opened:
            break
        opened = grown
        grown_sets.append(sorted(opened))
        for i in opened:
            faces |= meld_faces[i]
    return grown_sets
