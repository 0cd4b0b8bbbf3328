"""Card planes counted by face, as the games with jokers and several decks encode them.

Rami and Carousel show cards by **face** (53 values: the natural faces, then the joker),
and every plane holds counts below 256, so the planes are built as bytes and turned
into ``float32`` once. The ``unknown`` plane starts as the whole pack; every card a seat
sees somewhere is counted in its plane and taken off ``unknown``.

>>> planes = FacePlanes(8, unknown=4, pack=bytes([2, 2, 2, 1]))
>>> planes.seen(0, [0, 2])
>>> planes.mark(4, 0b1000)
>>> planes.array([0.5]).tolist()
[1.0, 0.0, 1.0, 0.0, 1.0, 2.0, 1.0, 1.0, 0.5]
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

import numpy as np
import numpy.typing as npt

from rummykit.cards import FACES

__all__ = ["FacePlanes", "seat_pads"]

_FLOAT32: Final = np.dtype(np.float32)
_UINT8: Final = np.dtype(np.uint8)


def seat_pads(max_seats: int) -> tuple[tuple[float, ...], ...]:
    """Per number of players, the zeros that fill a per-seat scalar up to ``max_seats``."""
    return tuple((0.0,) * (max_seats - players) for players in range(max_seats + 1))


class FacePlanes:
    """The card planes of one observation, counted by face."""

    __slots__ = ("counts", "unknown")

    def __init__(self, size: int, *, unknown: int, pack: bytes) -> None:
        """``size`` values of planes; the one at ``unknown`` starts as ``pack``."""
        self.counts = bytearray(size)
        self.counts[unknown : unknown + len(pack)] = pack
        self.unknown = unknown

    def seen(self, start: int, cards: Iterable[int]) -> None:
        """Count ``cards`` in the plane at ``start``: their place is known."""
        counts = self.counts
        unknown = self.unknown
        face_of = FACES  # a local: read for every card
        for card in cards:
            face = face_of[card]
            counts[start + face] += 1
            counts[unknown + face] -= 1

    def mark(self, start: int, mask: int) -> None:
        """Set to 1 the faces of the plane at ``start`` whose bits ``mask`` has."""
        counts = self.counts
        while mask:
            low = mask & -mask
            counts[start + low.bit_length() - 1] = 1
            mask ^= low

    def array(self, scalars: list[float]) -> npt.NDArray[np.float32]:
        """The observation array: the planes, then ``scalars``."""
        planes = len(self.counts)
        out = np.empty(planes + len(scalars), dtype=_FLOAT32)
        out[:planes] = np.frombuffer(self.counts, dtype=_UINT8)
        out[planes:] = scalars
        return out
