"""The layout of an observation array: named card planes, then named scalars.

Every game's observation is a flat ``float32`` array: card planes of one size each (52
cards for gin, 53 faces for Rami), then scalars of various sizes. An
:class:`ObservationLayout` names every piece once, so the game's encoder, its bounds,
the ``FIELDS`` table the documentation shows and OpenSpiel's named observer all read
the same offsets.

>>> layout = ObservationLayout.of(4, [("hand", "my cards")], [("to_act", 1, "my turn")])
>>> layout.fields, layout.size
((('hand', 0, 4, 'my cards'), ('to_act', 4, 1, 'my turn')), 5)
>>> layout.starts("to_act", "hand")
(4, 0)
>>> layout.bounds(1.0, to_act=2.0).tolist()
[1.0, 1.0, 1.0, 1.0, 2.0]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["Field", "ObservationLayout"]

Field = tuple[str, int, int, str]
"""``(name, start, size, description)`` of one piece of the array."""


@dataclass(frozen=True, slots=True)
class ObservationLayout:
    """The named pieces of an observation array, in order."""

    fields: tuple[Field, ...]

    @classmethod
    def of(
        cls,
        plane_size: int,
        planes: Iterable[tuple[str, str]],
        scalars: Iterable[tuple[str, int, str]],
    ) -> ObservationLayout:
        """Card planes ``(name, description)`` of ``plane_size`` values each, then
        scalars ``(name, size, description)``."""
        fields: list[Field] = []
        start = 0
        for name, text in planes:
            fields.append((name, start, plane_size, text))
            start += plane_size
        for name, size, text in scalars:
            fields.append((name, start, size, text))
            start += size
        return cls(tuple(fields))

    @property
    def size(self) -> int:
        """How many values the array holds."""
        _, start, size, _ = self.fields[-1]
        return start + size

    def start(self, name: str) -> int:
        """Where the piece ``name`` starts."""
        for found, start, _, _ in self.fields:
            if found == name:
                return start
        raise KeyError(name)

    def starts(self, *names: str) -> tuple[int, ...]:
        """Where each named piece starts, in the order asked (an encoder's offsets)."""
        start_of = {name: start for name, start, _, _ in self.fields}
        return tuple(start_of[name] for name in names)

    def slices(self) -> dict[str, slice]:
        """Name -> slice of the observation array."""
        return {name: slice(start, start + size) for name, start, size, _ in self.fields}

    def bounds(self, fill: float, **pieces: float) -> npt.NDArray[np.float32]:
        """An array of ``fill`` with the named ``pieces`` set to their own value (the
        bounds of an observation space)."""
        import numpy as np

        bound = np.full(self.size, fill, dtype=np.float32)
        for name, start, size, _ in self.fields:
            if name in pieces:
                bound[start : start + size] = pieces[name]
        return bound
