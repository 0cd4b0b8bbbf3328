"""The Rami observation as a flat ``float32`` array of named planes.

Every value is derived from the engine's ``observation(seat)``
(:class:`~rummykit.games.rami.round.RamiObservation`), the only place that hides
information. Cards are counted by **face**: 53 values per plane, the natural faces in
card-id order (suit-major s c d h, ace low) then the joker. Several decks are in play,
so most card planes hold counts (at most 3 for a natural face, the number of jokers
for the joker). Other seats are shown relative to the observer: slot 0 is the observer,
slot ``k`` the ``k``-th seat to its left (the order of play); slots past the number of
players are zero. The layout is the same for 2 to 6 players (see ``docs/rl.md``),
fourteen face planes and 39 scalars:

>>> FIELDS[2], OBSERVATION_SIZE
(('discard_top', 106, 53, 'the top card of the discard pile'), 781)
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from rummykit.cards import FACES as FACE_OF
from rummykit.cards import JOKER_FACE, MAX_COPIES, PHYSICAL_IDS
from rummykit.games.rami import RamiObservation, RamiRules
from rummykit.rl.encoding import GameEncoding, register_encoding
from rummykit.rl.face_planes import FacePlanes, seat_pads
from rummykit.rl.observation import ObservationLayout
from rummykit.rl.rami_actions import FACES
from rummykit.rl.rami_table import RamiTable, describe

__all__ = [
    "FIELDS",
    "LAYOUT",
    "MAX_SEATS",
    "OBSERVATION_SIZE",
    "PHASES",
    "RAMI",
    "SCORE_CLIP",
    "encode",
    "encode_observation",
    "field_slices",
    "observation_high",
    "observation_low",
]

MAX_SEATS: Final = 6
PHASES: Final = ("draw", "play", "discard", "over")
SCORE_CLIP: Final = 2.0
"""Game totals are shown as a fraction of the ``limit``, clipped to this."""
_MAX_DECKS: Final = 3

# (name, kind, description); kind: "count" (copies of a face) or "flag" (0/1).
_CARD_PLANES: Final = (
    ("hand", "count", "cards in this seat's hand"),
    ("taken_card", "flag", "the card this seat took from the discard pile this turn"),
    ("discard_top", "flag", "the top card of the discard pile"),
    ("discard_pile", "count", "the cards under the top of the discard pile"),
    ("table", "count", "cards in the combinations on the table (jokers at the joker face)"),
    ("table_jokers", "count", "faces the table's jokers stand for"),
    ("layoff_faces", "flag", "faces some table combination takes as a lay-off"),
    ("swap_faces", "flag", "faces that free a table joker by a swap"),
    ("unknown", "count", "cards whose place this seat does not know (stock, hidden hands)"),
    *(
        (f"known_{k}", "count", f"cards seat +{k} took from the discard pile and still holds")
        for k in range(1, MAX_SEATS)
    ),
)
_SCALARS: Final = (
    ("phase", len(PHASES), "one-hot: " + ", ".join(PHASES)),
    ("to_act", 1, "1 when this seat is to act"),
    ("opened_this_turn", 1, "1 when this seat opened in the current turn"),
    ("seat_active", MAX_SEATS, "per relative seat: 1 when it plays this round"),
    ("dealer", MAX_SEATS, "per relative seat: 1 for the dealer"),
    ("opened", MAX_SEATS, "per relative seat: 1 when it has opened"),
    ("hand_sizes", MAX_SEATS, "per relative seat: cards in hand / (hand_size + 1)"),
    ("stock_size", 1, "cards in the stock / the stock after the deal"),
    ("refills", 1, "refills of the stock so far / max_reshuffles"),
    ("turn", 1, "completed turns this round / max_turns"),
    ("scores", MAX_SEATS, f"per relative seat: game total / limit (clip {SCORE_CLIP:g})"),
)


LAYOUT: Final = ObservationLayout.of(
    FACES, ((name, text) for name, _, text in _CARD_PLANES), _SCALARS
)
FIELDS: Final = LAYOUT.fields
"""``(name, start, size, description)`` of every part of the observation array."""
OBSERVATION_SIZE: Final = LAYOUT.size
field_slices: Final = LAYOUT.slices
_HAND, _TAKEN, _TOP, _PILE, _TABLE, _TABLE_JOKERS, _LAYOFF, _SWAP, _UNKNOWN = LAYOUT.starts(
    "hand",
    "taken_card",
    "discard_top",
    "discard_pile",
    "table",
    "table_jokers",
    "layoff_faces",
    "swap_faces",
    "unknown",
)
_KNOWN: Final = LAYOUT.start("known_1")
_COUNTS: Final = LAYOUT.start("phase")
"""The card planes come first: counts below 256, built as bytes."""
_PHASE_ONE_HOT: Final = {
    name: tuple(1.0 if other == name else 0.0 for other in PHASES) for name in PHASES
}
_PADS: Final = seat_pads(MAX_SEATS)


def observation_high() -> npt.NDArray[np.float32]:
    """Upper bounds of the values: 3 copies of a natural face (three decks), 7 jokers
    (the most a pack may hold), 1 for flags and fractions, :data:`SCORE_CLIP` for scores."""
    high = LAYOUT.bounds(1.0, scores=SCORE_CLIP)
    for (name, start, size, _), (_, kind, _) in zip(FIELDS, _CARD_PLANES, strict=False):
        if name == "table_jokers":
            high[start : start + size] = MAX_COPIES - 1
        elif kind == "count":
            high[start : start + JOKER_FACE] = _MAX_DECKS
            high[start + JOKER_FACE] = MAX_COPIES - 1
    return high


def observation_low() -> npt.NDArray[np.float32]:
    """Lower bounds of the values: 0, or ``-SCORE_CLIP`` for scores (a negative
    ``winner_bonus`` can take a total below zero)."""
    return LAYOUT.bounds(0.0, scores=-SCORE_CLIP)


def _clip(value: float) -> float:
    return SCORE_CLIP if value > SCORE_CLIP else -SCORE_CLIP if value < -SCORE_CLIP else value


_PACKS: dict[tuple[int, int], tuple[RamiRules, bytes, int]] = {}


def _pack(rules: RamiRules, active: int) -> tuple[bytes, int]:
    """Per face, the copies in the pack (as the ``unknown`` plane starts), and the
    stock after the deal; cached (``deck_spec`` validates at every call)."""
    key = (id(rules), active)
    cached = _PACKS.get(key)
    if cached is None or cached[0] is not rules:
        spec = rules.deck_spec(active)
        counts = bytes([spec.decks] * JOKER_FACE + [spec.jokers])
        cached = _PACKS[key] = (rules, counts, spec.size - active * rules.hand_size - 1)
    return cached[1], cached[2]


def encode(observation: RamiObservation) -> npt.NDArray[np.float32]:
    """The observation array of one seat's engine observation."""
    obs = observation
    seat = obs.seat
    players = obs.players
    rules = obs.rules
    active = obs.active
    pack, stock_after_deal = _pack(rules, len(active))
    planes = FacePlanes(_COUNTS, unknown=_UNKNOWN, pack=pack)
    planes.seen(_HAND, obs.hand)
    taken = obs.taken_card
    if taken is not None:
        planes.counts[_TAKEN + FACE_OF[taken]] = 1
    pile = obs.discard_pile
    planes.seen(_TOP, pile[-1:])
    planes.seen(_PILE, pile[:-1])
    layoffs = swaps = 0
    for combo in obs.table:
        planes.seen(_TABLE, combo.cards)
        if combo.joker >= 0:
            declared = combo.cards[combo.joker] // PHYSICAL_IDS  # the face it stands for, plus one
            if declared:
                planes.counts[_TABLE_JOKERS + declared - 1] += 1
        layoffs |= combo.accepts
        if combo.shift_face >= 0:
            layoffs |= 1 << combo.shift_face
        if combo.swap_face >= 0:
            swaps |= 1 << combo.swap_face
    planes.mark(_LAYOFF, layoffs)
    planes.mark(_SWAP, swaps)
    known = obs.known_cards
    # Scalars, this seat first, then the seats to its left.
    hand_scale = rules.hand_size + 1
    hand_sizes = obs.hand_sizes
    opened = obs.opened
    scores = obs.scores
    limit = rules.limit
    dealer = obs.dealer
    flags_active: list[float] = []
    flags_dealer: list[float] = []
    flags_opened: list[float] = []
    sizes: list[float] = []
    totals: list[float] = []
    for k in range(players):
        other = seat + k
        if other >= players:
            other -= players
        if k:
            planes.seen(_KNOWN + FACES * (k - 1), known[other])
        flags_active.append(1.0 if other in active else 0.0)
        flags_dealer.append(1.0 if other == dealer else 0.0)
        flags_opened.append(1.0 if opened[other] else 0.0)
        sizes.append(hand_sizes[other] / hand_scale)
        totals.append(_clip(scores[other] / limit) if scores else 0.0)
    pad = _PADS[players]
    phase = _PHASE_ONE_HOT[obs.phase]
    refills = rules.max_reshuffles
    return planes.array(
        [
            *phase,
            1.0 if obs.current_player == seat and obs.phase != "over" else 0.0,
            1.0 if obs.opened_this_turn else 0.0,
            *flags_active,
            *pad,
            *flags_dealer,
            *pad,
            *flags_opened,
            *pad,
            *sizes,
            *pad,
            min(obs.stock_size / stock_after_deal, 1.0),
            min(obs.refills / refills, 1.0) if refills else 0.0,
            min(obs.turn / rules.max_turns, 1.0),
            *totals,
            *pad,
        ]
    )


def encode_observation(table: RamiTable, seat: int) -> npt.NDArray[np.float32]:
    """The observation array of ``seat`` at a Rami table."""
    return encode(table.observation(seat))


RAMI: Final = register_encoding(
    GameEncoding(
        table=RamiTable,
        layout=LAYOUT,
        encode=encode_observation,
        high=observation_high,
        low=observation_low,
        describe=describe,
        openspiel={},
    )
)
"""Rami in the research interfaces: ``rami_v0``, ``rummykit/Rami-v0`` and
``python_rummykit_rami``."""
