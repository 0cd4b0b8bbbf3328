"""A placement: the hand cards to lay, a legal new table that lays them, what they are
worth, and how the new table keeps the old one's places.

Both searches (the rank DP and the quick path) score a placement by the same packed
objective (:func:`objective_weights`) and show their layout the same way: old melds
that did not change stay as they were, and a changed meld takes the place of the old
meld it shares most cards with (:func:`homes`). Cards are compared as *tokens*, as a
player sees them: natural cards by face, jokers by declaration (:func:`token`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from rummykit.cards import FACES, JOKER_FACE, PHYSICAL_IDS, Card, card_value_gin

__all__ = [
    "JOKER_TOKEN",
    "TABLE_FACES",
    "TOKENS",
    "Placement",
    "group_in_old_order",
    "homes",
    "objective_weights",
    "table_face",
    "token",
    "token_face",
    "token_homes",
    "untouched",
]


@dataclass(frozen=True, slots=True)
class Placement:
    """The best hand cards to lay and one legal new table that lays them."""

    layout: tuple[tuple[Card, ...], ...]
    """The complete new table: every old table card, the placed cards, declared jokers.
    Old melds, changed or not, keep their place; new melds follow."""
    cards: tuple[Card, ...]
    """The hand cards placed (ids from the hand; a joker without its declaration)."""
    value: int
    """Their Carousel hand value."""
    count: int
    """How many hand cards are placed."""
    freed: tuple[Card, ...]
    """Declarations given up by freed table jokers (one per freed joker)."""
    untouched: int
    """How many melds of the old table appear unchanged in :attr:`layout`."""

    @classmethod
    def laying(
        cls,
        layout: Sequence[tuple[Card, ...]],
        cards: Sequence[Card],
        freed: Sequence[Card],
        untouched: int,
        joker_value: int,
    ) -> Placement:
        """The placement of a new table that lays ``cards``, valued as Carousel counts
        them (a joker ``joker_value``)."""
        values = _FACE_VALUES
        value = 0
        for card in cards:
            face = FACES[card]
            value += joker_value if face == JOKER_FACE else values[face]
        return cls(
            layout=tuple(layout),
            cards=tuple(cards),
            value=value,
            count=len(cards),
            freed=tuple(sorted(freed)),
            untouched=untouched,
        )


_FACE_VALUES: Final = tuple(card_value_gin(f) for f in range(52))
"""Per natural face, its Carousel value (:func:`~rummykit.games.carousel.rules.placement_value`)."""


def objective_weights(
    hand_cards: Sequence[Card],
    objective: str,
    joker_value: int,
    scale: int = 1,
) -> tuple[list[int], int]:
    """The lexicographic objective packed into one integer per hand card: per face, and
    for a joker. ``value`` puts the value first and the count second, ``count`` the
    other way round; ``scale`` leaves room below for a tie-break."""
    values = _FACE_VALUES
    if objective == "value":
        per_count = len(hand_cards) + 1
        weight = [(v * per_count + 1) * scale for v in values]
        return weight, (joker_value * per_count + 1) * scale
    per_value = sum(values[c.face] for c in hand_cards if not c.is_joker)
    per_value += joker_value * sum(1 for c in hand_cards if c.is_joker) + 1
    return [(per_value + v) * scale for v in values], (per_value + joker_value) * scale


JOKER_TOKEN: Final = 64
"""A joker's token is this plus its declared face (see :func:`token`)."""

TOKENS: Final[tuple[int, ...]] = tuple(
    face if face != JOKER_FACE else JOKER_TOKEN + (card // PHYSICAL_IDS or 64) - 1
    for card, face in enumerate(FACES)
)
"""The token of every card id (:func:`token`): hot loops index ``TOKENS[card]``."""

_PHYSICAL_MASK: Final = PHYSICAL_IDS - 1


def token(card: Card) -> int:
    """A card as a player sees it: the natural face, or ``JOKER_TOKEN`` + the declared
    face (+ 63 for an undeclared joker)."""
    return TOKENS[card]


def token_face(tok: int) -> int:
    """The face a token stands for."""
    return tok - JOKER_TOKEN if tok >= JOKER_TOKEN else tok


TABLE_FACES: Final[tuple[int, ...]] = tuple(
    card // PHYSICAL_IDS - 1 if face == JOKER_FACE else face for card, face in enumerate(FACES)
)
"""The face every card id stands for on the table (:func:`table_face`; -1 for a joker
without a declaration): hot loops index ``TABLE_FACES[card]``."""


def table_face(card: Card) -> int:
    """The face a table card stands for (a joker's declaration)."""
    face = TABLE_FACES[card]
    assert face >= 0, "a table joker has a declaration"
    return face


def homes(
    leftovers: Sequence[Mapping[int, int]], melds: Sequence[Sequence[Card]], free: Sequence[int]
) -> dict[int, int]:
    """Each changed meld (its tokens, counted) -> the free old meld it shares most cards
    with, greedily, most shared first; a changed meld sharing nothing gets no home."""
    return token_homes(
        [[tok for tok, k in have.items() for _ in range(k)] for have in leftovers], melds, free
    )


def token_homes(
    leftovers: Sequence[Sequence[int]], melds: Sequence[Sequence[Card]], free: Sequence[int]
) -> dict[int, int]:
    """:func:`homes` of changed melds given as their tokens."""
    olds = [(index, _token_mask(melds[index])) for index in free]
    scored: list[tuple[int, int, int]] = []
    for n, tokens in enumerate(leftovers):
        mask = 0
        for tok in tokens:
            mask |= 1 << tok
        distinct = mask.bit_count() == len(tokens)
        for index, (old_mask, old_distinct) in olds:
            if mask & old_mask:
                # Cards shared: tokens in common, unless a token shows more than once.
                if distinct and old_distinct:
                    shared = (mask & old_mask).bit_count()
                else:
                    shared = _shared_cards(tokens, melds[index])
                scored.append((-shared, n, index))
    if len(scored) > 1:
        scored.sort()
    home: dict[int, int] = {}
    taken: set[int] = set()
    for _shared, n, index in scored:
        if n not in home and index not in taken:
            home[n] = index
            taken.add(index)
    return home


def _shared_cards(tokens: Sequence[int], meld: Sequence[Card]) -> int:
    """How many cards a changed meld (its tokens) shares with an old meld, copies
    counted."""
    have = Counter(tokens)
    return sum(min(have[tok], k) for tok, k in _token_counts(meld) if tok in have)


_TOKEN_MASKS: dict[tuple[Card, ...], tuple[int, bool]] = {}
"""Per table meld, its tokens as bits and whether they are distinct."""
_TOKEN_MASKS_KEPT: Final = 100_000


def _token_mask(meld: Sequence[Card]) -> tuple[int, bool]:
    """A meld's tokens as a set of bits, and whether no token shows twice."""
    key = tuple(meld)
    found = _TOKEN_MASKS.get(key)
    if found is None:
        if len(_TOKEN_MASKS) >= _TOKEN_MASKS_KEPT:
            _TOKEN_MASKS.clear()
        mask = 0
        for card in key:
            mask |= 1 << TOKENS[card]
        found = _TOKEN_MASKS[key] = (mask, mask.bit_count() == len(key))
    return found


_TOKEN_COUNTS: dict[tuple[Card, ...], tuple[tuple[int, int], ...]] = {}
"""Per table meld, its tokens with their copies: a meld outlives many searches."""
_TOKEN_COUNTS_KEPT: Final = 100_000


def _token_counts(meld: Sequence[Card]) -> tuple[tuple[int, int], ...]:
    """A meld's tokens, each with how many of its cards show it."""
    key = tuple(meld)
    found = _TOKEN_COUNTS.get(key)
    if found is None:
        if len(_TOKEN_COUNTS) >= _TOKEN_COUNTS_KEPT:
            _TOKEN_COUNTS.clear()
        found = _TOKEN_COUNTS[key] = tuple(Counter(map(TOKENS.__getitem__, key)).items())
    return found


def group_in_old_order(
    cards: Sequence[Card], old: Sequence[Card], from_hand: set[int], tie: Callable[[Card], int]
) -> tuple[Card, ...]:
    """A changed group as a player expects it: the cards of the old meld it takes the
    place of in that meld's order, then table cards, then hand cards (ids in
    ``from_hand``), ``tie`` ordering the rest."""
    tokens = TOKENS
    order: dict[int, int] = {}
    for position, card in enumerate(old):
        order.setdefault(tokens[card], position)
    return tuple(
        sorted(
            cards,
            key=lambda c: (order.get(tokens[c], 99), (c & _PHYSICAL_MASK) in from_hand, tie(c)),
        )
    )


def untouched(old: Sequence[Sequence[Card]], new: Sequence[Sequence[Card]]) -> int:
    """How many old melds appear, card for card, in the new layout."""
    have = Counter(tuple(m) for m in new)
    count = 0
    for meld in old:
        key = tuple(meld)
        if have[key]:
            have[key] -= 1
            count += 1
    return count
