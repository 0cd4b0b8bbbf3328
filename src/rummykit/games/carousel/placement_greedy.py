"""A quick Carousel placement: lay hand cards by small local changes to the table.

:func:`rummykit.games.carousel.placement_quick.quick_placement` tries this first. When it lays every
hand card that can join some meld (the upper bound from
:func:`rummykit.games.carousel.placement_problem.live_hand`) and every hand joker, nothing
better exists and the answer is exact; the layout then differs from the table only
where cards were added, which is what a player wants to see. Otherwise the exact
search runs. The moves, tried for each card from the most valuable down, are:

* add it to an end of a run of its suit, or to a group of its rank that lacks its suit;
* take the place of a joker declared as it (the freed joker must then be placed too);
* make a new meld with other hand cards and table cards that can be spared (the end
  of a run longer than a meld's minimum, a card of a group larger than the minimum);
* go into the middle of a long run of its suit that holds the same face, splitting it.

A joker (from the hand, or freed) goes to the end of a run, into a group, or joins two
hand cards. Every change keeps each meld legal and the copy limit, so the result is a
legal layout; ``quick_placement`` checks it with ``check_layout`` all the same.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rummykit.cards import FACES, JOKER_FACE, Card
from rummykit.games.carousel.placement import JOKER_TOKEN, TABLE_FACES, TOKENS

__all__ = ["greedy_layout"]


class _Table:
    """The layout being built, with the counts the copy limit needs."""

    def __init__(
        self, melds: Sequence[Sequence[Card]], cap: int, ace_low: bool, ace_high: bool, size: int
    ) -> None:
        self.melds = [list(m) for m in melds]
        self.cap = cap
        self.ace_low = ace_low
        self.ace_high = ace_high
        self.size = size
        self.count = Counter(TABLE_FACES[c] for m in self.melds for c in m)

    def is_group(self, meld: list[Card]) -> bool:
        if not meld:
            return False
        faces = TABLE_FACES
        rank = faces[meld[0]] % 13
        return all(faces[card] % 13 == rank for card in meld)

    def span(self, meld: list[Card]) -> tuple[int, int, int]:
        """A run's suit and lowest and highest rank (an ace above a king counts 14)."""
        faces = [TABLE_FACES[c] for c in meld]
        ranks = sorted(f % 13 + 1 for f in faces)
        if ranks[0] == 1 and ranks[-1] == 13 and self.ace_high:
            ranks = sorted(14 if r == 1 else r for r in ranks)
        return faces[0] // 13, ranks[0], ranks[-1]

    def room(self, face: int) -> bool:
        return self.count[face] < self.cap

    def openings(self, meld: list[Card], max_set: int) -> list[int]:
        """Faces that could join a meld: a group's missing suits, or a run's ends."""
        if self.is_group(meld):
            if len(meld) >= max_set:
                return []
            rank = TABLE_FACES[meld[0]] % 13
            suits = {TABLE_FACES[c] // 13 for c in meld}
            return [s * 13 + rank for s in range(4) if s not in suits]
        if len(meld) >= 13:
            return []
        suit, low, high = self.span(meld)
        out = []
        if low > 2 or (low == 2 and self.ace_low):
            out.append(suit * 13 + low - 2)
        if high < 13 or (high == 13 and self.ace_high and low > 1):
            out.append(suit * 13 + high % 13)
        return out

    def add(self, index: int, card: Card) -> None:
        self.melds[index].append(card)
        self.count[TABLE_FACES[card]] += 1


def greedy_layout(
    melds: Sequence[Sequence[Card]],
    cards: Sequence[Card],
    jokers: Sequence[Card],
    *,
    decks_cap: int,
    ace_low: bool,
    ace_high: bool,
    min_size: int,
    max_set: int,
) -> tuple[list[list[Card]], list[Card], list[int], list[Card]]:
    """Lay as many of ``cards`` and ``jokers`` (from the hand) as the moves manage.

    Returns (layout, hand cards laid, freed declarations, cards and jokers left over;
    a freed joker that found no place is left over too). ``decks_cap`` is the copy
    limit.
    """
    table = _Table(melds, decks_cap, ace_low, ace_high, min_size)
    changed: set[int] = set()
    left = sorted(cards, key=lambda c: -(c.face % 13 if c.face % 13 < 9 else 9))
    wild: list[Card] = [j.physical for j in jokers]
    freed: list[int] = []
    progress = True
    while left and progress:
        progress = False
        for card in list(left):
            if card in left and _place_natural(table, card, left, max_set, changed, wild, freed):
                progress = True
    # Jokers last: they fit almost anywhere.
    stuck: list[Card] = []
    for joker in wild:
        if not _place_joker(table, joker, max_set, changed):
            stuck.append(joker)
    placed = [c for c in cards if c not in left]
    placed += [j.physical for j in jokers if j.physical not in stuck]
    return table.melds, placed, freed, left + stuck


def _place_natural(
    table: _Table,
    card: Card,
    left: list[Card],
    max_set: int,
    changed: set[int],
    wild: list[Card],
    freed: list[int],
) -> bool:
    face = card.face
    melds = table.melds
    # A joker declared as this face gives its place up to the real card.
    declared = JOKER_TOKEN + face
    tokens = TOKENS
    for index, meld in enumerate(melds):
        for position, other in enumerate(meld):
            if tokens[other] == declared:
                meld[position] = card
                wild.append(other.physical)
                freed.append(face)
                changed.add(index)
                left.remove(card)
                return True
    if not table.room(face):
        return False
    suit, rank = divmod(face, 13)
    for index, meld in enumerate(melds):
        # A run only grows in its suit and a group only in its rank.
        first = TABLE_FACES[meld[0]]
        if first // 13 != suit and first % 13 != rank:
            continue
        if face in table.openings(meld, max_set):
            table.add(index, card)
            changed.add(index)
            left.remove(card)
            return True
    # A new meld from hand cards and spare table cards.
    if _new_meld(table, card, left, max_set, changed):
        return True
    # The middle of a long run holding the same face: split it in two.
    for index, meld in enumerate(melds):
        if TABLE_FACES[meld[0]] // 13 != suit or table.is_group(meld):
            continue
        _suit, low, high = table.span(meld)
        r = rank + 1
        if r == 1 and high == 14:
            r = 14
        if low + table.size - 1 <= r <= high - table.size + 1:
            ordered = sorted(meld, key=lambda c: _rank_in(table, c, high))
            cut = r - low + 1
            melds[index] = ordered[:cut]
            melds.append([card, *ordered[cut:]])
            table.count[face] += 1
            changed.add(index)
            left.remove(card)
            return True
    return False


def _rank_in(table: _Table, card: Card, high: int) -> int:
    rank = TABLE_FACES[card] % 13 + 1
    return 14 if rank == 1 and high == 14 else rank


def _spares(table: _Table, max_set: int) -> dict[int, list[tuple[int, int]]]:
    """Table cards that can leave their meld alone: face -> [(meld, position)]."""
    out: dict[int, list[tuple[int, int]]] = {}
    for index, meld in enumerate(table.melds):
        if len(meld) <= table.size:
            continue
        if table.is_group(meld):
            picks = list(range(len(meld)))
        else:
            # Its ends: the first card of the lowest rank, the last of the highest.
            _suit, low, high = table.span(meld)
            ranks = [TABLE_FACES[card] % 13 + 1 for card in meld]
            if high == 14:
                ranks = [14 if r == 1 else r for r in ranks]
            picks = [ranks.index(low), len(ranks) - 1 - ranks[::-1].index(high)]
        for position in picks:
            if FACES[meld[position]] != JOKER_FACE:
                out.setdefault(TABLE_FACES[meld[position]], []).append((index, position))
    return out


def _new_meld(table: _Table, card: Card, left: list[Card], max_set: int, changed: set[int]) -> bool:
    face = card.face
    suit, rank = divmod(face, 13)
    hand_faces: dict[int, Card] = {}
    for other in left:
        other_face = FACES[other]
        if other is not card and other_face != face:
            hand_faces.setdefault(other_face, other)
    spares = _spares(table, max_set)
    size = table.size
    # Groups: this card, hand cards of its rank, then spare table cards.
    members: list[tuple[int, Card | tuple[int, int]]] = [(face, card)]
    for s in range(4):
        f = s * 13 + rank
        if f == face:
            continue
        if f in hand_faces and table.room(f):
            members.append((f, hand_faces[f]))
        elif f in spares:
            members.append((f, spares[f][0]))
    if len(members) >= size:
        chosen = sorted(members[1:], key=lambda m: isinstance(m[1], tuple))[: max_set - 1]
        if len(chosen) + 1 >= size and len(
            {m[1][0] for m in chosen if isinstance(m[1], tuple)}
        ) == sum(1 for m in chosen if isinstance(m[1], tuple)):
            return _commit(table, [(face, card), *chosen], left, changed)
    # Runs: the stretch of its suit that hand cards and spare table cards (one from
    # each meld) fill around it, without spare cards at the ends that are not needed.
    lowest = 1 if table.ace_low else 2
    top = 14 if table.ace_high else 13
    picked: dict[int, tuple[int, Card | tuple[int, int]]] = {rank + 1: (face, card)}
    lenders: set[int] = set()

    def fill(r: int) -> bool:
        f = suit * 13 + (r - 1) % 13
        if not lowest <= r <= top or (r == 14 and 1 in picked) or (r == 1 and 14 in picked):
            return False
        if f in hand_faces and table.room(f):
            picked[r] = (f, hand_faces[f])
            return True
        for index, position in spares.get(f, ()):
            if index not in lenders:
                lenders.add(index)
                picked[r] = (f, (index, position))
                return True
        return False

    low = high = rank + 1
    while fill(low - 1):
        low -= 1
    while fill(high + 1):
        high += 1
    ranks = sorted(picked)
    while len(ranks) > size and isinstance(picked[ranks[0]][1], tuple):
        ranks.pop(0)
    while len(ranks) > size and isinstance(picked[ranks[-1]][1], tuple):
        ranks.pop()
    if size <= len(ranks) <= 13:
        return _commit(table, [picked[r] for r in ranks], left, changed)
    return False


def _commit(
    table: _Table,
    members: list[tuple[int, Card | tuple[int, int]]],
    left: list[Card],
    changed: set[int],
) -> bool:
    borrowed = [m for _, m in members if isinstance(m, tuple)]
    if len({index for index, _ in borrowed}) != len(borrowed):
        return False  # two cards from one meld might not both be spare
    new: list[Card] = []
    for f, m in members:
        if isinstance(m, tuple):
            index, position = m
            new.append(table.melds[index][position])
        else:
            new.append(m)
            table.count[f] += 1
            left.remove(m)
    for index, position in sorted(borrowed, reverse=True):
        del table.melds[index][position]
        changed.add(index)
    # Shown as a player lays it: a group's table cards first, a run in rank order.
    if table.is_group(new):
        from_table = {int(c) for c in new[: len(new)]} - {
            int(m) for _, m in members if not isinstance(m, tuple)
        }
        new.sort(key=lambda c: (int(c) not in from_table, TABLE_FACES[c]))
    else:
        high = 14 if any(TABLE_FACES[c] % 13 == 12 for c in new) else 13
        new.sort(key=lambda c: _rank_in(table, c, high))
    table.melds.append(new)
    return True


def _place_joker(table: _Table, joker: Card, max_set: int, changed: set[int]) -> bool:
    for index, meld in enumerate(table.melds):
        for f in table.openings(meld, max_set):
            if table.room(f):
                table.add(index, joker.declare(f))
                changed.add(index)
                return True
    return False
