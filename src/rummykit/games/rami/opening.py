"""Rami: the best opening (and the best melds after opening) from a hand, exactly.

rules/rami.md sections 2-4. Given a hand (at most ~14 cards, several decks, jokers),
:func:`best_opening` decides whether some set of disjoint combinations reaches the
opening threshold (table values: an ace 1 low, 11 high or in a set, a joker the card it
stands for, the lower position at a run end) or goes out under the rami sec exemption,
and among those returns the one that leaves the least penalty in hand (hand values:
ace 11, joker 20 by default). Ties go to the higher table value.

How: the hand becomes a face-count vector packed into one integer (4 bits per face), so
"does this combination fit in what is left" is one subtraction and one mask. Every
candidate combination (runs with or without one joker, resolved as the engine does;
sets of 3 or 4 distinct suits, with or without a joker) is listed once, indexed by its
lowest natural face. A depth-first search walks the faces in order: at each face it
either lays a combination starting there or leaves the rest of that face in hand, so
each packing is visited once; branches that cannot beat the best penalty, or cannot
reach the threshold, are cut.

>>> from rummykit.cards import parse_cards
>>> best = best_opening(parse_cards("JK 7S 8S KH KS KD 2C 5D"))
>>> best.value, [" ".join(map(str, combo)) for combo in best.combos]
(51, ['7S 8S JK', 'KS KD KH'])
>>> best_opening(parse_cards("JK 7S 8S 9C 9D 9H 2C 5D")) is None
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Final

from rummykit.cards import FACES, JOKER_FACE, Card, natural_card
from rummykit.games.rami.actions import RamiAction
from rummykit.games.rami.rules import RamiRules
from rummykit.games.rami.table import position_value, set_rank_value
from rummykit.melds import RAMI_MELDS, InvalidMeldError, check_meld

__all__ = [
    "Opening",
    "best_melds",
    "best_opening",
    "can_open",
    "combination_faces",
    "hand_combinations",
]

_BITS: Final = 4
_ONE: Final = tuple(1 << (_BITS * face) for face in range(JOKER_FACE + 1))
_GUARD: Final = sum(8 << (_BITS * face) for face in range(JOKER_FACE + 1))
_JOKER_ONE: Final = _ONE[JOKER_FACE]


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


# -- candidate combinations -------------------------------------------------------------
#
# Run shapes depend only on which ranks of a suit the hand holds (a 13-bit mask), so
# they are worked out once per mask and shifted onto a suit; set shapes depend only on
# which suits of a rank it holds (a 4-bit mask). A template is
# ``(packed for suit 0, table value, penalty without aces, aces, lowest rank, naturals)``.

Template = tuple[int, int, int, int, int, int]
SuitRuns = tuple[tuple[Template, ...], tuple[Template, ...], int, int, tuple[int, ...]]
"""(joker-free runs, runs with one joker, ranks in some joker-free run, ranks in some
run with a joker, the natural ranks of each run with a joker)."""
_RUN_TEMPLATES: dict[int, SuitRuns] = {}
_SUIT_SHIFT: Final = _BITS * 13


def _joker_run(mask: int) -> int | None:
    """Lowest position of the run the ranks of ``mask`` make with one joker, resolved
    exactly as :func:`~rummykit.melds.check_meld` does (an end joker goes below), or
    ``None``."""
    if mask in _JOKER_RUNS:
        return _JOKER_RUNS[mask]
    ranks = [rank for rank in range(1, 14) if mask >> (rank - 1) & 1]
    try:
        meld = check_meld(
            [natural_card(rank, 0) for rank in ranks] + [Card(JOKER_FACE)], RAMI_MELDS
        )
    except InvalidMeldError:
        meld = None
    low = meld.rank if meld is not None and meld.kind == "run" else None
    _JOKER_RUNS[mask] = low
    return low


_JOKER_RUNS: dict[int, int | None] = {}


def _run_templates_direct(mask: int) -> tuple[tuple[Template, ...], tuple[Template, ...]]:
    """(joker-free runs, runs with one joker) within the ranks of ``mask``, worked out
    window by window: the definition, used once for all 13 ranks (and by the tests)."""
    present = [False] * 16
    for position in range(1, 15):
        present[position] = bool(mask >> ((position - 1) % 13) & 1)
    pure: list[Template] = []
    joker: list[Template] = []
    seen: set[int] = set()
    for low in range(1, 13):
        missing = 0
        hole = 0
        for high in range(low, min(low + 12, 14) + 1):
            if low == 1 and high == 14:
                break
            if not present[high]:
                missing += 1
                hole = high
                if missing > 1:
                    break
            if high - low < 2:
                continue
            window = range(low, high + 1)
            if not missing:
                pure.append(_template(window, 0))
            for gap in [hole] if missing else window:
                naturals = 0
                for position in window:
                    if position != gap:
                        naturals |= 1 << ((position - 1) % 13)
                if naturals in seen:
                    continue
                seen.add(naturals)
                start = _joker_run(naturals)
                if start is not None:
                    values = sum(position_value(p) for p in range(start, start + len(window)))
                    joker.append(_template(window, naturals, values))
    return tuple(pure), tuple(joker)


def _naturals(packed: int) -> int:
    """The rank mask of a template's natural cards."""
    return sum(1 << rank for rank in range(13) if packed >> (_BITS * rank) & 15)


_ALL_RUNS: list[tuple[list[tuple[int, int, Template]], dict[int, tuple[int, Template]]]] = []
"""Filled on first use, for the pure runs and the runs with a joker of the whole suit:
(every template with its natural ranks, in :func:`_run_templates_direct`'s order; the
same keyed by natural ranks). A set of naturals makes one run with a joker, and one
pure run unless it is all 13 ranks (A-K and 2-A), which the keyed form never needs."""


def _suit_runs(mask: int) -> SuitRuns:
    """The run templates within the ranks ``mask`` of one suit, and the ranks they use.

    A run fits a hand's suit exactly when its natural ranks are a subset of ``mask``, so
    the templates are those of the whole suit whose naturals are a subset, in the same
    order (checked for every mask by the tests). A hand's suit holds few ranks, so the
    subsets are looked up; a crowded one is filtered instead.
    """
    cached = _RUN_TEMPLATES.get(mask)
    if cached is not None:
        return cached
    if not _ALL_RUNS:
        for templates in _run_templates_direct((1 << 13) - 1):
            listed = [(order, _naturals(t[0]), t) for order, t in enumerate(templates)]
            _ALL_RUNS.append((listed, {ranks: (order, t) for order, ranks, t in listed}))
    found: list[list[tuple[int, int, Template]]] = []
    for listed, keyed in _ALL_RUNS:
        if _POPCOUNT[mask] <= 8:
            hits = []
            sub = mask
            while sub:  # every subset of the mask
                entry = keyed.get(sub)
                if entry is not None:
                    hits.append((entry[0], sub, entry[1]))
                sub = (sub - 1) & mask
            hits.sort()
        else:
            hits = [hit for hit in listed if not hit[1] & ~mask]
        found.append(hits)
    pure = tuple(hit[2] for hit in found[0])
    joker = tuple(hit[2] for hit in found[1])
    in_pure = in_joker = 0
    for _, ranks, _ in found[0]:
        in_pure |= ranks
    with_joker = tuple(ranks for _, ranks, _ in found[1])
    for ranks in with_joker:
        in_joker |= ranks
    cached = _RUN_TEMPLATES[mask] = (pure, joker, in_pure, in_joker, with_joker)
    return cached


def _template(window: range, naturals: int, value: int | None = None) -> Template:
    if not naturals:
        for position in window:
            naturals |= 1 << ((position - 1) % 13)
    if value is None:
        value = sum(position_value(p) for p in window)
    packed = pen = aces = size = 0
    lowest = 13
    for rank in range(13):
        if naturals >> rank & 1:
            size += 1
            packed |= 1 << (_BITS * rank)
            lowest = min(lowest, rank)
            if rank == 0:
                aces += 1
            else:
                pen += min(rank + 1, 10)
    return (packed, value, pen, aces, lowest, size)


def _set_templates() -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """Per 4-bit suit mask: ((suit-subset packed for rank 0, lowest suit, size), ...)
    for every subset of 2-4 suits."""
    table: list[tuple[tuple[int, int, int], ...]] = []
    for suits in range(16):
        entries: list[tuple[int, int, int]] = []
        for size in (2, 3, 4):
            for chosen in combinations([s for s in range(4) if suits >> s & 1], size):
                packed = sum(1 << (_BITS * 13 * s) for s in chosen)
                entries.append((packed, chosen[0] * 13, size))
        table.append(tuple(entries))
    return tuple(table)


_SETS: Final = _set_templates()
_DEFAULT_RULES: Final = RamiRules()
_UPPER: Final = tuple(
    sum(15 << (_BITS * f) for f in range(face, JOKER_FACE + 1)) for face in range(JOKER_FACE + 1)
)
"""Per face, the nibbles of that face and every face above it (the joker included)."""

Candidate = tuple[int, int, int, bool, int]
"""(packed face counts, table value, hand penalty, joker-free run, cards)."""


def hand_combinations(
    hand: Iterable[int], rules: RamiRules | None = None, *, use_jokers: bool = True
) -> dict[int, list[Candidate]]:
    """Every combination of the hand's faces, keyed by its lowest natural face.

    A candidate is ``(packed, table value, hand penalty, joker-free run, cards)``; ``packed``
    holds 4 bits per face (face ``f`` at bit ``4 f``, the joker at face 52).
    """
    rules = rules or _DEFAULT_RULES
    suit_masks = [0, 0, 0, 0]
    rank_suits = [0] * 13
    jokers = 0
    for card in hand:
        face = FACES[card]
        if face == JOKER_FACE:
            jokers += 1
        else:
            suit, rank = divmod(face, 13)
            suit_masks[suit] |= 1 << rank
            rank_suits[rank] |= 1 << suit
    if not use_jokers:
        jokers = 0
    return _combinations(
        suit_masks, rank_suits, jokers, rules.ace_hand_value, rules.joker_hand_value
    )


def _combinations(
    suit_masks: Sequence[int],
    rank_suits: Sequence[int],
    jokers: int,
    ace_pen: int,
    joker_pen: int,
) -> dict[int, list[Candidate]]:
    found: dict[int, list[Candidate]] = {}
    need = 2 if jokers else 3
    popcount = _POPCOUNT
    for suit in range(4):
        mask = suit_masks[suit]
        if popcount[mask] < need:
            continue
        pure, joker = _suit_runs(mask)[:2]
        shift = _SUIT_SHIFT * suit
        base = suit * 13
        for packed, value, pen, aces, lowest, size in pure:
            key = base + lowest
            entry = (packed << shift, value, pen + aces * ace_pen, True, size)
            if key in found:
                found[key].append(entry)
            else:
                found[key] = [entry]
        if jokers:
            for packed, value, pen, aces, lowest, size in joker:
                key = base + lowest
                entry = (
                    (packed << shift) + _JOKER_ONE,
                    value,
                    pen + aces * ace_pen + joker_pen,
                    False,
                    size + 1,
                )
                if key in found:
                    found[key].append(entry)
                else:
                    found[key] = [entry]
    for rank in range(13):
        suits = rank_suits[rank]
        if popcount[suits] < need:
            continue
        card_value = _SET_VALUE[rank]
        card_pen = ace_pen if rank == 0 else _SET_VALUE[rank]
        shift = _BITS * rank
        for suit_packed, first, size in _SETS[suits]:
            key = first + rank
            group = found.get(key)
            if group is None:
                group = found[key] = []
            if size >= 3:
                group.append(
                    (suit_packed << shift, card_value * size, card_pen * size, False, size)
                )
            if jokers and size <= 3:
                group.append(
                    (
                        (suit_packed << shift) + _JOKER_ONE,
                        card_value * (size + 1),
                        card_pen * size + joker_pen,
                        False,
                        size + 1,
                    )
                )
    return found


_POPCOUNT: Final = tuple(bin(mask).count("1") for mask in range(1 << 13))
_SET_VALUE: Final = tuple(set_rank_value(rank + 1) for rank in range(13))
_TOP_VALUE: Final = (*(_SET_VALUE[face % 13] for face in range(JOKER_FACE)), 11)
"""The most a card can add to a table count (a natural's set value, a joker 11)."""


def combination_faces(hand: Iterable[int], rules: RamiRules | None = None) -> int:
    """The faces of ``hand`` that belong to at least one combination, as packed nibbles
    (face ``f`` at bit ``4 f``): a cheap "which cards are useful" without a search."""
    union = 0
    for options in hand_combinations(hand, rules).values():
        for option in options:
            union |= option[0]
    return union


def _ranks_values() -> tuple[int, ...]:
    values = [0] * (1 << 13)
    for ranks in range(1, 1 << 13):
        low = ranks & -ranks  # a mask is its lowest rank plus a smaller mask
        values[ranks] = values[ranks ^ low] + _SET_VALUE[low.bit_length() - 1]
    return tuple(values)


_RANKS_VALUE: Final = _ranks_values()
"""Per 13-bit rank mask, the most those natural cards of one suit can count (set values)."""


def _run_ranks(mask: int) -> tuple[int, int]:
    """(ranks in some joker-free run, ranks in some run with one joker) among the ranks
    ``mask`` of one suit, by bit operations: the same ranks the templates of
    :func:`_suit_runs` use (checked for every mask by the tests), without building them.

    On run positions (the ace at 1 and at 14), a card is in a joker-free run when it
    lies in three consecutive held positions, and in a run with one joker when another
    held card is one or two positions away (the joker fills the rest of three).
    """
    positions = mask | (mask & 1) << 13
    starts = positions & positions >> 1 & positions >> 2
    pure = starts | starts << 1 | starts << 2
    near = positions & (positions >> 1 | positions << 1 | positions >> 2 | positions << 2)
    return (pure & 0x1FFF) | (pure >> 13 & 1), (near & 0x1FFF) | (near >> 13 & 1)


# A hand's *lanes*: its natural cards as one integer, 16 bits per suit (bit ``16 s + r - 1``
# for rank ``r`` of suit ``s``), so that every suit is tested at once. For run positions
# a lane's bit 13 is the ace again (high); bits 14-15 stay empty, so that no shift by
# one or two positions reaches the next suit.
_LANE: Final = tuple(1 << (16 * (face // 13) + face % 13) for face in range(JOKER_FACE))
_RANKS_ALL: Final = sum(0x1FFF << (16 * suit) for suit in range(4))
_ACES_ALL: Final = sum(1 << (16 * suit) for suit in range(4))
"""Bit 0 of every lane; a 13-bit rank mask times this is that mask in every suit."""


def _lane_runs(lanes: int) -> tuple[int, int]:
    """:func:`_run_ranks` for every suit of ``lanes`` at once, as lanes."""
    positions = lanes | (lanes & _ACES_ALL) << 13
    starts = positions & positions >> 1 & positions >> 2
    pure = starts | starts << 1 | starts << 2
    near = positions & (positions >> 1 | positions << 1 | positions >> 2 | positions << 2)
    in_pure = (pure & _RANKS_ALL) | (pure >> 13 & _ACES_ALL)
    return in_pure, (near & _RANKS_ALL) | (near >> 13 & _ACES_ALL)


def _lanes_value(lanes: int) -> int:
    """The most the cards of ``lanes`` can count (set values)."""
    values = _RANKS_VALUE
    return (
        values[lanes & 0x1FFF]
        + values[lanes >> 16 & 0x1FFF]
        + values[lanes >> 32 & 0x1FFF]
        + values[lanes >> 48 & 0x1FFF]
    )


def _set_ranks(lanes: int) -> tuple[int, int]:
    """(ranks held in at least two suits, in at least three), bit-parallel on ranks."""
    a, b, c, d = lanes & 0x1FFF, lanes >> 16 & 0x1FFF, lanes >> 32 & 0x1FFF, lanes >> 48
    two = (a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d)
    return two, (a & b & (c | d)) | (c & d & (a | b))


def _has_combination(lanes: int, jokers: int) -> bool:
    """Whether the hand of ``lanes`` (and ``jokers`` usable jokers) holds any combination,
    exactly when :func:`_combinations` finds one: the quick way out for the many small
    hands that hold none."""
    two_suits, three_suits = _set_ranks(lanes)
    if three_suits or (jokers and two_suits):
        return True  # a set, or two suits of a rank and a joker
    in_pure, in_joker = _lane_runs(lanes)
    return bool(in_pure or (jokers and in_joker))


def _below_threshold(
    lanes: int,
    second: int,
    third: int,
    cards: int,
    jokers: int,
    threshold: int,
    exempt_ok: bool,
) -> bool:
    """True when no packing of the hand's combinations can reach ``threshold`` (nor go
    out under the exemption): a quick necessary test run before any candidate is built.

    ``lanes`` holds the hand's natural cards, ``second`` and ``third`` the ones held a
    second and a third time (several decks), ``cards`` counts the hand's cards and
    ``jokers`` the jokers that may be used.

    Two upper bounds on an opening's table value, each card at its set value (the most it
    can count) and a joker at 11: (1) every card that lies in some combination; (2) with
    jokers, every card in some joker-free combination, plus per joker the best joker
    combination's cards that lie in no joker-free one (those cards can only be laid with
    a joker, and each joker lies in one combination). Cards in no combination stay in
    hand, so with two of them the exemption cannot apply.
    """
    two_suits, three_suits = _set_ranks(lanes)
    in_sets = two_suits if jokers else three_suits
    in_pure, in_joker = _lane_runs(lanes)
    plain = (three_suits * _ACES_ALL & lanes) | in_pure  # in some joker-free combination
    extended = (in_sets * _ACES_ALL & lanes) | in_pure  # in some combination
    joker_meldable = jokers > 0 and in_sets != 0
    if jokers and in_joker:
        extended |= in_joker
        joker_meldable = True
    reach = _lanes_value(extended)
    reach_pure = _lanes_value(plain)
    melded = extended.bit_count()
    for held in (second, third):  # the second and third copies count again
        if held & extended:
            reach += _lanes_value(held & extended)
            reach_pure += _lanes_value(held & plain)
            melded += (held & extended).bit_count()
    left = cards - melded  # cards in no combination stay in hand
    if joker_meldable:
        reach += 11 * jokers
        left -= jokers
    if exempt_ok and left <= 1:
        return False
    if reach < threshold:
        return True
    if not jokers:
        return False
    # The joker-only cards one joker combination can add: a set of two suits (with 3
    # or 4 suits every card is in a plain set), or a run with a joker.
    extra = 0
    alone_cards = lanes & ~plain
    pairs = two_suits & ~three_suits
    while pairs:
        low = pairs & -pairs
        pairs ^= low
        alone = (alone_cards & low * _ACES_ALL).bit_count()
        extra = max(extra, alone * _SET_VALUE[low.bit_length() - 1])
    for suit in range(4):
        shift = 16 * suit
        if in_joker >> shift & 0x1FFF:
            plain_ranks = plain >> shift & 0x1FFF
            for ranks in _suit_runs(lanes >> shift & 0x1FFF)[4]:
                value = _RANKS_VALUE[ranks & ~plain_ranks]
                if value > extra:
                    extra = value
    return reach_pure + jokers * (11 + extra) < threshold


def _faces_of(packed: int) -> list[int]:
    """The faces held in ``packed``, in increasing order (lowest nibble first)."""
    faces = []
    while packed:
        face = ((packed & -packed).bit_length() - 1) >> 2
        faces.append(face)
        packed &= ~(15 << (_BITS * face))
    return faces


# -- the search ---------------------------------------------------------------------------


class _Search:
    """Depth-first search over packings, cut by exact bounds; the best is kept."""

    __slots__ = (
        "best",
        "best_key",
        "bounds",
        "by_face",
        "exempt_ok",
        "face_list",
        "first_only",
        "must_discard",
        "must_lay",
        "pure_run",
        "taken_single",
        "threshold",
        "total_cards",
        "unmeldable",
        "upper_masks",
    )

    def __init__(
        self,
        *,
        by_face: dict[int, list[Candidate]],
        threshold: int,
        exempt_ok: bool,
        must_discard: bool,
        pure_run: bool,
        first_only: bool,
        total_cards: int,
        unmeldable: int,
        taken_single: int | None,
        must_lay: int | None,
        bounds: dict[int, tuple[int, int, int]],
    ) -> None:
        self.best: list[Candidate] | None = None
        self.best_key: tuple[int, int] = (-1, -1)
        self.by_face = by_face
        self.face_list = sorted(by_face)
        self.bounds = bounds
        # The part of ``rem`` a subproblem depends on: faces at or above its first face.
        self.upper_masks = [_UPPER[face] for face in self.face_list] + [_UPPER[JOKER_FACE]]
        self.threshold = threshold
        self.exempt_ok = exempt_ok
        self.must_discard = must_discard
        self.pure_run = pure_run
        self.first_only = first_only
        self.total_cards = total_cards
        self.unmeldable = unmeldable
        self.taken_single = taken_single
        self.must_lay = must_lay

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
        elif not rem >> (_BITS * faces[index]) & 15:
            # Every option here holds the face it is listed under: none fits.
            result = self.bound(index + 1, rem)
        else:
            best_laid, best_value, best_cards = self.bound(index + 1, rem)
            for option in self.by_face[faces[index]]:
                packed = option[0]
                if ((rem | _GUARD) - packed) & _GUARD != _GUARD:
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
            if not rem >> (_BITS * face) & 15:
                index += 1  # no card of this face left: no option of it fits
                start = 0
                continue
            options = self.by_face[face]
            for position in range(start, len(options)):
                option = options[position]
                packed = option[0]
                if ((rem | _GUARD) - packed) & _GUARD != _GUARD:
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
        if left_cards == 1 and taken is not None and rem >> (_BITS * taken) & 15:
            # Only the card taken from the discard pile would stay: it cannot be discarded.
            return False
        must_lay = self.must_lay
        if must_lay is not None and not any(o[0] >> (_BITS * must_lay) & 15 for o in chosen):
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
    threshold: int,
    exempt_ok: bool,
    taken: int | None,
    must_lay: int | None,
    use_jokers: bool,
    first_only: bool,
    pure_run: bool,
    cuts: bool = True,
) -> Opening | None:
    """The search behind every entry point. ``cuts=False`` replaces the quick
    :func:`_below_threshold` test by the plain one, so that tests can check that the
    quick test never rejects a hand the search would open."""
    lanes = second = third = 0  # natural cards held once, twice, three times
    crowded = False
    packed = 0
    lane = _LANE
    for card in hand:
        face = FACES[card]
        packed += _ONE[face]
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
    taken_count = 0 if taken is None else packed >> (_BITS * taken_face) & 15
    jokers = packed >> (_BITS * JOKER_FACE)
    usable_jokers = jokers if use_jokers else 0
    if not use_jokers:
        packed -= jokers * _JOKER_ONE
    quick = cuts and not crowded
    if quick:
        if threshold > 0:
            if _below_threshold(
                lanes, second, third, len(hand), usable_jokers, threshold, exempt_ok
            ):
                return None
        elif not _has_combination(lanes, usable_jokers):
            return None
    suit_masks = [lanes & 0x1FFF, lanes >> 16 & 0x1FFF, lanes >> 32 & 0x1FFF, lanes >> 48]
    rank_suits = [0] * 13
    for suit in range(4):
        mask = suit_masks[suit]
        while mask:
            low = mask & -mask
            rank_suits[low.bit_length() - 1] |= 1 << suit
            mask ^= low
    by_face = _combinations(
        suit_masks, rank_suits, usable_jokers, rules.ace_hand_value, rules.joker_hand_value
    )
    if not by_face:
        return None
    if not quick and threshold > 0:
        # The straightforward cut (the reference for _below_threshold): the most the
        # cards in any combination could count, unless the exemption could apply.
        meldable = 0
        for options in by_face.values():
            for option in options:
                meldable |= option[0]
        reach = 0
        left = 0
        for card in hand:
            face = FACES[card]
            if meldable >> (_BITS * face) & 15:
                reach += _TOP_VALUE[face]
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
        unmeldable=0,
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
        combos.append(tuple(pools[face].pop(0) for face in _faces_of(option[0])))
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
    rules = rules or _DEFAULT_RULES
    cards = list(hand)
    return _solve(
        cards,
        rules,
        threshold=rules.opening_threshold if threshold is None else threshold,
        exempt_ok=rules.rami_sec_exempt_opening,
        taken=taken,
        must_lay=must_lay,
        use_jokers=use_jokers,
        first_only=False,
        pure_run=rules.opening_requires_pure_run,
    )


def can_open(
    hand: Iterable[int],
    rules: RamiRules | None = None,
    *,
    taken: int | None = None,
    must_lay: int | None = None,
) -> bool:
    """True when some legal opening exists (stops at the first one found)."""
    rules = rules or _DEFAULT_RULES
    return (
        _solve(
            list(hand),
            rules,
            threshold=rules.opening_threshold,
            exempt_ok=rules.rami_sec_exempt_opening,
            taken=taken,
            must_lay=must_lay,
            use_jokers=True,
            first_only=True,
            pure_run=rules.opening_requires_pure_run,
        )
        is not None
    )


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
    lane = _LANE
    for card in cards:
        face = FACES[card]
        if face == JOKER_FACE:
            jokers += 1
        else:
            lanes |= lane[face]
    if not _has_combination(lanes, jokers if use_jokers else 0):
        return None
    return _solve(
        cards,
        rules,
        threshold=0,
        exempt_ok=False,
        taken=taken,
        must_lay=must_lay,
        use_jokers=use_jokers,
        first_only=False,
        pure_run=False,
    )
