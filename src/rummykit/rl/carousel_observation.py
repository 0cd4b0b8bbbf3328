"""The Carousel observation as a flat ``float32`` array of named planes.

Every value is derived from the engine's ``observation(seat)``
(:class:`~rummykit.games.carousel.hand.CarouselObservation`), the only place that hides
information (the lay-off plane reads the public table). Cards are counted by **face**:
53 values per plane, the natural faces in card-id order (suit-major s c d h, ace low)
then the joker; with two decks most planes hold counts. Other seats are shown
relative to the observer (slot 0 is the observer, slot ``k`` the ``k``-th seat to its
left); slots past the number of players are zero. Five face planes and 21 scalars:

>>> LAYOUT.starts("unknown", "to_act"), OBSERVATION_SIZE
((212, 265), 286)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import numpy as np
import numpy.typing as npt

from rummykit.cards import JOKER_FACE, Card
from rummykit.games.carousel import CarouselHand, CarouselObservation
from rummykit.rl.carousel_actions import NUM_ACTIONS
from rummykit.rl.carousel_table import CarouselTable, describe
from rummykit.rl.encoding import GameEncoding, register_encoding
from rummykit.rl.face_planes import face_counts, pack_counts, seat_pads, seat_zeros
from rummykit.rl.observation import ObservationLayout

__all__ = [
    "CAROUSEL",
    "FIELDS",
    "LAYOUT",
    "MAX_SEATS",
    "OBSERVATION_SIZE",
    "encode_observation",
    "field_slices",
    "observation_high",
]

MAX_SEATS: Final = 5
FACES: Final = JOKER_FACE + 1
SCORE_CLIP: Final = 2.0
HAND_SCALE: Final = 10.0
"""Hand sizes are shown in deals (10 cards); hands only grow in Carousel."""
_MAX_DECKS: Final = 3

_PLANES: Final = (
    ("hand", "count: cards in this seat's hand"),
    ("table", "count: cards of the melds on the table (jokers at the joker face)"),
    ("table_jokers", "count: the faces the table's jokers are declared as"),
    ("layoff_faces", "faces some table meld takes as one more card at an end"),
    ("unknown", "count: cards whose place this seat does not know (stock, other hands)"),
)
_SCALARS: Final = (
    ("to_act", 1, "1 when this seat is to act"),
    ("draws", 1, "cards the seat to act has drawn this turn / max_draws"),
    ("melded", 1, "1 when the seat to act has melded this turn"),
    ("final_lap", 1, "1 in the final, draw-less lap after the stock ran out"),
    ("over", 1, "1 once the hand is over"),
    ("dealer", MAX_SEATS, "per relative seat: 1 for the dealer"),
    ("hand_sizes", MAX_SEATS, f"per relative seat: cards in hand / {HAND_SCALE:g}"),
    ("stock_size", 1, "cards in the stock / the stock after the deal"),
    ("scores", MAX_SEATS, f"per relative seat: game score / target (clip {SCORE_CLIP:g})"),
)
LAYOUT: Final = ObservationLayout.of(FACES, _PLANES, _SCALARS)
FIELDS: Final = LAYOUT.fields
"""``(name, start, size, description)`` of every part of the observation array."""
OBSERVATION_SIZE: Final = LAYOUT.size
field_slices: Final = LAYOUT.slices
_HAND, _TABLE, _TABLE_JOKERS, _LAYOFF, _UNKNOWN, _COUNTS = LAYOUT.starts(
    "hand", "table", "table_jokers", "layoff_faces", "unknown", "to_act"
)
_PADS: Final = seat_pads(MAX_SEATS)
_DEALER_FLAGS: Final = tuple(
    tuple(tuple(1.0 if k == dealer else 0.0 for k in range(MAX_SEATS)) for dealer in range(players))
    for players in range(MAX_SEATS + 1)
)
"""Per number of players and relative seat of the dealer, the ``dealer`` scalars."""
_LANE: Final = 8
"""The planes are built as one integer, a byte per value, turned into bytes once."""
_PACKS: dict[tuple[int, int], tuple[int, int]] = {}
_FLOAT32: Final = np.dtype(np.float32)
_UINT8: Final = np.dtype(np.uint8)


def observation_high() -> npt.NDArray[np.float32]:
    """Upper bounds: 3 copies of a face (three decks), 1 for flags and fractions,
    the most cards a hand can hold in deals, :data:`SCORE_CLIP` for scores."""
    high = LAYOUT.bounds(1.0, scores=SCORE_CLIP, hand_sizes=FACES * _MAX_DECKS / HAND_SCALE)
    for name, start, size, _ in FIELDS[: len(_PLANES)]:
        if name != "layoff_faces":
            high[start : start + size] = _MAX_DECKS
    return high


def _pack(decks: int, players: int) -> tuple[int, int]:
    """Per face, the copies in the pack (a byte each), and the stock right after the
    deal."""
    cached = _PACKS.get((decks, players))
    if cached is None:
        cached = _PACKS[decks, players] = (
            pack_counts([decks] * FACES),
            FACES * decks - 10 * players - 1,
        )
    return cached


def encode_observation(table: CarouselTable, seat: int) -> npt.NDArray[np.float32]:
    """The observation array of ``seat`` at a Carousel table."""
    deal = table.deal
    state: CarouselHand | CarouselObservation
    scores: Sequence[int]
    if table.game is None and 0 <= seat < deal.players:
        # A hand episode: the engine's own fields are the observation's (building the
        # observation would also copy the history, which no plane shows).
        state = deal
        cards: Sequence[Card] = deal.hands[seat]
        hand_sizes = [len(hand) for hand in deal.hands]
        stock_size, scores, target = len(deal.stock), (), 1
    else:  # a game adds its scores (and the engine refuses a seat it does not have)
        state = obs = table.observation(seat)
        cards, hand_sizes, stock_size = obs.hand, list(obs.hand_sizes), obs.stock_size
        scores, target = obs.scores, obs.target
    players = state.players
    pack, stock_after_deal = _pack(table.decks, players)
    # The public table's planes (its cards, its jokers' declarations, the lay-off
    # faces) are kept by the table until it changes; every card not seen in them or
    # in the hand is unknown.
    facts = table.table_facts()
    held = face_counts(cards)
    on_table = facts.face_counts
    planes = (
        (held << _LANE * _HAND)
        + (on_table << _LANE * _TABLE)
        + (facts.declared_counts << _LANE * _TABLE_JOKERS)
        + (facts.layoff_plane << _LANE * _LAYOFF)
        + ((pack - on_table - held) << _LANE * _UNKNOWN)
    )
    sizes = hand_sizes[seat:] + hand_sizes[:seat]  # relative to the observer
    totals = (
        [min(scores[(seat + k) % players] / target, SCORE_CLIP) for k in range(players)]
        if scores
        else _ZEROS[players]
    )
    pad = _PADS[players]
    rules = table.rules
    over = state.phase == "over"
    out = np.empty(OBSERVATION_SIZE, dtype=_FLOAT32)
    out[:_COUNTS] = np.frombuffer(planes.to_bytes(_COUNTS, "little"), dtype=_UINT8)
    out[_COUNTS:] = [
        1.0 if state.current_player == seat and not over else 0.0,
        state.draws / rules.max_draws,
        1.0 if state.melded else 0.0,
        1.0 if state.final_lap else 0.0,
        1.0 if over else 0.0,
        *_DEALER_FLAGS[players][(state.dealer - seat) % players],
        *[size / HAND_SCALE for size in sizes],
        *pad,
        min(stock_size / stock_after_deal, 1.0) if stock_after_deal > 0 else 0.0,
        *totals,
        *pad,
    ]
    return out


_ZEROS: Final = seat_zeros(MAX_SEATS)


CAROUSEL: Final = register_encoding(
    GameEncoding(
        table=CarouselTable,
        layout=LAYOUT,
        encode=encode_observation,
        high=observation_high,
        describe=describe,
        openspiel={},
    )
)
"""Carousel in the research interfaces: ``carousel_v0``, ``rummykit/Carousel-v0`` and
``python_rummykit_carousel``."""

assert CarouselTable.num_actions == NUM_ACTIONS
