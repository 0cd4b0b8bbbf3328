"""Exact Gin Rummy deadwood: the best arrangement, the best discard, and layoffs.

Hands are 52-bit masks internally (bit ``suit * 13 + rank - 1``, the card id), so the
solvers never build per-card objects. Sets are the only melds that span suits, so the
solver enumerates the choices of sets (a 10- or 11-card hand has at most three ranks
with three or more suits, usually none) and, for each, reads every suit's best run
packing from a table built once over all 8,192 suit patterns. The best discard of an
11-card hand uses a second table (per pattern, the best value of the runs left plus the
card dropped), so the 11 questions cost one pass over the set choices.

>>> from rummykit.cards import parse_cards, format_cards
>>> arrangement = min_deadwood(parse_cards("AS 2S 3S 4S 4H 4D 9C"))
>>> arrangement.deadwood, [format_cards(m) for m in arrangement.melds]
(9, ['AS 2S 3S', '4S 4D 4H'])
>>> choice = best_discard(parse_cards("AS 2S 3S 4H 4D 4C 7C 8C 9C KD 5H"))
>>> str(choice.card), choice.deadwood
('KD', 5)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from typing import Final, NamedTuple

from rummykit.cards import Card, face_of
from rummykit.errors import InvalidCardError

__all__ = [
    "Arrangement",
    "Discard",
    "best_discard",
    "best_discard_mask",
    "cards_of_mask",
    "deadwood_after_each_discard",
    "mask_of",
    "mask_value",
    "meld_union",
    "melds_in_mask",
    "min_deadwood",
    "min_deadwood_mask",
    "top_card_value",
]

FULL_SUIT: Final = (1 << 13) - 1
CARD_VALUES: Final = tuple(min(card % 13 + 1, 10) for card in range(52))
"""Deadwood value of each card id: ace 1, pips, courts 10."""


@cache
def _runs_in_pattern(pattern: int, ace_high: bool) -> tuple[tuple[int, int], ...]:
    """Every run (13-bit mask, value) inside one suit pattern; with ``ace_high`` the ace
    may also follow the king."""
    order = list(range(13)) + ([0] if ace_high else [])
    runs: list[tuple[int, int]] = []
    for start in range(len(order) - 2):
        mask = 0
        value = 0
        for position in order[start:]:
            bit = 1 << position
            if not pattern & bit or mask & bit:
                break
            mask |= bit
            value += min(position + 1, 10)
            if mask.bit_count() >= 3:
                runs.append((mask, value))
    return tuple(runs)


def _rotate(pattern: int) -> int:
    """Ranks 2..K then the ace: the ace moves from the bottom bit to the top one."""
    return (pattern >> 1) | ((pattern & 1) << 12)


def _unrotate(pattern: int) -> int:
    return ((pattern << 1) & FULL_SUIT) | (pattern >> 12)


# Every set (three or four suits of one rank) by rank: (mask, value).
_SETS_BY_RANK: Final = tuple(
    tuple(
        (sum(1 << (suit * 13 + rank) for suit in suits), len(suits) * min(rank + 1, 10))
        for suits in ((0, 1, 2, 3), (1, 2, 3), (0, 2, 3), (0, 1, 3), (0, 1, 2))
    )
    for rank in range(13)
)


def mask_of(cards: Iterable[int]) -> int:
    """The bitmask of card ids (single deck, no jokers)."""
    listed = cards if isinstance(cards, list | tuple) else list(cards)
    mask = 0
    try:
        for card in listed:
            mask |= 1 << card
    except ValueError:  # a negative id: let the checked loop below name it
        mask = -1
    if 0 <= mask < 1 << 52 and mask.bit_count() == len(listed):
        return mask
    # Something is wrong: find the first bad card and say what it is.
    mask = 0
    for card in listed:
        if not 0 <= card < 52:
            shown = str(Card(card)) if face_of(card) <= 52 else f"card id {int(card)}"
            raise InvalidCardError(f"{shown} is not a card of a single 52-card deck")
        bit = 1 << card
        if mask & bit:
            raise InvalidCardError(f"{Card(card)} appears twice in the hand")
        mask |= bit
    return mask  # pragma: no cover - the fast path above accepts every valid hand


# Per 13-bit suit pattern: the cards it holds (as ids offset by suit) and their value.
def _pattern_tables() -> tuple[
    tuple[tuple[tuple[Card, ...], ...], ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]
]:
    """Per 13-bit suit pattern: its cards (per suit), their value, top value, run cards.

    Each entry extends the entry of the pattern without its highest bit, so building
    them is one pass.
    """
    size = 1 << 13
    naturals = [Card(face) for face in range(52)]  # shared: 52 objects, not one per entry
    cards: list[list[tuple[Card, ...]]] = [[()] * size for _ in range(4)]
    value = [0] * size
    top = [0] * size
    for pattern in range(1, size):
        high = pattern.bit_length() - 1
        rest = pattern ^ (1 << high)
        worth = min(high + 1, 10)
        value[pattern] = value[rest] + worth
        top[pattern] = max(top[rest], worth)
        for suit in range(4):
            cards[suit][pattern] = (*cards[suit][rest], naturals[13 * suit + high])
    # A card is in a run when a stretch of three consecutive bits covers it.
    triple = [0] * size
    for pattern in range(size):
        starts = pattern & (pattern >> 1) & (pattern >> 2)
        triple[pattern] = starts | starts << 1 | starts << 2
    return tuple(tuple(c) for c in cards), tuple(value), tuple(top), tuple(triple)


_SUIT_CARDS, _SUIT_VALUE, _SUIT_TOP_VALUE, _RUN_UNION = _pattern_tables()


def cards_of_mask(mask: int) -> list[Card]:
    """Card ids in a mask, ascending."""
    table = _SUIT_CARDS
    return [
        *table[0][mask & FULL_SUIT],
        *table[1][(mask >> 13) & FULL_SUIT],
        *table[2][(mask >> 26) & FULL_SUIT],
        *table[3][(mask >> 39) & FULL_SUIT],
    ]


def mask_value(mask: int) -> int:
    """Total deadwood value of the cards in ``mask``."""
    value = _SUIT_VALUE
    return (
        value[mask & FULL_SUIT]
        + value[(mask >> 13) & FULL_SUIT]
        + value[(mask >> 26) & FULL_SUIT]
        + value[(mask >> 39) & FULL_SUIT]
    )


def top_card_value(mask: int) -> int:
    """The highest deadwood value of a card in ``mask`` (0 when empty)."""
    top = _SUIT_TOP_VALUE
    return max(
        top[mask & FULL_SUIT],
        top[(mask >> 13) & FULL_SUIT],
        top[(mask >> 26) & FULL_SUIT],
        top[(mask >> 39) & FULL_SUIT],
    )


def meld_union(mask: int, ace_high: bool = False) -> int:
    """The cards of ``mask`` that belong to at least one meld inside ``mask``."""
    union = 0
    table = _RUN_UNION
    once = twice = triples = 0  # ranks held in at least one, two, three suits
    for suit in range(4):
        shift = 13 * suit
        pattern = (mask >> shift) & FULL_SUIT
        bits = table[pattern]
        if ace_high:
            bits |= _unrotate(table[_rotate(pattern)])
        union |= bits << shift
        triples |= twice & pattern
        twice |= once & pattern
        once |= pattern
    if triples:
        union |= mask & (triples | triples << 13 | triples << 26 | triples << 39)
    return union


def melds_in_mask(mask: int, ace_high: bool = False) -> list[tuple[int, int]]:
    """Every meld (as ``(mask, value)``) made only of cards in ``mask``."""
    melds: list[tuple[int, int]] = []
    for suit in range(4):
        pattern = (mask >> (13 * suit)) & FULL_SUIT
        if pattern:
            shift = 13 * suit
            melds.extend(
                (run << shift, value) for run, value in _runs_in_pattern(pattern, ace_high)
            )
    a = mask & FULL_SUIT
    b = (mask >> 13) & FULL_SUIT
    c = (mask >> 26) & FULL_SUIT
    d = (mask >> 39) & FULL_SUIT
    triples = (a & b & c) | (a & b & d) | (a & c & d) | (b & c & d)
    while triples:
        low = triples & -triples
        rank = low.bit_length() - 1
        for set_mask, value in _SETS_BY_RANK[rank]:
            if mask & set_mask == set_mask:
                melds.append((set_mask, value))
        triples ^= low
    return melds


class _SuitTables:
    """Per 13-bit suit pattern: the best run packing and the best single removal.

    Sets are the only melds that span suits, so once the sets are chosen every suit is
    independent: its best run value is one table lookup. ``best[p]`` is the greatest
    value of disjoint runs inside pattern ``p``; ``choice[p]`` the run through the
    lowest card of ``p`` in one such packing (0: that card stays loose);
    ``drop_gain[p]``/``drop_pos[p]`` the best ``best[p - c] + value(c)`` over the cards
    ``c`` of ``p`` and which card gives it (ties: the higher card).
    """

    __slots__ = ("best", "choice", "drop_gain", "drop_pos", "rotated")

    def __init__(self, ace_high: bool) -> None:
        low_values = [min(pos + 1, 10) for pos in range(13)]
        best, choice = _run_packings(low_values)
        self.rotated: tuple[list[int], list[int]] | None = None
        if ace_high:
            # In "rotated" space the ranks run 2..K then the ace: a packing that uses a
            # high ace is a low-ace-free packing there.
            rotated_values = [min(pos + 2, 10) for pos in range(12)] + [1]
            rotated = _run_packings(rotated_values)
            self.rotated = rotated
            best = [max(best[p], rotated[0][(p >> 1) | ((p & 1) << 12)]) for p in range(1 << 13)]
        self.best = best
        self.choice = choice
        gain = [-1000] * (1 << 13)
        where = [-1] * (1 << 13)
        for pattern in range(1, 1 << 13):
            top_gain, top_pos = -1000, -1
            rest = pattern
            while rest:
                bit = rest & -rest
                pos = bit.bit_length() - 1
                candidate = best[pattern ^ bit] + low_values[pos]
                if candidate >= top_gain:
                    top_gain, top_pos = candidate, pos
                rest ^= bit
            gain[pattern], where[pattern] = top_gain, top_pos
        self.drop_gain = gain
        self.drop_pos = where

    def runs(self, pattern: int) -> list[int]:
        """The runs (13-bit masks) of one best packing of ``pattern``."""
        rotated = self.rotated
        if rotated is not None:
            turned = _rotate(pattern)
            if rotated[0][turned] > self.best_low(pattern):
                return [_unrotate(run) for run in _unpack(rotated[1], turned)]
        return _unpack(self.choice, pattern)

    def best_low(self, pattern: int) -> int:
        """Best packing value without a high ace."""
        value = 0
        for run in _unpack(self.choice, pattern):
            value += _SUIT_VALUE[run]
        return value


def _run_packings(values: list[int]) -> tuple[list[int], list[int]]:
    """Best disjoint-run value of every 13-bit pattern, with the run at its lowest card."""
    size = 1 << 13
    best = [0] * size
    choice = [0] * size
    for pattern in range(1, size):
        low = pattern & -pattern
        start = low.bit_length() - 1
        top = best[pattern ^ low]
        chosen = 0
        run = low
        value = values[start]
        end = start + 1
        while end < 13 and pattern >> end & 1:
            run |= 1 << end
            value += values[end]
            if end - start >= 2:
                candidate = value + best[pattern & ~run]
                if candidate > top:
                    top, chosen = candidate, run
            end += 1
        best[pattern] = top
        choice[pattern] = chosen
    return best, choice


def _unpack(choice: list[int], pattern: int) -> list[int]:
    runs = []
    while pattern:
        run = choice[pattern]
        if run:
            runs.append(run)
            pattern &= ~run
        else:
            pattern ^= pattern & -pattern
    return runs


_TABLES: dict[bool, _SuitTables] = {}


def _tables(ace_high: bool) -> _SuitTables:
    tables = _TABLES.get(ace_high)
    if tables is None:
        tables = _TABLES[ace_high] = _SuitTables(ace_high)
    return tables


def _set_choices(mask: int) -> list[tuple[int, int]]:
    """Every choice of sets inside ``mask`` (none first): ``(cards used, value)``."""
    a = mask & FULL_SUIT
    b = (mask >> 13) & FULL_SUIT
    c = (mask >> 26) & FULL_SUIT
    d = (mask >> 39) & FULL_SUIT
    triples = (a & b & c) | (a & b & d) | (a & c & d) | (b & c & d)
    choices = [(0, 0)]
    while triples:
        low = triples & -triples
        options = [
            (set_mask, value)
            for set_mask, value in _SETS_BY_RANK[low.bit_length() - 1]
            if mask & set_mask == set_mask
        ]
        choices = choices + [
            (used | set_mask, total + value)
            for used, total in choices
            for set_mask, value in options
        ]
        triples ^= low
    return choices


class Arrangement(NamedTuple):
    """One optimal arrangement of a hand: melds, deadwood cards and their value.

    A named tuple rather than a frozen dataclass: it is built on every solver call and
    tuple construction is several times cheaper.
    """

    deadwood: int
    melds: tuple[tuple[Card, ...], ...]
    deadwood_cards: tuple[Card, ...]


class Discard(NamedTuple):
    """The best discard from an 11-card hand and the deadwood of the 10 cards left."""

    card: Card
    deadwood: int


def _best_melded(mask: int, best: list[int]) -> tuple[int, int]:
    """(greatest melded value, cards in sets of one optimal choice)."""
    top, top_sets = -1, 0
    for used, value in _set_choices(mask):
        rest = mask & ~used
        value += (
            best[rest & FULL_SUIT]
            + best[(rest >> 13) & FULL_SUIT]
            + best[(rest >> 26) & FULL_SUIT]
            + best[rest >> 39]
        )
        if value > top:
            top, top_sets = value, used
    return top, top_sets


def min_deadwood_mask(mask: int, ace_high: bool = False) -> int:
    """Minimum deadwood value of the hand ``mask`` (meant for hands of up to ~15 cards:
    the set choices grow as 6 to the power of the ranks held in three or four suits)."""
    best = _tables(ace_high).best
    a = mask & FULL_SUIT
    b = (mask >> 13) & FULL_SUIT
    c = (mask >> 26) & FULL_SUIT
    d = mask >> 39
    value = _SUIT_VALUE
    total = value[a] + value[b] + value[c] + value[d]
    if not ((a & b & c) | (a & b & d) | (a & c & d) | (b & c & d)):
        return total - best[a] - best[b] - best[c] - best[d]
    return total - _best_melded(mask, best)[0]


def min_deadwood(cards: Sequence[int], *, ace_high: bool = False) -> Arrangement:
    """The minimum deadwood of a hand (up to 11 cards) with one optimal arrangement.

    Ties between arrangements are broken canonically (runs before sets, then the
    table order), so the same hand always gives the same answer.
    """
    if len(cards) > 11:
        raise InvalidCardError(f"a gin hand has at most 11 cards, got {len(cards)}")
    mask = mask_of(cards)
    tables = _tables(ace_high)
    best = tables.best
    a = mask & FULL_SUIT
    b = (mask >> 13) & FULL_SUIT
    c = (mask >> 26) & FULL_SUIT
    d = mask >> 39
    if (
        not ((a & b & c) | (a & b & d) | (a & c & d) | (b & c & d) or best[a] or best[b] or best[c])
        and not best[d]
    ):
        # Most hands hold no meld at all: every card is deadwood.
        return Arrangement(mask_value(mask), (), tuple(cards_of_mask(mask)))
    _, used = _best_melded(mask, best)
    melds: list[int] = []
    rest = used
    while rest:
        rank = (rest & -rest).bit_length() - 1
        rank %= 13
        set_mask = sum(1 << (suit * 13 + rank) for suit in range(4)) & used
        melds.append(set_mask)
        rest &= ~set_mask
    remaining = mask & ~used
    for suit in range(4):
        shift = 13 * suit
        melds.extend(run << shift for run in tables.runs((remaining >> shift) & FULL_SUIT))
    melds.sort(key=lambda meld: (meld & -meld, meld))
    covered = 0
    for meld in melds:
        covered |= meld
    left = mask & ~covered
    return Arrangement(
        deadwood=mask_value(left),
        melds=tuple(tuple(cards_of_mask(meld)) for meld in melds),
        deadwood_cards=tuple(cards_of_mask(left)),
    )


def deadwood_after_each_discard(mask: int, ace_high: bool = False) -> dict[int, int]:
    """For every card of ``mask``, the minimum deadwood of the hand without it."""
    best = _tables(ace_high).best
    total = mask_value(mask)
    values = CARD_VALUES
    kept: dict[int, int] = {}
    for used, value in _set_choices(mask):
        rest = mask & ~used
        parts = (rest & FULL_SUIT, (rest >> 13) & FULL_SUIT, (rest >> 26) & FULL_SUIT, rest >> 39)
        base = value + best[parts[0]] + best[parts[1]] + best[parts[2]] + best[parts[3]]
        for suit, part in enumerate(parts):
            if not part:
                continue
            without = base - best[part]
            offset = 13 * suit
            bits = part
            while bits:
                bit = bits & -bits
                candidate = without + best[part ^ bit]
                card = offset + bit.bit_length() - 1
                if candidate > kept.get(card, -1):
                    kept[card] = candidate
                bits ^= bit
    return {card: total - values[card] - kept[card] for card in sorted(kept)}


def best_discard(cards: Sequence[int], *, ace_high: bool = False) -> Discard:
    """For an 11-card hand, the discard leaving the least deadwood, and that deadwood.

    Ties go to the highest-valued card, then the highest card id.
    """
    if len(cards) != 11:
        raise InvalidCardError(f"best_discard needs an 11-card hand, got {len(cards)}")
    card, deadwood = best_discard_mask(mask_of(cards), ace_high)
    return Discard(Card(card), deadwood)


def best_discard_mask(mask: int, ace_high: bool = False) -> tuple[int, int]:
    """(card, deadwood left) of the best discard from the hand ``mask``."""
    tables = _tables(ace_high)
    best = tables.best
    gain = tables.drop_gain
    where = tables.drop_pos
    values = CARD_VALUES
    top: tuple[int, int, int] = (-1, -1, -1)
    for used, value in _set_choices(mask):
        rest = mask & ~used
        parts = (rest & FULL_SUIT, (rest >> 13) & FULL_SUIT, (rest >> 26) & FULL_SUIT, rest >> 39)
        base = value + best[parts[0]] + best[parts[1]] + best[parts[2]] + best[parts[3]]
        for suit, part in enumerate(parts):
            if part:
                card = 13 * suit + where[part]
                key = (base - best[part] + gain[part], values[card], card)
                if key > top:
                    top = key
    if top[2] < 0:
        raise InvalidCardError("best_discard needs at least one card")
    return top[2], mask_value(mask) - top[0]
