"""Rami: the best opening (and the best melds after opening) from a hand, exactly.

The Rami rules, sections 2-4. Given a hand (at most ~14 cards, several decks, jokers),
:func:`best_opening` decides whether some set of disjoint combinations reaches the
opening threshold (table values: an ace 1 low, 11 high or in a set, a joker the card it
stands for, the lower position at a run end) or, when ``rami_sec_exempt_opening``
allows it, goes out below it (§rami-4.6), and among those returns the one that leaves
the least penalty in hand (hand values: ace 11, joker 20 by default). Ties go to the
higher table value.

How: the hand becomes a face-count vector packed into one integer (4 bits per face), so
"does this combination fit in what is left" is one subtraction and one mask. Every
candidate combination (runs with or without one joker, resolved as the engine does;
sets of 3 or 4 distinct suits, with or without a joker) is listed once, indexed by its
lowest natural face (:mod:`rummykit.games.rami.candidates`). A depth-first search
walks the faces in order: at each face it either lays a combination starting there or
leaves the rest of that face in hand, so each packing is visited once; branches that
cannot beat the best penalty, or cannot reach the threshold, are cut.

>>> from rummykit.cards import parse_cards
>>> best = best_opening(parse_cards("JK 7S 8S KH KS KD 2C 5D"))
>>> best.value, [" ".join(map(str, combo)) for combo in best.combos]
(51, ['7S 8S JK', 'KS KD KH'])
>>> best_opening(parse_cards("JK 7S 8S 9C 9D 9H 2C 5D")) is None
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Final

from rummykit.cards import FACES, JOKER_FACE, Card
from rummykit.games.rami.actions import RamiAction
from rummykit.games.rami.candidates import (
    BITS,
    GUARD,
    JOKER_ONE,
    LANE,
    ONE,
    TOP_VALUE,
    UPPER,
    Candidate,
    below_threshold,
    combination_faces,
    faces_of,
    has_combination,
    packed_combinations,
)
from rummykit.games.rami.candidates import hand_combinations as hand_combinations
from rummykit.games.rami.rules import RamiRules

__all__ = [
    "Opening",
    "best_melds",
    "best_opening",
    "can_open",
    "combination_faces",
    "hand_combinations",
]


@dataclass(frozen=True, slots=True)
class Opening:
    """Combinations to lay from a hand, with what they are worth and what stays."""

    combos: tuple[tuple[Card, ...], ...]
    """Physical cards of the hand, one tuple per combination."""
    value: int
    """Total table value (the opening count)."""
    penalty_left: int
    """Hand penalty of the cards that stay."""
    cards_left: tuple[Card, ...]
    exempt: bool
    """Below the threshold, legal because it goes out this turn (rami sec)."""

    def action(self) -> RamiAction:
        """The ``open`` action laying these combinations."""
        # The combinations are physical cards of the hand already: no need to parse them
        # again as RamiAction.open does for cards given by a caller.
        return RamiAction("open", combos=self.combos)

    def meld_actions(self) -> list[RamiAction]:
        """One ``meld`` action per combination (after opening)."""
        return [RamiAction("meld", combos=(combo,)) for combo in self.combos]


_DEFAULT_RULES: Final = RamiRules()


# -- the search ---------------------------------------------------------------------------


@dataclass(slots=True, kw_only=True, eq=False)
class _Search:
    """Depth-first search over packings, cut by exact bounds; the best is kept."""

    by_face: dict[int, list[Candidate]]
    threshold: int
    exempt_ok: bool
    """Below the threshold is fine when at most one card stays (rami sec)."""
    must_discard: bool
    pure_run: bool
    first_only: bool
    """Stop at the first packing found (a yes or no is all the caller needs)."""
    total_cards: int
    taken_single: int | None
    """The face of the card taken from the discard pile when the hand holds one card of
    it: that card may not be the one left to discard."""
    must_lay: int | None
    """A face some chosen combination must hold."""
    bounds: dict[int, tuple[int, int, int]]
    """The memo of :meth:`bound`, shared by searches with the same hand values."""
    face_list: list[int] = field(init=False)
    upper_masks: list[int] = field(init=False)
    """The part of ``rem`` a subproblem depends on: faces at or above its first face."""
    best: list[Candidate] | None = field(init=False, default=None)
    best_key: tuple[int, int] = field(init=False, default=(-1, -1))

    def __post_init__(self) -> None:
        self.face_list = sorted(self.by_face)
        self.upper_masks = [UPPER[face] for face in self.face_list] + [UPPER[JOKER_FACE]]

    def bound(self, index: int, rem: int) -> tuple[int, int, int]:
        """The most penalty, table value and cards the faces from ``index`` on can still
        lay from ``rem`` (each maximised on its own, the constraints ignored): exact
        upper bounds, memoised on the state.

        The combinations that fit in the cards of ``rem`` from the face of ``index`` up
        are the same whatever the rest of the hand was, so the bound depends on those
        cards alone (and on the hand values): the memo is shared by every search with
        the same hand values, and a hand that changed by a card or two since the last
        turn finds most of its subproblems solved.
        """
        rem &= self.upper_masks[index]
        known = self.bounds.get(rem)
        if known is not None:
            return known
        faces = self.face_list
        if index == len(faces):
            result = (0, 0, 0)
        elif not rem >> (BITS * faces[index]) & 15:
            # Every option here holds the face it is listed under: none fits.
            result = self.bound(index + 1, rem)
        else:
            best_laid, best_value, best_cards = self.bound(index + 1, rem)
            for option in self.by_face[faces[index]]:
                packed = option[0]
                if ((rem | GUARD) - packed) & GUARD != GUARD:
                    continue
                laid, value, cards = self.bound(index, rem - packed)
                if laid + option[2] > best_laid:
                    best_laid = laid + option[2]
                if value + option[1] > best_value:
                    best_value = value + option[1]
                if cards + option[4] > best_cards:
                    best_cards = cards + option[4]
            result = (best_laid, best_value, best_cards)
        self.bounds[rem] = result
        return result

    def run(
        self,
        index: int,
        rem: int,
        start: int,
        chosen: list[Candidate],
        value: int,
        laid: int,
        cards: int,
    ) -> bool:
        """Visit packings from face ``index``; True to stop (``first_only`` found one)."""
        faces = self.face_list
        count = len(faces)
        while index < count:
            max_laid, max_value, max_cards = self.bound(index, rem)
            if laid + max_laid < self.best_key[0]:
                return False
            if value + max_value < self.threshold and not (
                self.exempt_ok and self.total_cards - cards - max_cards <= 1
            ):
                return False
            face = faces[index]
            if not rem >> (BITS * face) & 15:
                index += 1  # no card of this face left: no option of it fits
                start = 0
                continue
            options = self.by_face[face]
            for position in range(start, len(options)):
                option = options[position]
                packed = option[0]
                if ((rem | GUARD) - packed) & GUARD != GUARD:
                    continue
                chosen.append(option)
                stop = self.run(
                    index,
                    rem - packed,
                    position,
                    chosen,
                    value + option[1],
                    laid + option[2],
                    cards + option[4],
                )
                chosen.pop()
                if stop:
                    return True
            # Or leave the rest of this face in hand.
            index += 1
            start = 0
        return self.leaf(chosen, value, laid, rem, cards)

    def leaf(self, chosen: list[Candidate], value: int, laid: int, rem: int, cards: int) -> bool:
        if not chosen:
            return False
        left_cards = self.total_cards - cards
        if left_cards == 0 and self.must_discard:
            return False
        taken = self.taken_single
        if left_cards == 1 and taken is not None and rem >> (BITS * taken) & 15:
            # Only the card taken from the discard pile would stay: it cannot be discarded.
            return False
        must_lay = self.must_lay
        if must_lay is not None and not any(o[0] >> (BITS * must_lay) & 15 for o in chosen):
            return False
        if self.pure_run and not any(option[3] for option in chosen):
            return False
        if value < self.threshold and not (self.exempt_ok and left_cards <= 1):
            return False
        key = (laid, value)
        if key > self.best_key:
            self.best_key = key
            self.best = chosen.copy()
        return self.first_only


_BOUNDS: dict[tuple[int, int], dict[int, tuple[int, int, int]]] = {}
"""Per (ace, joker) hand values, the memo of :meth:`_Search.bound` shared by searches."""
_BOUNDS_LIMIT: Final = 100_000
"""Entries of a bound memo before it starts afresh (a few tens of MB at most): turns
reuse the subproblems of recent turns, not of old ones."""


def _solve(
    hand: Sequence[int],
    rules: RamiRules,
    *,
    threshold: int | None = None,
    exempt_ok: bool | None = None,
    taken: int | None = None,
    must_lay: int | None = None,
    use_jokers: bool = True,
    first_only: bool = False,
    pure_run: bool | None = None,
    cuts: bool = True,
) -> Opening | None:
    """The search behind every entry point: an opening as ``rules`` ask for it, unless
    ``threshold``, ``exempt_ok`` or ``pure_run`` say otherwise. ``cuts=False`` replaces
    the quick :func:`below_threshold` test by the plain one, so that tests can check
    that the quick test never rejects a hand the search would open."""
    if threshold is None:
        threshold = rules.opening_threshold
    if exempt_ok is None:
        exempt_ok = rules.rami_sec_exempt_opening
    if pure_run is None:
        pure_run = rules.opening_requires_pure_run
    lanes = second = third = 0  # natural cards held once, twice, three times
    crowded = False
    packed = 0
    lane = LANE
    for card in hand:
        face = FACES[card]
        packed += ONE[face]
        if face != JOKER_FACE:
            bit = lane[face]
            if not lanes & bit:
                lanes |= bit
            elif not second & bit:
                second |= bit
            elif not third & bit:
                third |= bit
            else:
                crowded = True  # a fourth copy: only the plain cut below counts it
    taken_face = -1 if taken is None else FACES[taken]
    taken_count = 0 if taken is None else packed >> (BITS * taken_face) & 15
    jokers = packed >> (BITS * JOKER_FACE)
    usable_jokers = jokers if use_jokers else 0
    if not use_jokers:
        packed -= jokers * JOKER_ONE
    quick = cuts and not crowded
    if quick:
        if threshold > 0:
            if below_threshold(
                lanes, second, third, len(hand), usable_jokers, threshold, exempt_ok
            ):
                return None
        elif not has_combination(lanes, usable_jokers):
            return None
    suit_masks = [lanes & 0x1FFF, lanes >> 16 & 0x1FFF, lanes >> 32 & 0x1FFF, lanes >> 48]
    rank_suits = [0] * 13
    for suit in range(4):
        mask = suit_masks[suit]
        while mask:
            low = mask & -mask
            rank_suits[low.bit_length() - 1] |= 1 << suit
            mask ^= low
    by_face = packed_combinations(
        suit_masks, rank_suits, usable_jokers, rules.ace_hand_value, rules.joker_hand_value
    )
    if not by_face:
        return None
    if not quick and threshold > 0:
        # The straightforward cut (the reference for below_threshold): the most the
        # cards in any combination could count, unless the exemption could apply.
        meldable = 0
        for options in by_face.values():
            for option in options:
                meldable |= option[0]
        reach = 0
        left = 0
        for card in hand:
            face = FACES[card]
            if meldable >> (BITS * face) & 15:
                reach += TOP_VALUE[face]
            else:
                left += 1
        if reach < threshold and not (exempt_ok and left <= 1):
            return None
    key = (rules.ace_hand_value, rules.joker_hand_value)
    bounds = _BOUNDS.get(key)
    if bounds is None or len(bounds) > _BOUNDS_LIMIT:
        bounds = _BOUNDS[key] = {}
    search = _Search(
        bounds=bounds,
        by_face=by_face,
        threshold=threshold,
        exempt_ok=exempt_ok,
        must_discard=rules.mandatory_final_discard,
        pure_run=pure_run,
        first_only=first_only,
        total_cards=len(hand),
        taken_single=taken_face if taken_count == 1 else None,
        must_lay=None if must_lay is None else FACES[must_lay],
    )
    search.run(0, packed, 0, [], 0, 0, 0)
    if search.best is None:
        return None
    return _to_opening(hand, search.best, threshold, taken, rules.hand_values())


def _to_opening(
    hand: Sequence[int],
    chosen: list[Candidate],
    threshold: int,
    taken: int | None,
    table: Sequence[int],
) -> Opening:
    ordered = sorted(hand)
    if taken is not None and taken in ordered:
        # The card taken from the discard pile is laid first of its face.
        ordered = [card for card in ordered if card == taken] + [
            card for card in ordered if card != taken
        ]
    pools: dict[int, list[Card]] = {}
    for card in ordered:
        pool = pools.get(FACES[card])
        if pool is None:
            pools[FACES[card]] = [Card(card)]
        else:
            pool.append(Card(card))
    combos: list[tuple[Card, ...]] = []
    value = 0
    for option in chosen:
        combos.append(tuple(pools[face].pop(0) for face in faces_of(option[0])))
        value += option[1]
    left = tuple(sorted((card for pool in pools.values() for card in pool), key=FACES.__getitem__))
    return Opening(
        combos=tuple(combos),
        value=value,
        penalty_left=sum(table[card] for card in left),
        cards_left=left,
        exempt=value < threshold,
    )


def best_opening(
    hand: Iterable[int],
    rules: RamiRules | None = None,
    *,
    threshold: int | None = None,
    taken: int | None = None,
    must_lay: int | None = None,
    use_jokers: bool = True,
) -> Opening | None:
    """The legal opening that leaves the least penalty in hand, or ``None``.

    Args:
        hand: the player's cards (physical ids).
        rules: the options (threshold, exemption, pure run, final discard, values).
        threshold: overrides ``rules.opening_threshold``.
        taken: the card taken from the discard pile this turn (it may not be the one
            card left for a final discard).
        must_lay: a card the opening must include (``discard_must_be_melded``).
        use_jokers: False keeps the jokers in hand.
    """
    return _solve(
        list(hand),
        rules or _DEFAULT_RULES,
        threshold=threshold,
        taken=taken,
        must_lay=must_lay,
        use_jokers=use_jokers,
    )


def can_open(
    hand: Iterable[int],
    rules: RamiRules | None = None,
    *,
    taken: int | None = None,
    must_lay: int | None = None,
) -> bool:
    """True when some legal opening exists (stops at the first one found)."""
    found = _solve(
        list(hand), rules or _DEFAULT_RULES, taken=taken, must_lay=must_lay, first_only=True
    )
    return found is not None


def best_melds(
    hand: Iterable[int],
    rules: RamiRules | None = None,
    *,
    taken: int | None = None,
    must_lay: int | None = None,
    use_jokers: bool = True,
) -> Opening | None:
    """After opening: the new combinations that leave the least penalty, or ``None``."""
    rules = rules or _DEFAULT_RULES
    cards = list(hand)
    if len(cards) < 3:
        return None  # a combination has three cards at least
    # Most hands left after opening hold no combination at all: say so before the
    # search is set up.
    lanes = jokers = 0
    lane = LANE
    for card in cards:
        face = FACES[card]
        if face == JOKER_FACE:
            jokers += 1
        else:
            lanes |= lane[face]
    if not has_combination(lanes, jokers if use_jokers else 0):
        return None
    # New combinations count no threshold and need no pure run.
    return _solve(
        cards,
        rules,
        threshold=0,
        exempt_ok=False,
        taken=taken,
        must_lay=must_lay,
        use_jokers=use_jokers,
        pure_run=False,
    )
