"""The 158 Carousel action ids (encoding version 1): simple melds by name, the exact
solver's placements as macro-actions, and the finite moves.

A Carousel meld submits the whole new table (the Carousel rules, §3), so the
moves a player could make are open-ended. The ids keep a finite, fixed vocabulary in
which every id means one thing on its own; at each decision an id resolves to exactly
one engine action, a complete layout the engine accepts:

========= ==============================================================================
ids       meaning
========= ==============================================================================
0-51      lay off a hand card of this face (card-id order: suit-major s c d h, ace
          low) at an end of the **first** table meld that takes it, the rest of the
          table unchanged
52-103    a new set of three from the hand: ``52 + 4 * rank + suit``, the three cards
          of ``rank`` (A=0 ... K=12) *without* ``suit`` (s, c, d, h)
104-151   a new run of three from the hand: ``104 + 12 * suit + low``, the cards of
          ``suit`` from rank ``low`` (A=0 ... Q=11; ``low=11`` is Q-K-A, ace high)
152       draw another card (``draw``)
153       end the turn (``end_turn``)
154       knock (end the turn and knock)
155       the solver's best placement: the hand cards of greatest value that can be
          laid, with any rearrangement of the table (``best_placement``)
156       the solver's placement of the most cards (``objective="count"``)
157       the solver's best placement by value, as a layout of few table changes
          (``few_changes=True``; the same cards as 155, often the same layout)
========= ==============================================================================

>>> NUM_ACTIONS, SET_BASE, RUN_BASE, DRAW, PLACE_BEST
(158, 52, 104, 152, 155)
>>> action_string(0), action_string(SET_BASE + 4 * 6 + 0), action_string(RUN_BASE + 12 * 3 + 11)
('Lay off AS', 'Set 7C 7D 7H', 'Run QH KH AH')
>>> set_id([19, 45, 32]), run_id([50, 51, 39])
(76, 151)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from rummykit.cards import format_card
from rummykit.rl.action_layout import ActionLayout

__all__ = [
    "DRAW",
    "ENCODING_VERSION",
    "END_TURN",
    "KNOCK",
    "LAYOFF_BASE",
    "MELD_CARDS",
    "NUM_ACTIONS",
    "PLACE_BEST",
    "PLACE_FEW_CHANGES",
    "PLACE_MOST",
    "RUN_BASE",
    "SET_BASE",
    "action_string",
    "run_id",
    "set_id",
]

ENCODING_VERSION: Final = 1
"""Bumped whenever an id changes meaning (docs/rl.md keeps the changelog)."""
SUITS: Final = 4
RANKS: Final = 13


def _set_faces(rank: int, missing: int) -> tuple[int, ...]:
    return tuple(suit * RANKS + rank for suit in range(SUITS) if suit != missing)


def _run_faces(suit: int, low: int) -> tuple[int, ...]:
    return tuple(suit * RANKS + (low + step) % RANKS for step in range(3))


def _meld_name(kind: str, faces: tuple[int, ...]) -> str:
    return f"{kind} " + " ".join(format_card(face) for face in faces)


_SETS: Final = tuple(_set_faces(rank, missing) for rank in range(RANKS) for missing in range(SUITS))
_RUNS: Final = tuple(_run_faces(suit, low) for suit in range(SUITS) for low in range(12))

_IDS: Final = ActionLayout("carousel")
LAYOFF_BASE: Final = _IDS.family(f"Lay off {format_card(face)}" for face in range(52)).start
SET_BASE: Final = _IDS.family(_meld_name("Set", faces) for faces in _SETS).start
RUN_BASE: Final = _IDS.family(_meld_name("Run", faces) for faces in _RUNS).start
DRAW: Final = _IDS.single("Draw")
END_TURN: Final = _IDS.single("End turn")
KNOCK: Final = _IDS.single("Knock")
PLACE_BEST: Final = _IDS.single("Place (best)")
PLACE_MOST: Final = _IDS.single("Place (most cards)")
PLACE_FEW_CHANGES: Final = _IDS.single("Place (few changes)")
NUM_ACTIONS: Final = _IDS.size

MELD_CARDS: Final[dict[int, tuple[int, ...]]] = dict(enumerate((*_SETS, *_RUNS), SET_BASE))
"""The faces of each new-meld id (52-151)."""
_MELD_ID: Final = {frozenset(faces): action_id for action_id, faces in MELD_CARDS.items()}


def action_string(action_id: int) -> str:
    """A readable name of an action id."""
    return _IDS.name(action_id)


def set_id(faces: Sequence[int]) -> int:
    """The id of a new set of three (by the natural faces it holds)."""
    found = _MELD_ID.get(frozenset(faces))
    if found is None or found >= RUN_BASE:
        raise ValueError(f"not a set of three faces: {list(faces)}")
    return found


def run_id(faces: Sequence[int]) -> int:
    """The id of a new run of three (by the natural faces it holds)."""
    found = _MELD_ID.get(frozenset(faces))
    if found is None or found < RUN_BASE:
        raise ValueError(f"not a run of three faces: {list(faces)}")
    return found
