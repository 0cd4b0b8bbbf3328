"""Card planes counted by face, as the games with jokers and several decks encode them.

Rami and Carousel show cards by **face** (53 values: the natural faces, then the joker),
and every plane holds counts below 256. The planes of one observation are therefore one
integer, a byte per value: counting a hand in a plane adds the units of its faces at
the plane's byte offset (one ``sum(map(...))``, no loop over cards in Python), and the
integer turns into ``float32`` once. The ``unknown`` plane starts as the whole pack;
every card a seat sees somewhere is counted in its plane and taken off ``unknown``.

>>> planes = FacePlanes(unknown=4, pack=pack_counts([2, 2, 2, 1]))
>>> planes.seen(0, [0, 2])
>>> planes.mark(4, 0b1000)
>>> planes.array(8, [0.5]).tolist()
[1.0, 0.0, 1.0, 0.0, 1.0, 2.0, 1.0, 2.0, 0.5]
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

import numpy as np
import numpy.typing as npt

from rummykit.cards import FACES

__all__ = ["FacePlanes", "face_counts", "pack_counts", "seat_pads"]

_LANE: Final = 8
"""Bits per value: a byte."""
_UNITS: Final = tuple(1 << (_LANE * face) for face in range(max(FACES) + 1))
_CARD_UNITS: Final = tuple(map(_UNITS.__getitem__, FACES))
"""Per card id, 1 in the byte of its face."""
_FLOAT32: Final = np.dtype(np.float32)
_UINT8: Final = np.dtype(np.uint8)


def seat_pads(max_seats: int) -> tuple[tuple[float, ...], ...]:
    """Per number of players, the zeros that fill a per-seat scalar up to ``max_seats``."""
    return tuple((0.0,) * (max_seats - players) for players in range(max_seats + 1))


def face_counts(cards: Iterable[int]) -> int:
    """The copies of each face among ``cards``, packed (a byte per face)."""
    return sum(map(_CARD_UNITS.__getitem__, cards))


def pack_counts(counts: Iterable[int]) -> int:
    """Counts per face (each below 256), packed (a byte per face)."""
    return int.from_bytes(bytes(counts), "little")


def _flags(mask: int) -> int:
    """A face bitmask as packed counts: 1 for each face whose bit is set."""
    packed = 0
    while mask:
        low = mask & -mask
        packed += _UNITS[low.bit_length() - 1]
        mask ^= low
    return packed


class FacePlanes:
    """The card planes of one observation, counted by face, packed in an integer."""

    __slots__ = ("_pack", "_seen", "_unknown", "packed")

    def __init__(self, *, unknown: int, pack: int) -> None:
        """The plane at value ``unknown`` starts as ``pack`` (packed counts)."""
        self._unknown = _LANE * unknown
        self._pack = pack
        self._seen = 0
        self.packed = 0
        """The planes but ``unknown``, which :meth:`array` adds."""

    def seen(self, start: int, cards: Iterable[int]) -> None:
        """Count ``cards`` in the plane at ``start``: their place is known."""
        self.seen_counts(start, sum(map(_CARD_UNITS.__getitem__, cards)))

    def seen_counts(self, start: int, counts: int) -> None:
        """:meth:`seen` for cards already counted (:func:`face_counts`)."""
        self.packed += counts << _LANE * start
        self._seen += counts

    def add(self, start: int, counts: int) -> None:
        """Add packed ``counts`` to the plane at ``start`` (``unknown`` unchanged)."""
        self.packed += counts << _LANE * start

    def mark(self, start: int, mask: int) -> None:
        """Set to 1 the faces of the plane at ``start`` whose bits ``mask`` has (a
        plane nothing else writes)."""
        self.packed += _flags(mask) << _LANE * start

    def merge(self, other: FacePlanes) -> None:
        """Add the planes and the cards seen of ``other`` (a part of the cards seen,
        kept while it does not change; its pack is ignored)."""
        self.packed += other.packed
        self._seen += other._seen

    def array(self, size: int, scalars: list[float]) -> npt.NDArray[np.float32]:
        """The observation array: ``size`` values of planes, then ``scalars``."""
        packed = self.packed + ((self._pack - self._seen) << self._unknown)
        out = np.empty(size + len(scalars), dtype=_FLOAT32)
        out[:size] = np.frombuffer(packed.to_bytes(size, "little"), dtype=_UINT8)
        out[size:] = scalars
        return out
