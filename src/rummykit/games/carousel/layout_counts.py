"""The layout rule's counting rules, decided from per-meld counts packed in integers.

:func:`~rummykit.games.carousel.layout.check_layout` counts both tables by face. Most
melds of a new table were on the old one, and a meld's counts depend only on its cards,
so each meld is counted once, into one integer: per natural face a byte of real cards
and a byte of jokers declared as it, then a byte of jokers and the number of cards on
top. A table's counts are the sum of its melds', and a rule
compares all 52 faces at once: while a table holds fewer than 128 cards no byte
reaches 128, so each byte's top bit can hold the result of a comparison.

:func:`quick_counts` decides rules (a) nothing removed, (b) the cards added from the
hand, (d) jokers declared and freed, and the copy limit, for a layout that keeps all
of them; otherwise (or for unusual input) it answers ``None`` and the full check runs,
which also says which rule is broken.

>>> from rummykit.cards import format_cards, parse_cards as p
>>> new, hand, added, freed = quick_counts(
...     [tuple(p("4S JK=5S 6S"))], [tuple(p("4S 5S 6S JK=7S"))], p("5S 2D"), 2, True
... )
>>> format_cards(added), freed
('5S', [4])
>>> quick_counts([tuple(p("4S 5S 6S"))], [tuple(p("4S 5S"))], p("2D"), 2, True) is None
True
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain
from typing import Final

from rummykit.cards import CARD_IDS, FACES, JOKER_FACE, PHYSICAL_IDS, Card
from rummykit.memo import Memo

__all__ = ["quick_counts"]

_LANE: Final = 8
"""Bits per face in a packed count."""
_ONES: Final = sum(1 << (_LANE * face) for face in range(JOKER_FACE))
"""1 in the byte of every natural face."""
_FACE_BYTES: Final = _ONES * 0xFF
_HIGH: Final = _ONES << (_LANE - 1)
"""The top bit of every face's byte."""
_LOW: Final = _HIGH - _ONES
"""127 in every face's byte: adding it sets a byte's top bit iff the byte is not 0."""
_DECLARED: Final = _LANE * JOKER_FACE
"""Where the jokers' declarations start."""
_JOKERS: Final = 2 * _DECLARED
"""Where the number of jokers is."""
_CARDS: Final = _JOKERS + _LANE
"""Where the number of cards is (the top: it may grow past a byte)."""
_MOST_CARDS: Final = (1 << (_LANE - 1)) - 1
"""The most cards a table may hold for its bytes to stay below their top bit."""
_UNUSUAL: Final = (_MOST_CARDS + 1) << _CARDS
"""The counts of a meld the quick check leaves to the full one: too many cards."""
_KEPT: Final = 100_000


def _as_cards(meld: Sequence[int]) -> tuple[Card, ...]:
    if type(meld) is tuple and set(map(type, meld)) <= _CARD_TYPE:
        return meld  # a tuple of Card already
    return tuple(map(Card, meld))


_CARD_TYPE: Final = {Card}


def _count(meld: Sequence[int]) -> int:
    """The packed counts of a meld, or :data:`_UNUSUAL` for anything but ordinary
    card ids with every joker declared as a natural face."""
    if not set(map(type, meld)) <= _ID_TYPES:
        return _UNUSUAL
    try:
        return sum(map(_CARD_COUNTS.__getitem__, meld), len(meld) << _CARDS)
    except KeyError:
        return _UNUSUAL


def _card_count(card: int) -> int:
    """What a card id adds to a meld's packed counts; ``KeyError`` (nothing kept) for an
    unusual card."""
    if not 0 <= card < CARD_IDS:
        raise KeyError(card)
    face = FACES[card]
    if face == JOKER_FACE:
        code = card // PHYSICAL_IDS  # the declared face, plus one
        if not 0 < code <= JOKER_FACE:
            raise KeyError(card)
        return 1 << _JOKERS | 1 << (_DECLARED + _LANE * (code - 1))
    if face < JOKER_FACE:
        return 1 << (_LANE * face)
    raise KeyError(card)


_CARD_COUNTS: Final = Memo(_card_count, limit=CARD_IDS)
_COUNTS: Final = Memo(_count, limit=_KEPT)
"""Per meld (its card ids), its counts: melds outlive many tables."""
_MELD_CARDS: Final = Memo(_as_cards, limit=_KEPT)
"""Per meld (its card ids), its cards as :class:`Card`."""
_ID_TYPES: Final = {Card, int}


def quick_counts(
    old_table: Sequence[Sequence[int]],
    new_table: Sequence[Sequence[int]],
    hand: Sequence[int],
    decks: int,
    joker_copy_limit: bool,
) -> tuple[list[tuple[Card, ...]], list[Card], list[Card], list[int]] | None:
    """For a layout that keeps every counting rule: the new table as melds of
    :class:`Card`, the hand as cards, the hand cards the layout adds and the
    declarations it frees (unsorted), as the full check finds them. ``None`` when the
    layout may break a rule, or when its melds or ``decks`` are unusual."""
    if type(decks) is not int or not 0 <= decks <= _MOST_CARDS:
        return None
    counts = _COUNTS.__getitem__
    try:
        old = sum(map(counts, old_table))
        new_counts = sum(map(counts, new_table))
    except TypeError:  # a meld that is no tuple (or holds something unhashable)
        return None
    if old >> _CARDS > _MOST_CARDS or new_counts >> _CARDS > _MOST_CARDS:
        return None
    new_real = new_counts & _FACE_BYTES
    # (a) Nothing removed: every byte of new - old keeps its top bit.
    kept = (new_real | _HIGH) - (old & _FACE_BYTES)
    old_jokers = old >> _JOKERS & 0xFF
    new_jokers = new_counts >> _JOKERS & 0xFF
    if kept & _HIGH != _HIGH or new_jokers < old_jokers:
        return None
    new = list(map(_MELD_CARDS.__getitem__, new_table))
    hand_cards: list[Card] = (
        list(hand)  # type: ignore[arg-type]  # every card is a Card
        if set(map(type, hand)) <= _CARD_TYPE
        else list(map(Card, hand))
    )
    added = _added(new, hand_cards, kept ^ _HIGH, new_jokers - old_jokers)
    if added is None:
        return None
    new_declared = new_counts >> _DECLARED & _FACE_BYTES
    freed: list[int] = []
    if old_jokers:
        old_declared = old >> _DECLARED & _FACE_BYTES
        faces = (old_declared + _LOW) & _HIGH
        while faces:
            low = faces & -faces
            faces ^= low
            shift = low.bit_length() - _LANE
            moved_away = (old_declared >> shift & 0xFF) - (new_declared >> shift & 0xFF)
            if moved_away > 0:
                freed.extend([shift // _LANE] * moved_away)
                if moved_away > new_real >> shift & 0xFF:
                    return None
    total = new_real + new_declared if joker_copy_limit else new_real
    if (total + _LOW - decks * _ONES) & _HIGH:  # a byte above ``decks``
        return None
    return new, hand_cards, added, freed


def _added(
    new: Sequence[tuple[Card, ...]], hand: list[Card], extra: int, extra_jokers: int
) -> list[Card] | None:
    """(b) The hand cards that make up ``extra`` (per face, packed) and ``extra_jokers``:
    per face in face order the copies on the new table first, then in hand order;
    ``None`` when the hand lacks one, or nothing is added."""
    faces_held = list(map(FACES.__getitem__, hand))
    added: list[Card] = []
    new_ids: set[int] | None = None
    faces = (extra + _LOW) & _HIGH
    while faces:
        low = faces & -faces
        faces ^= low
        shift = low.bit_length() - _LANE
        count = extra >> shift & 0xFF
        face = shift // _LANE
        held = faces_held.count(face)
        if count > held:
            return None
        if held == 1:
            added.append(hand[faces_held.index(face)])
            continue
        copies = [
            card for card, held_face in zip(hand, faces_held, strict=True) if held_face == face
        ]
        if new_ids is None:
            new_ids = set(map(int, chain.from_iterable(new)))
        ids = new_ids
        copies = sorted(copies, key=lambda c: int(c) not in ids)
        added.extend(copies[:count])
    if extra_jokers:
        jokers = [
            card
            for card, held_face in zip(hand, faces_held, strict=True)
            if held_face == JOKER_FACE
        ]
        if extra_jokers > len(jokers):
            return None
        added.extend(c.physical for c in jokers[:extra_jokers])
    return added or None
