"""The rank DP's problem: the part of the table it may rearrange, counted by face.

:meth:`Regions.region` turns the melds opened (a *region*; the others stay as they are
and only limit the copies and free jokers) and the hand into a :class:`RankDpProblem`;
:func:`rings` grows the sets of melds worth opening around some faces. The solver builds
several regions of one table for one hand: :class:`Regions` counts what they share once
(and a table's counts are kept while it is met again).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from rummykit.cards import JOKER_FACE, MAX_COPIES, PHYSICAL_IDS, Card
from rummykit.games.carousel.layout import declared_face
from rummykit.melds import MeldRules

__all__ = [
    "NO_LIMIT",
    "RankDpProblem",
    "RankDpSolution",
    "Region",
    "Regions",
    "TableCounts",
    "meld_shape",
    "rings",
    "table_counts",
]

NO_LIMIT: Final = 1 << 12
"""A copy cap that never binds (``joker_copy_limit=False``)."""


@dataclass(slots=True)
class RankDpProblem:
    """One placement problem as the rank DP sees it: per-face counts (faces 0-51). The
    table's counts are small: :class:`Regions` gives them as bytes, which the compiled
    DP reads without converting 52 Python ints each."""

    min_size: int
    max_set: int
    ace_low: bool
    ace_high: bool
    real: Sequence[int]
    """Per face: real table cards in the open region (forced)."""
    jokers: Sequence[int]
    """Per face: open-region table jokers declared as it."""
    real_ext: Sequence[int]
    """Per face: real cards in locked (untouched) melds, for the freeing rule."""
    cap: Sequence[int]
    """Per face: most items the open region may hold (copy limit)."""
    hand: list[int]
    """Per face: hand cards (optional items)."""
    hand_jokers: int
    weight: list[int]
    """Per face: score of placing one hand card of it (primary objective, scaled)."""
    joker_weight: int
    in_runs: Sequence[int]
    """Per face: open-region table items that were in runs (tie-break: keep them there)."""
    in_groups: Sequence[int]
    in_high: Sequence[int]
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
    order: list[int]
    """The order in which the DP best visits the suits
    (:func:`~rummykit.games.carousel.rank_dp_select.suit_order`)."""
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
            melds = self.melds
            for index in sorted(set(self.open_melds)):
                real_pairs, joker_pairs = _meld_items(melds[index])
                for face, item in real_pairs:
                    found = table_items.get(face)
                    if found is None:
                        table_items[face] = [item]
                    else:
                        found.append(item)
                for face, item in joker_pairs:
                    found = joker_items.get(face)
                    if found is None:
                        joker_items[face] = [item]
                    else:
                        found.append(item)
            self._items = (table_items, joker_items)
        return self._items


_Pair = tuple[int, tuple[Card, bool]]
_MeldItems = tuple[tuple[_Pair, ...], tuple[_Pair, ...]]
_MELD_ITEMS: dict[tuple[Card, ...], _MeldItems] = {}
"""Per table meld, its cards as :class:`Region` collects them."""
_MELD_ITEMS_KEPT: Final = 100_000


def _meld_items(meld: tuple[Card, ...]) -> _MeldItems:
    """A meld's real cards and its jokers, each as (face, (card, whether in a run))."""
    found = _MELD_ITEMS.get(meld)
    if found is None:
        faces, jokers_at, is_run, _high = meld_shape(meld)
        real_pairs: list[_Pair] = []
        joker_pairs: list[_Pair] = []
        for card, face, joker in zip(meld, faces, jokers_at, strict=True):
            (joker_pairs if joker else real_pairs).append((face, (card, is_run)))
        if len(_MELD_ITEMS) >= _MELD_ITEMS_KEPT:
            _MELD_ITEMS.clear()
        found = _MELD_ITEMS[meld] = (tuple(real_pairs), tuple(joker_pairs))
    return found


class Regions:
    """The regions of one table for one hand (:meth:`region`, :meth:`rings`): what they
    all share (the table's counts, the hand's) is counted once. The hand is
    ``hand_real`` natural cards (per face: a mapping, or 52 counts) and ``hand_jokers``
    jokers; ``counts``: the table's :func:`table_counts`, when the caller has them."""

    __slots__ = (
        "_cap_table",
        "_hand",
        "_hand_jokers",
        "_hand_suits",
        "_joker_weight",
        "_limit",
        "_rules",
        "_table",
        "_unit",
        "_weight",
        "melds",
    )

    def __init__(
        self,
        melds: list[tuple[Card, ...]],
        hand_real: Mapping[int, int] | Sequence[int],
        hand_jokers: int,
        *,
        rules: MeldRules,
        decks: int,
        joker_copy_limit: bool,
        weight: list[int],
        joker_weight: int,
        unit: int,
        counts: TableCounts | None = None,
    ) -> None:
        self.melds = melds
        self._table = table_counts(melds) if counts is None else counts
        hand = list(hand_real) if isinstance(hand_real, list) else [hand_real[f] for f in range(52)]
        self._hand = hand
        self._hand_jokers = hand_jokers
        self._hand_suits = (
            -sum(hand[0:13]),
            -sum(hand[13:26]),
            -sum(hand[26:39]),
            -sum(hand[39:52]),
        )
        self._rules = rules
        self._limit = joker_copy_limit
        self._cap_table = _cap_table(decks)
        self._weight = weight
        self._joker_weight = joker_weight
        self._unit = unit

    @property
    def items(self) -> int:
        """The cards on the table."""
        return self._table.items

    def size(self, open_melds: list[int]) -> int:
        """The cards in the melds ``open_melds``."""
        sizes = self._table.sizes
        return sum([sizes[i] for i in open_melds])

    def rings(self, seeds: int, count: int) -> Iterator[list[int]]:
        """:func:`rings` around the faces of the mask ``seeds``, each grown when asked for."""
        return _rings(self._table.masks, seeds, count)

    def region(self, open_melds: list[int]) -> Region:
        """The problem of laying out the melds ``open_melds`` with the hand, the other
        melds locked."""
        table = self._table
        if len(open_melds) == len(table.parts):
            real, jokers, in_runs, in_groups, in_high = table.every
            real_ext = _ZEROS
            ext = 0
            suits = table.suit_items
        else:
            # Per-face counts are summed as packed integers, one lane per face
            # (:func:`_meld_parts`): a handful of integer additions per meld.
            packed_real = packed_jokers = runs = groups = high = 0
            parts = table.parts
            for index in set(open_melds):
                meld_real, meld_jokers, meld_runs, meld_groups, meld_high, _mask = parts[index]
                packed_real += meld_real
                packed_jokers += meld_jokers
                runs += meld_runs
                groups += meld_groups
                high += meld_high
            # A locked meld only limits the copies and the freeing.
            real_ext = _bytes(table.real - packed_real)
            ext = table.real + table.jokers - packed_real - packed_jokers
            open_items = _bytes(packed_real + packed_jokers)
            suits = _suit_sums(open_items)
            real = _bytes(packed_real)
            jokers = _bytes(packed_jokers)
            in_runs = _bytes(runs)
            in_groups = _bytes(groups)
            in_high = _bytes(high)
        cap = _bytes(ext).translate(self._cap_table) if self._limit else _NO_CAPS
        rules = self._rules
        problem = RankDpProblem(
            min_size=rules.min_size,
            max_set=rules.max_set_size,
            ace_low=rules.ace_low,
            ace_high=rules.ace_high,
            real=real,
            jokers=jokers,
            real_ext=real_ext,
            cap=cap,
            hand=self._hand,
            hand_jokers=self._hand_jokers,
            weight=self._weight,
            joker_weight=self._joker_weight,
            in_runs=in_runs,
            in_groups=in_groups,
            in_high=in_high,
            unit=self._unit,
        )
        # suit_order's keys: the suit's items, then its hand cards (negated), then the suit.
        hand = self._hand_suits
        keys = sorted(
            [
                (suits[0], hand[0], 0),
                (suits[1], hand[1], 1),
                (suits[2], hand[2], 2),
                (suits[3], hand[3], 3),
            ]
        )
        order = [keys[0][2], keys[1][2], keys[2][2], keys[3][2]]
        return Region(open_melds, problem, self.melds, order)


_LANE_BITS: Final = 8
"""Bits per face in a packed count: a face has at most a dozen items on a table
(four decks' copies and eight jokers), far below 256."""


def _bytes(lanes: int) -> bytes:
    """The 52 per-face counts of a packed integer, one byte each."""
    return lanes.to_bytes(52, "little")


@functools.cache
def _cap_table(decks: int) -> bytes:
    """Per count of a face's copies outside the open region, the copies it may hold."""
    return bytes(decks - n if n < decks else 0 for n in range(256))


MeldParts = tuple[int, int, int, int, int, int]
_MELD_PARTS: dict[tuple[Card, ...], MeldParts] = {}
_MELD_PARTS_KEPT: Final = 100_000


def _meld_parts(meld: tuple[Card, ...]) -> MeldParts:
    """One meld's counts packed per face: real cards, jokers (at their declared faces),
    its items when it is a run, its items when it is a group, its aces when it is a run
    counted as high; and the faces its cards stand for, as bits."""
    found = _MELD_PARTS.get(meld)
    if found is None:
        faces, jokers_at, is_run, high = meld_shape(meld)
        real = jokers = high_aces = mask = 0
        for face, joker in zip(faces, jokers_at, strict=True):
            lane = 1 << (_LANE_BITS * face)
            if joker:
                jokers += lane
            else:
                real += lane
            if is_run and high and face % 13 == 0:
                high_aces += lane
            mask |= 1 << face
        items = real + jokers
        if len(_MELD_PARTS) >= _MELD_PARTS_KEPT:
            _MELD_PARTS.clear()
        found = _MELD_PARTS[meld] = (
            real,
            jokers,
            items if is_run else 0,
            0 if is_run else items,
            high_aces,
            mask,
        )
    return found


@dataclass(slots=True)
class TableCounts:
    """What every region of one table shares (see :class:`Regions`)."""

    parts: list[MeldParts]
    """Per meld, :func:`_meld_parts`."""
    masks: list[int]
    """Per meld, the faces its cards stand for, as bits."""
    sizes: list[int]
    """Per meld, its cards."""
    items: int
    """The cards on the table."""
    real: int
    """Real cards per face, packed (:func:`_meld_parts`)."""
    jokers: int
    """Jokers per declared face, packed."""
    every: tuple[bytes, bytes, bytes, bytes, bytes]
    """With every meld open: the problem's real, jokers, in_runs, in_groups and in_high
    (shared by every such problem)."""
    suit_items: tuple[int, int, int, int]
    """With every meld open: per suit, the items (real and jokers)."""
    joker_count: int
    """The jokers on the table."""


_TABLES: dict[tuple[tuple[Card, ...], ...], TableCounts] = {}
"""Per table, its counts: the solver and the placement test meet a table many times
(every seat's turn until someone melds)."""
_TABLES_KEPT: Final = 8


def table_counts(melds: list[tuple[Card, ...]]) -> TableCounts:
    """A table's counts (:class:`TableCounts`). Raises InvalidMeldError for a table
    joker without a declaration."""
    key = tuple(melds)
    found = _TABLES.get(key)
    if found is None:
        parts = [_meld_parts(meld) for meld in melds]
        real = jokers = runs = groups = high = 0
        for meld_real, meld_jokers, meld_runs, meld_groups, meld_high, _mask in parts:
            real += meld_real
            jokers += meld_jokers
            runs += meld_runs
            groups += meld_groups
            high += meld_high
        found = TableCounts(
            parts=parts,
            masks=[part[5] for part in parts],
            sizes=[len(meld) for meld in melds],
            items=sum(len(meld) for meld in melds),
            real=real,
            jokers=jokers,
            every=(_bytes(real), _bytes(jokers), _bytes(runs), _bytes(groups), _bytes(high)),
            suit_items=_suit_sums(_bytes(real + jokers)),
            joker_count=sum(_bytes(jokers)),
        )
        if len(_TABLES) >= _TABLES_KEPT:
            _TABLES.clear()
        _TABLES[key] = found
    return found


def _suit_sums(counts: bytes) -> tuple[int, int, int, int]:
    """Per suit, the sum of 52 per-face counts."""
    return (sum(counts[0:13]), sum(counts[13:26]), sum(counts[26:39]), sum(counts[39:52]))


_ZEROS: Final = bytes(52)
"""Per face, nothing."""
_NO_CAPS: Final = [NO_LIMIT] * 52
"""Per face, a cap that never binds (shared: the solver never changes a problem's lists)."""


MeldShape = tuple[tuple[int, ...], tuple[bool, ...], bool, bool]
_MELD_SHAPES: dict[tuple[Card, ...], MeldShape] = {}
"""Per table meld, what :meth:`Regions.region` reads of it: a meld outlives many searches."""
_MELD_SHAPES_KEPT: Final = 100_000


def meld_shape(meld: tuple[Card, ...]) -> MeldShape:
    """The faces the cards stand for (a joker's declaration), which are jokers, whether
    the meld is a run, and whether the run counts as high for the tie-break."""
    found = _MELD_SHAPES.get(meld)
    if found is None:
        # Read from the ids (see rummykit.cards): a joker's declaration is the id of the
        # natural card it stands for, plus one, above the physical bits. The run and
        # high tests read ranks as ``id % 13`` of that natural card or of the card.
        faces: list[int] = []
        jokers_at: list[bool] = []
        ranks = set()
        for card in meld:
            if card & _FACE_MASK == JOKER_FACE:
                code = card >> _DECLARED_SHIFT
                if not code:
                    declared_face(card, "on the table")  # raises: no declaration
                natural = code - 1
                faces.append(natural)
                jokers_at.append(True)
            else:
                natural = int(card)
                faces.append(natural & _FACE_MASK)
                jokers_at.append(False)
            ranks.add(natural % 13)
        is_run = len(ranks) != 1
        high = is_run and max(ranks, default=0) >= 11
        if len(_MELD_SHAPES) >= _MELD_SHAPES_KEPT:
            _MELD_SHAPES.clear()
        found = _MELD_SHAPES[meld] = (tuple(faces), tuple(jokers_at), is_run, high)
    return found


_FACE_MASK: Final = PHYSICAL_IDS // MAX_COPIES - 1
"""The face bits of a card id (:func:`~rummykit.cards.face_of` without a call)."""
_DECLARED_SHIFT: Final = (PHYSICAL_IDS - 1).bit_length()
"""Where a card id's joker declaration starts (:attr:`~rummykit.cards.Card.declared`)."""


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


def rings(melds: list[tuple[Card, ...]], seeds: set[int], count: int) -> list[list[int]]:
    """Growing sets of melds around ``seeds``: melds with a card of a seed's rank, or of
    its suit one rank away, then the same around everything opened so far."""
    faces = 0
    for face in seeds:
        faces |= 1 << face
    return list(_rings(table_counts(melds).masks, faces, count))


def _rings(meld_faces: list[int], faces: int, count: int) -> Iterator[list[int]]:
    """:func:`rings` of melds with the faces ``meld_faces`` (bits) around the faces ``faces``."""
    opened: list[int] = []
    for _ in range(count):
        near = _near(faces)
        grown = [i for i, mask in enumerate(meld_faces) if mask & near]
        if len(grown) == len(opened):
            return  # faces only grow, so the opened melds are among these
        opened = grown
        yield opened
        for i in opened:
            faces |= meld_faces[i]
