"""What a Gin hand announces: the frequent events, built once, and each seat's view of
the history (the other seat sees a stock draw with its card blanked)."""

from __future__ import annotations

from typing import Final

from rummykit.cards import Card
from rummykit.core import Event

__all__ = ["record_events"]


def _card_events(kind: str, *, private: bool = False) -> tuple[tuple[Event, ...], ...]:
    """Per seat and card, the event of ``kind`` (``private``: seen only by that seat).

    Events are immutable, so the frequent ones are built once here rather than at
    every step (building one costs as much as the rest of a discard).
    """
    return tuple(
        tuple(
            Event(kind, seat, Card(card), visible_to=seat if private else None)
            for card in range(52)
        )
        for seat in (0, 1)
    )


DISCARD_EVENTS: Final = _card_events("discard")
DRAW_STOCK_EVENTS: Final = _card_events("draw_stock", private=True)
DRAW_DISCARD_EVENTS: Final = _card_events("draw_discard")
TAKE_UPCARD_EVENTS: Final = _card_events("take_upcard")
PASS_EVENTS: Final = (Event("pass", 0), Event("pass", 1))
_HIDDEN_DRAWS: Final = tuple(DRAW_STOCK_EVENTS[seat][0].seen_by(1 - seat) for seat in (0, 1))
"""Per drawing seat, its stock draw as the other seat sees it (the card blanked)."""


def record_events(
    history: list[Event], seen: tuple[list[Event], list[Event]], events: list[Event]
) -> None:
    """Add ``events`` to the hand's ``history`` and to each seat's view of it (``seen``)."""
    history.extend(events)
    first, second = seen
    for event in events:
        private = event.visible_to
        if private is None:
            first.append(event)
            second.append(event)
            continue
        # Only a stock draw is private: the other seat sees it with the card blanked.
        hidden = (
            _HIDDEN_DRAWS[private]
            if event.kind == "draw_stock" and event.seat == private
            else event.seen_by(1 - private)
        )
        first.append(event if private == 0 else hidden)
        second.append(event if private == 1 else hidden)
