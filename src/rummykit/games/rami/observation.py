"""What one seat of a Rami round may know: :class:`RamiObservation`, with its share of
the round's history (:class:`EventLog`).

Never another hand, never the stock order; others' stock draws are masked.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, fields, make_dataclass
from itertools import islice
from typing import Final, Literal, overload

from rummykit.cards import Card
from rummykit.core import Event, SeatObservation
from rummykit.games.rami.rules import RamiRules
from rummykit.games.rami.scoring import RamiRoundResult
from rummykit.games.rami.table import Combination

__all__ = ["EventLog", "Phase", "RamiObservation"]

Phase = Literal["draw", "play", "discard", "over"]


class EventLog(Sequence[Event]):
    """An immutable view of the first events of one seat's history.

    The engine keeps, per seat, an append-only list of the events that seat may see
    (stock draws of others masked); each observation holds a view of its first
    ``len(view)`` events, so observations share it instead of copying it.
    """

    __slots__ = ("_events", "_length")

    def __init__(self, events: Sequence[Event], length: int | None = None) -> None:
        self._events = events
        self._length = len(events) if length is None else length

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> Event: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Event, ...]: ...

    def __getitem__(self, index: int | slice) -> Event | tuple[Event, ...]:
        if isinstance(index, slice):
            return tuple(self._events[: self._length])[index]
        if index < 0:
            index += self._length
        if not 0 <= index < self._length:
            raise IndexError("event index out of range")
        return self._events[index]

    def __iter__(self) -> Iterator[Event]:
        return islice(self._events, self._length)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, EventLog | tuple | list):
            return len(other) == self._length and all(
                a == b for a, b in zip(self, other, strict=False)
            )
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"EventLog({list(self)!r})"


@dataclass(frozen=True, slots=True)
class RamiObservation(SeatObservation[Phase]):
    """What one seat may know: never another hand, never the stock order."""

    players: int
    active: tuple[int, ...]
    """The seats playing this round (all, unless some were eliminated)."""
    hand: tuple[Card, ...]
    """Own cards, sorted by face."""
    table: tuple[Combination, ...]
    """Every combination on the table, numbered by position, each with its owner."""
    discard_pile: tuple[Card, ...]
    """Bottom to top; every card in it was seen face up."""
    stock_size: int
    hand_sizes: tuple[int, ...]
    opened: tuple[bool, ...]
    known_cards: tuple[tuple[Card, ...], ...]
    """Per seat, cards it took from the discard pile and still holds (public)."""
    taken_card: Card | None
    """The card this seat took from the discard pile this turn (it may not be discarded)."""
    opened_this_turn: bool
    turn: int
    """Completed player-turns this round."""
    refills: int
    """Times the stock was refilled from the discard pile this round."""
    rules: RamiRules
    history: Sequence[Event]
    """The events this seat may see, oldest first (others' stock draws masked)."""
    result: RamiRoundResult | None
    scores: tuple[int, ...] = ()
    """Game totals before this round (filled in by a game)."""
    round_number: int = 1

    @property
    def upcard(self) -> Card | None:
        """The top of the discard pile."""
        return self.discard_pile[-1] if self.discard_pile else None


# A frozen dataclass sets each of its 22 fields through ``object.__setattr__``, which
# made building an observation cost as much as applying an action. The engine builds
# them through a mutable twin with the very same base and slots (plain assignments) and
# then gives the finished object its real, frozen class: the layouts are identical, so
# the switch is allowed, and the result is an ordinary frozen RamiObservation.
ObservationBuilder: Final = type(
    "ObservationBuilder",
    (SeatObservation,),
    {
        "__slots__": RamiObservation.__slots__,
        "__init__": vars(
            make_dataclass("ObservationBuilder", [field.name for field in fields(RamiObservation)])
        )["__init__"],
        # The frozen base's guards undone: its __setattr__ and __delattr__ share one type
        # slot, so with either left every assignment would go through Python.
        "__setattr__": object.__setattr__,
        "__delattr__": object.__delattr__,
    },
)
