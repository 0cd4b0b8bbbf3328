"""Exact Gin Rummy deadwood: the best arrangement, the best discard, and layoffs.

Hands are 52-bit masks internally (bit ``suit * 13 + rank - 1``, the card id), so the
solvers never build per-card objects. The search branches on the lowest card that can
be melded at all: either it stays deadwood or it joins one of the melds that contain
it; results are memoised on the mask of cards still available, which makes the
per-discard questions (one search per card) share almost all of their work.

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
from dataclasses import dataclass
from typing import Final

from rummykit.cards import Card

__all__ = [
    "Arrangement",
    "Discard",
    "LayoffResult",
    "best_discard",
    "cards_of_mask",
    "deadwood_after_each_discard",
    "layoff_deadwood",
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


def _build_run_table(ace_high: bool) -> tuple[tuple[tuple[int, int], ...], ...]:
    """For each 13-bit suit pattern, every run (mask, value) inside it."""
    # Positions in run order; with ace-high runs the ace also follows the king.
    order = list(range(13)) + ([0] if ace_high else [])
    table: list[tuple[tuple[int, int], ...]] = []
    for pattern in range(1 << 13):
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
        table.append(tuple(runs))
    return tuple(table)


_RUNS_LOW: Final = _build_run_table(ace_high=False)


def _union_table(runs: tuple[tuple[tuple[int, int], ...], ...]) -> tuple[int, ...]:
    union = []
    for entries in runs:
        bits = 0
        for run, _ in entries:
            bits |= run
        union.append(bits)
    return tuple(union)


_UNION_LOW: Final = _union_table(_RUNS_LOW)
_RUNS_HIGH: Final = _build_run_table(ace_high=True)
_UNION_HIGH: Final = _union_table(_RUNS_HIGH)

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
    mask = 0
    for card in cards:
        if not 0 <= card < 52:
            shown = str(Card(card)) if 0 <= card & 63 <= 52 else f"card id {int(card)}"
            raise ValueError(f"{shown} is not a card of a single 52-card deck")
        bit = 1 << card
        if mask & bit:
            raise ValueError(f"{Card(card)} appears twice in the hand")
        mask |= bit
    return mask


# Per 13-bit suit pattern: the cards it holds (as ids offset by suit) and their value.
_SUIT_CARDS: Final = tuple(
    tuple(
        tuple(Card(13 * suit + rank) for rank in range(13) if pattern >> rank & 1)
        for pattern in range(1 << 13)
    )
    for suit in range(4)
)
_SUIT_VALUE: Final = tuple(
    sum(min(rank + 1, 10) for rank in range(13) if pattern >> rank & 1)
    for pattern in range(1 << 13)
)
_SUIT_TOP_VALUE: Final = tuple(
    max((min(rank + 1, 10) for rank in range(13) if pattern >> rank & 1), default=0)
    for pattern in range(1 << 13)
)


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
    table = _UNION_HIGH if ace_high else _UNION_LOW
    for suit in range(4):
        shift = 13 * suit
        union |= table[(mask >> shift) & FULL_SUIT] << shift
    a = mask & FULL_SUIT
    b = (mask >> 13) & FULL_SUIT
    c = (mask >> 26) & FULL_SUIT
    d = (mask >> 39) & FULL_SUIT
    triples = (a & b & c) | (a & b & d) | (a & c & d) | (b & c & d)
    if triples:
        union |= mask & (triples | triples << 13 | triples << 26 | triples << 39)
    return union


def melds_in_mask(mask: int, ace_high: bool = False) -> list[tuple[int, int]]:
    """Every meld (as ``(mask, value)``) made only of cards in ``mask``."""
    melds: list[tuple[int, int]] = []
    table = _RUNS_HIGH if ace_high else _RUNS_LOW
    for suit in range(4):
        pattern = (mask >> (13 * suit)) & FULL_SUIT
        if pattern:
            shift = 13 * suit
            melds.extend((run << shift, value) for run, value in table[pattern])
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


class _Packer:
    """Best melded value of any sub-mask of one hand, memoised on the available mask."""

    __slots__ = ("by_card", "memo", "union")

    def __init__(self, melds: list[tuple[int, int]]) -> None:
        by_card: dict[int, list[tuple[int, int]]] = {}
        union = 0
        for meld in melds:
            meld_mask = meld[0]
            union |= meld_mask
            rest = meld_mask
            while rest:
                low = rest & -rest
                by_card.setdefault(low, []).append(meld)
                rest ^= low
        self.by_card = by_card
        self.union = union
        self.memo: dict[int, int] = {0: 0}

    def best(self, available: int) -> int:
        """Greatest total value of disjoint melds inside ``available``."""
        available &= self.union
        memo = self.memo
        found = memo.get(available)
        if found is not None:
            return found
        low = available & -available
        rest = available ^ low
        result = self.best(rest)
        for meld_mask, value in self.by_card[low]:
            if available & meld_mask == meld_mask:
                candidate = value + self.best(available ^ meld_mask)
                if candidate > result:
                    result = candidate
        memo[available] = result
        return result

    def arrangement(self, available: int) -> list[int]:
        """The melds (masks) of one best packing inside ``available``, canonical order."""
        available &= self.union
        chosen: list[int] = []
        while available:
            target = self.best(available)
            low = available & -available
            rest = available ^ low
            if self.best(rest) == target:
                available = rest
                continue
            for meld_mask, value in self.by_card[low]:
                if available & meld_mask == meld_mask and (
                    value + self.best(available ^ meld_mask) == target
                ):
                    chosen.append(meld_mask)
                    available ^= meld_mask
                    break
        return chosen


@dataclass(frozen=True, slots=True)
class Arrangement:
    """One optimal arrangement of a hand: melds, deadwood cards and their value."""

    deadwood: int
    melds: tuple[tuple[Card, ...], ...]
    deadwood_cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Discard:
    """The best discard from an 11-card hand and the deadwood of the 10 cards left."""

    card: Card
    deadwood: int


def min_deadwood_mask(mask: int, ace_high: bool = False) -> int:
    """Minimum deadwood value of the hand ``mask`` (any size)."""
    melds = melds_in_mask(mask, ace_high)
    if not melds:
        return mask_value(mask)
    return mask_value(mask) - _Packer(melds).best(mask)


def min_deadwood(cards: Sequence[int], *, ace_high: bool = False) -> Arrangement:
    """The minimum deadwood of a hand (up to 11 cards) with one optimal arrangement.

    Ties between arrangements are broken canonically (the lowest card is left as
    deadwood when that costs nothing), so the same hand always gives the same answer.
    """
    mask = mask_of(cards)
    if len(cards) > 11:
        raise ValueError(f"a gin hand has at most 11 cards, got {len(cards)}")
    melds = melds_in_mask(mask, ace_high)
    packer = _Packer(melds)
    chosen = packer.arrangement(mask) if melds else []
    covered = 0
    for meld in chosen:
        covered |= meld
    left = mask & ~covered
    return Arrangement(
        deadwood=mask_value(left),
        melds=tuple(tuple(cards_of_mask(meld)) for meld in chosen),
        deadwood_cards=tuple(cards_of_mask(left)),
    )


def deadwood_after_each_discard(mask: int, ace_high: bool = False) -> dict[int, int]:
    """For every card of ``mask``, the minimum deadwood of the hand without it."""
    total = mask_value(mask)
    melds = melds_in_mask(mask, ace_high)
    values = CARD_VALUES
    if not melds:
        return {card: total - values[card] for card in cards_of_mask(mask)}
    packer = _Packer(melds)
    everything = packer.best(mask)
    result: dict[int, int] = {}
    rest = mask
    while rest:
        low = rest & -rest
        card = low.bit_length() - 1
        packed = packer.best(mask ^ low) if low & packer.union else everything
        result[card] = total - values[card] - packed
        rest ^= low
    return result


def best_discard(cards: Sequence[int], *, ace_high: bool = False) -> Discard:
    """For an 11-card hand, the discard leaving the least deadwood, and that deadwood.

    Ties go to the highest-valued card, then the highest card id.
    """
    if len(cards) != 11:
        raise ValueError(f"best_discard needs an 11-card hand, got {len(cards)}")
    after = deadwood_after_each_discard(mask_of(cards), ace_high)
    card = min(after, key=lambda c: (after[c], -CARD_VALUES[c], -c))
    return Discard(Card(card), after[card])


@dataclass(frozen=True, slots=True)
class LayoffResult:
    """The defender's best play against a knock: own melds, layoffs, deadwood left."""

    deadwood: int
    melds: tuple[tuple[Card, ...], ...]
    layoffs: tuple[tuple[Card, int], ...]
    """``(card, index of the knocker's meld it is laid on)``, in playable order."""
    deadwood_cards: tuple[Card, ...]


def _layoff_targets(
    knocker_melds: Sequence[Sequence[int]], ace_high: bool
) -> list[tuple[int, list[int], list[int]]]:
    """Per knocker meld: (index, cards extending it upward in order, downward in order).

    Runs come before sets: a card that completes a set may also extend a run
    (``8H`` onto ``8C8D8S`` or onto ``5H6H7H``), and only on the run can it carry a
    chain further (``9H``), so the greedy layoff pass must offer it to runs first.
    """
    targets: list[tuple[int, list[int], list[int]]] = []
    set_targets: list[tuple[int, list[int], list[int]]] = []
    for index, meld in enumerate(knocker_melds):
        faces = sorted(int(card) for card in meld)
        ranks = {card % 13 for card in faces}
        suits = {card // 13 for card in faces}
        if len(ranks) == 1 and len(faces) >= 3:
            rank = ranks.pop()
            missing = [suit * 13 + rank for suit in range(4) if suit not in suits]
            # One deck: a set of three has exactly one card that completes it.
            set_targets.append((index, missing, []))
            continue
        suit = suits.pop()
        positions = sorted(card % 13 for card in faces)
        high_ace = ace_high and positions[0] == 0 and positions[-1] == 12
        if high_ace:
            positions = sorted(14 - 1 if p == 0 else p for p in positions)
        low, high = positions[0], positions[-1]
        up = [suit * 13 + (p % 13) for p in range(high + 1, (14 if ace_high else 13))]
        down = [suit * 13 + p for p in range(low - 1, 0 if high_ace else -1, -1)]
        targets.append((index, up, down))
    return targets + set_targets


def layoff_deadwood(
    knocker_melds: Sequence[Sequence[int]],
    defender_cards: Sequence[int],
    *,
    chained: bool = True,
    ace_high: bool = False,
) -> LayoffResult:
    """The defender's minimum deadwood after own melds and layoffs (rules/gin.md 4).

    Laying off never hurts, so for each packing of the defender's own melds every card
    that can be laid off is laid off; the best packing wins. With ``chained`` a card
    may extend a run already extended by an earlier layoff (``5H6H7H`` + ``8H`` then
    ``9H``); without it only the cards next to the knocker's original meld qualify.
    """
    mask = mask_of(defender_cards)
    targets = _layoff_targets(knocker_melds, ace_high)
    knocker_mask = mask_of(card for meld in knocker_melds for card in meld)
    if mask & knocker_mask:
        raise ValueError("the defender's hand shares cards with the knocker's melds")
    melds = melds_in_mask(mask, ace_high)

    def layoffs_for(free: int) -> list[tuple[int, int]]:
        laid: list[tuple[int, int]] = []
        taken = 0
        for index, up, down in targets:
            for chain in (up, down):
                for card in chain if chained else chain[:1]:
                    bit = 1 << card
                    if not free & bit or taken & bit:
                        break
                    laid.append((card, index))
                    taken |= bit
        return laid

    best: tuple[int, list[int], list[tuple[int, int]]] | None = None
    # Enumerate packings of the defender's own melds (hands are at most 11 cards).
    meld_list = sorted(melds, key=lambda meld: (meld[0] & -meld[0], meld[0]))

    def visit(start: int, used: int, chosen: list[int]) -> None:
        nonlocal best
        free = mask & ~used
        laid = layoffs_for(free)
        laid_mask = 0
        for card, _ in laid:
            laid_mask |= 1 << card
        value = mask_value(free & ~laid_mask)
        if best is None or value < best[0]:
            best = (value, list(chosen), laid)
        for i in range(start, len(meld_list)):
            meld_mask = meld_list[i][0]
            if not used & meld_mask:
                chosen.append(meld_mask)
                visit(i + 1, used | meld_mask, chosen)
                chosen.pop()

    visit(0, 0, [])
    assert best is not None
    value, chosen, laid = best
    covered = 0
    for meld in chosen:
        covered |= meld
    for card, _ in laid:
        covered |= 1 << card
    return LayoffResult(
        deadwood=value,
        melds=tuple(tuple(cards_of_mask(meld)) for meld in chosen),
        layoffs=tuple((Card(card), index) for card, index in laid),
        deadwood_cards=tuple(cards_of_mask(mask & ~covered)),
    )
