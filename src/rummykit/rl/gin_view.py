"""What one gin seat knows, as bitmasks and counts: the :class:`SeatView` the gin
observation is encoded from.

A view is derived only from the engine's ``observation(seat)``: built from a full
observation (:meth:`SeatView.from_observation`), or kept up to date by folding each
new event *as that seat sees it* (``Event.seen_by(seat)``, the filter
``observation()`` applies to its history), which is how
:class:`~rummykit.rl.gin_table.GinTable` keeps it between deals.

>>> from rummykit.games.gin import new_hand
>>> view = SeatView.from_observation(new_hand(seed=7, dealer=1).observation(0))
>>> view.hand.bit_count(), view.stock_size, view.phase
(10, 31, 'offer')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from rummykit.cards import parse_card
from rummykit.core import Event
from rummykit.games.gin import GinObservation

__all__ = ["SeatView"]


@dataclass(slots=True, eq=True)
class SeatView:
    """What one seat knows, as bitmasks and counts (see ``docs/rl.md``)."""

    hand: int = 0
    taken: int = -1
    """The card this seat took from the pile this turn, or -1."""
    pile: list[int] = field(default_factory=list)
    """The discard pile, bottom to top."""
    pile_mask: int = 0
    opponent_known: int = 0
    opponent_discarded: int = 0
    opponent_declined: int = 0
    """Upcards the opponent passed on, and pile tops it left for the stock."""
    stock_size: int = 0
    opponent_hand_size: int = 0
    phase: str = "offer"
    to_act: bool = False
    dealer: bool = False
    scores: tuple[int, int] = (0, 0)
    """Match points of this seat and of the other seat."""
    target: int = 100

    @classmethod
    def from_observation(cls, observation: GinObservation) -> SeatView:
        """The view of a full engine observation (the reference derivation)."""
        seat = observation.seat
        history = cls()
        for event in observation.history:
            history.fold(event, seat)
        return cls(
            hand=_mask(observation.hand),
            taken=-1 if observation.taken_card is None else int(observation.taken_card),
            pile=[int(card) for card in observation.discard_pile],
            pile_mask=_mask(observation.discard_pile),
            opponent_known=_mask(observation.opponent_known_cards),
            opponent_discarded=history.opponent_discarded,
            opponent_declined=history.opponent_declined,
            stock_size=observation.stock_size,
            opponent_hand_size=observation.opponent_hand_size,
            phase=observation.phase,
            to_act=observation.current_player == seat,
            dealer=observation.dealer == seat,
            scores=(observation.scores[seat], observation.scores[1 - seat]),
            target=observation.target,
        )

    def fold(self, event: Event, seat: int) -> None:
        """Update the view with one event as ``seat`` sees it."""
        kind = event.kind
        mine = event.seat == seat
        card = event.card
        if kind == "discard":
            assert card is not None
            bit = 1 << card
            self.pile.append(int(card))
            self.pile_mask |= bit
            if mine:
                self.hand &= ~bit
            else:
                self.opponent_known &= ~bit
                self.opponent_discarded |= bit
                self.opponent_hand_size -= 1
            self.taken = -1
        elif kind == "draw_stock":
            self.stock_size -= 1
            if mine:
                assert card is not None
                self.hand |= 1 << card
            else:
                self.opponent_hand_size += 1
                if self.pile:
                    self.opponent_declined |= 1 << self.pile[-1]
            self.taken = -1
        elif kind in ("take_upcard", "draw_discard"):
            assert card is not None
            self.pile.pop()
            self.pile_mask &= ~(1 << card)
            if mine:
                self.hand |= 1 << card
                self.taken = int(card)
            else:
                self.opponent_known |= 1 << card
                self.opponent_hand_size += 1
        elif kind == "pass":
            if not mine and self.pile:
                self.opponent_declined |= 1 << self.pile[-1]
        elif kind in ("knock", "gin"):
            assert card is not None
            if mine:
                self.hand &= ~(1 << card)
            else:
                self.opponent_known &= ~(1 << card)
                self.opponent_hand_size -= 1
            self.taken = -1
        elif kind == "big_gin":
            self.taken = -1
        elif kind == "deal":
            upcard = event.detail.get("upcard")
            self.pile = [] if upcard is None else [int(parse_card(str(upcard)))]
            self.pile_mask = _mask(self.pile)


def _mask(cards: Sequence[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask
