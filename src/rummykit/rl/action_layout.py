"""The layout of a game's action ids: families of consecutive ids and single ids, each
declared once with its readable names.

An actions module declares its ids in id order; each id is numbered by the sizes of
what comes before it, so the constants, the ranges of the families and the names
cannot drift apart.

>>> ids = ActionLayout("demo")
>>> ids.family(f"Discard {card}" for card in "AB"), ids.single("Draw"), ids.size
(range(0, 2), 2, 3)
>>> ids.name(1)
'Discard B'
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["ActionLayout"]


class ActionLayout:
    """A game's action ids, numbered in the order they are declared, with their names."""

    def __init__(self, game: str) -> None:
        self.game = game
        self._names: list[str] = []

    def family(self, names: Iterable[str]) -> range:
        """Declare the next ids, one per name (a card's, a meld's...); their range."""
        first = len(self._names)
        self._names.extend(names)
        return range(first, len(self._names))

    def single(self, name: str) -> int:
        """Declare the next id; the id."""
        self._names.append(name)
        return len(self._names) - 1

    @property
    def size(self) -> int:
        """How many ids are declared (the next id)."""
        return len(self._names)

    def name(self, action_id: int) -> str:
        """The name of one id (``ValueError`` outside the ids)."""
        names = self._names
        if not 0 <= action_id < len(names):
            raise ValueError(f"{self.game} action ids are 0-{len(names) - 1}, not {action_id!r}")
        return names[action_id]
