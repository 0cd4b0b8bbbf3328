"""The simple Carousel melds a hand can make on a table, found fast.

:class:`~rummykit.rl.carousel_table.CarouselTable` asks at every decision which lay-off
and new-meld ids (:mod:`rummykit.rl.carousel_actions`) are legal, and whether the exact
solver has a placement at all. Both questions are answered here from a few facts about
the public table, computed once per table (the engine makes a new table list at every
meld): which faces each meld takes at an end, how many copies of each face the table
shows (real cards and joker declarations) and which ranks and suits it holds.

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
>>> sorted(simple_melds(facts, [tuple(p("5H 6H 7H"))], p("8H 9C 9D 9S"), decks=2))
[46, 87]
>>> could_place(facts, p("2C KD")), could_place(facts, p("8H"))
(False, True)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from rummykit.cards import FACES, JOKER_FACE, PHYSICAL_IDS, Card
from rummykit.games.carousel import CarouselAction
from rummykit.melds import CAROUSEL_MELDS, is_meld
from rummykit.rl.carousel_actions import LAYOFF_BASE, RUN_BASE, SET_BASE

__all__ = ["TableFacts", "could_place", "layoff_faces", "simple_melds", "table_facts"]


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
    """What the simple melds, :func:`could_place` and the observation need of one table."""

    layoffs: tuple[frozenset[int], ...]
    """Per meld, the faces it takes at an end."""
    layoff_mask: int
    """Every face some meld takes, as bits."""
    takers: tuple[int, ...]
    """Per natural face, the first meld that takes it (-1: none)."""
    shown: tuple[int, ...]
    """Per natural face, its real cards plus the jokers declared as it."""
    jokers: int
    """Jokers on the table."""
    declared: tuple[int, ...]
    """The face each table joker is declared as (-1: none)."""
    suits_of_rank: tuple[int, ...]
    """Per rank, the suits of its real cards on the table (bits)."""
    ranks_of_suit: tuple[int, ...]
    """Per suit, the ranks of its real cards on the table (bits)."""
    face_counts: bytes
    """Per face (the joker's last), the table's cards: its observation plane."""
    declared_counts: bytes
    """Per natural face, the table jokers declared as it."""


_LAYOFFS: dict[tuple[int, ...], frozenset[int]] = {}
"""Lay-off faces by meld: most melds outlive many tables (a meld changes only when a
placement touches it), so they are checked once."""
_LAYOFFS_BY_SHAPE: dict[tuple[int, ...], frozenset[int]] = {}
"""Lay-off faces by the meld's cards without their copy bits: the meld rule reads only
faces and joker declarations, and a new meld's shape has usually been seen before."""
_LAYOFFS_KEPT: Final = 100_000


def _meld_layoffs(meld: Sequence[Card]) -> frozenset[int]:
    key = tuple(meld)
    found = _LAYOFFS.get(key)
    if found is None:
        shape = tuple(card - card % PHYSICAL_IDS + FACES[card] for card in key)
        found = _LAYOFFS_BY_SHAPE.get(shape)
        if found is None:
            if len(_LAYOFFS_BY_SHAPE) >= _LAYOFFS_KEPT:
                _LAYOFFS_BY_SHAPE.clear()
            found = _LAYOFFS_BY_SHAPE[shape] = frozenset(layoff_faces(meld))
        if len(_LAYOFFS) >= _LAYOFFS_KEPT:
            _LAYOFFS.clear()
        _LAYOFFS[key] = found
    return found


def table_facts(table: Sequence[Sequence[Card]]) -> TableFacts:
    """The facts of a table (its melds as engine cards)."""
    layoffs = tuple([_meld_layoffs(meld) for meld in table])
    mask = 0
    takers = [-1] * JOKER_FACE
    for index, faces in enumerate(layoffs):
        for face in faces:
            if takers[face] < 0:
                mask |= 1 << face
                takers[face] = index
    on_table = shown = declared_as = real_mask = 0
    jokers = 0
    declarations: list[int] = []
    for meld in table:
        meld_table, meld_shown, meld_declared, meld_real, meld_declarations = _meld_counts(meld)
        on_table += meld_table
        shown += meld_shown
        declared_as += meld_declared
        real_mask |= meld_real
        if meld_declarations:
            jokers += len(meld_declarations)
            declarations.extend(meld_declarations)
    ranks = tuple((real_mask >> (13 * suit)) & _ROW for suit in range(4))
    # Per rank, the suits holding it: the bit of suit s sits 12 * s places above bit s.
    suits = tuple(
        (real_mask >> rank & 1)
        | (real_mask >> (12 + rank) & 2)
        | (real_mask >> (24 + rank) & 4)
        | (real_mask >> (36 + rank) & 8)
        for rank in range(13)
    )
    return TableFacts(
        layoffs,
        mask,
        tuple(takers),
        tuple(shown.to_bytes(JOKER_FACE, "little")),
        jokers,
        tuple(declarations),
        suits,
        ranks,
        on_table.to_bytes(JOKER_FACE + 1, "little"),
        declared_as.to_bytes(JOKER_FACE, "little"),
    )


_MeldCounts = tuple[int, int, int, int, tuple[int, ...]]
_MELD_COUNTS: dict[tuple[int, ...], _MeldCounts] = {}
"""Per meld, what it adds to a table's facts: melds outlive many tables."""
_LANE: Final = 8
"""Bits per face in a packed count (a face shows far fewer than 256 cards)."""


def _meld_counts(meld: Sequence[Card]) -> _MeldCounts:
    """One meld's cards counted per face, packed one byte a face: (cards, incl. jokers
    at face 52; real cards and declarations; declarations), its real faces as bits, and
    its jokers' declared faces (-1: none)."""
    key = tuple(meld)
    found = _MELD_COUNTS.get(key)
    if found is None:
        on_table = shown = declared_as = real_mask = 0
        declarations: list[int] = []
        for card in key:
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
        if len(_MELD_COUNTS) >= _LAYOFFS_KEPT:
            _MELD_COUNTS.clear()
        found = _MELD_COUNTS[key] = (on_table, shown, declared_as, real_mask, tuple(declarations))
    return found


def simple_melds(
    facts: TableFacts,
    table: Sequence[tuple[Card, ...]],
    cards: Sequence[Card],
    *,
    decks: int,
    copy_limit: bool = True,
) -> dict[int, CarouselAction]:
    """The legal lay-off and new-meld ids of a hand (``cards``), each with its layout.

    One card per face is used (the lowest id: copies are alike to the players). The
    layouts are built from the engine's own cards (``table`` and ``cards`` hold
    :class:`~rummykit.cards.Card`), so they need no conversion."""
    by_face: dict[int, Card] = {}
    held = 0  # the hand's natural faces, as bits
    faces_of = FACES
    for card in sorted(cards):
        face = faces_of[card]
        if face != JOKER_FACE and face not in by_face:
            by_face[face] = card
            held |= 1 << face
    shown = facts.shown
    # The copy limit bites only where a declared joker already shows a copy.
    limited = copy_limit and facts.jokers > 0
    found: dict[int, CarouselAction] = {}
    layoffs = held & facts.layoff_mask  # hand faces some meld takes: each at its first taker
    while layoffs:
        low = layoffs & -layoffs
        layoffs ^= low
        face = low.bit_length() - 1
        if limited and shown[face] + 1 > decks:
            continue
        index = facts.takers[face]
        layout = list(table)
        layout[index] = (*table[index], by_face[face])
        found[LAYOFF_BASE + face] = CarouselAction("meld", tuple(layout))
    for rank in range(13):
        column = (held >> rank) & _COLUMN  # the suits of this rank, 13 bits apart
        if column.bit_count() < 3:
            continue
        suits = [suit for suit in range(4) if column >> (13 * suit) & 1]
        for missing in range(4):
            faces3 = [suit * 13 + rank for suit in suits if suit != missing]
            if len(faces3) == 3 and not (limited and _over(shown, faces3, decks)):
                meld = tuple(by_face[face] for face in faces3)
                found[SET_BASE + 4 * rank + missing] = CarouselAction("meld", (*table, meld))
    for suit in range(4):
        base = suit * 13
        row = (held >> base) & _ROW
        row |= (row & 1) << 13  # the ace again, high (Q K A)
        starts = row & (row >> 1) & (row >> 2)  # lows with the next two ranks held
        while starts:
            low = (starts & -starts).bit_length() - 1
            starts &= starts - 1
            faces3 = [base + low, base + low + 1, base + (low + 2) % 13]
            if limited and _over(shown, faces3, decks):
                continue
            meld = tuple(by_face[face] for face in faces3)
            found[RUN_BASE + 12 * suit + low] = CarouselAction("meld", (*table, meld))
    return found


_ROW: Final = (1 << 13) - 1
"""The 13 ranks of one suit, as bits of a face mask."""
_COLUMN: Final = 1 | 1 << 13 | 1 << 26 | 1 << 39
"""One rank in each suit, as bits of a face mask."""


def _over(shown: Sequence[int], faces: Sequence[int], decks: int) -> bool:
    return any(shown[face] + 1 > decks for face in faces)


def could_place(
    facts: TableFacts, cards: Sequence[Card], only: Iterable[Card] | None = None
) -> bool:
    """False only when no layout can lay any of ``cards`` (see the module docstring);
    a hand joker always counts as possibly placeable. With ``only``, the question is
    whether a layout can lay one of those cards (the others may help)."""
    suits = list(facts.suits_of_rank)
    ranks = list(facts.ranks_of_suit)
    faces = set()
    for card in cards:
        face = FACES[card]
        if face == JOKER_FACE:
            return True
        faces.add(face)
        suits[face % 13] |= 1 << (face // 13)
        ranks[face // 13] |= 1 << (face % 13)
    if only is not None:
        faces = {FACES[card] for card in only}
        if JOKER_FACE in faces:
            return True
    # A table joker changes its declaration only when freed by a real card of the face
    # it stands for (the Carousel rules, §3): without one on the table or in the
    # hand it stays that face wherever it goes, so it counts as that card, not as wild.
    jokers = 0
    hand_faces = {FACES[card] for card in cards}
    for declared in facts.declared:
        if (
            declared < 0
            or declared in hand_faces
            or facts.ranks_of_suit[declared // 13] >> (declared % 13) & 1
        ):
            jokers += 1
        else:
            suits[declared % 13] |= 1 << (declared // 13)
            ranks[declared // 13] |= 1 << (declared % 13)
    for face in faces:
        rank, suit = face % 13, face // 13
        if (suits[rank] & ~(1 << suit)).bit_count() + jokers >= 2:
            return True
        row = ranks[suit]
        row |= (row & 1) << 13  # the ace again, high (Q K A), at position 13
        for position in (rank, 13) if rank == 0 else (rank,):
            for low in range(max(position - 2, 0), min(position, 11) + 1):
                if 3 - ((row >> low) & 7).bit_count() <= jokers:
                    return True
    return False
