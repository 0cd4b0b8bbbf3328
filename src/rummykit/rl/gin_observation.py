"""The gin observation as a flat ``float32`` array of named planes.

Every value is derived from a :class:`~rummykit.rl.gin_view.SeatView`, itself derived
from the engine's ``observation(seat)`` (plus the seat's own pending knock macro).
The layout (see ``docs/rl.md``) is nine card planes of 52 (card id order: suit-major
s c d h, ace low) followed by twelve scalars, 480 values:

>>> field_slices()["upcard"], OBSERVATION_SIZE
(slice(104, 156, None), 480)
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from rummykit.rl.encoding import GameEncoding, register_encoding
from rummykit.rl.gin_table import PHASES, GinTable, describe
from rummykit.rl.gin_view import SeatView
from rummykit.rl.observation import ObservationLayout

__all__ = [
    "FIELDS",
    "GIN",
    "LAYOUT",
    "OBSERVATION_SIZE",
    "SCORE_CLIP",
    "encode_observation",
    "encode_view",
    "field_slices",
    "observation_high",
]

_FULL: Final = (1 << 52) - 1
_STOCK_SIZE: Final = 31
SCORE_CLIP: Final = 3.0
"""Match points are shown as a fraction of the target, clipped to this."""

_CARD_PLANES: Final = (
    ("hand", "cards in this seat's hand"),
    ("taken_card", "the card this seat took from the discard pile this turn (not discardable)"),
    ("upcard", "the top card of the discard pile"),
    ("discard_pile", "cards under the upcard: out of play for the rest of the hand"),
    ("opponent_known", "cards the opponent took from the discard pile and still holds"),
    ("opponent_discarded", "cards the opponent discarded this hand"),
    ("opponent_declined", "upcards the opponent passed on or left for the stock"),
    ("unknown", "cards whose place this seat does not know (stock or opponent's hand)"),
    ("knock_melds", "melds this seat has laid so far in its knock macro (knock_melds=choose)"),
)
_SCALARS: Final = (
    ("to_act", 1, "1 when this seat is to act"),
    ("dealer", 1, "1 when this seat dealt this hand"),
    ("phase", len(PHASES), "one-hot: " + ", ".join(PHASES)),
    ("stock_size", 1, "cards in the stock / 31"),
    ("opponent_hand_size", 1, "cards in the opponent's hand / 11"),
    ("scores", 2, f"match points of this seat, then the opponent, / target (clip {SCORE_CLIP:g})"),
)


LAYOUT: Final = ObservationLayout.of(52, _CARD_PLANES, _SCALARS)
FIELDS: Final = LAYOUT.fields
"""``(name, start, size, description)`` of every part of the observation array."""
OBSERVATION_SIZE: Final = LAYOUT.size
field_slices: Final = LAYOUT.slices
_PLANE_BITS: Final = 52 * len(_CARD_PLANES)
_BINARY_BITS: Final = _PLANE_BITS + 2 + len(PHASES)
"""The planes, ``to_act``, ``dealer`` and ``phase`` are 0/1: they come from one integer."""
_STOCK: Final = _BINARY_BITS
_PHASE_BIT: Final = {name: 1 << (_PLANE_BITS + 2 + index) for index, name in enumerate(PHASES)}
_TO_ACT_BIT: Final = 1 << _PLANE_BITS
_DEALER_BIT: Final = 1 << (_PLANE_BITS + 1)
_BYTES: Final = (OBSERVATION_SIZE + 7) // 8
_TAKEN_BIT: Final = (*(1 << (52 + card) for card in range(52)), 0)
"""The ``taken_card`` bit of each card; index -1 (nothing taken) gives 0."""
_UPCARD_BIT: Final = tuple(1 << (104 + card) for card in range(52))
_PILE_BIT: Final = tuple(1 << (156 + card) for card in range(52))
_unpack_bits: Final = np.unpackbits
_from_buffer: Final = np.frombuffer
_UINT8: Final = np.dtype(np.uint8)
_FLOAT32: Final = np.dtype(np.float32)


def observation_high() -> npt.NDArray[np.float32]:
    """Upper bounds of the observation values (1, or :data:`SCORE_CLIP` for scores)."""
    return LAYOUT.bounds(1.0, scores=SCORE_CLIP)


def encode_view(
    view: SeatView, stage: str | None = None, knock_melds: int = 0
) -> npt.NDArray[np.float32]:
    """The observation array of a seat view (and the seat's knock macro, if any)."""
    hand = view.hand
    known = view.opponent_known
    pile_mask = view.pile_mask
    # Few big-integer operations: each costs as much as the bits it moves.
    bits = (
        hand
        | _TAKEN_BIT[view.taken]
        | known << 208
        | view.opponent_discarded << 260
        | view.opponent_declined << 312
        | (_FULL ^ (hand | pile_mask | known)) << 364  # unknown: none of the above
        | _PHASE_BIT[stage or view.phase]
    )
    pile = view.pile
    if pile:
        top = pile[-1]  # the upcard plane; the discard_pile plane is the rest of the pile
        bits |= _UPCARD_BIT[top] | ((pile_mask << 156) ^ _PILE_BIT[top])
    if knock_melds:
        bits |= knock_melds << 416
    if view.to_act:
        bits |= _TO_ACT_BIT
    if view.dealer:
        bits |= _DEALER_BIT
    # The integer's bytes (lowest bit first), one bit per value, then float32: three
    # numpy calls with positional arguments (keywords cost as much as the work).
    out = _unpack_bits(
        _from_buffer(bits.to_bytes(_BYTES, "little"), _UINT8), None, OBSERVATION_SIZE, "little"
    ).astype(_FLOAT32)
    out[_STOCK] = view.stock_size / _STOCK_SIZE
    out[_STOCK + 1] = view.opponent_hand_size / 11
    scores = view.scores
    if scores[0]:
        out[_STOCK + 2] = min(scores[0] / view.target, SCORE_CLIP)
    if scores[1]:
        out[_STOCK + 3] = min(scores[1] / view.target, SCORE_CLIP)
    return out


def encode_observation(table: GinTable, seat: int) -> npt.NDArray[np.float32]:
    """The observation array of ``seat`` at a gin table."""
    return encode_view(*table.seat_state(seat))


GIN: Final = register_encoding(
    GameEncoding(
        table=GinTable,
        layout=LAYOUT,
        encode=encode_observation,
        high=observation_high,
        describe=describe,
        openspiel={"knock_melds": "auto"},
    )
)
"""Gin in every research interface: ``gin_v0``, ``rummykit/Gin-v0``, ``python_rummykit_gin``."""
