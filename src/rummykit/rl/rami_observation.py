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

import struct
from typing import Final

import numpy as np
import numpy.typing as npt

from rummykit.cards import JOKER_FACE, MAX_COPIES, PHYSICAL_IDS, Card
from rummykit.games.rami import Combination, RamiObservation, RamiRules
from rummykit.memo import Memo
from rummykit.rl.encoding import GameEncoding, register_encoding
from rummykit.rl.face_planes import FacePlanes, face_counts, flag_counts, pack_counts, seat_zeros
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
_HAND, _TAKEN, _TOP, _PILE, _TABLE, _TABLE_JOKERS, _LAYOFF, _SWAP, _UNKNOWN = (
    start // FACES  # the index of the plane
    for start in LAYOUT.starts(
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
)
_KNOWN: Final = LAYOUT.start("known_1") // FACES
_PLANES: Final = LAYOUT.start("phase") // FACES
"""The card planes come first, then the scalars."""
_PHASE_ONE_HOT: Final = {
    name: tuple(1.0 if other == name else 0.0 for other in PHASES) for name in PHASES
}
_ZEROS: Final = seat_zeros(MAX_SEATS)


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


_PACKS: dict[tuple[int, int], tuple[RamiRules, int, int]] = {}


def _pack(rules: RamiRules, active: int) -> tuple[int, int]:
    """Per face, the copies in the pack (packed, as the ``unknown`` plane starts), and
    the stock after the deal; cached (``deck_spec`` validates at every call)."""
    key = (id(rules), active)
    cached = _PACKS.get(key)
    if cached is None or cached[0] is not rules:
        spec = rules.deck_spec(active)
        counts = pack_counts([spec.decks] * JOKER_FACE + [spec.jokers])
        cached = _PACKS[key] = (rules, counts, spec.size - active * rules.hand_size - 1)
    return cached[1], cached[2]


def _table_planes(table: tuple[Combination, ...]) -> FacePlanes:
    """The table's share of the planes: its cards (taken off ``unknown``), its jokers'
    faces and the lay-off and swap faces."""
    planes = FacePlanes(_PLANES, unknown=_UNKNOWN, pack=0)
    declared_faces: list[int] = []
    layoffs = swaps = 0
    for combo in table:
        planes.seen(_TABLE, combo.cards)
        if combo.joker >= 0:
            declared = combo.cards[combo.joker] // PHYSICAL_IDS  # the face it stands for, plus one
            if declared:
                declared_faces.append(declared - 1)
        layoffs |= combo.accepts
        if combo.shift_face >= 0:
            layoffs |= 1 << combo.shift_face
        if combo.swap_face >= 0:
            swaps |= 1 << combo.swap_face
    planes.add(_TABLE_JOKERS, face_counts(declared_faces))  # a face is its first copy's id
    planes.add(_LAYOFF, flag_counts(layoffs))
    planes.add(_SWAP, flag_counts(swaps))
    return planes


def _pile_counts(pile: tuple[Card, ...]) -> int:
    """The faces of a discard pile, as a plane. A pile changes at its top, so the pile
    under the top was usually counted already."""
    if not pile:
        return 0
    under = _PILES.get(pile[:-1])
    return face_counts(pile) if under is None else under + face_counts(pile[-1:])


_PILES: Final[Memo[tuple[Card, ...], int]] = Memo(_pile_counts, limit=4096)


class _LastTable:
    """The planes of the last table encoded. Every seat sees the same table, and it
    changes only when a seat plays, so most observations reuse it; the tuples compare
    their combinations by identity first (hashing them would cost more than counting)."""

    __slots__ = ("_kept",)

    def __init__(self) -> None:
        self._kept: tuple[tuple[Combination, ...], FacePlanes] = ((), _table_planes(()))

    def planes(self, table: tuple[Combination, ...]) -> FacePlanes:
        kept, planes = self._kept
        if table != kept:
            planes = _table_planes(table)
            self._kept = (table, planes)
        return planes


_LAST_TABLE: Final = _LastTable()
_ROTATIONS: Final = tuple(
    tuple(tuple((seat + k) % players for k in range(players)) for seat in range(players))
    for players in range(MAX_SEATS + 1)
)
"""Per number of players and observer, the seats in relative order (observer first)."""


def _rotated(values: tuple[int, ...], seat: int) -> tuple[int, ...]:
    """Per-seat ``values`` in relative order: ``seat`` first, then the seats to its left."""
    return values[seat:] + values[:seat]


_FlagsKey = tuple[int, int, str, bool, int, int, tuple[int, ...], tuple[bool, ...]]


def _flags(key: _FlagsKey) -> bytes:
    """The scalars from ``phase`` to ``opened`` of the observer ``seat``, as ``float32``
    bytes: they change only with the phase, the seat to act and the seats' openings,
    so each is built once."""
    seat, current_player, phase, opened_this_turn, dealer, players, active, opened = key
    order = _ROTATIONS[players][seat]
    return _FLAGS_FORMAT[players].pack(
        *_PHASE_ONE_HOT[phase],
        1.0 if current_player == seat and phase != "over" else 0.0,
        1.0 if opened_this_turn else 0.0,
        *[1.0 if other in active else 0.0 for other in order],
        *[1.0 if other == dealer else 0.0 for other in order],
        *[1.0 if opened[other] else 0.0 for other in order],
    )


def _scalar_format(players: int, parts: str) -> struct.Struct:
    """``float32`` values in the machine's order: per letter of ``parts``, one value
    (``1``) or one per seat padded with zero bytes to ``MAX_SEATS`` (``s``)."""
    seats = f"{players}f{4 * (MAX_SEATS - players)}x"
    return struct.Struct("=" + "".join(seats if part == "s" else "f" for part in parts))


_FLAGS_FORMAT: Final = tuple(
    _scalar_format(players, "111111sss") for players in range(MAX_SEATS + 1)
)
"""Per number of players: phase (four values), to_act, opened_this_turn, seat_active,
dealer and opened."""
_TAIL_FORMAT: Final = tuple(_scalar_format(players, "s111s") for players in range(MAX_SEATS + 1))
"""Per number of players: hand_sizes, stock_size, refills, turn and scores."""
_FLAGS: Final[Memo[_FlagsKey, bytes]] = Memo(_flags, limit=4096)
_HAND_FRACTIONS: Final[Memo[int, tuple[float, ...]]] = Memo(
    lambda scale: tuple(size / scale for size in range(_MAX_DECKS * JOKER_FACE + MAX_COPIES))
)
"""Per ``hand_size + 1``, the ``hand_sizes`` scalar of every hand size (up to the
largest pack)."""


def encode(observation: RamiObservation) -> npt.NDArray[np.float32]:
    """The observation array of one seat's engine observation."""
    obs = observation
    seat = obs.seat
    players = obs.players
    rules = obs.rules
    active = obs.active
    pack, stock_after_deal = _pack(rules, len(active))
    planes = _LAST_TABLE.planes(obs.table).copy(pack=pack)
    planes.seen(_HAND, obs.hand)
    taken = obs.taken_card
    if taken is not None:
        planes.add(_TAKEN, face_counts((taken,)))
    pile = obs.discard_pile
    if pile:
        top = face_counts(pile[-1:])
        planes.seen_counts(_TOP, top)
        planes.seen_counts(_PILE, _PILES[pile] - top)
    order = _ROTATIONS[players][seat]  # this seat first, then the seats to its left
    known = obs.known_cards
    for k in range(1, players):
        cards = known[order[k]]
        if cards:
            planes.seen(_KNOWN + k - 1, cards)
    scores = obs.scores
    refills = rules.max_reshuffles
    flags = _FLAGS[
        seat,
        obs.current_player,
        obs.phase,
        obs.opened_this_turn,
        obs.dealer,
        players,
        active,
        obs.opened,
    ]
    return planes.array(
        flags
        + _TAIL_FORMAT[players].pack(
            *map(_HAND_FRACTIONS[rules.hand_size + 1].__getitem__, _rotated(obs.hand_sizes, seat)),
            min(obs.stock_size / stock_after_deal, 1.0),
            min(obs.refills / refills, 1.0) if refills else 0.0,
            min(obs.turn / rules.max_turns, 1.0),
            *(
                [_clip(total / rules.limit) for total in _rotated(scores, seat)]
                if scores
                else _ZEROS[players]
            ),
        )
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
