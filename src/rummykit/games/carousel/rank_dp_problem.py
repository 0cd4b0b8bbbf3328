"""The rank DP's problem: the part of the table it may rearrange, counted by face.

:func:`make_region` turns the melds opened (a *region*; the others stay as they are and
only limit the copies and free jokers) and the hand into a :class:`RankDpProblem`;
:func:`rings` grows the sets of melds worth opening around some faces.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
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
    hand_real: Mapping[int, int] | Sequence[int],
    hand_jokers: int,
    *,
    rules: MeldRules,
    decks: int,
    joker_copy_limit: bool,
    weight: list[int],
    joker_weight: int,
    unit: int,
) -> Region:
    """The problem of laying out the melds ``open_melds`` (the others locked) with a
    hand of ``hand_real`` natural cards (per face: a mapping, or 52 counts) and
    ``hand_jokers`` jokers."""
    # Per-face counts are summed as packed integers, one lane per face
    # (:func:`_meld_lanes`): a handful of integer additions per meld.
    real = jokers = real_ext = decl_ext = in_runs = in_groups = in_high = 0
    every = len(open_melds) == len(melds)
    opened = () if every else set(open_melds)
    known = _MELD_LANES
    for index, meld in enumerate(melds):
        meld_real, meld_jokers, is_run, high_aces = known.get(meld) or _meld_lanes(meld)
        if not every and index not in opened:
            # A locked meld only limits the copies and the freeing.
            real_ext += meld_real
            decl_ext += meld_jokers
            continue
        real += meld_real
        jokers += meld_jokers
        if is_run:
            in_runs += meld_real + meld_jokers
            in_high += high_aces
        else:
            in_groups += meld_real + meld_jokers
    real_ext_counts = _unpack(real_ext)
    if joker_copy_limit:
        cap = list(_bytes(real_ext + decl_ext).translate(_cap_table(decks)))
    else:
        cap = [NO_LIMIT] * 52
    hand = list(hand_real) if isinstance(hand_real, list) else [hand_real[f] for f in range(52)]
    problem = RankDpProblem(
        min_size=rules.min_size,
        max_set=rules.max_set_size,
        ace_low=rules.ace_low,
        ace_high=rules.ace_high,
        real=_unpack(real),
        jokers=_unpack(jokers),
        real_ext=real_ext_counts,
        cap=cap,
        hand=hand,
        hand_jokers=hand_jokers,
        weight=weight,
        joker_weight=joker_weight,
        in_runs=_unpack(in_runs),
        in_groups=_unpack(in_groups),
        in_high=_unpack(in_high),
        unit=unit,
    )
    return Region(open_melds, problem, melds)


_LANE_BITS: Final = 8
"""Bits per face in a packed count: a face has at most a dozen items on a table
(four decks' copies and eight jokers), far below 256."""


def _bytes(lanes: int) -> bytes:
    """The 52 per-face counts of a packed integer, one byte each."""
    return lanes.to_bytes(52, "little")


def _unpack(lanes: int) -> list[int]:
    """The 52 per-face counts of a packed integer."""
    return list(lanes.to_bytes(52, "little"))


@functools.cache
def _cap_table(decks: int) -> bytes:
    """Per count of a face's copies outside the open region, the copies it may hold."""
    return bytes(decks - n if n < decks else 0 for n in range(256))


MeldLanes = tuple[int, int, bool, int]
_MELD_LANES: dict[tuple[Card, ...], MeldLanes] = {}
_MELD_LANES_KEPT: Final = 100_000


def _meld_lanes(meld: tuple[Card, ...]) -> MeldLanes:
    """One meld's counts packed per face: real cards, jokers (at their declared faces),
    whether it is a run, and its aces when it is a run counted as high."""
    found = _MELD_LANES.get(meld)
    if found is None:
        faces, jokers_at, is_run, high = meld_shape(meld)
        real = jokers = high_aces = 0
        for face, joker in zip(faces, jokers_at, strict=True):
            lane = 1 << (_LANE_BITS * face)
            if joker:
                jokers += lane
            else:
                real += lane
            if is_run and high and face % 13 == 0:
                high_aces += lane
        if len(_MELD_LANES) >= _MELD_LANES_KEPT:
            _MELD_LANES.clear()
        found = _MELD_LANES[meld] = (real, jokers, is_run, high_aces)
    return found


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


_RANKS: Final = 0x1FFF
"""The 13 bits of one suit in a mask of faces."""
_EVERY_SUIT: Final = 1 | 1 << 13 | 1 << 26 | 1 << 39


def _near(faces: int) -> int:
    """The faces near a mask of ``faces``: every face of a rank they hold, and in their
    suit the faces one rank away (the ace and the king are neighbours too)."""
    ranks = (faces | faces >> 13 | faces >> 26 | faces >> 39) & _RANKS
    near = ranks * _EVERY_SUIT
    for shift in (0, 13, 26, 39):
        row = (faces >> shift) & _RANKS
        if row:
            turned = ((row << 1) | (row >> 12)) & _RANKS  # one rank up, K wraps to A
            turned |= (row >> 1) | ((row & 1) << 12)  # one rank down, A wraps to K
            near |= turned << shift
    return near


_FACE_MASKS: dict[tuple[Card, ...], int] = {}
"""Per table meld, the faces its cards stand for, as bits."""


def _face_mask(meld: tuple[Card, ...]) -> int:
    found = _FACE_MASKS.get(meld)
    if found is None:
        found = 0
        for face in meld_shape(meld)[0]:
            found |= 1 << face
        if len(_FACE_MASKS) >= _MELD_SHAPES_KEPT:
            _FACE_MASKS.clear()
        _FACE_MASKS[meld] = found
    return found


def rings(melds: list[tuple[Card, ...]], seeds: set[int], count: int) -> list[list[int]]:
    """Growing sets of melds around ``seeds``: melds with a card of a seed's rank, or of
    its suit one rank away, then the same around everything opened so far."""
    faces = 0
    for face in seeds:
        faces |= 1 << face
    opened: list[int] = []
    grown_sets: list[list[int]] = []
    meld_faces = [_face_mask(m) for m in melds]
    for _ in range(count):
        near = _near(faces)
        grown = [i for i, mask in enumerate(meld_faces) if mask & near]
        if len(grown) == len(opened):
            break  # faces only grow, so the opened melds are among these
        opened = grown
        grown_sets.append(opened)
        for i in opened:
            faces |= meld_faces[i]
    return grown_sets
