"""The Carousel layout rule: whether a submitted new table may replace the old one.

In Carousel (the Carousel rules, sections 2-3) a meld action submits the whole new table.
:func:`check_layout` decides whether one submitted layout is legal and says why not;
the hand engine calls it for every meld, and the placement search
(:mod:`rummykit.games.carousel.arrange`) builds only layouts it accepts.
:func:`resolve_layout` maps a layout written in notation onto the physical cards.

Cards are compared as a player sees them (§carousel-3.4):

* **Natural cards by face.** The two copies of a face in a two-deck game cannot be told
  apart, so a layout written in notation (every natural card is copy 0) is matched to
  the table and the hand by counting faces. The hand cards reported as used are real
  ids from ``hand`` (ids that also appear on the new table first, then hand order).
* **Jokers by declaration.** The jokers are interchangeable too: the old table's jokers
  are matched to the new table's so that as many as possible keep their declaration.
  A joker whose declaration changes away from ``c`` is *freed*; the freeing rule asks
  for at least as many real ``c`` on the new table as jokers freed from ``c``.
* **Copy limit** (``joker_copy_limit``): on the new table no face appears, counting real
  cards and declarations, more often than there are decks. It is checked on the whole
  new table, so a real card cannot join a table where a joker already stands for its
  last free copy unless that joker is freed (§carousel-2.5, §carousel-3.9).

>>> from rummykit.cards import parse_cards as p
>>> table = [p("4S JK=5S 6S"), p("9H 9S 9C")]
>>> check = check_layout(table, [p("4S 5S 6S"), p("9H 9S 9C JK=9D")], p("5S 2D"))
>>> format_cards(check.cards), check.value, format_cards(check.freed)
('5S', 5, '5S')
>>> check_layout(table, [p("4S 5S 6S"), p("9H 9S 9C")], p("5S 2D"))  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
rummykit...IllegalLayoutError: cannot remove a joker (JK=5S) from the table: ...
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Final, NoReturn, TypeGuard

from rummykit.cards import (
    FACES,
    JOKER_FACE,
    MAX_COPIES,
    PHYSICAL_IDS,
    Card,
    format_card,
    format_cards,
)
from rummykit.errors import IllegalActionError, InvalidMeldError
from rummykit.games.carousel.layout_counts import quick_counts
from rummykit.games.carousel.rules import placement_value
from rummykit.melds import CAROUSEL_MELDS, Meld, MeldRules, check_meld
from rummykit.memo import Memo

__all__ = [
    "IllegalLayoutError",
    "LayoutCheck",
    "as_melds",
    "check_layout",
    "declared_face",
    "resolve_layout",
]


class IllegalLayoutError(IllegalActionError):
    """A submitted layout breaks a rule; the message names the meld, the card and the rule.

    ``code`` is stable for programs: ``table_card_removed``, ``joker_removed``,
    ``not_in_hand``, ``no_hand_card``, ``undeclared_joker``, ``joker_not_freed``,
    ``copy_limit``, ``invalid_meld``; ``rule`` the id of the rule it breaks. ``meld`` is
    the 1-based index of the offending meld in the new layout when there is one.
    """

    def __init__(
        self,
        message: str,
        *,
        code: str,
        rule: str,
        card: int | None = None,
        meld: int | None = None,
        numbers: Mapping[str, int] | None = None,
        cause: str | None = None,
    ) -> None:
        counts = {**({} if meld is None else {"meld": meld}), **(numbers or {})}
        super().__init__(message, code=code, card=card, rule=rule, numbers=counts, cause=cause)
        self.meld = meld


@dataclass(frozen=True, slots=True)
class LayoutCheck:
    """A legal meld action, as :func:`check_layout` read it."""

    melds: tuple[Meld, ...]
    """The new layout's melds, validated (jokers resolved to their declared faces)."""
    cards: tuple[Card, ...]
    """The hand cards the action lays (ids taken from ``hand``; jokers undeclared)."""
    remaining: tuple[Card, ...]
    """The hand after the action."""
    value: int
    """Carousel hand value of :attr:`cards` (joker 25, courts 10, pips, ace 1)."""
    freed: tuple[Card, ...]
    """The declarations that table jokers gave up (one per freed joker), sorted."""


def _card_meld(meld: tuple[int, ...]) -> tuple[Card, ...]:
    if all(type(card) is Card for card in meld):
        return meld  # type: ignore[return-value]  # every id is a Card already
    return tuple(map(Card, meld))


_CARD_MELDS: Final = Memo(_card_meld)
"""Melds as :class:`Card` tuples, by their ids: a meld outlives many checks and searches."""


def as_melds(table: Iterable[Iterable[int]]) -> list[tuple[Card, ...]]:
    """A table as melds of :class:`Card`."""
    melds = table if isinstance(table, list | tuple) else list(table)
    try:
        return list(map(_CARD_MELDS.__getitem__, melds))
    except TypeError:  # melds that are not tuples
        return [_CARD_MELDS[tuple(meld)] for meld in melds]


def declared_face(card: Card, where: str) -> int:
    """The face a table joker is declared as; a table joker without one is no meld."""
    declared = card.declared
    if declared is None:
        raise InvalidMeldError(
            f"a joker {where} must carry a declaration, e.g. JK=5S", code="undeclared_joker"
        )
    return int(declared)


def check_layout(
    old_table: Sequence[Sequence[int]],
    new_table: Sequence[Sequence[int]],
    hand: Sequence[int],
    *,
    rules: MeldRules = CAROUSEL_MELDS,
    decks: int = 2,
    joker_copy_limit: bool = True,
) -> LayoutCheck:
    """Check one Carousel meld action: ``new_table`` replaces ``old_table``.

    Legal iff (the Carousel rules, section 3): every old table card is still on the
    table; the cards added come from ``hand`` and there is at least one; every joker
    stays on the table, is declared, and keeps its declaration unless freed (for each
    card ``c``, jokers whose declaration changes away from ``c`` are no more than the
    real ``c`` on the new table); with ``joker_copy_limit`` no face appears more often
    than ``decks`` (real cards plus declarations); every meld is legal under ``rules``.
    The checks run in that order and the first broken rule is reported.

    Raises:
        IllegalLayoutError: naming the meld, the card and the rule.
        InvalidMeldError: malformed input (a joker on the old table without a declaration).
    """
    quick = quick_counts(old_table, new_table, hand, decks, joker_copy_limit)
    if quick is not None:
        new, hand_cards, added, freed = quick
        return _layout_check(new, hand_cards, added, freed, rules)
    # A counting rule may be broken: count card by card, to say which one.
    tables = _Tables.count(old_table, new_table, hand)
    tables.check_nothing_removed()
    added = tables.added_from_hand()
    tables.check_declared()
    freed = tables.freed()
    tables.check_copy_limit(decks, joker_copy_limit)
    return _layout_check(tables.new, tables.hand, added, freed, rules)


def _layout_check(
    new: Sequence[tuple[Card, ...]],
    hand: Sequence[Card],
    added: list[Card],
    freed: list[int],
    rules: MeldRules,
) -> LayoutCheck:
    """(c) The new table's melds checked, once the counting rules hold."""
    checked = _checked_melds(new, rules)
    return LayoutCheck(
        melds=tuple(checked),
        cards=tuple(added),
        remaining=tuple(_remaining(hand, added)),
        value=sum(map(placement_value, added)),
        freed=tuple(map(Card, sorted(freed))),
    )


@dataclass(slots=True)
class _Tables:
    """Both tables and the hand, counted by face; one method per rule of section 3."""

    old: list[tuple[Card, ...]]
    new: list[tuple[Card, ...]]
    hand: list[Card]
    old_real: Counter[int]
    """Real cards per face on the old table."""
    old_decl: Counter[int]
    """Jokers per declared face on the old table."""
    first_old: dict[int, int]
    """Per face, the old meld (1-based) where it first appears."""
    new_real: Counter[int]
    new_decl: Counter[int]
    new_jokers: list[tuple[int, Card]]
    """The new table's jokers with their meld (1-based)."""

    @classmethod
    def count(
        cls,
        old_table: Sequence[Sequence[int]],
        new_table: Sequence[Sequence[int]],
        hand: Sequence[int],
    ) -> _Tables:
        old = as_melds(old_table)
        new = as_melds(new_table)
        faces = FACES
        old_real: dict[int, int] = {}
        old_decl: dict[int, int] = {}
        first_old: dict[int, int] = {}
        for index, meld in enumerate(old, start=1):
            for card in meld:
                face = faces[card]
                if face == JOKER_FACE:
                    declared = declared_face(card, "on the old table")
                    old_decl[declared] = old_decl.get(declared, 0) + 1
                elif face in old_real:
                    old_real[face] += 1
                else:
                    old_real[face] = 1
                    first_old[face] = index
        new_real: dict[int, int] = {}
        new_decl: dict[int, int] = {}
        new_jokers: list[tuple[int, Card]] = []
        for index, meld in enumerate(new, start=1):
            for card in meld:
                face = faces[card]
                if face == JOKER_FACE:
                    new_jokers.append((index, card))
                    if card.declared is not None:
                        declared = int(card.declared)
                        new_decl[declared] = new_decl.get(declared, 0) + 1
                else:
                    new_real[face] = new_real.get(face, 0) + 1
        hand_cards = list(hand) if _all_cards(hand) else [Card(c) for c in hand]
        return cls(
            old,
            new,
            hand_cards,
            Counter(old_real),
            Counter(old_decl),
            first_old,
            Counter(new_real),
            Counter(new_decl),
            new_jokers,
        )

    def check_nothing_removed(self) -> None:
        """(a) Every old table card and joker is still on the table."""
        for face in sorted(self.old_real):
            if self.new_real[face] < self.old_real[face]:
                meld_index = self.first_old[face]
                raise IllegalLayoutError(
                    f"cannot remove {format_card(face)} from the table (it was in meld "
                    f"{meld_index}: {format_cards(self.old[meld_index - 1])}); every table card "
                    "stays on the table",
                    code="table_card_removed",
                    rule="carousel-3.5",
                    card=face,
                    numbers={"table_meld": meld_index},
                )
        if len(self.new_jokers) < sum(self.old_decl.values()):
            missing = self.old_decl - self.new_decl
            shown = format_card(Card(JOKER_FACE).declare(min(missing or self.old_decl)))
            raise IllegalLayoutError(
                f"cannot remove a joker ({shown}) from the table: a joker never returns to a "
                "hand, and a freed joker must be placed again in the same turn",
                code="joker_removed",
                rule="carousel-3.8",
                card=JOKER_FACE,
            )

    def added_from_hand(self) -> list[Card]:
        """(b) The hand cards the new table adds (at least one, all from the hand)."""
        by_face: dict[int, list[Card]] = {}
        hand_jokers: list[Card] = []
        faces = FACES
        for card in self.hand:
            face = faces[card]
            if face == JOKER_FACE:
                hand_jokers.append(card)
            elif face in by_face:
                by_face[face].append(card)
            else:
                by_face[face] = [card]
        added: list[Card] = []
        new_ids: set[int] | None = None
        old_real = self.old_real
        for face in sorted(self.new_real):
            extra = self.new_real[face] - old_real[face]
            if extra <= 0:
                continue
            copies = by_face.get(face, [])
            if extra > len(copies):
                held = len(copies)
                raise IllegalLayoutError(
                    f"{format_card(face)} is not in your hand"
                    if not held
                    else f"{format_card(face)} is added {extra} times but your hand holds {held}",
                    code="not_in_hand",
                    rule="carousel-3.4",
                    card=face,
                    numbers={"added": extra, "held": held},
                )
            if len(copies) > 1:
                if new_ids is None:
                    new_ids = {int(c) for meld in self.new for c in meld}
                ids = new_ids
                copies = sorted(copies, key=lambda c: int(c) not in ids)
            added.extend(copies[:extra])
        extra_jokers = len(self.new_jokers) - sum(self.old_decl.values())
        if extra_jokers > len(hand_jokers):
            raise IllegalLayoutError(
                f"the layout has {extra_jokers} joker(s) more than the table but your hand "
                f"holds {len(hand_jokers)}",
                code="not_in_hand",
                rule="carousel-3.4",
                card=JOKER_FACE,
                numbers={"added": extra_jokers, "held": len(hand_jokers)},
            )
        added.extend(c.physical for c in hand_jokers[:extra_jokers])
        if not added:
            raise IllegalLayoutError(
                "no card from your hand is added: a meld action lays at least one hand card",
                code="no_hand_card",
                rule="carousel-3.6",
            )
        return added

    def check_declared(self) -> None:
        """(d) Every joker on the new table carries a declaration."""
        for index, card in self.new_jokers:
            if card.declared is None:
                raise IllegalLayoutError(
                    f"meld {index} ({format_cards(self.new[index - 1])}): a joker on the table "
                    "must be declared, e.g. JK=5S",
                    code="undeclared_joker",
                    rule="carousel-2.4",
                    card=card,
                    meld=index,
                )

    def freed(self) -> list[int]:
        """(d) The declarations jokers give up, each freed by a real card on the table."""
        if not self.old_decl:
            return []  # no joker on the old table: none gives a declaration up
        gained = sorted((self.new_decl - self.old_decl).elements())
        freed: list[int] = []
        for face in sorted(self.old_decl):
            moved_away = self.old_decl[face] - self.new_decl[face]
            if moved_away <= 0:
                continue
            freed.extend([face] * moved_away)
            if moved_away > self.new_real[face]:
                self._refuse_unfreed(face, moved_away, gained[0] if gained else face)
        return freed

    def _refuse_unfreed(self, face: int, moved_away: int, target: int) -> NoReturn:
        where = self._joker_meld(target)
        name = format_card(face)
        real = self.new_real[face]
        why = (
            f"no real {name} on the table"
            if not real
            else f"{moved_away} joker(s) declared {name} change but only "
            f"{real} real {name} is on the table"
        )
        raise IllegalLayoutError(
            f"{format_card(Card(JOKER_FACE).declare(target))}"
            + (f" (meld {where})" if where is not None else "")
            + f": the joker declared {name} was not freed ({why}); a joker keeps its "
            "declaration until the real card takes its place",
            code="joker_not_freed",
            rule="carousel-3.7",
            card=face,
            meld=where,
        )

    def _joker_meld(self, face: int) -> int | None:
        """The first new meld (1-based) with a joker declared ``face``."""
        return next(
            (i for i, c in self.new_jokers if c.declared is not None and int(c.declared) == face),
            None,
        )

    def check_copy_limit(self, decks: int, joker_copy_limit: bool) -> None:
        """No face more often than ``decks`` (declarations count with ``joker_copy_limit``)."""
        for face in sorted(set(self.new_real) | set(self.new_decl)):
            total = self.new_real[face] + (self.new_decl[face] if joker_copy_limit else 0)
            if total <= decks:
                continue
            where = self._joker_meld(face) if joker_copy_limit else None
            what = "real and declared " if joker_copy_limit and self.new_decl[face] else ""
            raise IllegalLayoutError(
                (f"meld {where}: " if where is not None else "")
                + f"{format_card(face)} appears {total} times on the table ({what}copies) but "
                f"there {'is' if decks == 1 else 'are'} only {decks} deck(s)"
                + (" (joker_copy_limit)" if what else ""),
                code="copy_limit",
                rule="carousel-2.5",
                card=face,
                meld=where,
                numbers={"count": total, "decks": decks},
            )


_LEGAL_MELDS: dict[MeldRules, dict[tuple[Card, ...], Meld]] = {}
"""Melds found legal, per rules: most melds of a new table were on the old one, and
whether a meld is legal depends only on its cards and the rules."""
_LEGAL_MELDS_KEPT: Final = 50_000


_LEGAL_SHAPES: dict[MeldRules, dict[tuple[int, ...], Meld]] = {}
"""Melds found legal, per rules, by shape (the cards without their copy bits): the meld
rule reads only faces and joker declarations, so a meld of the same shape is legal too,
with the same kind, faces, rank and suit."""


def _checked_melds(melds: Sequence[tuple[Card, ...]], rules: MeldRules) -> list[Meld]:
    """(c) Every meld of the new table, validated."""
    known = _LEGAL_MELDS.get(rules)
    if known is None or len(known) >= _LEGAL_MELDS_KEPT:
        known = _LEGAL_MELDS[rules] = {}
    known_melds = list(map(known.get, melds))
    if all(known_melds):
        return known_melds  # type: ignore[return-value]  # no meld is None
    shapes = _LEGAL_SHAPES.get(rules)
    if shapes is None or len(shapes) >= _LEGAL_MELDS_KEPT:
        shapes = _LEGAL_SHAPES[rules] = {}
    checked: list[Meld] = []
    for index, meld in enumerate(melds, start=1):
        found = known.get(meld)
        if found is None:
            shape = tuple(card - card % PHYSICAL_IDS + FACES[card] for card in meld)
            like = shapes.get(shape)
            if like is not None:
                found = known[meld] = Meld(like.kind, meld, like.faces, like.rank, like.suit)
                checked.append(found)
                continue
            try:
                found = known[meld] = shapes[shape] = check_meld(meld, rules)
            except InvalidMeldError as error:
                raise IllegalLayoutError(
                    f"meld {index}: {error}",
                    code="invalid_meld",
                    card=meld[0] if meld else None,
                    meld=index,
                    rule="carousel-2.1",
                    numbers=error.numbers,
                    cause=error.code,
                ) from None
        checked.append(found)
    return checked


_PHYSICAL_MASK: Final = PHYSICAL_IDS - 1
"""The physical bits of a card id: ``card & _PHYSICAL_MASK`` is ``int(card.physical)``."""


def _remaining(hand: Sequence[Card], added: Sequence[Card]) -> list[Card]:
    """The hand without the cards laid."""
    used = set(map(int, added))
    if hand and min(hand) >= 0 and max(hand) < PHYSICAL_IDS:
        # Every card is its physical id: take out the first copy of each card used.
        kept = list(hand)
        for card in used:
            if card in kept:
                kept.remove(card)  # type: ignore[arg-type]  # equal as ids
        return kept
    remaining = []
    for card in hand:
        physical = card & _PHYSICAL_MASK
        if physical in used:
            used.discard(physical)
        else:
            remaining.append(card)
    return remaining


def _all_cards(cards: Sequence[int]) -> TypeGuard[Sequence[Card]]:
    """Whether every card is a :class:`Card` already (an engine's hand always is)."""
    return all(type(card) is Card for card in cards)


def split_hand(cards: Sequence[Card]) -> tuple[dict[int, list[Card]], list[Card]]:
    """The natural cards by face, and the jokers (of a hand, or of a table's melds)."""
    naturals: dict[int, list[Card]] = {}
    jokers: list[Card] = []
    pool_of = naturals.get  # locals: read for every card
    face_mask = _FACE_MASK
    for card in cards:
        face = card & face_mask
        if face == JOKER_FACE:
            jokers.append(card)
        else:
            pool = pool_of(face)
            if pool is None:
                naturals[face] = [card]
            else:
                pool.append(card)
    return naturals, jokers


_FACE_MASK: Final = PHYSICAL_IDS // MAX_COPIES - 1
"""The face bits of a card id: ``card & _FACE_MASK`` is :func:`face_of` without a call."""


def resolve_layout(
    table: Sequence[Sequence[Card]],
    hand: Sequence[Card],
    layout: Sequence[Sequence[int]],
    seat: int,
) -> list[tuple[Card, ...]]:
    """Map a layout written in faces onto physical cards (table cards first).

    Two copies of one face are interchangeable in play, so a natural card is matched
    to a table copy when one is free, then to a hand copy. A joker is matched to a
    table joker with the same declaration (it keeps it), then to another table joker
    (freed and re-declared), then to a joker from ``hand`` (``seat``'s).

    Raises:
        IllegalActionError: an undeclared joker, or a card neither on the table nor in
            the hand.
    """
    table_naturals, table_jokers = split_hand(list(chain.from_iterable(table)))
    hand_naturals, hand_jokers = split_hand(hand)
    # One queue per face: its table cards first, then its hand cards.
    for face, cards in hand_naturals.items():
        queue = table_naturals.get(face)
        if queue is None:
            table_naturals[face] = cards
        else:
            queue.extend(cards)
    queue_of = table_naturals.get  # locals: read for every card
    face_mask = _FACE_MASK
    resolved: list[list[Card | None]] = []
    pending: list[tuple[int, int, Card]] = []
    for written in layout:
        row: list[Card | None] = []
        for named in written:
            card = named if type(named) is Card else Card(named)  # a Card is immutable
            face = card & face_mask
            if face == JOKER_FACE:
                keep = _kept_joker(card, table_jokers, seat)
                if keep is None:
                    pending.append((len(resolved), len(row), card))
                row.append(keep)
                continue
            queue = queue_of(face)
            if not queue:
                raise IllegalActionError(
                    f"seat {seat} cannot place {format_card(card)}: it is neither on the "
                    "table (free) nor in the hand",
                    code="card_not_available",
                    seat=seat,
                    card=card,
                    rule="carousel-3.4",
                )
            row.append(queue.pop(0))
        resolved.append(row)
    if not pending:
        return list(map(tuple, resolved))  # type: ignore[arg-type]  # no row holds None
    free_jokers = table_jokers + hand_jokers
    for m, i, card in pending:
        if not free_jokers:
            raise IllegalActionError(
                f"seat {seat} cannot place {format_card(card)}: no joker is available "
                "on the table or in the hand",
                code="card_not_available",
                seat=seat,
                card=card,
                rule="carousel-3.4",
            )
        declared = card.declared
        assert declared is not None
        resolved[m][i] = free_jokers.pop(0).declare(declared)
    return [tuple(c for c in row if c is not None) for row in resolved]


def _kept_joker(card: Card, table_jokers: list[Card], seat: int) -> Card | None:
    """The table joker that keeps ``card``'s declaration (taken from ``table_jokers``),
    or None when a free joker must stand for it."""
    declared = card // PHYSICAL_IDS  # the declared face plus one (0: none), as an int
    if not declared:
        raise IllegalActionError(
            f"seat {seat}: a joker on the table needs a declaration, e.g. JK=5S",
            code="undeclared_joker",
            seat=seat,
            card=card,
            rule="carousel-2.4",
        )
    keep = next((j for j in table_jokers if j // PHYSICAL_IDS == declared), None)
    if keep is not None:
        table_jokers.remove(keep)
    return keep
