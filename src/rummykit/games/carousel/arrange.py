"""Carousel placement: the hand cards worth the most that can be laid, exactly.

In Carousel (rules/carousel.md sections 2-3) a meld action submits the whole new table.
:func:`best_placement` finds, exactly, the hand cards worth the most (or the most cards)
that can be laid, together with a complete legal layout that shows how: one that
:func:`rummykit.games.carousel.layout.check_layout` (the engine's rule) accepts.

>>> from rummykit.cards import format_cards, parse_cards as p
>>> best = best_placement([p("5H 6H 7H 8H")], p("8C 8D KS"))
>>> [format_cards(meld) for meld in best.layout], best.value
(['5H 6H 7H', '8H 8C 8D'], 16)

How the solver works. :func:`best_placement` runs the exact rank DP below. It is
compiled (``_rank_dp.c``, an optional C extension built by ``pip install``; the same
algorithm as the Python class :class:`_Dp`, visiting the same states in the same order,
so the same layout). Without it, the pure-Python path first tries something cheaper on
tables of 60 cards or more: it drops the hand cards that fit in no meld
(:func:`rummykit.games.carousel.placement_search.live_hand`), lays the others by small changes
to the table (:mod:`rummykit.games.carousel.placement_greedy`) and searches the melds around
whatever is left (:func:`rummykit.games.carousel.placement_search.solve_placement`, within a
budget). A layout that lays every live hand card and joker is optimal; otherwise the
rank DP runs, looking only for layouts better than the quick one.

The rank DP. The state space is the rank DP of van Rijn, Takes and Vis (2015,
"The complexity of Rummikub problems"), changed so that every table card must be used:
faces are visited ace to king, suit by suit; a state holds, per suit, the multiset of
open run lengths (capped at 3, an extra mark for a run that started at the low ace)
and the aces kept back for a Q-K-A run, plus the current rank's group counts and the
jokers placed and freed. At each face the items are table cards and kept jokers
(forced), hand cards (optional) and wild jokers (freed table jokers, which must be
placed, and hand jokers); the choice is how many go into runs and into the rank's
groups. The state space is searched depth first with branch and bound: each state's
bound is its score plus four per-suit chain DPs solved backwards once per problem,
in which a suit's groups only need partners the other suits could lend and the
jokers are shared out among the suits (see :class:`_Dp`). The bound also guides
the search, and a transposition table remembers what each state can still add.
Ties are broken towards layouts that keep table cards in the kind of meld they were
in; then only the melds near the cards that move are reopened, so that the layout
changes little.
"""

from __future__ import annotations

import contextlib
import functools
import threading
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Final, Literal

from rummykit.cards import Card, card_value_gin
from rummykit.errors import InvalidOptionError, RummykitError
from rummykit.games.carousel.layout import (
    IllegalLayoutError,
    as_melds,
    check_layout,
    declared_face,
)
from rummykit.games.carousel.placement_greedy import greedy_layout
from rummykit.games.carousel.placement_search import (
    PlacementProblem,
    SearchBudgetError,
    SearchResult,
    live_hand,
    solve_placement,
)
from rummykit.games.carousel.rules import placement_value
from rummykit.melds import CAROUSEL_MELDS, MeldRules

_CompiledRankDp: type[RankDp] | None
try:  # the compiled rank DP (optional; the same results, tens of times faster)
    from rummykit.games.carousel._rank_dp import RankDp as _CompiledRankDp
    from rummykit.games.carousel._rank_dp import RankDpUnsupportedError as _CompiledUnsupported
except ImportError:  # pragma: no cover - built by every install with a C compiler
    _CompiledRankDp = None
    _CompiledUnsupported = RuntimeError  # type: ignore[misc,assignment]

if TYPE_CHECKING:
    from rummykit.games.carousel._rank_dp import RankDp

__all__ = ["Placement", "best_placement"]

_SPEC: Final = "rules/carousel.md"
_QUICK_JOKER_TABLE: Final = 20
"""With a joker in the hand, tables of at least this many cards try it first too (a
joker lets almost every hand fit)."""
_QUICK_TABLE: Final = 60
"""Tables of at least this many cards try the quick layout first. On smaller tables
the hand rarely fits entirely, so the rank DP alone is faster (benchmarks/bench_arrange.py)."""
_REPAIR_BUDGET: Final = 600
"""States one search around the cards the quick moves left may remember."""
_RING_SHARE = 0.6
"""The rank DP re-solves around the cards that move only while the melds it opens
hold at most this share of the table."""
_NO_LIMIT: Final = 1 << 12
"""A copy cap that never binds (``joker_copy_limit=False``)."""


@dataclass(frozen=True, slots=True)
class Placement:
    """The best hand cards to lay and one legal new table that lays them."""

    layout: tuple[tuple[Card, ...], ...]
    """The complete new table: every old table card, the placed cards, declared jokers.
    Old melds, changed or not, keep their place; new melds follow."""
    cards: tuple[Card, ...]
    """The hand cards placed (ids from the hand; a joker without its declaration)."""
    value: int
    """Their Carousel hand value."""
    count: int
    """How many hand cards are placed."""
    freed: tuple[Card, ...]
    """Declarations given up by freed table jokers (one per freed joker)."""
    untouched: int
    """How many melds of the old table appear unchanged in :attr:`layout`."""


# --------------------------------------------------------------------------- helpers


def _is_group(meld: Sequence[Card]) -> bool:
    """True when every card of ``meld`` (declarations for jokers) has one rank."""
    ranks = set()
    for card in meld:
        face = card.declared if card.is_joker else card
        if face is not None:
            ranks.add(int(face) % 13)
    return len(ranks) == 1


def _check_rules(rules: MeldRules, decks: int) -> None:
    if not 1 <= decks <= 4:
        raise InvalidOptionError(f"decks must be 1-4, got {decks}", option="decks")
    if rules.min_size < 2 or not rules.min_size <= rules.max_set_size <= 4:
        raise InvalidOptionError(
            "the arrangement solver needs 2 <= min_size <= max_set_size <= 4", option="rules"
        )
    if rules.max_run_size < 13:
        raise InvalidOptionError("the arrangement solver needs max_run_size >= 13", option="rules")
    if rules.max_jokers is not None:
        raise InvalidOptionError(
            "the arrangement solver handles any number of jokers per meld only", option="rules"
        )


# --------------------------------------------------------------------------- the solver
#
# Items: every table card and every table joker kept at its declaration is a *forced*
# item of its face; hand cards are optional items; freed table jokers and hand jokers
# are *wild* items that take a face when placed. The DP walks the faces rank by rank
# (ace first, king last), suit by suit, and decides for each face how many items are
# placed and how many of them go into runs and into the rank's groups.
#
# State (packed into one int): per suit, an interned "suit state" -- how many aces of
# the suit wait for a Q-K-A run (``hi``) and the multiset of open run lengths, capped
# at ``min_size`` (``min_size + 1`` marks a run that started at the ace-low when a high
# ace is pending, since that run cannot take it) -- plus the group sums of the current
# rank, the wild items placed so far and the jokers freed so far.

_SUIT_BITS: Final = 12
_SUIT_MASK: Final = (1 << _SUIT_BITS) - 1
_GSUM_SHIFT: Final = 48
_GMAX_SHIFT: Final = 54
_USED_SHIFT: Final = 58
_FREED_SHIFT: Final = 62
_GROUP_CLEAR: Final = ~(((1 << 10) - 1) << _GSUM_SHIFT)
_NEG: Final = -(1 << 62)
"""Minus infinity for bounds (sums of a few stay far below any real score)."""
_DEAD: Final = _NEG // 2

_SuitState = tuple[int, tuple[int, ...]]
_suit_states: list[_SuitState] = [(0, ())]
_suit_ids: dict[_SuitState, int] = {(0, ()): 0}
_split_cache: dict[tuple[int, ...], tuple[tuple[int, int, int], ...]] = {}


_intern_lock = threading.Lock()


def _intern(state: _SuitState) -> int:
    """A small id for a suit state (shared by every problem and thread)."""
    found = _suit_ids.get(state)
    if found is None:
        with _intern_lock:
            found = _suit_ids.get(state)
            if found is None:
                found = len(_suit_states)
                if found > _SUIT_MASK:  # pragma: no cover - needs thousands of open runs
                    raise RuntimeError("too many distinct run states")
                _suit_states.append(state)
                _suit_ids[state] = found
    return found


@dataclass(slots=True)
class _Problem:
    min_size: int
    max_set: int
    ace_low: bool
    ace_high: bool
    real: list[int]
    """Per face: real table cards in the open region (forced)."""
    jokers: list[int]
    """Per face: open-region table jokers declared as it."""
    real_ext: list[int]
    """Per face: real cards in locked (untouched) melds, for the freeing rule."""
    cap: list[int]
    """Per face: most items the open region may hold (copy limit)."""
    hand: list[int]
    hand_jokers: int
    weight: list[int]
    """Per face: score of placing one hand card of it (primary objective, scaled)."""
    joker_weight: int
    in_runs: list[int]
    """Per face: open-region table items that were in runs (tie-break: keep them there)."""
    in_groups: list[int]
    in_high: list[int]
    """Per ace: open-region table aces that were at the top of a run."""
    unit: int
    """Scale of the primary objective: scores are ``primary * unit + tie-break``."""


@dataclass(slots=True)
class _Solved:
    score: int
    used: int
    freed: int
    choices: list[tuple[int, int, int, int, int, int, int, int]]
    """Per step: (rank, suit, freed x, hand cards o, wild w, run items u, group g, high h)."""


def _run_step(
    runs: tuple[int, ...], u: int, rank: int, hi: int, size: int, last: int
) -> tuple[int, ...] | None:
    """Open runs after ``u`` items of one suit join runs at ``rank`` (2-13), or None."""
    shorts = [k for k in runs if k < size]
    if u < len(shorts):
        return None
    rest = u - len(shorts)
    new: list[int] = []
    for k in shorts:
        k += 1
        if k >= size:
            # It started at rank - size + 1: flag an ace-low start when a high ace waits.
            k = size + 1 if (hi and rank == size) else size
        new.append(k)
    longs = sorted(k for k in runs if k >= size)  # flag-free long runs extend first
    extend = min(rest, len(longs))
    new.extend(longs[:extend])
    rest -= extend
    if rest:
        if rank + size - 1 > last:
            return None  # a run started here could never reach min_size
        new.extend([1] * rest)
    return tuple(sorted(new))


def _splits(
    state: int, t: int, rank: int, size: int, high_cap: int, ace_low: bool, ace_high: bool
) -> tuple[tuple[int, int, int], ...]:
    """Ways ``t`` items of a face can go to runs: (new suit state, run items u, high h)."""
    key = (state, t, rank, size, high_cap, ace_low, ace_high)
    found = _split_cache.get(key)
    if found is not None:
        return found
    out: list[tuple[int, int, int]] = []
    if rank == 1:
        for h in range(min(t, high_cap) + 1 if ace_high else 1):
            for u in range(t - h + 1 if ace_low else 1):
                out.append((_intern((h, (1,) * u)), u, h))
    else:
        hi, runs = _suit_states[state]
        last = 14 if hi else 13
        for u in range(t + 1):
            new_runs = _run_step(runs, u, rank, hi, size, last)
            if new_runs is not None:
                out.append((_intern((hi, new_runs)), u, 0))
    result = tuple(out)
    _split_cache[key] = result
    return result


def _group_ok(gmax: int, gsum: int, size: int, max_set: int) -> bool:
    if gsum == 0:
        return True
    groups = max(gmax, -(-gsum // max_set))
    return groups * size <= gsum


def _final_ok(state: int, size: int) -> bool:
    """Whether a suit state can close after the king (high aces extend runs first)."""
    hi, runs = _suit_states[state]
    shorts = [k for k in runs if k < size]
    if not hi:
        return not shorts
    if any(k + 1 < size for k in shorts):
        return False
    return len(shorts) <= hi <= len(shorts) + runs.count(size)


_Choice = tuple[int, int, int, int, int, int]
_FaceOption = tuple[int, int, int, int, int, int, _Choice]
_option_cache: dict[tuple[int | bool, ...], tuple[_FaceOption, ...]] = {}
"""Face options by the face's shape (shared by all problems; see :func:`_face_options`)."""


def _face_options(
    state: int,
    rank: int,
    real: int,
    kept_max: int,
    hand: int,
    cap: int,
    real_ext: int,
    wild_max: int,
    high_cap: int,
    in_runs: int,
    in_groups: int,
    in_high: int,
    size: int,
    ace_low: bool,
    ace_high: bool,
) -> tuple[_FaceOption, ...]:
    """Every way to place one face's items from one suit state, best layout tie-break per
    outcome: (new state, g, w, freed x, hand cards o, tie-break gain, choice).

    For a given outcome (new state, g, w, x) the number of items, and so ``o``, is
    fixed, which is why the best choice does not depend on the hand cards' weights.
    """
    best: dict[tuple[int, int, int, int], tuple[int, int, _Choice]] = {}
    for x in range(kept_max + 1):
        forced = real + kept_max - x
        if forced > cap:
            continue
        for o in range(hand + 1):
            if x > real + real_ext + o:
                continue  # freeing rule: a real card must stand for each freed joker
            for w in range(wild_max + 1):
                t = forced + o + w
                if t > cap:
                    break
                for new_state, u, h in _splits(state, t, rank, size, high_cap, ace_low, ace_high):
                    g = t - u - h
                    keep = (kept_max - x) + min(g, in_groups)
                    keep += min(u, in_runs - in_high) + min(h, in_high)
                    out_key = (new_state, g, w, x)
                    old = best.get(out_key)
                    if old is None or keep > old[1]:
                        best[out_key] = (o, keep, (x, o, w, u, g, h))
    return tuple(
        (new_state, g, w, x, o, keep, choice)
        for (new_state, g, w, x), (o, keep, choice) in best.items()
    )


_Raw = tuple[int, int, int, int, int, _Choice]
"""A way to place one face's items: (new suit state, g, w, x, gain, choice)."""
_Move = tuple[int, int, int, int, int, tuple[int, ...], _Choice]


class _Dp:
    """The rank DP for one problem, with per-suit upper bounds that guide and prune it.

    Suits interact only through the groups of each rank and the shared jokers. Relaxing
    that leaves four small chain DPs, one per suit, whose backward values bound what
    each suit can still add, per number of jokers left: a suit may put ``g`` items of a
    rank into groups when the other suits could lend ``(min_size - 1) * g`` partners
    (real cards they can group on a path of their own that finishes, or jokers), and
    jokers standing in as partners are paid for by the group's lowest real suit. The
    search's bound for a state is its score plus the suit bounds with the jokers left
    shared out among the suits in the best way (a small max-plus knapsack). States
    whose bound cannot beat the best known layout are dropped, and states heading for
    a dead end (a short run that cannot be finished, an ace kept for a Q-K-A run that
    never comes, a group that no suit can complete) vanish at once.
    """

    def __init__(self, p: _Problem) -> None:
        self.p = p
        # Jokers that can become wild: the hand's, and table jokers a real card can free.
        self.wild_max = p.hand_jokers + sum(
            min(p.jokers[f], p.real[f] + p.real_ext[f] + p.hand[f]) for f in range(52)
        )
        size = p.min_size
        # The most high aces a suit can use: its Q and K must be placeable as often.
        self.high_cap = [0] * 4
        if p.ace_high:
            for suit in range(4):
                reach = _NO_LIMIT
                for rank in range(14 - size + 1, 14):
                    face = suit * 13 + rank - 1
                    avail = p.real[face] + p.jokers[face] + p.hand[face] + self.wild_max
                    reach = min(reach, avail, p.cap[face])
                self.high_cap[suit] = reach
        self.group_ok = [
            [_group_ok(gmax, gsum, size, p.max_set) for gsum in range(64)] for gmax in range(16)
        ]
        # Real items (table cards, kept jokers, hand cards) each face could put in groups.
        self.group_room: list[list[int]] = [[0] * 14 for _ in range(4)]
        self.charge: list[list[list[int]]] = [[[0]] * 14 for _ in range(4)]
        self._set_rooms(
            [
                [
                    min(
                        p.cap[s * 13 + r - 1],
                        p.real[s * 13 + r - 1] + p.jokers[s * 13 + r - 1] + p.hand[s * 13 + r - 1],
                    )
                    if r
                    else 0
                    for r in range(14)
                ]
                for s in range(4)
            ]
        )
        self.raw: dict[tuple[int, int, int], list[_Raw]] = {}
        self.moves: dict[tuple[int, int, int], list[_Move]] = {}
        self.reach: dict[int, list[set[int]]] = {}
        self.finish: dict[tuple[int, int, int, int], bool] = {}
        self.bound, self.open_bound = self._suit_bounds()
        self.joker_bound = p.hand_jokers * p.joker_weight

    def raw_options(self, rank: int, suit: int, state: int) -> list[_Raw]:
        """Every way to place the items of one face from one suit state (best per outcome)."""
        cache_key = (rank, suit, state)
        cached = self.raw.get(cache_key)
        if cached is not None:
            return cached
        p = self.p
        face = suit * 13 + rank - 1
        kept_max = p.jokers[face]
        real = p.real[face]
        hand = p.hand[face]
        shape = (
            state,
            rank,
            real,
            kept_max,
            hand,
            min(p.cap[face], real + kept_max + hand + self.wild_max),
            min(p.real_ext[face], kept_max),
            self.wild_max,
            self.high_cap[suit] if rank == 1 else 0,
            p.in_runs[face],
            p.in_groups[face],
            p.in_high[face],
            p.min_size,
            p.ace_low,
            p.ace_high,
        )
        options = _option_cache.get(shape)
        if options is None:
            options = _face_options(*shape)
            if len(_option_cache) > 200_000:
                _option_cache.clear()
            _option_cache[shape] = options
        weight = p.weight[face]
        result = [
            (new_state, g, w, x, o * weight + keep, choice)
            for new_state, g, w, x, o, keep, choice in options
        ]
        self.raw[cache_key] = result
        return result

    def _set_rooms(self, groupable: list[list[int]]) -> set[int]:
        """Group rooms and joker charges from the real items each suit can group.

        A suit may put ``g`` items of a rank into groups when the other suits' real
        groupable items plus the jokers can fill ``(min_size - 1) * g`` partner places.
        Jokers standing in as partners are charged to the group's lowest real suit: a
        suit pays for them when no lower suit could lend a real partner, so no joker
        is charged twice. Returns the suits whose rooms or charges changed.
        """
        p = self.p
        size = p.min_size
        jokers = self.wild_max
        changed: set[int] = set()
        for rank in range(1, 14):
            for suit in range(4):
                face = suit * 13 + rank - 1
                reals = [groupable[t][rank] for t in range(4) if t != suit]
                lowest = all(groupable[t][rank] == 0 for t in range(suit))
                own = min(p.cap[face], groupable[suit][rank] + jokers)
                room = 0
                charges = [0]
                for g in range(1, own + 1):
                    free = sum(min(g, m) for m in reals)
                    partners = min(sum(min(g, m + jokers) for m in reals), free + jokers)
                    if partners < (size - 1) * g:
                        break
                    room = g
                    charges.append(max(0, (size - 1) * g - free) if lowest else 0)
                if room != self.group_room[suit][rank] or charges != self.charge[suit][rank]:
                    self.group_room[suit][rank] = room
                    self.charge[suit][rank] = charges
                    changed.add(suit)
        return changed

    def _suit_bounds(
        self,
    ) -> tuple[list[list[dict[int, tuple[int, ...]]]], list[list[dict[int, tuple[int, ...]]]]]:
        """Per suit and rank (0 = before the ace): each suit state's most it can still
        add, per number of jokers left (``_NEG`` when it cannot finish).

        The group room of a suit counts only partners the other suits can put in a
        group on a path of their own that finishes; that shrinks the rooms, so the
        chains are solved again until the rooms settle. Also returns, per rank, the
        bounds with that rank's joker charges waived (see :meth:`_suit_chain`).
        """
        chains = [self._suit_chain(suit) for suit in range(4)]
        stale = set(range(4))
        groupable = [[0] * 14 for _ in range(4)]
        while True:
            for suit in stale:
                values = chains[suit][0]
                for rank in range(1, 14):
                    room = self.group_room[suit][rank]
                    charge = self.charge[suit][rank]
                    after = values[rank]
                    top = 0
                    for state in values[rank - 1]:
                        for new_state, g, w, _x, _gain, choice in self.raw_options(
                            rank, suit, state
                        ):
                            if g > room or g <= top:
                                continue
                            future = after.get(new_state)
                            cost = w + charge[g]
                            if future is None or cost > self.wild_max:
                                continue
                            if future[self.wild_max - cost] <= _DEAD:
                                continue
                            top = max(top, min(g, choice[3] + g + choice[5] - w))
                    groupable[suit][rank] = top
            stale = self._set_rooms(groupable)
            if not stale:
                return [chain[0] for chain in chains], [chain[1] for chain in chains]
            for suit in stale:
                chains[suit] = self._suit_chain(suit)

    def _suit_chain(
        self, suit: int
    ) -> tuple[list[dict[int, tuple[int, ...]]], list[dict[int, tuple[int, ...]]]]:
        """One suit's relaxed chain: per rank, each state's best future per jokers left.

        The second list holds the same bounds with the next rank's joker charges waived:
        while a rank is half decided, a joker another suit has already placed there may
        be the partner the charge stands for, and it must not be paid for twice.
        """
        size = self.p.min_size
        budget = self.wild_max + 1
        # Rooms only shrink between rounds, so the first round's reachable states
        # cover every later round's.
        reach = self.reach.get(suit)
        if reach is None:
            reach = [{0}]
            for rank in range(1, 14):
                room = self.group_room[suit][rank]
                charge = self.charge[suit][rank]
                nxt: set[int] = set()
                for state in reach[-1]:
                    for new_state, g, w, *_ in self.raw_options(rank, suit, state):
                        if g <= room and w + charge[g] < budget:
                            nxt.add(new_state)
                reach.append(nxt)
            self.reach[suit] = reach
        values: list[dict[int, tuple[int, ...]]] = [{} for _ in range(14)]
        waived: list[dict[int, tuple[int, ...]]] = [{} for _ in range(14)]
        zero = (0,) * budget
        for state in reach[13]:
            if _final_ok(state, size):
                values[13][state] = zero
        for rank in range(13, 0, -1):
            room = self.group_room[suit][rank]
            charge = self.charge[suit][rank]
            after = values[rank]
            here = values[rank - 1]
            here_waived = waived[rank - 1]
            raw = self.raw
            for state in reach[rank - 1]:
                options = raw.get((rank, suit, state)) or self.raw_options(rank, suit, state)
                if budget == 1:  # no jokers: scalar bounds
                    best = _NEG
                    for new_state, g, _w, _x, gain, _choice in options:
                        future = after.get(new_state)
                        if future is not None and g <= room and gain + future[0] > best:
                            best = gain + future[0]
                    if best > _DEAD:
                        here[state] = here_waived[state] = (best,)
                    continue
                top = [_NEG] * budget
                free = [_NEG] * budget
                for new_state, g, w, _x, gain, _choice in options:
                    future = after.get(new_state)
                    if future is None or g > room:
                        continue
                    cost = w + charge[g]
                    for k in range(w, budget):
                        value = gain + future[k - w]
                        if value > free[k]:
                            free[k] = value
                        if k >= cost:
                            value = gain + future[k - cost]
                            if value > top[k]:
                                top[k] = value
                if top[-1] > _DEAD:
                    here[state] = tuple(v if v > _DEAD else _NEG for v in top)
                if free[-1] > _DEAD:
                    here_waived[state] = tuple(v if v > _DEAD else _NEG for v in free)
        return values, waived

    def moves_from(self, rank: int, suit: int, state: int) -> list[_Move]:
        """The joint DP's moves for one suit state, dead ends removed: (packed state,
        g, w, key delta, gain, the new state's bound vector, choice), best first."""
        cache_key = (rank, suit, state)
        cached = self.moves.get(cache_key)
        if cached is not None:
            return cached
        shift = suit * _SUIT_BITS
        after = self.bound[suit][rank]
        result: list[_Move] = []
        if state in self.open_bound[suit][rank - 1]:
            for new_state, g, w, x, gain, choice in self.raw_options(rank, suit, state):
                future = after.get(new_state)
                if future is None:
                    continue
                key_delta = (w << _USED_SHIFT) + (x << _FREED_SHIFT)
                result.append((new_state << shift, g, w, key_delta, gain, future, choice))
        result.sort(key=lambda move: -(move[4] + move[5][-1]))
        self.moves[cache_key] = result
        return result

    def _can_finish(self, rank: int, suit: int, gmax: int, gsum: int) -> bool:
        """Whether the suits after ``suit`` can still complete a rank's groups that
        hold ``gsum`` items so far (at most ``gmax`` of one suit)."""
        cache_key = (rank, suit, gmax, gsum)
        known = self.finish.get(cache_key)
        if known is None:
            p = self.p
            most = [
                min(p.cap[f], p.real[f] + p.jokers[f] + p.hand[f] + self.wild_max)
                for f in (t * 13 + rank - 1 for t in range(suit + 1, 4))
            ]
            known = any(
                gsum <= p.max_set * m and gsum + sum(min(x, m) for x in most) >= p.min_size * m
                for m in range(max(gmax, 1), gsum + sum(most) + 1)
            )
            self.finish[cache_key] = known
        return known

    def upper_bound(self) -> int:
        """The bound on the best total (negative when the table cannot be laid)."""
        vectors = []
        for suit in range(4):
            values = self.bound[suit][0].get(0)
            if values is None:
                return -1
            vectors.append(values)
        best = _combine(vectors, self.wild_max)[self.wild_max]
        return -1 if best <= _DEAD else best + self.joker_bound

    def expand(
        self, step: int, key: int, score: int, threshold: int
    ) -> tuple[list[tuple[int, int, int, _Choice]], int]:
        """The children of one state that can beat ``threshold``, best first, as
        (bound, key, gain, choice); and the best bound among the others."""
        p = self.p
        unit = p.unit
        wild_max = self.wild_max
        group_ok = self.group_ok
        bound = self.bound
        open_bound = self.open_bound
        can_finish = self._can_finish
        joker_bound = self.joker_bound
        rank, suit = divmod(step, 4)
        rank += 1
        shift = suit * _SUIT_BITS
        moves = self.moves_from(rank, suit, (key >> shift) & _SUIT_MASK)
        base = key & ~(_SUIT_MASK << shift)
        left = wild_max - ((key >> _USED_SHIFT) & 15)
        gsum = (key >> _GSUM_SHIFT) & 63
        gmax = (key >> _GMAX_SHIFT) & 15
        # The other suits' bounds, jokers shared out among them.
        others = [
            (bound[t][rank] if t < suit else open_bound[t][rank - 1])[
                (key >> (t * _SUIT_BITS)) & _SUIT_MASK
            ]
            for t in range(4)
            if t != suit
        ]
        rest = _combine(others, left)
        rest0 = rest[0]
        base_score = score + joker_bound
        children: list[tuple[int, int, int, _Choice]] = []
        result = _NEG
        for packed, g, w, delta, gain, future, choice in moves:
            if not left:
                if w:
                    continue
                tail = rest0 + future[0]
            else:
                if w > left:
                    continue
                room = left - w
                tail = _NEG
                for k in range(room + 1):
                    value = rest[k] + future[room - k]
                    if value > tail:
                        tail = value
            if tail <= _DEAD:
                continue
            total = base_score + gain + tail
            if total <= threshold:
                if total > result:
                    result = total  # cannot beat the best: only its bound counts
                continue
            ng = gsum + g
            nm = gmax if gmax >= g else g
            if suit == 3:
                if not group_ok[nm][ng]:
                    continue
                nk = ((base & _GROUP_CLEAR) | packed) + delta
            else:
                if ng and not can_finish(rank, suit, nm, ng):
                    continue
                nk = (base | packed) + delta + (g << _GSUM_SHIFT)
                if nm != gmax:
                    nk += (nm - gmax) << _GMAX_SHIFT
            children.append((total, nk, gain, choice))
        # Best bound first; among equal primary bounds, jokers last (they fit almost
        # anywhere later), then keep the table as it was.
        if len(children) > 1:
            children.sort(key=lambda c: (-(c[0] // unit), c[3][2], -(c[2] % unit), -c[0]))
        return children, result

    def depth_first(self, floor: int = -1, target: int | None = None) -> _Solved | None:
        """Branch and bound, depth first, best bound first, with a transposition table.

        A state's bound is its score plus the suit bounds, the jokers left shared out
        among the suits in the best way. The first layouts found follow the bounds (and
        so keep the table as it was where they can); once a layout of primary value
        ``P`` is known only states whose bound promises more than ``P`` are searched,
        and the search stops at a layout that reaches the root's bound. Each state's
        result is remembered as an upper bound on what its future can add. With
        ``floor`` (a primary value already achieved elsewhere) only better layouts are
        looked for; with ``target`` the first layout reaching it is enough.
        """
        p = self.p
        unit = p.unit
        top = self.upper_bound()
        if top < 0:
            return None
        memo: dict[tuple[int, int], int] = {}
        path: list[_Choice] = []
        best: list[_Solved] = []
        threshold = -1 if floor < 0 else (floor + 1) * unit - 1
        goal = top // unit if target is None else min(target, top // unit)
        if goal <= floor:
            return None

        def visit(step: int, key: int, score: int) -> int:
            """Search below one state; return an upper bound on its best total."""
            nonlocal threshold
            if step == 52:
                used = (key >> _USED_SHIFT) & 15
                freed = (key >> _FREED_SHIFT) & 15
                if not freed <= used <= freed + p.hand_jokers:
                    return _NEG
                total = score + (used - freed) * p.joker_weight
                if total > threshold:
                    choices = [(i // 4 + 1, i % 4, *choice) for i, choice in enumerate(path)]
                    best[:] = [_Solved(total, used, freed, choices)]
                    primary = total // unit
                    if primary >= goal:
                        raise _GoalReachedError
                    threshold = (primary + 1) * unit - 1
                return total
            known = memo.get((step, key))
            if known is not None and score + known <= threshold:
                return score + known
            children, result = self.expand(step, key, score, threshold)
            for total, nk, gain, choice in children:
                if total <= threshold:
                    if total > result:
                        result = total
                    break
                path.append(choice)
                found = visit(step + 1, nk, score + gain)
                path.pop()
                if found > result:
                    result = found
            future_bound = result - score
            if known is None or future_bound < known:
                memo[(step, key)] = future_bound
            return result

        # Aspiration: first look only for layouts reaching the goal. The first one
        # found is the one the plain search would stop at (the subtrees skipped hold
        # none); if there is none, the plain search follows, and the remembered bounds
        # (true upper bounds whatever the threshold) carry over.
        plain = threshold
        with contextlib.suppress(_GoalReachedError):
            if goal * unit - 1 > plain:
                threshold = goal * unit - 1
                visit(0, 0, 0)
                threshold = plain
            visit(0, 0, 0)
        return best[0] if best else None


class _GoalReachedError(Exception):
    """Raised inside the search when a layout reaches the upper bound."""


def _combine(vectors: Sequence[tuple[int, ...]], budget: int) -> list[int]:
    """Max-plus combination of per-suit bounds: the best total per number of jokers
    (``0..budget``) shared out among the suits."""
    if budget == 0:
        return [sum(vector[0] for vector in vectors)]
    if budget == 1:
        base = sum(vector[0] for vector in vectors)
        return [base, base + max(vector[1] - vector[0] for vector in vectors)]
    acc = list(vectors[0][: budget + 1])
    for vector in vectors[1:]:
        acc = [max(acc[i] + vector[k - i] for i in range(k + 1)) for k in range(budget + 1)]
    return acc


class _CompiledDp:
    """:class:`_Dp` run by the compiled module ``_rank_dp.c``: the same algorithm, the
    same states in the same order, so the same layout."""

    def __init__(self, p: _Problem, compiled: RankDp) -> None:
        self.p = p
        self._dp = compiled

    def upper_bound(self) -> int:
        return self._dp.upper_bound()

    def depth_first(self, floor: int = -1, target: int | None = None) -> _Solved | None:
        if target is not None and target <= floor:
            return None  # as _Dp: the goal is below what is asked for
        try:
            found = self._dp.depth_first(floor, -1 if target is None else target)
        except _CompiledUnsupported:  # pragma: no cover - a limit only Python lifts
            return _Dp(self.p).depth_first(floor=floor, target=target)
        if found is None:
            return None
        score, used, freed, choices = found
        return _Solved(score, used, freed, list(choices))


use_compiled = _CompiledRankDp is not None
"""Whether the rank DP runs compiled when it can (tests switch it off to run the
Python :class:`_Dp`, which is the reference the compiled code is checked against)."""


def _compiled_arguments(
    p: _Problem,
) -> tuple[
    int,
    int,
    bool,
    bool,
    list[int],
    list[int],
    list[int],
    list[int],
    list[int],
    int,
    list[int],
    int,
    list[int],
    list[int],
    list[int],
    int,
]:
    """The problem as ``_rank_dp.RankDp`` takes it."""
    return (
        p.min_size,
        p.max_set,
        p.ace_low,
        p.ace_high,
        p.real,
        p.jokers,
        p.real_ext,
        p.cap,
        p.hand,
        p.hand_jokers,
        p.weight,
        p.joker_weight,
        p.in_runs,
        p.in_groups,
        p.in_high,
        p.unit,
    )


def _make_dp(p: _Problem) -> _Dp | _CompiledDp:
    """The rank DP of one problem: compiled when the module is built and the problem
    fits its limits (at most 7 wild jokers and 7 items of a face), else Python."""
    if use_compiled and _CompiledRankDp is not None:
        try:
            compiled = _CompiledRankDp(*_compiled_arguments(p))
        except _CompiledUnsupported:
            return _Dp(p)
        return _CompiledDp(p, compiled)
    return _Dp(p)


def _suit_order(p: _Problem) -> list[int]:
    """The order in which the DP visits the suits of a rank: fewest table cards first
    (then most hand cards). The problem is the same under any order, but the search is
    not: deciding the crowded suits last lets the groups they must feed be checked
    sooner (on 1,560 benchmark instances this halved the largest search)."""
    return sorted(
        range(4),
        key=lambda s: (
            sum(p.real[s * 13 : s * 13 + 13]) + sum(p.jokers[s * 13 : s * 13 + 13]),
            -sum(p.hand[s * 13 : s * 13 + 13]),
            s,
        ),
    )


def _relabel(p: _Problem, order: Sequence[int]) -> _Problem:
    """The same problem with suit ``order[k]`` renamed ``k``."""
    faces = [order[f // 13] * 13 + f % 13 for f in range(52)]  # new face -> old face

    def moved(values: list[int]) -> list[int]:
        return [values[faces[f]] for f in range(52)]

    return replace(
        p,
        real=moved(p.real),
        jokers=moved(p.jokers),
        real_ext=moved(p.real_ext),
        cap=moved(p.cap),
        hand=moved(p.hand),
        weight=moved(p.weight),
        in_runs=moved(p.in_runs),
        in_groups=moved(p.in_groups),
        in_high=moved(p.in_high),
    )


class _SuitOrderDp:
    """A rank DP run with the suits renamed (see :func:`_suit_order`); its choices are
    given back in the original suits, rank by rank, suit by suit."""

    def __init__(self, p: _Problem, order: list[int]) -> None:
        self.p = p
        self.order = order
        self.inner = _make_dp(_relabel(p, order))

    def upper_bound(self) -> int:
        return self.inner.upper_bound()

    def depth_first(self, floor: int = -1, target: int | None = None) -> _Solved | None:
        found = self.inner.depth_first(floor=floor, target=target)
        if found is None:
            return None
        order = self.order
        choices = sorted((rank, order[suit], *rest) for rank, suit, *rest in found.choices)
        return _Solved(found.score, found.used, found.freed, choices)  # type: ignore[arg-type]


def _rank_dp(p: _Problem) -> _Dp | _CompiledDp | _SuitOrderDp:
    """The rank DP of one problem, suits visited in :func:`_suit_order`."""
    order = _suit_order(p)
    if order == [0, 1, 2, 3]:
        return _make_dp(p)
    return _SuitOrderDp(p, order)


# --------------------------------------------------------------------------- layouts


@dataclass(slots=True)
class _Region:
    """The melds the solver may rearrange, with everything it needs to lay them out."""

    open_melds: list[int]
    problem: _Problem
    table_items: dict[int, list[tuple[Card, bool]]]
    """Per natural face: open-region table cards and whether each sat in a run."""
    joker_items: dict[int, list[tuple[Card, bool]]]
    """Per declared face: open-region table jokers and whether each sat in a run."""


def _make_region(
    melds: list[tuple[Card, ...]],
    open_melds: list[int],
    hand_real: Counter[int],
    hand_jokers: int,
    *,
    rules: MeldRules,
    decks: int,
    joker_copy_limit: bool,
    weight: list[int],
    joker_weight: int,
    unit: int,
) -> _Region:
    real = [0] * 52
    jokers = [0] * 52
    real_ext = [0] * 52
    decl_ext = [0] * 52
    in_runs = [0] * 52
    in_groups = [0] * 52
    in_high = [0] * 52
    table_items: dict[int, list[tuple[Card, bool]]] = {}
    joker_items: dict[int, list[tuple[Card, bool]]] = {}
    opened = set(open_melds)
    for index, meld in enumerate(melds):
        is_run = not _is_group(meld)
        high = is_run and any(
            (c.declared if c.is_joker else c) is not None
            and int(c.declared if c.is_joker else c) % 13 >= 11  # type: ignore[arg-type]
            for c in meld
        )
        for card in meld:
            if card.is_joker:
                face = declared_face(card, "on the table")
                if index in opened:
                    jokers[face] += 1
                    joker_items.setdefault(face, []).append((card, is_run))
                else:
                    decl_ext[face] += 1
                    continue
            else:
                face = card.face
                if index in opened:
                    real[face] += 1
                    table_items.setdefault(face, []).append((card, is_run))
                else:
                    real_ext[face] += 1
                    continue
            if is_run:
                in_runs[face] += 1
                if high and face % 13 == 0:
                    in_high[face] += 1
            else:
                in_groups[face] += 1
    cap = [
        max(0, decks - real_ext[f] - decl_ext[f]) if joker_copy_limit else _NO_LIMIT
        for f in range(52)
    ]
    problem = _Problem(
        min_size=rules.min_size,
        max_set=rules.max_set_size,
        ace_low=rules.ace_low,
        ace_high=rules.ace_high,
        real=real,
        jokers=jokers,
        real_ext=real_ext,
        cap=cap,
        hand=[hand_real[f] for f in range(52)],
        hand_jokers=hand_jokers,
        weight=weight,
        joker_weight=joker_weight,
        in_runs=in_runs,
        in_groups=in_groups,
        in_high=in_high,
        unit=unit,
    )
    return _Region(open_melds, problem, table_items, joker_items)


@functools.cache
def _token(card: Card) -> int:
    """A card as a player sees it: the natural face, or 64 + the declared face."""
    if card.is_joker:
        declared = card.declared
        return 64 + (int(declared) if declared is not None else 63)
    return card.face


def _lay_out(
    region: _Region,
    solved: _Solved,
    melds: list[tuple[Card, ...]],
    hand_naturals: dict[int, list[Card]],
    hand_jokers: list[Card],
    size: int,
    max_set: int,
) -> tuple[list[tuple[Card, ...]], list[Card], list[Card], int]:
    """Turn the DP's choices into melds: (layout, placed hand cards, freed, untouched)."""
    # Freed jokers and the wild pool (freed jokers first, then hand jokers).
    freed_cards: list[Card] = []
    freed_faces: list[Card] = []
    for rank, suit, x, *_ in solved.choices:
        if x:
            face = suit * 13 + rank - 1
            items = region.joker_items[face]
            freed_cards.extend(card for card, _ in items[len(items) - x :])
            freed_faces.extend([Card(face)] * x)
    hand_joker_count = solved.used - solved.freed
    wild_pool = [c.physical for c in freed_cards] + [c.physical for c in hand_jokers][
        :hand_joker_count
    ]
    placed: list[Card] = [c.physical for c in hand_jokers[:hand_joker_count]]

    # Pools of physical cards by token, and the face-level melds.
    pool: dict[int, list[Card]] = {}
    new_melds: list[list[int]] = []
    open_runs: list[list[tuple[int, list[int]]]] = [[] for _ in range(4)]
    high_stash: list[list[int]] = [[] for _ in range(4)]
    group_items: list[tuple[int, int]] = []

    def close(run: list[int]) -> None:
        assert len(run) >= size, run
        new_melds.append(run)

    for rank, suit, x, o, w, u, g, h in solved.choices:
        if not (u or g or h):
            # No item at this face: the suit's open runs end here (all are long).
            if rank > 1 and open_runs[suit]:
                for run in open_runs[suit]:
                    close(run[1])
                open_runs[suit] = []
            if suit == 3 and group_items:
                _make_groups(group_items, new_melds, size, max_set)
                group_items = []
            continue
        face = suit * 13 + rank - 1
        # Items of this face, run-minded first: table items from runs, hand, wild, the rest.
        ordered: list[tuple[int, Card, bool]] = []
        for card, was_run in region.table_items.get(face, []):
            ordered.append((face, card, was_run))
        jokers = region.joker_items.get(face, [])
        for card, was_run in jokers[: len(jokers) - x]:
            ordered.append((64 + face, card, was_run))
        hand_cards = hand_naturals.get(face, [])[:o]
        placed.extend(hand_cards)
        tokens = [t for t, _, r in ordered if r]
        tokens += [face] * o + [64 + face] * w
        tokens += [t for t, _, r in ordered if not r]
        for token, card, _ in ordered:
            pool.setdefault(token, []).append(card)
        pool.setdefault(face, []).extend(hand_cards)
        pool.setdefault(64 + face, []).extend(wild_pool.pop(0).declare(face) for _ in range(w))
        run_tokens, rest = tokens[:u], tokens[u:]
        high_tokens, group_tokens = rest[:h], rest[h:]
        assert len(group_tokens) == g
        group_items.extend((suit, t) for t in group_tokens)
        high_stash[suit].extend(high_tokens)
        runs = open_runs[suit]
        if rank == 1:
            runs.extend((1, [t]) for t in run_tokens)
        else:
            shorts = [r for r in runs if len(r[1]) < size]
            longs = [r for r in runs if len(r[1]) >= size]
            longs.sort(key=lambda r: r[0] == 1)  # keep runs that can take a high ace
            extend = shorts + longs[: u - len(shorts)]
            for r in longs[u - len(shorts) :]:
                close(r[1])
            feed = iter(run_tokens)
            for r in extend:
                r[1].append(next(feed))
            open_runs[suit] = extend + [(rank, [t]) for t in feed]
        if suit == 3:
            _make_groups(group_items, new_melds, size, max_set)
            group_items = []
    for suit in range(4):
        runs = open_runs[suit]
        stash = high_stash[suit]
        shorts = [r for r in runs if len(r[1]) < size]
        longs = [r for r in runs if len(r[1]) >= size and r[0] != 1]
        extend = shorts + longs[: len(stash) - len(shorts)]
        for r, token in zip(extend, stash, strict=True):
            r[1].append(token)
        for r in runs:
            close(r[1])

    # Cut long runs and share out groups so that old melds reappear where they can.
    open_keys = {
        index: tuple(sorted(_token(c) for c in melds[index])) for index in region.open_melds
    }
    new_melds = _reuse_old_melds(new_melds, Counter(open_keys.values()), size, max_set)

    # Present: untouched open melds keep their cards and order; others take from pools.
    result: list[tuple[Card, ...] | None] = [None] * len(melds)
    opened = set(region.open_melds)
    for index in range(len(melds)):
        if index not in opened:
            result[index] = melds[index]
    untouched = len(melds) - len(opened)
    by_tokens: dict[tuple[int, ...], list[int]] = {}
    for index in region.open_melds:
        by_tokens.setdefault(open_keys[index], []).append(index)
    leftovers: list[list[int]] = []
    for tokens in new_melds:
        key = tuple(sorted(tokens))
        candidates = by_tokens.get(key)
        if candidates:
            index = candidates[0]
            original = melds[index]
            if _take_exact(pool, original):
                candidates.pop(0)
                result[index] = original
                untouched += 1
                continue
        leftovers.append(tokens)
    # A changed meld takes the place of the old meld it shares most cards with; a group
    # keeps that meld's card order, new cards after.
    free = [i for i in region.open_melds if result[i] is None]
    appended: list[tuple[Card, ...]] = []
    home = _homes([Counter(tokens) for tokens in leftovers], melds, free)
    from_hand = {int(c) for c in placed}
    for n, tokens in enumerate(leftovers):
        index = home.get(n, -1)
        cards = tuple(pool[t].pop(0) for t in tokens)
        if _same_rank(tokens):
            # Groups: the old meld's cards in their order, then table cards, then the hand.
            order: dict[int, int] = {}
            for position, card in enumerate(melds[index] if index >= 0 else ()):
                order.setdefault(_token(card), position)
            cards = tuple(
                sorted(
                    cards,
                    key=lambda c: (order.get(_token(c), 99), int(c.physical) in from_hand, c),
                )
            )
        if index >= 0:
            result[index] = cards
        else:
            appended.append(cards)
    layout = [m for m in result if m is not None] + appended
    return layout, placed, freed_faces, untouched


def _reuse_old_melds(
    new_melds: list[list[int]], old_keys: Counter[tuple[int, ...]], size: int, max_set: int
) -> list[list[int]]:
    """The same cards in melds that reproduce as many old melds as possible: a run is
    cut where its pieces (each of ``size`` or more, in rank order) are old melds, and the
    groups of one rank are regrouped when an old group can be taken whole.

    Old melds are matched by their tokens (natural faces; jokers by declaration)."""
    available = Counter(old_keys)
    out: list[list[int]] = []
    rest: list[list[int]] = []
    for meld in new_melds:  # melds that are old melds already (most of them) stay
        key = tuple(sorted(meld))
        if available[key] > 0:
            available[key] -= 1
            out.append(meld)
        else:
            rest.append(meld)
    if not rest or not +available:
        return out + rest
    groups_by_rank: dict[int, list[list[int]]] = {}
    for meld in rest:
        if _same_rank(meld):
            groups_by_rank.setdefault((meld[0] & 63) % 13, []).append(meld)
        else:
            out.extend(_cut_run(meld, available, size))
    for groups in groups_by_rank.values():
        if len(groups) > 1 or len(groups[0]) > size:
            out.extend(_regroup(groups, available, size, max_set))
        else:
            out.extend(groups)
    return out


def _cut_run(run: list[int], available: Counter[tuple[int, ...]], size: int) -> list[list[int]]:
    """Pieces of a run (rank order kept) with the most pieces that are old melds."""
    n = len(run)
    whole = tuple(sorted(run))
    if available[whole] > 0 or n < 2 * size:
        if available[whole] > 0:
            available[whole] -= 1
        return [run]
    # Old melds inside the run: its cards are distinct, so such a meld is a stretch.
    where = {token: i for i, token in enumerate(run)}
    stretches: set[tuple[int, int]] = set()
    for key, left in available.items():
        if left > 0 and size <= len(key) < n and all(t in where for t in key):
            first = min(where[t] for t in key)
            if max(where[t] for t in key) - first + 1 == len(key):
                stretches.add((first, first + len(key)))
    if not stretches:
        return [run]
    # best[i]: (old melds matched, -pieces) for the first i cards, and the last cut.
    best: list[tuple[int, int] | None] = [None] * (n + 1)
    back = [0] * (n + 1)
    best[0] = (0, 0)
    for end in range(size, n + 1):
        for start in range(0, end - size + 1):
            before = best[start]
            if before is None:
                continue
            score = (before[0] + ((start, end) in stretches), before[1] - 1)
            current = best[end]
            if current is None or score > current:
                best[end] = score
                back[end] = start
    cuts = []
    end = n
    while end:
        cuts.append((back[end], end))
        end = back[end]
    pieces = [run[a:b] for a, b in reversed(cuts)]
    for piece in pieces:
        key = tuple(sorted(piece))
        if available[key] > 0:
            available[key] -= 1
    return pieces


def _regroup(
    groups: list[list[int]], available: Counter[tuple[int, ...]], size: int, max_set: int
) -> list[list[int]]:
    """One rank's groups, rebuilt so that old groups of that rank are taken whole when
    the cards left still form legal groups (distinct suits, ``size`` or more each)."""
    count = len(groups)
    pool = Counter(t for group in groups for t in group)
    rank = (groups[0][0] & 63) % 13
    candidates = sorted(
        (
            key
            for key, n in available.items()
            if n > 0 and _same_rank(key) and (key[0] & 63) % 13 == rank
        ),
        key=len,
        reverse=True,
    )
    taken: list[list[int]] = []
    for key in candidates:
        while available[key] > 0 and len(taken) < count:
            need = Counter(key)
            if any(pool[t] < k for t, k in need.items()):
                break
            rest = pool - need
            if not _groupable(rest, count - len(taken) - 1, size, max_set):
                break
            pool = rest
            available[key] -= 1
            taken.append(list(key))
    if not taken:
        return groups
    left = count - len(taken)
    if left == 0:
        return taken
    # The rest round robin, most repeated suits first (one card of a suit per group).
    suits = Counter((t & 63) // 13 for t in pool.elements())
    items = sorted(pool.elements(), key=lambda t: (-suits[(t & 63) // 13], (t & 63) // 13, t))
    rest_groups: list[list[int]] = [[] for _ in range(left)]
    for i, token in enumerate(items):
        rest_groups[i % left].append(token)
    return taken + [sorted(g) for g in rest_groups]


def _groupable(tokens: Counter[int], groups: int, size: int, max_set: int) -> bool:
    """Whether ``tokens`` (one rank) split into exactly ``groups`` groups of distinct
    suits and ``size`` to ``max_set`` cards each (jokers stand for their declared suit)."""
    total = sum(tokens.values())
    if groups == 0:
        return total == 0
    per_suit: Counter[int] = Counter()
    for token, k in tokens.items():
        per_suit[(token & 63) // 13] += k
    most = max(per_suit.values(), default=0)
    return most <= groups and size * groups <= total <= max_set * groups


def _same_rank(tokens: Sequence[int]) -> bool:
    return len({(t & 63) % 13 for t in tokens}) == 1


def _take_exact(pool: dict[int, list[Card]], cards: Sequence[Card]) -> bool:
    """Remove exactly these physical cards from the pools, if they are all there."""
    need = Counter(int(c) for c in cards)
    for card, count in need.items():
        have = sum(1 for c in pool.get(_token(Card(card)), []) if int(c) == card)
        if have < count:
            return False
    for card in cards:
        bucket = pool[_token(card)]
        bucket.remove(card)
    return True


def _make_groups(
    items: list[tuple[int, int]], out: list[list[int]], size: int, max_set: int
) -> None:
    """Split one rank's group items (suit, token) into as few groups as possible."""
    if not items:
        return
    per_suit = Counter(s for s, _ in items)
    groups = max(max(per_suit.values()), -(-len(items) // max_set))
    assert groups * size <= len(items)
    items.sort(key=lambda item: (-per_suit[item[0]], item[0]))
    made: list[list[tuple[int, int]]] = [[] for _ in range(groups)]
    for i, item in enumerate(items):
        made[i % groups].append(item)
    for group in made:
        out.append([t for _, t in sorted(group)])


# --------------------------------------------------------------------------- best_placement


def _near_faces(faces: set[int]) -> tuple[set[int], set[tuple[int, int]]]:
    """Ranks, and (suit, rank) neighbours, a face near one of ``faces`` may have."""
    ranks: set[int] = set()
    spots: set[tuple[int, int]] = set()
    for face in faces:
        suit, rank = divmod(face, 13)
        rank += 1
        ranks.add(rank)
        for r in (rank - 1, rank, rank + 1):
            spots.add((suit, 13 if r == 0 else 1 if r == 14 else r))
    return ranks, spots


def _meld_faces(meld: Sequence[Card]) -> set[int]:
    out = set()
    for card in meld:
        face = card.declared if card.is_joker else card
        if face is not None:
            out.add(int(face) & 63)
    return out


def _rings(melds: list[tuple[Card, ...]], seeds: set[int], count: int) -> list[list[int]]:
    """Growing sets of melds around ``seeds``: melds with a card of a seed's rank, or of
    its suit one rank away, then the same around everything opened so far."""
    faces = set(seeds)
    opened: set[int] = set()
    rings: list[list[int]] = []
    meld_faces = [_meld_faces(m) for m in melds]
    for _ in range(count):
        ranks, spots = _near_faces(faces)
        grown = {
            i
            for i, mf in enumerate(meld_faces)
            if i in opened or any(f % 13 + 1 in ranks or (f // 13, f % 13 + 1) in spots for f in mf)
        }
        if grown == opened:
            break
        opened = grown
        rings.append(sorted(opened))
        for i in opened:
            faces |= meld_faces[i]
    return rings


def _split_hand(hand_cards: Sequence[Card]) -> tuple[dict[int, list[Card]], list[Card]]:
    """The hand's natural cards by face, and its jokers."""
    naturals: dict[int, list[Card]] = {}
    jokers: list[Card] = []
    for card in hand_cards:
        if card.is_joker:
            jokers.append(card)
        else:
            naturals.setdefault(card.face, []).append(card)
    return naturals, jokers


def _objective_weights(
    hand_cards: Sequence[Card],
    objective: str,
    joker_value: int,
    scale: int = 1,
) -> tuple[list[int], int]:
    """The lexicographic objective packed into one integer per hand card: per face, and
    for a joker. ``value`` puts the value first and the count second, ``count`` the
    other way round; ``scale`` leaves room below for a tie-break."""
    values = [card_value_gin(f) for f in range(52)]
    if objective == "value":
        per_count = len(hand_cards) + 1
        weight = [(v * per_count + 1) * scale for v in values]
        return weight, (joker_value * per_count + 1) * scale
    per_value = sum(values[c.face] for c in hand_cards if not c.is_joker)
    per_value += joker_value * sum(1 for c in hand_cards if c.is_joker) + 1
    return [(per_value + v) * scale for v in values], (per_value + joker_value) * scale


def best_placement(
    table: Sequence[Sequence[int]],
    hand: Sequence[int],
    *,
    rules: MeldRules = CAROUSEL_MELDS,
    decks: int = 2,
    joker_copy_limit: bool = True,
    objective: Literal["value", "count"] = "value",
    joker_value: int = 25,
    few_changes: bool = False,
) -> Placement | None:
    """The hand cards to lay for the greatest value (or count), with a legal layout.

    ``objective="value"`` maximises the Carousel hand value laid (joker
    ``joker_value``, courts 10, pips, ace 1), ties going to more cards;
    ``objective="count"`` maximises the cards laid, ties going to more value. Every
    table card is used, jokers keep their declaration unless freed by a real card
    (rules/carousel.md section 3), freed jokers are re-declared and stay on the table,
    and with ``joker_copy_limit`` no face appears more than ``decks`` times. Returns
    ``None`` when no hand card can be laid (a meld action needs one). The table's
    melds are taken to be legal (an engine's table always is).

    ``few_changes`` is for layouts a person will follow (hints): on tables of 60 cards
    or more (20 with a joker in the hand) the quick layout of small table changes is
    tried first, which on 60-80-card tables changes 10-25% fewer melds than the rank
    DP's layout, at a few milliseconds' cost. Without the compiled rank DP it is
    always tried (there it is also the faster way).

    The answer is exact (checked against an ILP and a brute force in the tests). The
    rank DP of the module docstring finds it; its layout keeps the old melds that need
    not change. When the quick layout is tried first (a layout of small changes, then a
    search around the cards they leave) and lays every hand card able to join a meld,
    it is returned at once: nothing can be better, and it keeps the other melds as
    they were. Otherwise the rank DP looks only for a better layout.

    >>> from rummykit.cards import format_cards, parse_cards as p
    >>> from rummykit.games.carousel.layout import check_layout
    >>> table, hand = [p("4S JK=5S 6S"), p("9H 9S 9C")], p("5S 2D")
    >>> best = best_placement(table, hand)
    >>> format_cards(best.cards), best.value, format_cards(best.freed), best.untouched
    ('5S', 5, '5S', 1)
    >>> check_layout(table, best.layout, hand).cards == best.cards
    True
    >>> best_placement([p("7D 7S 7C")], p("KH 2C 9D")) is None
    True

    Raises:
        InvalidOptionError: unsupported ``rules`` (the solver needs any number of jokers
            per meld, ``max_run_size >= 13``), ``decks`` or ``objective``.
        InvalidMeldError: a table joker without a declaration.
    """
    _check_rules(rules, decks)
    if objective not in ("value", "count"):
        raise InvalidOptionError(
            f"objective must be 'value' or 'count', not {objective!r}", option="objective"
        )
    melds = as_melds(table)
    hand_cards = [Card(c) for c in hand]
    real = [0] * 52
    jokers = [0] * 52
    for meld in melds:
        for card in meld:
            if card.is_joker:
                jokers[declared_face(card, "on the table")] += 1
            else:
                real[card.face] += 1
    hand_naturals, hand_jokers = _split_hand(hand_cards)
    joker_count = sum(jokers) + len(hand_jokers)
    table_size = sum(len(m) for m in melds)
    quick_first = table_size >= _QUICK_TABLE or (hand_jokers and table_size >= _QUICK_JOKER_TABLE)
    if use_compiled and _CompiledRankDp is not None and not few_changes:
        quick_first = False  # the compiled rank DP is faster than the quick moves
    if not quick_first or joker_count > 2 or joker_count >= rules.min_size:
        return _rank_dp_placement(
            table,
            hand,
            rules=rules,
            decks=decks,
            joker_copy_limit=joker_copy_limit,
            objective=objective,
            joker_value=joker_value,
        )

    weight, joker_weight = _objective_weights(hand_cards, objective, joker_value)
    # Slots of a face never exceed its real cards plus the jokers (at most 6 < 8).
    cap = [decks if joker_copy_limit else decks + joker_count] * 52
    problem = PlacementProblem(
        real=real,
        jokers=jokers,
        hand=[len(hand_naturals.get(f, ())) for f in range(52)],
        cap=cap,
        weight=weight,
        hand_jokers=len(hand_jokers),
        joker_weight=joker_weight,
        ace_low=rules.ace_low,
        ace_high=rules.ace_high,
        min_size=rules.min_size,
        max_set=rules.max_set_size,
        old_melds=frozenset(tuple(sorted(_card_face(c) for c in m)) for m in melds),
    )
    live, _wild = live_hand(problem)
    if not any(live) and not hand_jokers:
        return None
    # First small changes to the table, then a search around the cards they leave: a
    # layout that lays every live hand card and joker is optimal, and most tables
    # with more than a few melds have one.
    copy_cap = decks if joker_copy_limit else _NO_LIMIT
    live_cards = [c for f, cards in hand_naturals.items() for c in cards[: live[f]]]
    layout, placed, freed, left = greedy_layout(
        melds,
        live_cards,
        hand_jokers,
        decks_cap=copy_cap,
        ace_low=rules.ace_low,
        ace_high=rules.ace_high,
        min_size=rules.min_size,
        max_set=rules.max_set_size,
    )
    done: tuple[list[tuple[Card, ...]], list[Card], list[Card]] | None = None
    if not left:
        done = [tuple(m) for m in layout], placed, [Card(f) for f in freed]
    elif all(not c.is_joker or c in hand_jokers for c in left):
        done = _repair(melds, layout, placed, freed, left, problem, rules, copy_cap)
    if done is not None:
        final, laid, gave_up = done
        try:
            check_layout(
                melds,
                final,
                hand_cards,
                rules=rules,
                decks=decks,
                joker_copy_limit=joker_copy_limit,
            )
        except IllegalLayoutError:  # pragma: no cover - every move keeps the rules
            pass
        else:
            return Placement(
                layout=tuple(final),
                cards=tuple(laid),
                value=sum(placement_value(c, joker_value) for c in laid),
                count=len(laid),
                freed=tuple(sorted(gave_up)),
                untouched=_untouched(melds, final),
            )
    # The quick layout is a legal lower bound unless a freed joker found no place.
    floor = 0
    if all(not c.is_joker or c in hand_jokers for c in left):
        floor = sum(joker_weight if c.is_joker else weight[c.face] for c in placed)

    def quick() -> Placement | None:
        final = [tuple(m) for m in layout]
        check_layout(
            melds, final, hand_cards, rules=rules, decks=decks, joker_copy_limit=joker_copy_limit
        )
        return Placement(
            layout=tuple(final),
            cards=tuple(placed),
            value=sum(placement_value(c, joker_value) for c in placed),
            count=len(placed),
            freed=tuple(sorted(Card(f) for f in freed)),
            untouched=_untouched(melds, final),
        )

    # The exact search only looks for layouts better than the quick one.
    better = _rank_dp_placement(
        table,
        hand,
        rules=rules,
        decks=decks,
        joker_copy_limit=joker_copy_limit,
        objective=objective,
        joker_value=joker_value,
        floor=floor,
    )
    return better if better is not None or not floor else quick()


def _untouched(old: Sequence[Sequence[Card]], new: Sequence[Sequence[Card]]) -> int:
    """How many old melds appear, card for card, in the new layout."""
    have = Counter(tuple(m) for m in new)
    count = 0
    for meld in old:
        key = tuple(meld)
        if have[key]:
            have[key] -= 1
            count += 1
    return count


def _near(melds: Sequence[Sequence[Card]], faces: set[int]) -> list[int]:
    """Melds with a card of one of ``faces``' ranks, or of its suit two ranks away."""
    ranks = {f % 13 for f in faces}
    spots = {(f // 13, (f % 13 + d) % 13) for f in faces for d in (-2, -1, 0, 1, 2)}
    return [
        i
        for i, meld in enumerate(melds)
        if any(
            _card_face(c) % 13 in ranks or (_card_face(c) // 13, _card_face(c) % 13) in spots
            for c in meld
        )
    ]


def _repair(
    melds: list[tuple[Card, ...]],
    layout: list[list[Card]],
    placed: list[Card],
    freed: list[int],
    left: list[Card],
    problem: PlacementProblem,
    rules: MeldRules,
    cap: int,
) -> tuple[list[tuple[Card, ...]], list[Card], list[Card]] | None:
    """Lay the cards the quick moves left by searching the melds around them (growing
    rings of the quick layout, the rest kept as it is; past 60% of the table, all of
    it). The cards the quick moves laid stay forced: a layout that lays every live
    card lays them too. None when no ring lays all within the search budget."""
    total = sum(len(m) for m in layout)
    naturals: dict[int, list[Card]] = {}
    for card in left:
        if not card.is_joker:
            naturals.setdefault(card.face, []).append(card)
    jokers_left = [c for c in left if c.is_joker]
    seeds = {c.face for c in left if not c.is_joker}
    if not seeds:  # only jokers are left: look everywhere near the table's cards
        seeds = {_card_face(c) for m in layout for c in m}
    ring: list[int] = []
    everything = list(range(len(layout)))
    for _ in range(3):
        grown = _near(layout, seeds)
        if grown == ring or sum(len(layout[i]) for i in grown) > 0.6 * total:
            grown = everything  # the last try: the whole quick layout
        if grown == ring:
            return None
        ring = grown
        seeds |= {_card_face(c) for i in ring for c in layout[i]}
        inside = set(ring)
        real = [0] * 52
        jokers = [0] * 52
        outside = [0] * 52
        for index, meld in enumerate(layout):
            for card in meld:
                face = _card_face(card)
                if index not in inside:
                    outside[face] += 1
                elif card.is_joker:
                    jokers[face] += 1
                else:
                    real[face] += 1
        sub = PlacementProblem(
            real=real,
            jokers=jokers,
            hand=[len(naturals.get(f, ())) for f in range(52)],
            cap=[max(0, cap - outside[f]) for f in range(52)],
            weight=problem.weight,
            hand_jokers=len(jokers_left),
            joker_weight=problem.joker_weight,
            ace_low=rules.ace_low,
            ace_high=rules.ace_high,
            min_size=rules.min_size,
            max_set=rules.max_set_size,
            old_melds=frozenset(tuple(sorted(_card_face(c) for c in layout[i])) for i in ring),
        )
        live, wild = live_hand(sub)
        if live != sub.hand or wild >= rules.min_size or wild > 2:
            continue  # some card cannot be laid in this ring
        goal = sum(sub.weight[f] * live[f] for f in range(52)) + sub.joker_weight * len(jokers_left)
        faces = [f for f in range(52) if real[f] + jokers[f] + live[f]]
        try:
            found = solve_placement(sub, faces, live, wild, goal - 1, budget=_REPAIR_BUDGET)
        except SearchBudgetError:
            continue
        if found is None:
            continue
        ring_melds = [tuple(layout[i]) for i in ring]
        new, laid, gave_up, _ = _assemble(ring_melds, [(set(faces), found)], naturals, jokers_left)
        kept = [tuple(m) for i, m in enumerate(layout) if i not in inside]
        return kept + new, placed + laid, [Card(f) for f in freed] + gave_up
    return None


def _card_face(card: Card) -> int:
    """The face a table card stands for (a joker's declaration)."""
    if card.is_joker:
        declared = card.declared
        assert declared is not None
        return int(declared)
    return card.face


def _assemble(
    melds: list[tuple[Card, ...]],
    solved: list[tuple[set[int], SearchResult]],
    hand_naturals: dict[int, list[Card]],
    hand_jokers: list[Card],
) -> tuple[list[tuple[Card, ...]], list[Card], list[Card], int]:
    """Physical cards for the solved components' melds: (layout, placed hand cards,
    freed declarations, untouched old melds)."""
    result: list[tuple[Card, ...] | None] = list(melds)
    placed: list[Card] = []
    freed_faces: list[Card] = []
    appended: list[tuple[Card, ...]] = []
    untouched = len(melds)
    for faces, found in solved:
        mine = [i for i, m in enumerate(melds) if m and _card_face(m[0]) in faces]
        untouched -= len(mine)
        # Item slots left per face, and the jokers that stay at their declaration.
        items_left = [0] * 52
        kept_left = [0] * 52
        for f in faces:
            items_left[f] = len([0 for i in mine for c in melds[i] if _card_face(c) == f])
        for f in range(52):
            items_left[f] += found.hand_used[f] - found.freed[f]
        table_jokers: dict[int, list[Card]] = {}
        for i in mine:
            for c in melds[i]:
                if c.is_joker:
                    table_jokers.setdefault(_card_face(c), []).append(c)
        for f, at_face in table_jokers.items():
            kept_left[f] = len(at_face) - found.freed[f]
        # Old melds that a new meld reproduces stay exactly as they were.
        by_faces: dict[tuple[int, ...], list[int]] = {}
        for n, meld_faces in enumerate(found.melds):
            by_faces.setdefault(tuple(sorted(meld_faces)), []).append(n)
        kept_jokers: set[int] = set()
        matched: set[int] = set()
        matched_new: set[int] = set()
        for i in mine:
            key = tuple(sorted(_card_face(c) for c in melds[i]))
            candidates = by_faces.get(key)
            if not candidates:
                continue
            need = Counter(_card_face(c) for c in melds[i] if c.is_joker)
            if any(items_left[f] < 1 for f in key) or any(
                kept_left[f] < k for f, k in need.items()
            ):
                continue
            matched_new.add(candidates.pop(0))
            matched.add(i)
            for c in melds[i]:
                f = _card_face(c)
                items_left[f] -= 1
                if c.is_joker:
                    kept_left[f] -= 1
                    kept_jokers.add(int(c))
        untouched += len(matched)
        # Pools for the other melds: table cards, kept jokers, hand cards, wild jokers.
        pools: dict[int, list[Card]] = {}
        wild_pool: list[Card] = []
        for i in mine:
            if i in matched:
                continue
            for c in melds[i]:
                f = _card_face(c)
                if not c.is_joker:
                    pools.setdefault(f, []).append(c)
        for f, at_face in table_jokers.items():
            rest = [c for c in at_face if int(c) not in kept_jokers]
            stay = kept_left[f]
            pools.setdefault(f, []).extend(rest[:stay])
            wild_pool.extend(c.physical for c in rest[stay:])
            freed_faces.extend([Card(f)] * found.freed[f])
        for f in range(52):
            if found.hand_used[f]:
                laid = hand_naturals[f][: found.hand_used[f]]
                pools.setdefault(f, []).extend(laid)
                placed.extend(laid)
        jokers_laid = hand_jokers[: found.hand_jokers_used]
        placed.extend(c.physical for c in jokers_laid)
        wild_pool.extend(c.physical for c in jokers_laid)
        leftovers: list[tuple[Card, ...]] = []
        for n, meld_faces in enumerate(found.melds):
            if n in matched_new:
                continue
            cards: list[Card] = []
            for f in meld_faces:
                # Items of a face first, then its wild slots (any split is legal).
                if items_left[f] > 0:
                    items_left[f] -= 1
                    cards.append(pools[f].pop(0))
                else:
                    cards.append(wild_pool.pop(0).declare(f))
            leftovers.append(tuple(cards))
        free = [i for i in mine if i not in matched]
        for i in free:
            result[i] = None
        _place_changed(melds, free, leftovers, result, appended, {int(c) for c in placed})
    layout = [m for m in result if m is not None] + appended
    return layout, placed, freed_faces, untouched


def _place_changed(
    melds: list[tuple[Card, ...]],
    free: list[int],
    leftovers: list[tuple[Card, ...]],
    result: list[tuple[Card, ...] | None],
    appended: list[tuple[Card, ...]],
    from_hand: set[int],
) -> None:
    """A changed meld takes the place of the free old meld it shares most cards with;
    runs are shown in rank order, groups in the old meld's order, new cards last."""
    home = _homes([Counter(_token(c) for c in cards) for cards in leftovers], melds, free)
    for n, cards in enumerate(leftovers):
        index = home.get(n, -1)
        faces = [_card_face(c) for c in cards]
        if len({f % 13 for f in faces}) == 1:
            order: dict[int, int] = {}
            for position, card in enumerate(melds[index] if index >= 0 else ()):
                order.setdefault(_token(card), position)
            shown = tuple(
                sorted(
                    cards,
                    key=lambda c: (
                        order.get(_token(c), 99),
                        int(c.physical) in from_hand,
                        _card_face(c),
                    ),
                )
            )
        else:
            high = any(f % 13 == 12 for f in faces)
            shown = tuple(sorted(cards, key=lambda c: _card_face(c) % 13 or (13 if high else 0)))
        if index >= 0:
            result[index] = shown
        else:
            appended.append(shown)


def _rank_dp_placement(
    table: Sequence[Sequence[int]],
    hand: Sequence[int],
    *,
    rules: MeldRules = CAROUSEL_MELDS,
    decks: int = 2,
    joker_copy_limit: bool = True,
    objective: Literal["value", "count"] = "value",
    joker_value: int = 25,
    floor: int = 0,
) -> Placement | None:
    """The rank DP of van Rijn, Takes and Vis (see the module docstring): any number of
    jokers. :func:`best_placement` uses it when the quick moves leave cards over, with
    ``floor`` the primary score they reached (see :func:`best_placement`'s weights):
    then None means that nothing beats it."""
    _check_rules(rules, decks)
    if objective not in ("value", "count"):
        raise InvalidOptionError(
            f"objective must be 'value' or 'count', not {objective!r}", option="objective"
        )
    melds = as_melds(table)
    hand_cards = [Card(c) for c in hand]
    hand_naturals, hand_jokers = _split_hand(hand_cards)
    hand_real = Counter({f: len(cs) for f, cs in hand_naturals.items()})
    table_items = sum(len(m) for m in melds)
    if sum(1 for m in melds for c in m if c.is_joker) + len(hand_jokers) > 8:
        raise RummykitError(
            "the arrangement solver handles at most 8 jokers", code="too_many_jokers"
        )

    # Lexicographic objective packed into one integer, above the layout tie-break.
    stable = 2 * table_items + 1
    weight, joker_weight = _objective_weights(hand_cards, objective, joker_value, stable)

    def region(open_melds: list[int]) -> _Region:
        return _make_region(
            melds,
            open_melds,
            hand_real,
            len(hand_jokers),
            rules=rules,
            decks=decks,
            joker_copy_limit=joker_copy_limit,
            weight=weight,
            joker_weight=joker_weight,
            unit=stable,
        )

    everything = region(list(range(len(melds))))
    full = _rank_dp(everything.problem)
    top = full.upper_bound()
    if top // stable <= max(0, floor):
        return None  # the table cannot be laid out, nothing fits, or nothing beats floor

    # First the melds around the hand's cards only: often that is all a player needs.
    chosen: tuple[_Region, _Solved] | None = None
    hand_faces = {c.face for c in hand_cards if not c.is_joker}
    for ring in _rings(melds, hand_faces, 1):
        if sum(len(melds[i]) for i in ring) <= _RING_SHARE * table_items:
            local = region(ring)
            found = _rank_dp(local.problem).depth_first(floor=floor)
            if found is not None and found.score // stable > max(0, floor):
                chosen = (local, found)
    if chosen is not None:
        floor = chosen[1].score // stable  # a meld lays >= 1 card
    better = full.depth_first(floor=floor)
    if better is not None:
        chosen = (everything, better)
        # Re-solve with only the melds around the cards that move opened.
        primary = better.score // stable
        seeds: set[int] = set()
        for rank, suit, x, o, w, *_ in better.choices:
            if x or o or w:
                seeds.add(suit * 13 + rank - 1)
        for ring in _rings(melds, seeds, 3):
            if sum(len(melds[i]) for i in ring) > _RING_SHARE * table_items:
                break
            candidate = region(ring)
            attempt = _rank_dp(candidate.problem).depth_first(floor=primary - 1, target=primary)
            if attempt is not None:
                chosen = (candidate, attempt)
                break
    if chosen is None:
        return None
    chosen_region, chosen_solved = chosen
    layout, placed, freed, untouched = _lay_out(
        chosen_region,
        chosen_solved,
        melds,
        hand_naturals,
        hand_jokers,
        rules.min_size,
        rules.max_set_size,
    )
    return Placement(
        layout=tuple(layout),
        cards=tuple(placed),
        value=sum(placement_value(c, joker_value) for c in placed),
        count=len(placed),
        freed=tuple(sorted(freed)),
        untouched=untouched,
    )


def _homes(
    leftovers: Sequence[Counter[int]], melds: Sequence[Sequence[Card]], free: Sequence[int]
) -> dict[int, int]:
    """Each changed meld (its tokens) -> the free old meld it shares most cards with,
    greedily, most shared first; a changed meld sharing nothing gets no home."""
    scored: list[tuple[int, int, int]] = []
    holders: dict[int, list[tuple[int, int]]] = {}  # token -> (old meld, copies in it)
    for index in free:
        for token, k in Counter(_token(c) for c in melds[index]).items():
            holders.setdefault(token, []).append((index, k))
    for n, have in enumerate(leftovers):
        shared_with: dict[int, int] = {}
        for token, k in have.items():
            for index, held in holders.get(token, ()):
                shared_with[index] = shared_with.get(index, 0) + min(k, held)
        scored.extend((-shared, n, index) for index, shared in shared_with.items())
    scored.sort()
    home: dict[int, int] = {}
    taken: set[int] = set()
    for _shared, n, index in scored:
        if n not in home and index not in taken:
            home[n] = index
            taken.add(index)
    return home
