"""How a Gin Rummy hand ended: the outcome, the points, and the showdown revealed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from rummykit.cards import Card, format_card, format_cards
from rummykit.games.gin.actions import Melds

__all__ = ["GinHandResult", "Outcome"]

Outcome = Literal["knock", "undercut", "gin", "big_gin", "draw"]


@dataclass(frozen=True, slots=True)
class GinHandResult:
    """How a hand ended, with everything revealed at the showdown."""

    outcome: Outcome
    winner: int | None
    """The seat that scored, or ``None`` (drawn hand, or a tie without undercut)."""
    points: int
    knocker: int | None = None
    knocker_deadwood: int = 0
    defender_deadwood: int = 0
    knock_card: Card | None = None
    knocker_melds: Melds = ()
    knocker_deadwood_cards: tuple[Card, ...] = ()
    defender_melds: Melds = ()
    layoffs: tuple[tuple[Card, int], ...] = ()
    defender_deadwood_cards: tuple[Card, ...] = ()
    hands: tuple[tuple[Card, ...], tuple[Card, ...]] = ((), ())
    """Both seats' cards at the end (the knock card excluded)."""

    @property
    def is_draw(self) -> bool:
        """True when the stock floor ended the hand with no score."""
        return self.outcome == "draw"

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form, cards in notation."""
        return {
            "outcome": self.outcome,
            "winner": self.winner,
            "points": self.points,
            "knocker": self.knocker,
            "knocker_deadwood": self.knocker_deadwood,
            "defender_deadwood": self.defender_deadwood,
            "knock_card": None if self.knock_card is None else format_card(self.knock_card),
            "knocker_melds": [format_cards(m) for m in self.knocker_melds],
            "knocker_deadwood_cards": format_cards(self.knocker_deadwood_cards),
            "defender_melds": [format_cards(m) for m in self.defender_melds],
            "layoffs": [[format_card(c), i] for c, i in self.layoffs],
            "defender_deadwood_cards": format_cards(self.defender_deadwood_cards),
            "hands": [format_cards(h) for h in self.hands],
        }
