"""What one seat of a Gin Rummy hand may know."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rummykit.cards import Card
from rummykit.core import Event, SeatObservation
from rummykit.games.gin.actions import Melds
from rummykit.games.gin.result import GinHandResult

__all__ = ["GinObservation", "Phase"]

Phase = Literal["offer", "draw", "discard", "layoff", "over"]


@dataclass(frozen=True, slots=True)
class GinObservation(SeatObservation[Phase]):
    """What one seat may know. Never the other hand, never the stock order."""

    hand: tuple[Card, ...]
    discard_pile: tuple[Card, ...]
    """Bottom to top; every card in it was seen face up."""
    stock_size: int
    opponent_hand_size: int
    opponent_known_cards: tuple[Card, ...]
    """Cards the opponent took from the discard pile and still holds (public knowledge)."""
    taken_card: Card | None
    """The card this seat took from the pile this turn (it may not be discarded)."""
    knocker_melds: Melds
    """During the defender's layoff phase: the knocker's melds."""
    history: tuple[Event, ...]
    result: GinHandResult | None
    scores: tuple[int, int] = (0, 0)
    """Match scores before this hand (filled in by a match)."""
    target: int = 100

    @property
    def upcard(self) -> Card | None:
        """The top of the discard pile."""
        return self.discard_pile[-1] if self.discard_pile else None
