"""A placement problem of the quick path, counted by face, and its live hand cards.

* **The melds a face can be in** (:func:`meld_universe`): groups of distinct suits and
  runs of one suit, the ace low or high, under the meld rules.
* **Dead hand cards** (:func:`live_hand`). A hand card is dropped when no meld that
  contains it can be made from the cards in play and the jokers that could become
  wild; the test is repeated until nothing more drops, since a dropped card may have
  been another's only partner. No optimum changes (a property test checks it).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

__all__ = ["PlacementProblem", "live_hand", "meld_universe"]


@cache
def meld_universe(
    ace_low: bool, ace_high: bool, min_size: int, max_set: int
) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Per face, every meld (a tuple of faces) that contains it, under the rules.

    Groups have ``min_size`` to ``max_set`` cards of one rank in distinct suits; runs
    have ``min_size`` to 13 cards of one suit in a row, the ace low or high, never both.
    """
    melds: list[tuple[int, ...]] = []
    for rank in range(13):
        for mask in range(16):
            if min_size <= bin(mask).count("1") <= max_set:
                melds.append(tuple(s * 13 + rank for s in range(4) if mask >> s & 1))
    low = 1 if ace_low else 2
    high = 14 if ace_high else 13
    for suit in range(4):
        for start in range(low, high + 1):
            for end in range(start + min_size - 1, min(high, start + 12) + 1):
                if start == 1 and end == 14:
                    continue
                melds.append(tuple(suit * 13 + (r - 1) % 13 for r in range(start, end + 1)))
    by_face: list[list[tuple[int, ...]]] = [[] for _ in range(52)]
    for meld in melds:
        for face in meld:
            by_face[face].append(meld)
    return tuple(tuple(m) for m in by_face)


@dataclass(slots=True)
class PlacementProblem:
    """Per-face counts of one placement problem (faces 0-51)."""

    real: list[int]
    """Real table cards."""
    jokers: list[int]
    """Table jokers declared as the face."""
    hand: list[int]
    """Hand cards of the face."""
    cap: list[int]
    """Most items of the face on the new table (real cards and declarations)."""
    weight: list[int]
    """Score of laying one hand card of the face."""
    hand_jokers: int
    joker_weight: int
    ace_low: bool
    ace_high: bool
    min_size: int
    max_set: int
    old_melds: frozenset[tuple[int, ...]] = frozenset()
    """The table's melds as sorted faces: tried first, so that they tend to stay."""


def live_hand(problem: PlacementProblem) -> tuple[list[int], int]:
    """The hand cards (per face) that can join some meld, dead ones dropped until none
    is left, and how many jokers could become wild."""
    p = problem
    hand = [min(p.hand[f], max(0, p.cap[f] - p.real[f])) for f in range(52)]
    universe = meld_universe(p.ace_low, p.ace_high, p.min_size, p.max_set)
    while True:
        wild = p.hand_jokers + sum(
            p.jokers[f] for f in range(52) if p.jokers[f] and p.real[f] + hand[f]
        )
        have = [p.real[f] + p.jokers[f] + hand[f] for f in range(52)]
        dropped = False
        for face in range(52):
            if not hand[face]:
                continue
            for meld in universe[face]:
                missing = 0
                for g in meld:
                    if not have[g]:
                        missing += 1
                        if missing > wild:
                            break
                else:
                    break  # this meld can be made
            else:
                hand[face] = 0
                have[face] = p.real[face] + p.jokers[face]
                dropped = True
        if not dropped:
            return hand, wild
