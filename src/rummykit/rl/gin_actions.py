"""The 241 gin action ids, identical to OpenSpiel's ``gin_rummy`` encoding.

======== ===================================================================
ids      meaning
======== ===================================================================
0-51     a card (suit-major s c d h, ace low): the card to discard, or after
         a knock the card to knock with
52       draw upcard: take the upcard in the offer, or draw the discard pile
53       draw stock
54       pass: decline the upcard in the offer; after a knock, end the meld
         list (or, as the first choice after a knock, declare big gin)
55       knock (then the knock card; a two-step macro)
56-240   the 185 melds: for each rank A..K the four 3-card sets (without s,
         without c, without d, without h) then the 4-card set (65 ids), then
         the runs of 3 (suits s c d h, lowest card A..J, 44 ids), of 4
         (40 ids) and of 5 (36 ids)
======== ===================================================================

The order of the 185 melds was read from OpenSpiel's ``gin_rummy`` and is checked
against pyspiel's action strings in the tests.

>>> MELD_BASE, NUM_MELDS, NUM_ACTIONS
(56, 185, 241)
>>> action_string(56), action_string(121), action_string(240)
('AcAdAh', 'As2s3s', '9hThJhQhKh')
>>> meld_id("2S 3S 4S 5S")
166
>>> [encode_action(a) for a in (GinAction.take_upcard(), GinAction.knock("7H"))]
[(52,), (55, 45)]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from rummykit.cards import RANKS, SUITS, Card, parse_cards
from rummykit.games.gin import GinAction
from rummykit.rl.action_layout import ActionLayout

__all__ = [
    "CARD_IDS",
    "DRAW_STOCK",
    "DRAW_UPCARD",
    "KNOCK",
    "MELD_BASE",
    "MELD_CARDS",
    "MELD_MASKS",
    "NUM_ACTIONS",
    "NUM_MELDS",
    "PASS",
    "action_string",
    "encode_action",
    "meld_id",
    "split_meld",
]


def _build_melds() -> tuple[tuple[Card, ...], ...]:
    melds: list[tuple[Card, ...]] = []
    for rank in range(13):
        for missing in range(4):
            melds.append(tuple(Card(s * 13 + rank) for s in range(4) if s != missing))
        melds.append(tuple(Card(s * 13 + rank) for s in range(4)))
    for length in (3, 4, 5):
        for suit in range(4):
            for low in range(13 - length + 1):
                melds.append(tuple(Card(suit * 13 + low + i) for i in range(length)))
    return tuple(melds)


def _card_string(card: int) -> str:
    """OpenSpiel's card notation: rank letter then lower-case suit (``As``, ``Th``)."""
    return RANKS[card % 13] + SUITS[card // 13].lower()


MELD_CARDS: Final = _build_melds()
"""The cards of meld id ``MELD_BASE + i`` at index ``i``."""

_IDS: Final = ActionLayout("gin")
CARD_IDS: Final = _IDS.family(_card_string(card) for card in range(52))
DRAW_UPCARD: Final = _IDS.single("Draw upcard")
DRAW_STOCK: Final = _IDS.single("Draw stock")
PASS: Final = _IDS.single("Pass")
KNOCK: Final = _IDS.single("Knock")
MELD_BASE: Final = _IDS.family("".join(map(_card_string, meld)) for meld in MELD_CARDS).start
NUM_MELDS: Final = len(MELD_CARDS)
NUM_ACTIONS: Final = _IDS.size

MELD_MASKS: Final = tuple(sum(1 << card for card in meld) for meld in MELD_CARDS)
"""The card bitmask of meld id ``MELD_BASE + i`` at index ``i``."""
_MELD_BY_MASK: Final = {mask: MELD_BASE + i for i, mask in enumerate(MELD_MASKS)}


def action_string(action_id: int) -> str:
    """OpenSpiel's name of an action id (without its ``Player: N Action:`` prefix)."""
    return _IDS.name(action_id)


def meld_id(cards: Iterable[int] | str) -> int:
    """The action id of a meld given by its cards (any order, ids or notation).

    Raises ``ValueError`` for cards that are not one of the 185 melds (in particular
    runs longer than five cards: see :func:`split_meld`).
    """
    cards = parse_cards(cards) if isinstance(cards, str) else list(cards)
    mask = sum(1 << int(card) for card in cards)
    found = _MELD_BY_MASK.get(mask)
    if found is None or mask.bit_count() != len(cards):
        shown = " ".join(str(Card(card)) for card in cards)
        raise ValueError(f"{shown} is not one of the 185 melds of the gin action encoding")
    return found


def split_meld(cards: Sequence[int]) -> list[tuple[int, ...]]:
    """A meld cut into pieces the encoding has: runs of six or more cards become runs
    of three to five (a 6-run is two 3-runs, a 7-run a 4-run and a 3-run, ...).

    >>> [" ".join(map(str, map(Card, p))) for p in split_meld(parse_cards("3H 4H 5H 6H 7H 8H"))]
    ['3H 4H 5H', '6H 7H 8H']
    """
    ordered = sorted(int(card) for card in cards)
    pieces: list[tuple[int, ...]] = []
    while len(ordered) > 5:
        take = 5 if len(ordered) - 5 >= 3 else len(ordered) - 3
        pieces.append(tuple(ordered[:take]))
        ordered = ordered[take:]
    pieces.append(tuple(ordered))
    return pieces


def encode_action(action: GinAction, *, melds: bool = True) -> tuple[int, ...]:
    """The id sequence an engine action takes in the encoding.

    ``take_upcard`` and ``draw_discard`` are ``(52,)``; a discard is ``(card,)``; a knock
    is ``(55, card)`` or, with explicit melds (and ``melds`` true: the environments'
    ``knock_melds="choose"``), ``(55, card, meld ids ascending..., 54)``; big gin is
    ``(55, 54)``. ``lay_off`` has no ids: the environments lay off optimally.
    """
    kind = action.kind
    if kind in ("take_upcard", "draw_discard"):
        return (DRAW_UPCARD,)
    if kind == "draw_stock":
        return (DRAW_STOCK,)
    if kind == "pass":
        return (PASS,)
    if kind == "discard":
        return (int(action.card),)  # type: ignore[arg-type]
    if kind == "knock":
        head = (KNOCK, int(action.card))  # type: ignore[arg-type]
        if action.melds is None or not melds:
            return head
        ids = sorted(meld_id(piece) for meld in action.melds for piece in split_meld(meld))
        return (*head, *ids, PASS)
    if kind == "big_gin":
        return (KNOCK, PASS)
    raise ValueError(f"{action} has no action id: the environments lay off automatically")
