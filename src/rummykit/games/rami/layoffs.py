"""Rami: every legal lay-off and joker swap of a hand against the table.

The Rami rules, sections 3-4. Each table :class:`~rummykit.games.rami.table.Combination`
already knows which faces extend it (``accepts``), which real card shifts its end joker
(``shift_face``) and which frees its joker by a swap (``swap_face``), so listing the
moves is a few bit tests per card and combination. Swaps come with every legal
destination of the freed joker (a lay-off onto a combination without a joker, or a new
combination with two cards of the hand), or with none when the joker has no placement.

The legality filters of the engine that depend on the whole hand are applied too: a
move that empties the hand under ``mandatory_final_discard``, or that would leave only
the card just taken from the discard pile when it can no longer be laid, is left out.

>>> from rummykit.cards import parse_cards
>>> from rummykit.games.rami.table import combination_from_cards
>>> table = [combination_from_cards(parse_cards("JK 7S 8S"), 1)]
>>> [str(move) for move in layoff_moves(parse_cards("6S 9S KD"), table)]
['layoff 9S to 1']
>>> shifting = [combination_from_cards(parse_cards("JK 7S 8S"), 1, shifts=True)]
>>> [str(move) for move in layoff_moves(parse_cards("6S 9S KD"), shifting)]
['layoff 6S to 1', 'layoff 9S to 1']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rummykit.cards import FACES, JOKER_FACE, Card
from rummykit.games.rami.actions import RamiAction
from rummykit.games.rami.rules import RamiRules
from rummykit.games.rami.table import (
    JOKER_BIT,
    Combination,
    CombinationError,
    lay_off,
    pairs_with_joker,
    swap_joker,
)

_DEFAULT_RULES = RamiRules()

__all__ = [
    "hand_left_playable",
    "joker_destinations",
    "layoff_chain",
    "layoff_moves",
    "legal_moves",
    "swap_moves",
]


def _one_per_face(hand: Iterable[int], taken: int | None) -> tuple[dict[int, int], int]:
    """One physical card per face, and the faces as a bitmask; the card taken from the
    discard pile is preferred (laying it is never worse than laying another copy)."""
    cards: dict[int, int] = {}
    mask = 0
    for card in hand:
        face = FACES[card]
        if card == taken or face not in cards:
            cards[face] = card
        mask |= 1 << face
    return cards, mask


_LAYOFFS: dict[tuple[int, int], RamiAction] = {}
"""Lay-off actions by (card, target), built once: actions are immutable and the same
few lay-offs are proposed turn after turn."""


def _layoff_action(card: int, target: int) -> RamiAction:
    key = (card, target)
    action = _LAYOFFS.get(key)
    if action is None:
        action = _LAYOFFS[key] = RamiAction("layoff", Card(card), target=target)
    return action


def _layoffs(cards: dict[int, int], mask: int, table: Sequence[Combination]) -> list[RamiAction]:
    moves: list[RamiAction] = []
    for index, combo in enumerate(table):
        fits = combo.accepts & mask
        shift = combo.shift_face
        if shift >= 0 and mask >> shift & 1:
            fits |= 1 << shift
        while fits:  # faces in increasing order, lowest set bit first
            low = fits & -fits
            moves.append(_layoff_action(cards[low.bit_length() - 1], index))
            fits ^= low
    return moves


def layoff_moves(
    hand: Iterable[int],
    table: Sequence[Combination],
    *,
    taken: int | None = None,
) -> list[RamiAction]:
    """Every single lay-off (end-joker shifts included), one card per face, in table
    order then card order."""
    cards, mask = _one_per_face(hand, taken)
    return _layoffs(cards, mask, table)


def joker_destinations(
    hand: Iterable[int], table: Sequence[Combination]
) -> tuple[list[int], list[tuple[Card, Card]]]:
    """Where a joker may go: (table indexes that take it, pairs of natural hand cards
    that make a new combination with it)."""
    targets = [index for index, combo in enumerate(table) if combo.accepts & JOKER_BIT]
    cards, _mask = _one_per_face((c for c in hand if FACES[c] != JOKER_FACE), None)
    naturals = sorted(map(Card, cards.values()))
    pairs = [
        (first, second)
        for i, first in enumerate(naturals)
        for second in naturals[i + 1 :]
        if pairs_with_joker(first, second)
    ]
    return targets, pairs


def swap_moves(
    hand: Iterable[int],
    table: Sequence[Combination],
    *,
    shifts: bool = False,
    taken: int | None = None,
    all_destinations: bool = True,
) -> list[RamiAction]:
    """Every joker swap the hand allows, each with every legal destination of the freed
    joker (or the first one only, unless ``all_destinations``), or with none when the
    joker has no placement."""
    held = list(hand)
    cards, mask = _one_per_face(held, taken)
    return _swaps(held, cards, mask, table, shifts, all_destinations)


def _swaps(
    held: Sequence[int],
    cards: dict[int, int],
    mask: int,
    table: Sequence[Combination],
    shifts: bool,
    all_destinations: bool,
) -> list[RamiAction]:
    moves: list[RamiAction] = []
    for index, combo in enumerate(table):
        face = combo.swap_face
        if face < 0 or not mask >> face & 1:
            continue
        card = Card(cards[face])
        try:
            swapped, _joker = swap_joker(combo, card, shifts=shifts)
        except CombinationError:  # pragma: no cover - swap_face says it fits
            continue
        after = list(table)
        after[index] = swapped
        rest = list(held)
        rest.remove(card)
        targets, pairs = joker_destinations(rest, after)
        if not targets and not pairs:
            moves.append(RamiAction("swap_joker", card, target=index))
            continue
        for target in targets:
            moves.append(RamiAction("swap_joker", card, target=index, joker_target=target))
            if not all_destinations:
                break
        else:
            for pair in pairs:
                moves.append(RamiAction("swap_joker", card, target=index, joker_cards=pair))
                if not all_destinations:
                    break
    return moves


def legal_moves(
    hand: Sequence[int],
    table: Sequence[Combination],
    rules: RamiRules | None = None,
    *,
    taken: int | None = None,
    all_destinations: bool = True,
) -> list[RamiAction]:
    """Lay-offs and joker swaps the engine accepts now (for an opened player)."""
    rules = rules or _DEFAULT_RULES
    mask = 0
    for card in hand:
        mask |= 1 << FACES[card]
    # Most hands fit nowhere: look at the faces first, pick the cards only on a fit.
    for combo in table:
        swap = combo.swap_face
        shift = combo.shift_face
        if (
            combo.accepts & mask
            or (shift >= 0 and mask >> shift & 1)
            or (swap >= 0 and mask >> swap & 1)
        ):
            break
    else:
        return []
    cards, mask = _one_per_face(hand, taken)
    moves = _layoffs(cards, mask, table)
    moves.extend(_swaps(hand, cards, mask, table, rules.end_joker_shifts, all_destinations))
    if len(hand) > 4:  # a play removes at most 3 cards (a swap melding its joker)
        return moves
    return [move for move in moves if _leaves_playable(move, hand, table, rules, taken)]


def _leaves_playable(
    move: RamiAction,
    hand: Sequence[int],
    table: Sequence[Combination],
    rules: RamiRules,
    taken: int | None,
) -> bool:
    """:func:`hand_left_playable` after ``move``. Only a hand left empty, or left with
    the taken card alone, can fail, so the table after the move is only built then."""
    card = move.card
    assert card is not None and move.target is not None
    if move.kind == "layoff" or move.joker_target is not None:
        left = len(hand) - 1
    elif move.joker_cards is not None:
        left = len(hand) - 1 - len(move.joker_cards)
    else:
        left = len(hand)  # the joker comes back to the hand
    if left > 1:
        return True
    if left == 0:
        return not rules.mandatory_final_discard
    remaining = list(hand)
    remaining.remove(card)
    after = list(table)
    if move.kind == "layoff":
        after[move.target] = lay_off(table[move.target], card, shifts=rules.end_joker_shifts)
    else:
        swapped, joker = swap_joker(table[move.target], card, shifts=rules.end_joker_shifts)
        after[move.target] = swapped
        if move.joker_target is not None:
            after[move.joker_target] = lay_off(
                after[move.joker_target], joker, shifts=rules.end_joker_shifts
            )
        elif move.joker_cards is not None:
            for other in move.joker_cards:
                remaining.remove(other)
        else:
            remaining.append(joker)
    if remaining[0] != taken:
        return True
    return hand_left_playable(remaining, after, rules, taken)


def hand_left_playable(
    remaining: Sequence[int],
    table: Sequence[Combination],
    rules: RamiRules,
    taken: int | None,
) -> bool:
    """The engine's whole-hand checks after a play (§rami-4.4, §rami-4.12): no
    empty hand under ``mandatory_final_discard``, and never only the card just taken
    from the discard pile left, unless it can still be laid off."""
    if not remaining:
        return not rules.mandatory_final_discard
    if len(remaining) == 1 and remaining[0] == taken:
        face = FACES[taken]
        return not rules.mandatory_final_discard and any(
            combo.accepts >> face & 1 or face in (combo.shift_face, combo.swap_face)
            for combo in table
        )
    return True


def layoff_chain(
    hand: Sequence[int],
    table: Sequence[Combination],
    *,
    shifts: bool = False,
    keep_jokers: bool = True,
) -> list[RamiAction]:
    """A greedy sequence of lay-offs, each legal after the ones before it (a run grows
    card by card), until no card of the hand fits; jokers are kept unless
    ``keep_jokers`` is false."""
    remaining = list(hand)
    current = list(table)
    plan: list[RamiAction] = []
    progress = True
    while progress and remaining:
        progress = False
        usable = [c for c in remaining if not (keep_jokers and FACES[c] == JOKER_FACE)]
        for move in layoff_moves(usable, current):
            card = move.card
            assert card is not None and move.target is not None
            current[move.target] = lay_off(current[move.target], card, shifts=shifts)
            remaining.remove(card)
            plan.append(move)
            progress = True
            break
    return plan
