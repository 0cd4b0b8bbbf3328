"""The 165 Rami action ids: cards by face, draws, and the solvers' macro-actions.

Rami plays with two or three decks and jokers, and its openings, melds, lay-offs
and joker swaps are open-ended, so the engine lists only its finite moves
(:meth:`~rummykit.games.rami.round.RamiRound.legal_actions`). The encoding keeps every id
meaningful on its own: cards are named by **face** (the 52 natural faces in card-id
order, suit-major s c d h and ace low, then the joker), and each id resolves, in the
current position, to exactly one engine action:

========= ==============================================================================
ids       meaning
========= ==============================================================================
0-52      discard a card of this face (52: a joker)
53-105    lay off a card of face ``id - 53`` onto the first table combination that
          takes it (105: a joker)
106-157   joker swap: give the real card of face ``id - 106`` for the table joker that
          stands for it; the freed joker goes where it leaves the least in hand
158       draw from the stock
159       take the top of the discard pile (with ``discard_must_be_melded``: take it
          together with the solvers' first play that lays it)
160       end the play phase (go on to the discard)
161       open with the solver's best opening (least penalty left in hand)
162       open with the best opening that keeps the jokers in hand
163       lay the first combination of the solver's best new combinations
164       the same, keeping the jokers in hand
========= ==============================================================================

>>> NUM_ACTIONS, LAYOFF_BASE, SWAP_BASE, DRAW_STOCK
(165, 53, 106, 158)
>>> action_string(0), action_string(52), action_string(53 + 45), action_string(106 + 9)
('Discard AS', 'Discard JK', 'Lay off 7H', 'Swap TS for a joker')
>>> action_string(161)
'Open (best)'
>>> from rummykit.games.rami import parse_card_token
>>> layoff_id(parse_card_token("7H@1")), swap_id(parse_card_token("TS"))
(98, 115)
"""

from __future__ import annotations

from typing import Final

from rummykit.cards import JOKER_FACE, face_of, format_card
from rummykit.rl.action_layout import ActionLayout

__all__ = [
    "DRAW_STOCK",
    "END_PLAY",
    "FACES",
    "LAYOFF_BASE",
    "MELD",
    "MELD_KEEP_JOKERS",
    "NUM_ACTIONS",
    "OPEN",
    "OPEN_KEEP_JOKERS",
    "SWAP_BASE",
    "TAKE_DISCARD",
    "action_string",
    "layoff_id",
    "swap_id",
]

FACES: Final = JOKER_FACE + 1
"""53: the natural faces 0-51 and the joker (52)."""

_IDS: Final = ActionLayout("rami")
_IDS.family(f"Discard {format_card(face)}" for face in range(FACES))  # the id is the face
LAYOFF_BASE: Final = _IDS.family(f"Lay off {format_card(face)}" for face in range(FACES)).start
SWAP_BASE: Final = _IDS.family(
    f"Swap {format_card(face)} for a joker" for face in range(JOKER_FACE)
).start
DRAW_STOCK: Final = _IDS.single("Draw stock")
TAKE_DISCARD: Final = _IDS.single("Take discard")
END_PLAY: Final = _IDS.single("End play")
OPEN: Final = _IDS.single("Open (best)")
OPEN_KEEP_JOKERS: Final = _IDS.single("Open keeping jokers")
MELD: Final = _IDS.single("Meld (best)")
MELD_KEEP_JOKERS: Final = _IDS.single("Meld keeping jokers")
NUM_ACTIONS: Final = _IDS.size


def action_string(action_id: int) -> str:
    """A readable name of an action id."""
    return _IDS.name(action_id)


def layoff_id(card: int) -> int:
    """The lay-off id of a card (any copy, a declared joker counts as a joker)."""
    return LAYOFF_BASE + face_of(card)


def swap_id(card: int) -> int:
    """The joker-swap id of the real card given for the joker."""
    face = face_of(card)
    if face >= JOKER_FACE:
        raise ValueError("a joker swap gives a natural card, not a joker")
    return SWAP_BASE + face
