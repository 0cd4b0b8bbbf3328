"""Rami: every combination a hand could lay, and quick bounds on what it can open.

The Rami rules, sections 2-3. The candidates of the exact opening search
(:mod:`rummykit.games.rami.opening`): runs with or without one joker, resolved as the
engine does, and sets of 3 or 4 distinct suits with or without a joker, each indexed by
its lowest natural face. A hand is a face-count vector packed into one integer
(:data:`BITS` bits per face), so "does this combination fit in what is left" is one
subtraction and one mask (:data:`GUARD`).

Before any candidate is built, bit-parallel tests on the hand's *lanes* (its natural
cards, 16 bits per suit) say whether it holds a combination at all
(:func:`has_combination`) and whether any packing could reach the threshold
(:func:`below_threshold`): most hands are decided there.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import Final

from rummykit.cards import FACES, JOKER_FACE, Card, natural_card
from rummykit.games.rami.rules import RamiRules
from rummykit.games.rami.table import position_value, set_rank_value
from rummykit.melds import RAMI_MELDS, InvalidMeldError, check_meld

__all__ = ["Candidate", "combination_faces", "hand_combinations"]

BITS: Final = 4
"""Bits per face in a packed hand (face ``f`` at bit ``BITS * f``, the joker at 52)."""
ONE: Final = tuple(1 << (BITS * face) for face in range(JOKER_FACE + 1))
GUARD: Final = sum(8 << (BITS * face) for face in range(JOKER_FACE + 1))
"""The top bit of every face's nibble: a subtraction that borrows clears one."""
JOKER_ONE: Final = ONE[JOKER_FACE]


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
_SUIT_SHIFT: Final = BITS * 13


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
    return sum(1 << rank for rank in range(13) if packed >> (BITS * rank) & 15)


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
            packed |= 1 << (BITS * rank)
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
                packed = sum(1 << (BITS * 13 * s) for s in chosen)
                entries.append((packed, chosen[0] * 13, size))
        table.append(tuple(entries))
    return tuple(table)


_SETS: Final = _set_templates()
_DEFAULT_RULES: Final = RamiRules()
UPPER: Final = tuple(
    sum(15 << (BITS * f) for f in range(face, JOKER_FACE + 1)) for face in range(JOKER_FACE + 1)
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
    return packed_combinations(
        suit_masks, rank_suits, jokers, rules.ace_hand_value, rules.joker_hand_value
    )


def packed_combinations(
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
                    (packed << shift) + JOKER_ONE,
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
        shift = BITS * rank
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
                        (suit_packed << shift) + JOKER_ONE,
                        card_value * (size + 1),
                        card_pen * size + joker_pen,
                        False,
                        size + 1,
                    )
                )
    return found


_POPCOUNT: Final = tuple(bin(mask).count("1") for mask in range(1 << 13))
_SET_VALUE: Final = tuple(set_rank_value(rank + 1) for rank in range(13))
TOP_VALUE: Final = (*(_SET_VALUE[face % 13] for face in range(JOKER_FACE)), 11)
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
LANE: Final = tuple(1 << (16 * (face // 13) + face % 13) for face in range(JOKER_FACE))
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


def has_combination(lanes: int, jokers: int) -> bool:
    """Whether the hand of ``lanes`` (and ``jokers`` usable jokers) holds any combination,
    exactly when :func:`packed_combinations` finds one: the quick way out for the many small
    hands that hold none."""
    two_suits, three_suits = _set_ranks(lanes)
    if three_suits or (jokers and two_suits):
        return True  # a set, or two suits of a rank and a joker
    in_pure, in_joker = _lane_runs(lanes)
    return bool(in_pure or (jokers and in_joker))


def below_threshold(
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


def faces_of(packed: int) -> list[int]:
    """The faces held in ``packed``, in increasing order (lowest nibble first)."""
    faces = []
    while packed:
        face = ((packed & -packed).bit_length() - 1) >> 2
        faces.append(face)
        packed &= ~(15 << (BITS * face))
    return faces
