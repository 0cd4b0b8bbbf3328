"""Card planes counted by face, as the games with jokers and several decks encode them.

Rami and Carousel show cards by **face** (53 values: the natural faces, then the joker),
and every plane holds counts below 256. A plane is therefore one integer, a byte per
face: counting cards in it adds the units of their faces (one ``sum(map(...))``, no
loop over cards in Python), and the planes turn into ``float32`` once, through their
bytes. The ``unknown`` plane starts as the whole pack; every card a seat sees somewhere
is counted in its plane and taken off ``unknown``.

>>> planes = FacePlanes(2, unknown=1, pack=pack_counts([2, 2, 2, 1] + [0] * 49))
>>> planes.seen(0, [0, 2])
>>> planes.array(b"").tolist()[:4], planes.array(b"").tolist()[53:57]
([1.0, 0.0, 1.0, 0.0], [1.0, 2.0, 1.0, 1.0])
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

import numpy as np
import numpy.typing as npt

from rummykit.cards import FACES, JOKER_FACE
from rummykit.memo import Memo

__all__ = ["FacePlanes", "face_counts", "flag_counts", "pack_counts", "seat_pads", "seat_zeros"]

_PLANE_SIZE: Final = JOKER_FACE + 1
_LANE: Final = 8
"""Bits per face: a byte."""
_UNITS: Final = tuple(1 << (_LANE * face) for face in range(max(FACES) + 1))
"""Per face (and per value the face bits of a card id can take), 1 in its byte."""
_CARD_UNITS: Final = tuple(map(_UNITS.__getitem__, FACES))
"""Per card id, 1 in the byte of its face."""
_FLOAT32: Final = np.dtype(np.float32)
_UINT8: Final = np.dtype(np.uint8)


def seat_pads(max_seats: int) -> tuple[tuple[float, ...], ...]:
    """Per number of players, the zeros that fill a per-seat scalar up to ``max_seats``."""
    return tuple((0.0,) * (max_seats - players) for players in range(max_seats + 1))


def seat_zeros(max_seats: int) -> tuple[tuple[float, ...], ...]:
    """Per number of players, a zero per seat (a per-seat scalar with nothing to show)."""
    return tuple((0.0,) * players for players in range(max_seats + 1))


def face_counts(cards: Iterable[int]) -> int:
    """The copies of each face among ``cards``, as a plane (a byte per face)."""
    return sum(map(_CARD_UNITS.__getitem__, cards))


def pack_counts(counts: Iterable[int]) -> int:
    """Counts per face (each below 256) as a plane."""
    return int.from_bytes(bytes(counts), "little")


def flag_counts(mask: int) -> int:
    """A face bitmask as a plane: 1 for each face whose bit is set."""
    plane = 0
    while mask:
        low = mask & -mask
        plane += _UNITS[low.bit_length() - 1]
        mask ^= low
    return plane


_PLANE_BYTES: Final[Memo[int, bytes]] = Memo(
    lambda plane: plane.to_bytes(_PLANE_SIZE, "little"), limit=4096
)
"""The bytes of a plane: most planes (the empty ones, the table's, a hand between two
phases) recur from one observation to the next."""


class FacePlanes:
    """The card planes of one observation, counted by face."""

    __slots__ = ("_pack", "_seen", "_unknown", "planes")

    def __init__(self, count: int, *, unknown: int, pack: int) -> None:
        """``count`` planes; plane ``unknown`` starts as ``pack`` (a plane)."""
        self.planes = [0] * count
        """Per plane, its counts (a byte per face), ``unknown`` apart."""
        self._unknown = unknown
        self._pack = pack
        self._seen = 0

    def copy(self, *, pack: int) -> FacePlanes:
        """These planes, to count more in them, with ``unknown`` starting as ``pack``
        (a part that several observations share, such as the table)."""
        other = FacePlanes.__new__(FacePlanes)
        other.planes = self.planes.copy()
        other._unknown = self._unknown
        other._pack = pack
        other._seen = self._seen
        return other

    def seen(self, plane: int, cards: Iterable[int]) -> None:
        """Count ``cards`` in ``plane``: their place is known."""
        counts = sum(map(_CARD_UNITS.__getitem__, cards))
        self.planes[plane] += counts
        self._seen += counts

    def seen_counts(self, plane: int, counts: int) -> None:
        """:meth:`seen` for cards already counted (:func:`face_counts`)."""
        self.planes[plane] += counts
        self._seen += counts

    def add(self, plane: int, counts: int) -> None:
        """Add ``counts`` (a plane) to ``plane``, ``unknown`` unchanged."""
        self.planes[plane] += counts

    def array(self, scalars: bytes) -> npt.NDArray[np.float32]:
        """The observation array: the planes, then ``scalars`` (``float32`` values in
        the machine's order, as ``struct`` packs ``f``)."""
        planes = self.planes
        planes[self._unknown] = self._pack - self._seen
        size = len(planes) * _PLANE_SIZE
        out = np.empty(size + len(scalars) // 4, dtype=_FLOAT32)
        out[:size] = np.frombuffer(b"".join(map(_PLANE_BYTES.__getitem__, planes)), _UINT8)
        out[size:] = np.frombuffer(scalars, _FLOAT32)
        return out
