"""Rami combinations on the table: joker positions, values, lay-offs and swaps.

The Rami rules, sections 2-4. A :class:`Combination` is immutable and holds physical
cards (copy bits kept, a resolved joker carrying its declared face) in table order: a
run from its lowest position up, a set in the order it was laid. Everything the engine,
the solvers and the bots ask of a combination (what it is worth, which faces extend it,
which real card shifts or frees its joker) is computed once when it is built.

Run positions are 1-14: position 1 is a low ace, 14 a high ace (``Q K A``).

>>> from rummykit.cards import parse_cards
>>> run = combination_from_cards(parse_cards("JK 7S 8S"), owner=0)
>>> str(run), run.value
('JK=6S 7S 8S', 21)
>>> swapped, joker = swap_joker(run, parse_cards("6S")[0])
>>> str(swapped), str(joker)
('6S 7S 8S', 'JK')
>>> shifting = combination_from_cards(parse_cards("JK 7S 8S"), owner=0, shifts=True)
>>> str(lay_off(shifting, parse_cards("6S")[0], shifts=True))
'6S 7S 8S JK=9S'
>>> combination_from_cards(parse_cards("QH KH AH"), owner=1).value
31
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

from rummykit.cards import FACES, JOKER_FACE, PHYSICAL_IDS, SUITS, Card, format_card, format_cards
from rummykit.errors import InvalidMeldError, cite_rule
from rummykit.melds import RAMI_MELDS, check_meld

__all__ = [
    "JOKER_BIT",
    "Combination",
    "CombinationError",
    "combination_from_cards",
    "face_bit",
    "lay_off",
    "pairs_with_joker",
    "position_face",
    "position_value",
    "set_rank_value",
    "swap_joker",
]

JOKER_BIT: Final = 1 << JOKER_FACE
"""The bit of the joker face in a face bitmask (bit ``f`` = face ``f``)."""
MAX_RUN: Final = 13
MAX_SET: Final = 4


class CombinationError(InvalidMeldError):
    """A card cannot be laid off onto (or swapped into) a combination: the cards would
    be no legal combination. ``code`` says why (``does_not_fit``, ``needs_swap``...),
    ``rule`` is the id of the rule it breaks, and ``reason`` the message without its
    citation (the engine words its own refusal around it)."""

    # Every raise names its own code. The default stays out of the class header, where
    # the rules pages' list of refusal codes would count it as one of its own.
    default_code = "combination"

    def __init__(self, reason: str, *, code: str, rule: str) -> None:
        super().__init__(cite_rule(reason, rule), code=code)
        self.reason = reason
        self.rule = rule


def face_bit(card: int) -> int:
    """The face bit of a card (its face id as a bit position)."""
    return 1 << FACES[card]


def position_value(position: int) -> int:
    """Table value of a run position: a low ace 1, pips, courts 10, a high ace 11."""
    if position == 1:
        return 1
    if position == 14:
        return 11
    return position if position < 10 else 10


def set_rank_value(rank: int) -> int:
    """Table value of one card of a set of ``rank``: an ace is 11 in a set."""
    if rank == 1:
        return 11
    return rank if rank < 10 else 10


def position_face(suit: int, position: int) -> int:
    """The natural face at a run position of ``suit`` (positions 1 and 14 are the ace)."""
    return suit * 13 + (position - 1 if position < 14 else 0)


def _position_ok(low: int, high: int, position: int) -> bool:
    """Whether a run covering ``low..high`` may grow to ``position`` (no wrap, 13 max)."""
    if position < 1 or position > 14:
        return False
    new_low, new_high = min(low, position), max(high, position)
    return new_high - new_low + 1 <= MAX_RUN and not (new_low == 1 and new_high == 14)


@dataclass(frozen=True, slots=True)
class Combination:
    """A set or run on the table. Build with :func:`combination_from_cards`."""

    owner: int
    """The seat that laid it (lay-offs by others do not change the owner)."""
    kind: Literal["set", "run"]
    cards: tuple[Card, ...]
    """Physical cards in table order; a resolved joker carries its declared face."""
    rank: int
    """A set's rank (1-13), or a run's lowest position (1-14)."""
    suit: int
    """A run's suit index (0-3, ``SUITS`` order); -1 for a set."""
    value: int
    """Table value (§rami-2.1): the opening count of this combination."""
    joker: int
    """Index of the joker in :attr:`cards`, or -1."""
    accepts: int
    """Face bitmask of the plain lay-offs it takes: natural faces at a free end or a
    missing suit, plus :data:`JOKER_BIT` when a joker may be laid off onto it."""
    shift_face: int
    """The natural face whose lay-off shifts the end joker to the other end, or -1."""
    swap_face: int
    """The natural face a joker swap gives for the joker, or -1."""

    @property
    def high(self) -> int:
        """A run's highest position (14 = high ace); a set's rank."""
        return self.rank + len(self.cards) - 1 if self.kind == "run" else self.rank

    @property
    def has_joker(self) -> bool:
        """True when the combination holds its (single) joker."""
        return self.joker >= 0

    @property
    def joker_face(self) -> Card | None:
        """The face the joker stands for (``None`` without a joker, or an open set suit)."""
        if self.joker < 0:
            return None
        return self.cards[self.joker].declared

    def faces(self) -> tuple[Card | None, ...]:
        """Per card, the natural face it is or stands for (``None``: open joker suit)."""
        return tuple(
            card.declared if FACES[card] == JOKER_FACE else Card(FACES[card]) for card in self.cards
        )

    def physical_cards(self) -> tuple[Card, ...]:
        """The cards without joker declarations (what returns to a hand or a deck)."""
        return tuple(card.physical for card in self.cards)

    def describe(self) -> str:
        """``run 6S-9S`` / ``set of 9s``: a short name for messages."""
        if self.kind == "run":
            low = format_card(position_face(self.suit, self.rank))
            high = format_card(position_face(self.suit, self.high))
            return f"run {low}-{high}"
        return f"set of {format_card(self.rank - 1)[0]}s"

    def __str__(self) -> str:
        return format_cards(self.cards)


# -- building ----------------------------------------------------------------------------

_RUN_VALUE_BELOW: Final = tuple(sum(position_value(p) for p in range(1, top)) for top in range(16))
"""Per position ``p``, the table value of the run positions 1 to ``p - 1``: a run's value
is a difference of two entries."""


def make_run(
    owner: int, suit: int, low: int, cards: Sequence[Card], *, shifts: bool = False
) -> Combination:
    """A run of ``suit`` from position ``low``, ``cards`` in position order (a joker
    declared with its face). The caller guarantees the shape; values are derived."""
    size = len(cards)
    high = low + size - 1
    value = _RUN_VALUE_BELOW[high + 1] - _RUN_VALUE_BELOW[low]
    joker = -1
    for index, card in enumerate(cards):
        if FACES[card] == JOKER_FACE:
            joker = index
            break
    accepts = 0
    low_ok = _position_ok(low, high, low - 1)
    high_ok = _position_ok(low, high, high + 1)
    if low_ok:
        accepts |= 1 << position_face(suit, low - 1)
    if high_ok:
        accepts |= 1 << position_face(suit, high + 1)
    shift_face = swap_face = -1
    if joker < 0:
        if low_ok or high_ok:
            accepts |= JOKER_BIT
    else:
        joker_face = position_face(suit, low + joker)
        can_shift = (joker == 0 and high_ok) or (joker == size - 1 and low_ok)
        if shifts and can_shift:
            shift_face = joker_face
        else:
            swap_face = joker_face
    return Combination(
        owner, "run", tuple(cards), low, suit, value, joker, accepts, shift_face, swap_face
    )


def make_set(owner: int, rank: int, cards: Sequence[Card]) -> Combination:
    """A set of ``rank``; a joker beside three naturals is declared the missing suit,
    beside two it stays open (§rami-3.6)."""
    suits_used = 0
    joker = -1
    for index, card in enumerate(cards):
        if FACES[card] == JOKER_FACE:
            joker = index
        else:
            suits_used |= 1 << (FACES[card] // 13)
    missing = [suit for suit in range(4) if not suits_used >> suit & 1]
    ordered = list(cards)
    swap_face = -1
    if joker >= 0:
        physical = ordered[joker].physical
        if len(missing) == 1:
            swap_face = missing[0] * 13 + rank - 1
            ordered[joker] = physical.declare(swap_face)
        else:
            ordered[joker] = physical
    accepts = 0
    if len(ordered) < MAX_SET:
        for suit in missing:
            accepts |= 1 << (suit * 13 + rank - 1)
        if joker < 0:
            accepts |= JOKER_BIT
    value = set_rank_value(rank) * len(ordered)
    return Combination(owner, "set", tuple(ordered), rank, -1, value, joker, accepts, -1, swap_face)


def combination_from_cards(
    cards: Sequence[int], owner: int = 0, *, shifts: bool = False
) -> Combination:
    """Validate ``cards`` as one Rami combination (at most one joker) and lay it out.

    An end joker takes the lower position when two are possible (``JK 7S 8S`` is
    ``6S 7S 8S``). Raises :class:`~rummykit.melds.InvalidMeldError` with the reason.
    """
    physical = [
        card if type(card) is Card and card < PHYSICAL_IDS else Card(card).physical
        for card in cards
    ]
    quick = _plain_combination(physical, owner, shifts)
    if quick is not None:
        return quick
    return _checked_combination(physical, owner, shifts)


def _checked_combination(physical: list[Card], owner: int, shifts: bool) -> Combination:
    """:func:`combination_from_cards` through the general meld check (which says why
    cards are no combination): the reference for :func:`_plain_combination`."""
    meld = check_meld(physical, RAMI_MELDS)
    if meld.kind == "set":
        return make_set(owner, meld.rank, physical)
    low = meld.rank
    suit = SUITS.index(meld.suit or "S")
    placed: list[Card | None] = [None] * len(physical)
    for card, face in zip(physical, meld.faces, strict=True):
        assert face is not None
        rank = face % 13 + 1
        position = 14 if rank == 1 and low > 1 else rank
        placed[position - low] = card.declare(face) if FACES[card] == JOKER_FACE else card
    return make_run(owner, suit, low, [card for card in placed if card is not None], shifts=shifts)


def _plain_combination(physical: list[Card], owner: int, shifts: bool) -> Combination | None:
    """The combination of ``physical`` read directly, or ``None`` when the cards are no
    combination or not plainly one (then the general check decides, and says why).

    Laying combinations is frequent and the general meld check, written for every
    variant, costs several times the rest; for Rami's shapes (3-4 distinct suits of one
    rank, or 3-13 positions of one suit with at most one joker) the reading is a few bit
    operations. It follows the general check exactly (the tests compare the two): ace
    low first, then ace high; an end joker takes the lower position, or the upper one
    when the run starts at a low ace; never both aces' positions.
    """
    size = len(physical)
    if not 3 <= size <= MAX_RUN:
        return None
    joker = -1
    ranks = suits = naturals = 0  # bit r - 1 for rank r; bit s for suit s
    for index, card in enumerate(physical):
        face = FACES[card]
        if face >= JOKER_FACE:
            if face > JOKER_FACE or joker >= 0:
                return None
            joker = index
            continue
        naturals += 1
        ranks |= 1 << (face % 13)
        suits |= 1 << (face // 13)
    if ranks & (ranks - 1) == 0:  # one rank: a set, suits all different
        if size > MAX_SET or suits.bit_count() != naturals:
            return None
        return make_set(owner, ranks.bit_length(), physical)
    if suits & (suits - 1) or ranks.bit_count() != naturals:
        return None  # several suits and ranks, or a rank twice
    jokers = size - naturals
    for positions in (ranks, (ranks ^ 1) | 1 << 13) if ranks & 1 else (ranks,):
        # ``positions``: bit p - 1 for run position p (the second reading: a high ace).
        low = (positions & -positions).bit_length()
        high = positions.bit_length()
        gaps = high - low + 1 - naturals
        if gaps > jokers:
            continue
        start = low - 1 if jokers > gaps and low > 1 else low
        end = start + size - 1
        if end > 14 or (start == 1 and end == 14):
            continue
        suit = suits.bit_length() - 1
        placed: list[Card] = [physical[0]] * size
        for card in physical:
            face = FACES[card]
            if face != JOKER_FACE:
                rank = face % 13 + 1
                placed[(14 if rank == 1 and start > 1 else rank) - start] = card
        if joker >= 0:
            free = (((1 << size) - 1) << (start - 1)) & ~positions
            position = free.bit_length()
            placed[position - start] = physical[joker].declare(position_face(suit, position))
        return make_run(owner, suit, start, placed, shifts=shifts)
    return None


# -- lay-offs and swaps -------------------------------------------------------------------


def lay_off(combination: Combination, card: int, *, shifts: bool = False) -> Combination:
    """``combination`` with ``card`` laid off onto it (§rami-4.9).

    A joker takes the lower free end of a run, or the missing suit of a three-card set.
    The real card an end joker stands for shifts the joker to the other end when
    ``shifts`` (option ``end_joker_shifts``) and that end exists.

    Raises:
        CombinationError: the card does not extend the combination; ``code`` is one of
            ``joker_limit``, ``combination_full``, ``does_not_fit``, ``needs_swap``.
    """
    card = Card(card).physical
    face = FACES[card]
    combo = combination
    if face == JOKER_FACE:
        if combo.joker >= 0:
            raise CombinationError(
                f"{format_card(card)} cannot be laid off onto {combo}: it already holds a "
                "joker, and a combination holds at most one",
                code="joker_limit",
                rule="rami-3.4",
            )
        if not combo.accepts & JOKER_BIT:
            raise CombinationError(
                f"{format_card(card)} cannot be laid off onto {combo}: the {combo.describe()} "
                "is full",
                code="combination_full",
                rule="rami-4.9",
            )
        if combo.kind == "set":
            return make_set(combo.owner, combo.rank, [*combo.cards, card])
        low, high, suit = combo.rank, combo.high, combo.suit
        if _position_ok(low, high, low - 1):
            joker = card.declare(position_face(suit, low - 1))
            return make_run(combo.owner, suit, low - 1, [joker, *combo.cards], shifts=shifts)
        joker = card.declare(position_face(suit, high + 1))
        return make_run(combo.owner, suit, low, [*combo.cards, joker], shifts=shifts)
    bit = 1 << face
    if combo.accepts & bit:
        if combo.kind == "set":
            return make_set(combo.owner, combo.rank, [*combo.cards, card])
        low, high, suit = combo.rank, combo.high, combo.suit
        if low > 1 and position_face(suit, low - 1) == face and _position_ok(low, high, low - 1):
            return make_run(combo.owner, suit, low - 1, [card, *combo.cards], shifts=shifts)
        return make_run(combo.owner, suit, low, [*combo.cards, card], shifts=shifts)
    if face == combo.shift_face:
        cards = list(combo.cards)
        joker = cards[combo.joker].physical
        suit = combo.suit
        if combo.joker == 0:
            moved = joker.declare(position_face(suit, combo.high + 1))
            return make_run(combo.owner, suit, combo.rank, [card, *cards[1:], moved], shifts=shifts)
        moved = joker.declare(position_face(suit, combo.rank - 1))
        return make_run(
            combo.owner, suit, combo.rank - 1, [moved, *cards[:-1], card], shifts=shifts
        )
    if face == combo.swap_face:
        where = " and the set is full" if combo.kind == "set" else ""
        raise CombinationError(
            f"{format_card(card)} cannot be laid off onto {combo}: the joker stands for "
            f"{format_card(face)} there{where}; only a joker swap takes its place",
            code="needs_swap",
            rule="rami-3.7" if combo.kind == "run" else "rami-4.10",
        )
    full = len(combo.cards) >= (MAX_SET if combo.kind == "set" else MAX_RUN)
    if full:
        raise CombinationError(
            f"{format_card(card)} cannot be laid off onto {combo}: the {combo.describe()} is full",
            code="combination_full",
            rule="rami-4.9",
        )
    if combo.kind == "set":
        reason = (
            f"a set of {format_card(combo.rank - 1)[0]}s needs a missing suit"
            if (face % 13 + 1) == combo.rank
            else f"it is not a {format_card(combo.rank - 1)[0]}"
        )
    else:
        reason = "it is not the next card of the run at either end"
    raise CombinationError(
        f"{format_card(card)} cannot be laid off onto {combo}: {reason}",
        code="does_not_fit",
        rule="rami-4.9",
    )


def swap_joker(
    combination: Combination, card: int, *, shifts: bool = False
) -> tuple[Combination, Card]:
    """Give the real ``card`` the joker stands for and take the joker (§rami-4.10).

    Returns the combination with the real card in the joker's place, and the physical
    joker (declaration dropped). A set must hold three natural cards and the joker.

    Raises:
        CombinationError: ``no_joker``, ``set_too_small``, ``joker_shifts`` or
            ``wrong_card``.
    """
    card = Card(card).physical
    face = FACES[card]
    combo = combination
    if combo.joker < 0:
        raise CombinationError(f"no joker to swap in {combo}", code="no_joker", rule="rami-4.10")
    if combo.kind == "set" and combo.swap_face < 0:
        raise CombinationError(
            f"cannot swap the joker of {combo}: a set must already hold 3 natural cards and "
            "the joker, so that the real card makes a 4-card set",
            code="set_too_small",
            rule="rami-4.10",
        )
    if face == combo.shift_face and face >= 0:
        raise CombinationError(
            f"cannot swap the joker of {combo} for {format_card(card)}: it is an end joker that "
            f"shifts to the other end (end_joker_shifts=true), so lay {format_card(card)} off "
            "instead",
            code="joker_shifts",
            rule="rami-3.7",
        )
    if face != combo.swap_face:
        wanted = combo.swap_face if combo.swap_face >= 0 else combo.shift_face
        raise CombinationError(
            f"cannot swap the joker of {combo} with {format_card(card)}: the joker stands for "
            f"{format_card(wanted)}, and only that exact card takes its place",
            code="wrong_card",
            rule="rami-4.10",
        )
    cards = list(combo.cards)
    joker = cards[combo.joker].physical
    cards[combo.joker] = card
    if combo.kind == "set":
        return make_set(combo.owner, combo.rank, cards), joker
    return make_run(combo.owner, combo.suit, combo.rank, cards, shifts=shifts), joker


def pairs_with_joker(first: int, second: int) -> bool:
    """Whether two natural faces make a combination with one joker: same rank and
    different suits, or same suit within two positions (an ace also sits above K).

    >>> pairs_with_joker(12, 0), pairs_with_joker(0, 3), pairs_with_joker(13, 0)
    (True, False, True)
    """
    first = FACES[first]
    second = FACES[second]
    rank_a, rank_b = first % 13 + 1, second % 13 + 1
    if rank_a == rank_b:
        return first != second
    if first // 13 != second // 13:
        return False
    low, high = sorted((rank_a, rank_b))
    return high - low <= 2 or (low == 1 and high >= 12)
