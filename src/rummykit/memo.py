"""A bounded memo of a pure function, read as a dict.

Melds outlive many tables (a placement changes few of them), so what is worked out
about a meld (its notation, its counts, its lay-off faces) is kept by the meld's card
ids. A :class:`Memo` computes a missing entry on the first look-up, and forgets
everything once it holds ``limit`` entries, so a long run cannot grow it without
bound. It is a ``dict`` subclass so that a hit costs one dict look-up
(``memo[key]``, or ``map(memo.__getitem__, keys)`` over many keys).

>>> squares = Memo(lambda n: n * n, limit=2)
>>> squares[3], squares[4], len(squares)
(9, 16, 2)
>>> squares[5], len(squares)  # full: forgotten, then 5 kept
(25, 1)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

from rummykit.errors import InvalidOptionError

__all__ = ["Memo"]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Memo(dict[K, V], Generic[K, V]):
    """``compute(key)`` for each key looked up, kept until ``limit`` entries are held."""

    __slots__ = ("_compute", "_limit")

    def __init__(self, compute: Callable[[K], V], *, limit: int = 100_000) -> None:
        if limit < 1:
            raise InvalidOptionError(f"a memo keeps at least one entry, not {limit}")
        super().__init__()
        self._compute = compute
        self._limit = limit

    def __missing__(self, key: K) -> V:
        if len(self) >= self._limit:
            self.clear()
        value = self[key] = self._compute(key)
        return value
