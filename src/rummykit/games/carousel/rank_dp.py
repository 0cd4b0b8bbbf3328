"""The rank DP in Python: the reference the compiled ``_rank_dp.c`` mirrors.

The state space is the rank DP of van Rijn, Takes and Vis (2015, "The complexity of
Rummikub problems"), changed so that every table card must be used (the states and the
moves at one face are in :mod:`rummykit.games.carousel.rank_dp_moves`). It is searched
depth first with branch and bound: each state's bound is its score plus four per-suit
chain DPs solved backwards once per problem, in which a suit's groups only need
partners the other suits could lend and the jokers are shared out among the suits.
The bound also guides the search, and a transposition table remembers what each
state can still add. The compiled module visits the same states in the same order and
so finds the same layout; ``tests/games/carousel/test_rank_dp_compiled.py`` checks it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence

from rummykit.games.carousel.rank_dp_moves import (
    DEAD,
    FREED_SHIFT,
    GMAX_SHIFT,
    GROUP_CLEAR,
    GSUM_MASK,
    GSUM_SHIFT,
    NEG,
    SUIT_BITS,
    SUIT_MASK,
    USED_SHIFT,
    Choice,
    can_group,
    face_options,
    final_ok,
)
from rummykit.games.carousel.rank_dp_problem import NO_LIMIT, RankDpProblem, RankDpSolution

__all__ = ["PythonRankDp"]

_Raw = tuple[int, int, int, int, int, Choice]
"""A way to place one face's items: (new suit state, g, w, x, gain, choice)."""
_Move = tuple[int, int, int, int, int, tuple[int, ...], Choice]


class PythonRankDp:
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

    def __init__(self, p: RankDpProblem) -> None:
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
                reach = NO_LIMIT
                for rank in range(14 - size + 1, 14):
                    face = suit * 13 + rank - 1
                    avail = p.real[face] + p.jokers[face] + p.hand[face] + self.wild_max
                    reach = min(reach, avail, p.cap[face])
                self.high_cap[suit] = reach
        self.group_ok = [
            [can_group(gmax, gsum, size, p.max_set) for gsum in range(64)] for gmax in range(16)
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
        options = face_options(shape)
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
        add, per number of jokers left (``NEG`` when it cannot finish).

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
                            if future[self.wild_max - cost] <= DEAD:
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
            if final_ok(state, size):
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
                    best = NEG
                    for new_state, g, _w, _x, gain, _choice in options:
                        future = after.get(new_state)
                        if future is not None and g <= room and gain + future[0] > best:
                            best = gain + future[0]
                    if best > DEAD:
                        here[state] = here_waived[state] = (best,)
                    continue
                top = [NEG] * budget
                free = [NEG] * budget
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
                if top[-1] > DEAD:
                    here[state] = tuple(v if v > DEAD else NEG for v in top)
                if free[-1] > DEAD:
                    here_waived[state] = tuple(v if v > DEAD else NEG for v in free)
        return values, waived

    def moves_from(self, rank: int, suit: int, state: int) -> list[_Move]:
        """The joint DP's moves for one suit state, dead ends removed: (packed state,
        g, w, key delta, gain, the new state's bound vector, choice), best first."""
        cache_key = (rank, suit, state)
        cached = self.moves.get(cache_key)
        if cached is not None:
            return cached
        shift = suit * SUIT_BITS
        after = self.bound[suit][rank]
        result: list[_Move] = []
        if state in self.open_bound[suit][rank - 1]:
            for new_state, g, w, x, gain, choice in self.raw_options(rank, suit, state):
                future = after.get(new_state)
                if future is None:
                    continue
                key_delta = (w << USED_SHIFT) + (x << FREED_SHIFT)
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
        return -1 if best <= DEAD else best + self.joker_bound

    def expand(
        self, step: int, key: int, score: int, threshold: int
    ) -> tuple[list[tuple[int, int, int, Choice]], int]:
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
        shift = suit * SUIT_BITS
        moves = self.moves_from(rank, suit, (key >> shift) & SUIT_MASK)
        base = key & ~(SUIT_MASK << shift)
        left = wild_max - ((key >> USED_SHIFT) & 15)
        gsum = (key >> GSUM_SHIFT) & GSUM_MASK
        gmax = (key >> GMAX_SHIFT) & 15
        # The other suits' bounds, jokers shared out among them.
        others = [
            (bound[t][rank] if t < suit else open_bound[t][rank - 1])[
                (key >> (t * SUIT_BITS)) & SUIT_MASK
            ]
            for t in range(4)
            if t != suit
        ]
        rest = _combine(others, left)
        rest0 = rest[0]
        base_score = score + joker_bound
        children: list[tuple[int, int, int, Choice]] = []
        result = NEG
        for packed, g, w, delta, gain, future, choice in moves:
            if not left:
                if w:
                    continue
                tail = rest0 + future[0]
            else:
                if w > left:
                    continue
                room = left - w
                tail = NEG
                for k in range(room + 1):
                    value = rest[k] + future[room - k]
                    if value > tail:
                        tail = value
            if tail <= DEAD:
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
                nk = ((base & GROUP_CLEAR) | packed) + delta
            else:
                if ng and not can_finish(rank, suit, nm, ng):
                    continue
                nk = (base | packed) + delta + (g << GSUM_SHIFT)
                if nm != gmax:
                    nk += (nm - gmax) << GMAX_SHIFT
            children.append((total, nk, gain, choice))
        # Best bound first; among equal primary bounds, jokers last (they fit almost
        # anywhere later), then keep the table as it was.
        if len(children) > 1:
            children.sort(key=lambda c: (-(c[0] // unit), c[3][2], -(c[2] % unit), -c[0]))
        return children, result

    def depth_first(self, floor: int = -1, target: int | None = None) -> RankDpSolution | None:
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
        path: list[Choice] = []
        best: list[RankDpSolution] = []
        threshold = -1 if floor < 0 else (floor + 1) * unit - 1
        goal = top // unit if target is None else min(target, top // unit)
        if goal <= floor:
            return None

        def visit(step: int, key: int, score: int) -> int:
            """Search below one state; return an upper bound on its best total."""
            nonlocal threshold
            if step == 52:
                used = (key >> USED_SHIFT) & 15
                freed = (key >> FREED_SHIFT) & 15
                if not freed <= used <= freed + p.hand_jokers:
                    return NEG
                total = score + (used - freed) * p.joker_weight
                if total > threshold:
                    choices = [(i // 4 + 1, i % 4, *choice) for i, choice in enumerate(path)]
                    best[:] = [RankDpSolution(total, used, freed, choices)]
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
