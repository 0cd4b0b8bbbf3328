"""The simple Carousel melds a hand can make on a table, found fast.

:class:`~rummykit.rl.carousel_table.CarouselTable` asks at every decision which lay-off
and new-meld ids (:mod:`rummykit.rl.carousel_actions`) are legal, and whether the exact
solver has a placement at all. Both questions are answered here from a few facts about
the public table, computed once per table (the engine makes a new table list at every
meld): which faces each meld takes at an end, how many copies of each face the table
shows (real cards and joker declarations) and which faces it holds. Each meld's share
of them is worked out once and kept (melds outlive many tables), and faces are bits or
bytes of an integer, so a table adds up its melds, and a hand is checked against all
faces at once, without a loop over cards in Python.

* A simple meld (natural hand cards added at a meld's end, or three as a new meld,
  the rest unchanged) breaks only one of the engine's layout rules: the copy limit,
  when a declared joker already stands for a copy of a face. :func:`simple_melds`
  checks that rule directly instead of running the whole layout check.
* :func:`could_place` is a quick *necessary* condition for any placement: a laid
  natural card ends in a set with two other cards of its rank (or jokers) or in a run
  of three with two neighbours of its suit (or jokers), counting every table card as
  available, and every table joker that a real card could free as wild (the others
  keep standing for their face). When it fails, the solver would find nothing, so it
  is not run.

>>> from rummykit.cards import parse_cards as p
>>> facts = table_facts([tuple(p("5H 6H 7H"))])
>>> sorted(facts.layoffs[0])  # 4H and 8H
[42, 46]
>>> simple_melds(facts, p("8H 9C 9D 9S"), decks=2)
[46, 87]
>>> str(simple_meld(facts, [tuple(p("5H 6H 7H"))], p("8H 9C 9D 9S"), 46))
'meld 5H 6H 7H 8H'
>>> could_place(facts, p("2C KD")), could_place(facts, p("8H"))
(False, True)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import reduce
from itertools import chain
from operator import or_
from typing import Final

from rummykit.cards import FACES, JOKER_FACE, MAX_COPIES, PHYSICAL_IDS, Card
from rummykit.games.carousel import CarouselAction
from rummykit.melds import CAROUSEL_MELDS, is_meld
from rummykit.memo import Memo
from rummykit.rl.carousel_actions import LAYOFF_BASE, MELD_CARDS, RUN_BASE, SET_BASE

__all__ = [
    "TableFacts",
    "could_place",
    "layoff_faces",
    "simple_meld",
    "simple_melds",
    "table_facts",
]


def layoff_faces(meld: Sequence[Card]) -> list[int]:
    """The natural faces that join ``meld`` as one more card at an end (a group's
    missing suits, a run's two ends), checked by the meld rule."""
    shown = [card.declared if card.is_joker else card for card in meld]
    faces = [card.face for card in shown if card is not None]
    ranks = {face % 13 for face in faces}
    suits = {face // 13 for face in faces}
    if len(ranks) == 1:  # a group: the same rank in another suit
        (rank,) = ranks
        near = [suit * 13 + rank for suit in range(4) if suit not in suits]
    else:  # a run: one step below or above, in its suit
        (suit,) = suits
        near = [suit * 13 + (rank + step) % 13 for rank in ranks for step in (-1, 1)]
        near = [face for face in dict.fromkeys(near) if face % 13 not in ranks]
    return [face for face in near if is_meld((*meld, Card(face)), CAROUSEL_MELDS)]


@dataclass(frozen=True, slots=True)
class TableFacts:
    """What the simple melds, :func:`could_place` and the observation need of one table.

    Counts per face are packed in an integer, a byte per face (face ``f`` is
    ``counts >> 8 * f & 0xFF``): a table's counts are then the sum of its melds'."""

    layoffs: tuple[frozenset[int], ...]
    """Per meld, the faces it takes at an end."""
    layoff_mask: int
    """Every face some meld takes, as bits."""
    layoff_plane: int
    """Every face some meld takes, a byte of 1 each: the observation's plane."""
    takers: Mapping[int, int]
    """Per face some meld takes, the first meld that takes it."""
    shown: int
    """Per natural face (a byte each), its real cards plus the jokers declared as it."""
    jokers: int
    """Jokers on the table."""
    declared: tuple[int, ...]
    """The face each table joker is declared as (-1: none)."""
    real_mask: int
    """The faces of the real cards on the table, as bits."""
    face_counts: int
    """Per face (a byte each, the joker's last), the table's cards: its observation plane."""
    declared_counts: int
    """Per natural face (a byte each), the table jokers declared as it."""


_KEPT: Final = 100_000
_LANE: Final = 8
"""Bits per face in a packed count (a face shows far fewer than 256 cards)."""

_MeldFacts = tuple[frozenset[int], int, int, int, int, int, int, tuple[int, ...]]
"""What one meld adds to a table's facts: its lay-off faces (as a set, as bits and as a
plane), its cards per face (jokers at face 52), its real cards and declarations per
face, its declarations per face, its real faces as bits, and its jokers' declared faces
(-1: none)."""


def _shape_layoffs(shape: tuple[int, ...]) -> frozenset[int]:
    return frozenset(layoff_faces(tuple(map(Card, shape))))


_LAYOFFS_BY_SHAPE: Final = Memo(_shape_layoffs, limit=_KEPT)
"""Lay-off faces by the meld's cards without their copy bits: the meld rule reads only
faces and joker declarations, and a new meld's shape has usually been seen before."""


def _meld_layoffs(meld: tuple[Card, ...]) -> frozenset[int]:
    return _LAYOFFS_BY_SHAPE[tuple(card - card % PHYSICAL_IDS + FACES[card] for card in meld)]


def _meld_facts(key: tuple[int, ...]) -> _MeldFacts:
    meld = tuple(map(Card, key))
    layoffs = _meld_layoffs(meld)
    mask = plane = 0
    for face in layoffs:
        mask |= 1 << face
        plane |= 1 << (_LANE * face)
    on_table = shown = declared_as = real_mask = 0
    declarations: list[int] = []
    for card in meld:
        face = FACES[card]
        on_table += 1 << (_LANE * face)
        if face == JOKER_FACE:
            declared = card // PHYSICAL_IDS  # the declared face, plus one
            declarations.append(declared - 1)
            if declared:
                shown += 1 << (_LANE * (declared - 1))
                declared_as += 1 << (_LANE * (declared - 1))
        else:
            shown += 1 << (_LANE * face)
            real_mask |= 1 << face
    return (
        layoffs,
        mask,
        plane,
        on_table,
        shown,
        declared_as,
        real_mask,
        tuple(declarations),
    )


_MELD_FACTS: Final = Memo(_meld_facts, limit=_KEPT)
"""Per meld, its facts: most melds outlive many tables (a meld changes only when a
placement touches it), so they are worked out once."""


def table_facts(table: Sequence[Sequence[Card]]) -> TableFacts:
    """The facts of a table (its melds as engine cards)."""
    try:
        melds = list(map(_MELD_FACTS.__getitem__, table))  # type: ignore[arg-type]
    except TypeError:  # melds that are not tuples
        melds = [_MELD_FACTS[tuple(meld)] for meld in table]
    if not melds:
        return _EMPTY_TABLE
    layoffs, masks, planes, on_table, shown, declared_as, real, declarations = zip(
        *melds, strict=True
    )
    declared = tuple(chain.from_iterable(declarations))
    return TableFacts(
        layoffs,
        reduce(or_, masks),
        reduce(or_, planes),
        # The first meld that takes a face is written last.
        {face: index for index in range(len(layoffs) - 1, -1, -1) for face in layoffs[index]},
        sum(shown),
        len(declared),
        declared,
        reduce(or_, real),
        sum(on_table),
        sum(declared_as),
    )


def simple_melds(
    facts: TableFacts, cards: Sequence[Card], *, decks: int, copy_limit: bool = True
) -> list[int]:
    """The legal lay-off and new-meld ids of a hand (``cards``), ascending; each id's
    layout is :func:`simple_meld`."""
    held = sum(set(map(_FACE_BIT.__getitem__, map(FACES.__getitem__, cards))))
    shown = facts.shown
    # The copy limit bites only where a declared joker already shows a copy.
    limited = copy_limit and facts.jokers > 0
    found: list[int] = []
    layoffs = held & facts.layoff_mask  # hand faces some meld takes: each at its first taker
    while layoffs:
        low = layoffs & -layoffs
        layoffs ^= low
        face = low.bit_length() - 1
        if limited and shown >> (_LANE * face) & 0xFF >= decks:
            continue
        found.append(LAYOFF_BASE + face)
    rows = [held >> (13 * suit) & _ROW for suit in range(4)]
    spade, club, diamond, heart = rows
    # The ranks held in at least three suits.
    ranks = spade & club & (diamond | heart) | diamond & heart & (spade | club)
    while ranks:
        low = ranks & -ranks
        ranks ^= low
        rank = low.bit_length() - 1
        column = (held >> rank) & _COLUMN  # the suits of this rank, 13 bits apart
        suits = [suit for suit in range(4) if column >> (13 * suit) & 1]
        for missing in range(4):
            faces3 = [suit * 13 + rank for suit in suits if suit != missing]
            if len(faces3) == 3 and not (limited and _over(shown, faces3, decks)):
                found.append(SET_BASE + 4 * rank + missing)
    for suit, row in enumerate(rows):
        if not row:
            continue
        base = suit * 13
        row |= (row & 1) << 13  # the ace again, high (Q K A)
        starts = row & (row >> 1) & (row >> 2)  # lows with the next two ranks held
        while starts:
            low = (starts & -starts).bit_length() - 1
            starts &= starts - 1
            if limited and _over(shown, (base + low, base + low + 1, base + (low + 2) % 13), decks):
                continue
            found.append(RUN_BASE + 12 * suit + low)
    return found


def simple_meld(
    facts: TableFacts, table: Sequence[tuple[Card, ...]], cards: Sequence[Card], action_id: int
) -> CarouselAction:
    """The layout of a legal lay-off or new-meld id (:func:`simple_melds`), built from
    the engine's own cards, so it needs no conversion. One card per face is used (the
    lowest id: copies are alike to the players)."""
    if action_id < SET_BASE:
        face = action_id - LAYOFF_BASE
        index = facts.takers[face]
        layout = list(table)
        layout[index] = (*table[index], _lowest(cards, face))
        return CarouselAction("meld", tuple(layout))
    meld = tuple(_lowest(cards, face) for face in MELD_CARDS[action_id])
    return CarouselAction("meld", (*table, meld))


def _lowest(cards: Sequence[Card], face: int) -> Card:
    """The hand card of ``face`` with the lowest id."""
    return min(card for card in cards if FACES[card] == face)


_ROW: Final = (1 << 13) - 1
"""The 13 ranks of one suit, as bits of a face mask."""
_COLUMN: Final = 1 | 1 << 13 | 1 << 26 | 1 << 39
"""One rank in each suit, as bits of a face mask."""


_FACE_BIT: Final = tuple(
    0 if face == JOKER_FACE else 1 << face for face in range(PHYSICAL_IDS // MAX_COPIES)
)
"""Per face, its bit in a face mask (none for the joker)."""
_EMPTY_TABLE: Final = TableFacts((), 0, 0, {}, 0, 0, (), 0, 0, 0)


def _over(shown: int, faces: Sequence[int], decks: int) -> bool:
    """Whether one more of some face would show more copies than there are decks."""
    return any(shown >> (_LANE * face) & 0xFF >= decks for face in faces)


def could_place(
    facts: TableFacts, cards: Sequence[Card], only: Iterable[Card] | None = None
) -> bool:
    """False only when no layout can lay any of ``cards`` (see the module docstring);
    a hand joker always counts as possibly placeable. With ``only``, the question is
    whether a layout can lay one of those cards (the others may help)."""
    held_faces = set(map(FACES.__getitem__, cards))
    if JOKER_FACE in held_faces:
        return True
    faces = held_faces
    if only is not None:
        faces = set(map(FACES.__getitem__, only))
        if JOKER_FACE in faces:
            return True
    held = sum(map(_FACE_BIT.__getitem__, held_faces))
    seen = facts.real_mask | held
    # A table joker changes its declaration only when freed by a real card of the face
    # it stands for (the Carousel rules, §3): without one on the table or in the
    # hand it stays that face wherever it goes, so it counts as that card, not as wild.
    present = seen
    jokers = 0
    for declared in facts.declared:
        if declared < 0 or seen >> declared & 1:
            jokers += 1
        else:
            present |= 1 << declared
    wanted = sum(map(_FACE_BIT.__getitem__, faces))
    if jokers >= 2:
        return wanted > 0  # two jokers make a set with any card
    # Per suit at once: the ranks a card of it could join as a set (with the other
    # suits' cards of its rank) or as a run (in a window of three around it).
    rows = [present >> (13 * suit) & _ROW for suit in range(4)]
    for suit, others in enumerate(_OTHER_SUITS):
        mine = wanted >> (13 * suit) & _ROW
        if not mine:
            continue
        x, y, z = rows[others[0]], rows[others[1]], rows[others[2]]
        sets = x | y | z if jokers else x & y | x & z | y & z
        row = rows[suit] | (rows[suit] & 1) << 13  # the ace again, high (Q K A)
        a, b, c = row, row >> 1, row >> 2  # bit ``low``: rank low, low + 1, low + 2
        windows = (a & b | a & c | b & c) & _LOWS if jokers else a & b & c
        runs = windows | windows << 1 | windows << 2
        if mine & (sets | runs | runs >> 13):  # the ace high counts as the ace
            return True
    return False


_OTHER_SUITS: Final = tuple(
    tuple(other for other in range(4) if other != suit) for suit in range(4)
)
_LOWS: Final = (1 << 12) - 1
"""The lowest ranks of a run of three (A to Q, for Q K A)."""
