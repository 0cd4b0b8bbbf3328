"""Exact search for a Carousel placement over part of a table, lowest card first.

:func:`rummykit.games.carousel.placement_quick.quick_placement` uses it to finish a
quick layout: the cards the quick moves could not lay are searched for among the melds
around them, the cards already laid being forced (a layout that lays every live card
lays them too). It needs fewer jokers in play than a meld has cards (every Carousel
game: one joker per deck), so that no meld is made of jokers alone. The problem and
its live hand cards are in :mod:`rummykit.games.carousel.placement_problem`.

* **Search** (:func:`solve_placement`). Faces are visited in rank-major order (ace,
  as rank 1, to king; spades, clubs, diamonds, hearts within a rank). At each face the
  search may extend the open runs of its suit, start melds whose lowest real card is
  there, then close the face. A group, or a run up to a high ace, is chosen whole when
  it starts; other runs start at their shortest and stay open, as in the rank DP of
  van Rijn, Takes and Vis, so run ends need no guessing. The state is how many *slots*
  each later face already has (three bits a face in one int), the open runs per suit,
  the jokers placed and freed, and which closed faces have no room left. Which slots
  of a face hold its own items and which hold wild jokers is decided only when the
  face is closed, by counting: items of one face are interchangeable, and so are
  jokers. Slots below a meld's lowest real card must be wild. Branch and bound: a
  state's bound is its score plus the hand cards ahead that a meld can still reach; a
  transposition table keeps, per state, a bound on what its future can add; a budget
  on the states bounds the time, and the search stops at the first layout that lays
  every live hand card.

Freeing a joker (§carousel-3.8, §carousel-3.9) becomes a count at its face: with ``U``
items of face ``f`` on the new table (real cards and jokers still declared ``f``), ``x``
of the ``J`` jokers declared ``f`` can be freed when ``U >= J``, as the real cards that
take their places are then on the table; the ``x`` jokers must be placed as wild items.
The copy limit caps the slots of each face (real cards and declarations).
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Final

from rummykit.games.carousel.placement_problem import PlacementProblem, meld_universe

__all__ = ["SearchBudgetError", "SearchResult", "solve_placement"]

_NEG: Final = -(1 << 62)
_BITS: Final = 3
_FIELD: Final = (1 << _BITS) - 1
_TWO_FIELDS: Final = 2 * _BITS
_ORDER: Final = tuple(sorted(range(52), key=lambda f: ((f % 13), f // 13)))
"""Faces in rank-major order; ``_POSITION[face]`` is the inverse."""
_POSITION: Final = tuple(_ORDER.index(f) for f in range(52))


_Frozen = tuple[int, int, int, int, int, int]
"""A face no meld can reach any more: (shift of its suit's open runs, shift of its
slots, slots its table items need, table items, hand cards, their weight)."""

_Positions = tuple[int, ...]
_Anchor = tuple[int, int, int, _Positions, tuple[int, ...], int, _Positions, tuple[int, ...]]
"""A meld started at a position: (mask of later positions, slot increment, wild slots
below, positions of those, the meld's faces, 1 for a run that stays open, the later
positions, the faces sorted as a key for the old melds)."""


@cache
def _anchors(
    ace_low: bool, ace_high: bool, min_size: int, max_set: int
) -> tuple[tuple[_Anchor, ...], ...]:
    """Per position, the melds that can start there (its face is the lowest real card),
    longest first."""
    universe = meld_universe(ace_low, ace_high, min_size, max_set)
    out: list[tuple[_Anchor, ...]] = []
    for k, face in enumerate(_ORDER):
        found: list[_Anchor] = []
        for meld in universe[face]:
            ranks = {g % 13 for g in meld}
            is_run = len(ranks) > 1
            high = is_run and 0 in ranks and 12 in ranks
            # A run without a high ace is started at its shortest and extended face by
            # face later (it stays open); a run up to a high ace is chosen whole.
            if is_run and not high and len(meld) > min_size:
                continue
            mask = 0
            inc = 1 << (_BITS * k)
            below: list[int] = []
            above: list[int] = []
            for g in meld:
                q = _POSITION[g]
                if q > k:
                    mask |= 1 << q
                    inc += 1 << (_BITS * q)
                    above.append(q)
                elif q < k:
                    below.append(q)
            found.append(
                (
                    mask,
                    inc,
                    len(below),
                    tuple(below),
                    meld,
                    int(is_run and not high),
                    tuple(sorted(above)),
                    tuple(sorted(meld)),
                )
            )
        found.sort(key=lambda a: (a[2], len(a[4])))
        out.append(tuple(found))
    return tuple(out)


@cache
def _smallest_melds(
    ace_low: bool, ace_high: bool, min_size: int, max_set: int
) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per position, the melds of ``min_size`` cards through its face as (size,
    positions as bits). They alone decide how late a meld through the face can start
    (:func:`_reach`): a larger meld holds one of them through the face, so it lacks no
    fewer cards and its start is no later."""
    universe = meld_universe(ace_low, ace_high, min_size, max_set)
    return tuple(
        tuple(
            (len(meld), sum(1 << _POSITION[g] for g in meld))
            for meld in universe[face]
            if len(meld) == min_size
        )
        for face in _ORDER
    )


@dataclass(slots=True)
class SearchResult:
    """An optimal layout of one problem, at the level of faces."""

    score: int
    melds: list[tuple[int, ...]]
    """Each meld as its faces."""
    wild: list[int]
    """Per face, how many of its slots hold a wild joker (freed or from the hand)."""
    freed: list[int]
    """Per face, table jokers declared as it that are freed."""
    hand_used: list[int]
    """Per face, hand cards laid."""
    hand_jokers_used: int


class _GoalReachedError(Exception):
    """Raised inside the search when a layout lays every live hand card."""


class SearchBudgetError(Exception):
    """The search visited more states than it was allowed (the caller falls back)."""


def solve_placement(
    problem: PlacementProblem,
    faces: Sequence[int],
    hand: Sequence[int],
    wild_max: int,
    floor: int,
    budget: int = 1 << 62,
) -> SearchResult | None:
    """The best layout of the items on ``faces`` that scores more than ``floor``.

    ``hand`` gives the live hand cards per face, ``wild_max`` how many jokers can
    become wild (0 to ignore every other face). Returns None when nothing beats
    ``floor``. Needs ``wild_max < min_size``: no meld of jokers alone.
    """
    assert wild_max < problem.min_size and wild_max <= 2  # room is tracked as 0, 1 or more
    space = _Space.build(problem, faces, hand, wild_max)
    if space.goal <= floor:
        return None
    found = _search(space, floor, budget)
    return None if found is None else _replay(space, *found)


@dataclass(slots=True)
class _Space:
    """One problem as the search sees it: per position (faces in rank-major order)."""

    n: int
    """Positions searched: every face when jokers may go anywhere, else up to the last
    face of the problem."""
    wild_max: int
    hand_jokers: int
    joker_weight: int
    real: list[int]
    jokers: list[int]
    opt: list[int]
    """Live hand cards."""
    items_at: list[int]
    """Items of the position (real cards, jokers declared as it, live hand cards)."""
    limit: list[int]
    """Most slots the position may get (its items and the wild jokers, under the cap)."""
    cap: list[int]
    weight: list[int]
    present: int
    """Positions with a slot to give, as bits."""
    potential: list[int]
    """The hand cards' weight that melds starting at or after a position can still lay."""
    frozen: list[list[_Frozen]]
    """Per position, the earlier positions no meld can reach any more once it is
    reached (see ``_Frozen``)."""
    free_ahead: list[int]
    """Table jokers that can be freed from a position on."""
    goal: int
    """The score of laying every live hand card and hand joker."""
    joker_bound: int
    old: frozenset[tuple[int, ...]]
    size: int
    table: tuple[tuple[_Anchor, ...], ...]
    """Every meld that can start at each position (see :func:`_anchors`)."""
    anchors: list[tuple[_Anchor, ...] | None]
    """Those that can start here in this problem, old melds first (filled as needed)."""

    @classmethod
    def build(
        cls, p: PlacementProblem, faces: Sequence[int], hand: Sequence[int], wild_max: int
    ) -> _Space:
        chosen = set(faces)
        cap = [p.cap[face] for face in _ORDER]
        weight = [p.weight[face] for face in _ORDER]
        # Faces outside the problem have no items: only wild jokers can go there.
        real = [p.real[face] if face in chosen else 0 for face in _ORDER]
        jokers = [p.jokers[face] if face in chosen else 0 for face in _ORDER]
        opt = [hand[face] if face in chosen else 0 for face in _ORDER]
        items_at = [real[k] + jokers[k] + opt[k] for k in range(52)]
        limit = [min(cap[k], items_at[k] + wild_max) for k in range(52)]
        present = sum(1 << k for k in range(52) if limit[k])
        last = max((_POSITION[f] for f in faces), default=-1) + 1
        n = 52 if wild_max else last
        potential, frozen, goal = _reach(p, n, real, jokers, opt, items_at, weight, wild_max)
        free_ahead = [0] * (n + 1)
        for k in range(n - 1, -1, -1):
            free_ahead[k] = free_ahead[k + 1] + (jokers[k] if real[k] + opt[k] else 0)
        hand_jokers = p.hand_jokers if wild_max else 0
        joker_bound = hand_jokers * p.joker_weight
        return cls(
            n=n,
            wild_max=wild_max,
            hand_jokers=hand_jokers,
            joker_weight=p.joker_weight,
            real=real,
            jokers=jokers,
            opt=opt,
            items_at=items_at,
            limit=limit,
            cap=cap,
            weight=weight,
            present=present,
            potential=potential,
            frozen=frozen,
            free_ahead=free_ahead,
            goal=goal + joker_bound,
            joker_bound=joker_bound,
            old=p.old_melds,
            size=p.min_size,
            table=_anchors(p.ace_low, p.ace_high, p.min_size, p.max_set),
            anchors=[None] * n,
        )


def _reach(
    p: PlacementProblem,
    n: int,
    real: list[int],
    jokers: list[int],
    opt: list[int],
    items_at: list[int],
    weight: list[int],
    wild_max: int,
) -> tuple[list[int], list[list[_Frozen]], int]:
    """What melds can still reach: the potential and frozen positions of :class:`_Space`,
    and the weight of every live hand card.

    The last position from which a meld through each face can still start: past it,
    a face gets no more slots, so its hand cards beyond those slots are lost and its
    table items must already be covered."""
    through = _smallest_melds(p.ace_low, p.ace_high, p.min_size, p.max_set)
    lane = _BITS * p.min_size  # bits of one suit's open runs
    potential = [0] * (n + 1)
    frozen: list[list[_Frozen]] = [[] for _ in range(n + 1)]
    goal = 0
    filled = sum(1 << k for k in range(52) if items_at[k])
    for q in range(n):
        if not items_at[q]:
            continue
        latest = -1
        for size, mask in through[q]:
            reals = mask & filled
            absent = size - reals.bit_count()
            if absent > wild_max:
                continue
            # Faces below the start that jokers can fill: the start is the real face
            # after the ``spare`` lowest ones.
            for _ in range(wild_max - absent):
                reals &= reals - 1
            start = (reals & -reals).bit_length() - 1 if reals else q
            if start > latest:
                latest = start
                if latest >= q:
                    break
        latest = min(latest, q)
        goal += weight[q] * opt[q]
        if latest >= 0:
            potential[latest] += weight[q] * opt[q]
        r, jk = real[q], jokers[q]
        need = max(r, jk) if jk and r + opt[q] and wild_max else r + jk
        entry = (lane * (q & 3), _BITS * q, need, r + jk, opt[q], weight[q])
        for k in range(latest + 1, q + 1):
            frozen[k].append(entry)
    for k in range(n - 1, -1, -1):
        potential[k] += potential[k + 1]
    return potential, frozen, goal


_Steps = list[tuple[int, int, int, int]]
"""The search's path: (0, position, anchor, 0) starts a meld, (1, position, freed x,
items) closes a face, (2, next position, runs extended, 0) extends open runs."""
_Trail = tuple["_Trail", tuple[int, int, int, int]] | None
"""The steps to a state, newest last, as a chain of (steps before, step)."""


def _unwind(trail: _Trail) -> _Steps:
    """The steps of a trail, oldest first."""
    steps: _Steps = []
    while trail is not None:
        trail, step = trail
        steps.append(step)
    steps.reverse()
    return steps


_Start = tuple[tuple[tuple[int, int, int], ...], int, int, tuple[int, ...], int]
"""A meld that can start at a position in one problem (see :class:`_MeldStarts`): (per
later position, its slot field's shift, limit and items; slot increment; wild slots
below; positions of those; 1 for a run that stays open)."""
_Close = tuple[int, int, int, int, int, int, int, int, int, int, int, int, int, int]
"""What closing a position reads (see :func:`_closings`): (real cards, jokers, live
hand cards, weight, cap, items, shift of its suit's open runs, mask clearing them, 1
when a next position is searched, shift of the next suit's open runs, mask clearing
the first of them, shift of the next slots, the next position's limit and items)."""


def _search(space: _Space, floor: int, budget: int) -> tuple[int, _Steps, int, int] | None:
    """Branch and bound over the positions: (score, steps, jokers placed, jokers freed)
    of the best layout above ``floor``, or None. At each position a state may start a
    meld there (:class:`_MeldStarts`) or close the position."""
    n, wild_max, hj, jw = space.n, space.wild_max, space.hand_jokers, space.joker_weight
    items_at = space.items_at
    potential, frozen, free_ahead = space.potential, space.frozen, space.free_ahead
    goal, joker_bound = space.goal, space.joker_bound
    width = _BITS * space.size
    suit_mask = (1 << width) - 1
    low_lanes = (1 << (width - _BITS)) - 1
    fresh_shift = width - _BITS
    ceiling = [ahead + joker_bound for ahead in potential]
    wild_ahead = [ahead + hj for ahead in free_ahead]  # jokers that may still go wild
    memo: dict[tuple[int, ...], int] = {}
    best: list[tuple[int, _Steps, int, int]] = []
    threshold = floor
    starts_at = _MeldStarts(space)
    closings = _closings(space)
    memo_get = memo.get

    def close(
        k: int,
        u: int,
        used: int,
        placed: int,
        pending: int,
        freed: int,
        full: int,
        one: int,
        score: int,
        pipe: int,
        fresh: int,
        trail: _Trail,
        result: int,
    ) -> int:
        """The best of ``result`` and the totals below closing position ``k``."""
        # Close the face: x of its jokers freed, ``reals`` slots hold its own items; the
        # suit's open runs move one face on, and the next face may extend its suit's.
        (
            r,
            jk,
            o,
            w,
            cap_k,
            items_k,
            suit_shift,
            clear_suit,
            has_next,
            next_shift,
            clear_next,
            next_bits,
            limit_next,
            items_next,
        ) = closings[k]
        if used <= cap_k:
            excess = used - items_k if used > items_k else 0
            others = pending - excess  # wild slots promised at later faces
            fields = (pipe >> suit_shift) & suit_mask
            moved = (fields & _FIELD) + ((fields >> _BITS) & _FIELD)
            moved |= (fields >> _TWO_FIELDS) << _BITS
            moved = (moved & low_lanes) | (fresh << fresh_shift)
            base_pipe = (pipe & clear_suit) | (moved << suit_shift)
            most_ext = 0
            if has_next:
                cleared = base_pipe & clear_next
                waiting = (base_pipe >> next_shift) & _FIELD
                at_next = (u >> next_bits) & _FIELD
                most_ext = limit_next - at_next
                if waiting < most_ext:
                    most_ext = waiting
                if most_ext > 0:
                    before = at_next - items_next if at_next > items_next else 0
            else:
                cleared = 0
            # Whether the face has room left depends only on its slots.
            nfull, none = full, one
            if wild_max:
                room = cap_k - used
                if room == 0:
                    nfull |= 1 << k
                elif room == 1:
                    none |= 1 << k
            nxt = k + 1
            for x in range(jk, -1, -1):
                kept = r + jk - x
                most = used if used < kept + o else kept + o
                fewest = used - (wild_max - placed - others)
                if fewest < kept:
                    fewest = kept
                if x and fewest < jk:
                    fewest = jk
                nfreed = freed + x
                for reals in range(most, fewest - 1, -1):
                    nplaced = placed + used - reals
                    nscore = score + (reals - kept) * w
                    closed = (trail, (1, k, x, reals))
                    for ext in range(most_ext, 0, -1):
                        after = at_next + ext - items_next
                        grown = (after if after > 0 else 0) - before
                        if nplaced + others + grown > wild_max:
                            continue
                        found = visit(
                            nxt,
                            0,
                            u + (ext << next_bits),
                            nplaced,
                            others + grown,
                            nfreed,
                            nfull,
                            none,
                            nscore,
                            cleared | (ext << next_shift),
                            0,
                            (closed, (2, nxt, ext, 0)),
                        )
                        if found > result:
                            result = found
                    found = visit(
                        nxt,
                        0,
                        u,
                        nplaced,
                        others,
                        nfreed,
                        nfull,
                        none,
                        nscore,
                        cleared,
                        0,
                        (closed, (2, nxt, 0, 0)),
                    )
                    if found > result:
                        result = found
        return result

    def visit(
        k: int,
        j: int,
        u: int,
        placed: int,
        pending: int,
        freed: int,
        full: int,
        one: int,
        score: int,
        pipe: int,
        fresh: int,
        trail: _Trail,
    ) -> int:
        """Search below one state (reached by ``trail``); return an upper bound on its
        best total."""
        nonlocal threshold
        if k == n:
            if not freed <= placed <= freed + hj:
                return _NEG
            total = score + (placed - freed) * jw
            if total > threshold:
                best[:] = [(total, _unwind(trail), placed, freed)]
                threshold = total
                if total >= goal:
                    raise _GoalReachedError
            return total
        bound = score + ceiling[k]
        for lane, at, need, forced, o, w in frozen[k]:
            if (pipe >> lane) & suit_mask:
                bound += w * o  # an open run of its suit may still reach it
                continue
            slots = (u >> at) & _FIELD
            if slots < need:
                return _NEG  # a table item that no meld can cover any more
            if slots > forced:
                bound += w * (o if slots - forced > o else slots - forced)
        if bound <= threshold:
            return bound
        if placed > freed + wild_ahead[k]:
            return _NEG
        rest = u >> (_BITS * k)
        key = (k, j, rest, placed, freed, full, one, pipe, fresh)
        known = memo_get(key)
        if known is not None and score + known <= threshold:
            return score + known
        if len(memo) > budget:
            raise SearchBudgetError
        result = _NEG
        used = rest & _FIELD
        # A meld starts at its lowest real card: one must be left here.
        if used < items_at[k]:
            options = starts_at[k]
            if options is None:
                options = starts_at.fill(k)
            spare = wild_max - placed - pending
            for idx in range(j, len(options)):
                checks, inc, n_below, below, opens = options[idx]
                extra = n_below  # slots that only a wild joker can fill
                for shift, most, items in checks:
                    slots = (u >> shift) & _FIELD
                    if slots >= most:
                        break
                    if slots >= items:
                        extra += 1
                else:
                    if extra > spare:
                        continue
                    nfull, none = full, one
                    for q in below:
                        bit = 1 << q
                        if nfull & bit:
                            break
                        if none & bit:
                            none ^= bit
                            nfull |= bit
                    else:
                        found = visit(
                            k,
                            idx,
                            u + inc,
                            placed + n_below,
                            pending + extra - n_below,
                            freed,
                            nfull,
                            none,
                            score,
                            pipe,
                            fresh + opens,
                            (trail, (0, k, idx, 0)),
                        )
                        if found > result:
                            result = found
        result = close(
            k, u, used, placed, pending, freed, full, one, score, pipe, fresh, trail, result
        )

        future = result - score
        if known is None or future < known:
            memo[key] = future
        return result

    with contextlib.suppress(_GoalReachedError):
        visit(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, None)
    return best[0] if best else None


def _closings(space: _Space) -> list[_Close]:
    """Per position, what closing it reads (see ``_Close``), gathered once per problem."""
    n, width = space.n, _BITS * space.size
    suit_mask = (1 << width) - 1
    out: list[_Close] = []
    for k in range(n):
        suit_shift = width * (k & 3)
        nxt = k + 1
        has_next = nxt < n
        next_shift = width * (nxt & 3) if has_next else 0
        out.append(
            (
                space.real[k],
                space.jokers[k],
                space.opt[k],
                space.weight[k],
                space.cap[k],
                space.items_at[k],
                suit_shift,
                ~(suit_mask << suit_shift),
                int(has_next),
                next_shift,
                ~(_FIELD << next_shift),
                _BITS * nxt,
                space.limit[nxt] if has_next else 0,
                space.items_at[nxt] if has_next else 0,
            )
        )
    return out


class _MeldStarts(list[tuple[_Start, ...] | None]):
    """The search's first kind of move, per position (filled as the search gets there):
    start a meld whose lowest real card is at the position. A group, or a run up to a
    high ace, is chosen whole; other runs start at their shortest and stay open
    (counted as runs opened). Slots that only a wild joker can fill are promised
    (``pending``) and must stay within the jokers; a later position whose slots reach
    its limit takes no more."""

    def __init__(self, space: _Space) -> None:
        super().__init__([None] * space.n)
        self.space = space
        limit, items_at = space.limit, space.items_at
        # Per position, what a meld through it checks: (shift, limit, items).
        self.cells = [(_BITS * q, limit[q], items_at[q]) for q in range(52)]

    def fill(self, k: int) -> tuple[_Start, ...]:
        """The melds that can start at position ``k`` in this problem, old melds first
        (their anchors are kept in ``space.anchors`` for the replay)."""
        space = self.space
        present, old, wild_max = space.present, space.old, space.wild_max
        cell = self.cells.__getitem__
        fits = [a for a in space.table[k] if not a[0] & ~present and a[2] <= wild_max]
        # The table is in order of wild slots below: each part keeps that order.
        found = [a for a in fits if a[7] in old] + [a for a in fits if a[7] not in old]
        space.anchors[k] = tuple(found)
        result = self[k] = tuple(
            (tuple(map(cell, above)), inc, n_below, below, opens)
            for _mask, inc, n_below, below, _faces, opens, above, _key in found
        )
        return result


def _replay(
    space: _Space, total: int, steps: _Steps, placed: int, freed_count: int
) -> SearchResult:
    """The layout of the best path, at the level of faces; open runs move through
    per-suit pipelines as in the search."""
    real = space.real
    jokers = space.jokers
    anchors = space.anchors
    melds: list[tuple[int, ...]] = []
    wild = [0] * 52
    freed = [0] * 52
    hand_used = [0] * 52
    slots = [0] * 52
    pipes: list[list[list[list[int]]]] = [[[] for _ in range(space.size)] for _ in range(4)]
    started: list[list[int]] = []
    for kind, k, a, b in steps:
        if kind == 0:
            option = anchors[k]
            assert option is not None
            meld_faces, opens = option[a][4], option[a][5]
            if opens:
                started.append(sorted(meld_faces, key=lambda g: g % 13))
            else:
                melds.append(meld_faces)
        elif kind == 1:
            face = _ORDER[k]
            freed[face] = a
            hand_used[face] = b - (real[k] + jokers[k] - a)
            lanes = pipes[k & 3]
            pipes[k & 3] = [lanes[0] + lanes[1], *lanes[2:], started]
            started = []
        else:
            lanes = pipes[k & 3]
            for run in lanes[0][a:]:
                melds.append(tuple(run))
            for run in lanes[0][:a]:
                run.append(_ORDER[k])
            lanes[0] = lanes[0][:a]
    for lanes in pipes:
        for lane in lanes:
            melds.extend(tuple(run) for run in lane)
    for meld in melds:
        for g in meld:
            slots[g] += 1
    # Wild slots per face: every slot not filled by the face's own items.
    for face in range(52):
        k = _POSITION[face]
        own = real[k] + jokers[k] - freed[face] + hand_used[face]
        wild[face] = slots[face] - own
    return SearchResult(total, melds, wild, freed, hand_used, placed - freed_count)
