"""Which rank DP runs: the compiled one when it is built, else Python; suits in the
order that makes the search smallest.

``_rank_dp.c`` is an optional C extension built by ``pip install``: the same algorithm
as :class:`~rummykit.games.carousel.rank_dp.PythonRankDp`, visiting the same states in
the same order, so the same layout, tens of times faster. :func:`dp_for` gives the DP of
one problem.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from rummykit.games.carousel.rank_dp import PythonRankDp
from rummykit.games.carousel.rank_dp_problem import RankDpProblem, RankDpSolution

_CompiledRankDp: type[RankDp] | None
try:  # the compiled rank DP (optional; the same results, tens of times faster)
    from rummykit.games.carousel._rank_dp import RankDp as _CompiledRankDp
    from rummykit.games.carousel._rank_dp import RankDpUnsupportedError as _CompiledUnsupported
except ImportError:  # pragma: no cover - built by every install with a C compiler
    _CompiledRankDp = None
    _CompiledUnsupported = RuntimeError  # type: ignore[misc,assignment]

if TYPE_CHECKING:
    from rummykit.games.carousel._rank_dp import RankDp

__all__ = [
    "CompiledRankDp",
    "SuitOrderDp",
    "compiled_arguments",
    "compiled_in_use",
    "dp_for",
    "make_dp",
    "relabel",
    "suit_order",
    "use_compiled",
]


class CompiledRankDp:
    """:class:`PythonRankDp` run by the compiled module ``_rank_dp.c``: the same algorithm, the
    same states in the same order, so the same layout. With ``order``, the compiled DP
    visits the suits in that order and answers in the problem's suits, as
    :class:`SuitOrderDp` does."""

    __slots__ = ("_dp", "_order", "p")

    def __init__(self, p: RankDpProblem, compiled: RankDp, order: list[int] | None = None) -> None:
        self.p = p
        self._dp = compiled
        self._order = order

    def upper_bound(self) -> int:
        return self._dp.upper_bound()

    def depth_first(self, floor: int = -1, target: int | None = None) -> RankDpSolution | None:
        if target is not None and target <= floor:
            return None  # as PythonRankDp: the goal is below what is asked for
        try:
            found = self._dp.depth_first(floor, -1 if target is None else target)
        except _CompiledUnsupported:  # pragma: no cover - a limit only Python lifts
            return _python_dp(self.p, self._order).depth_first(floor=floor, target=target)
        if found is None:
            return None
        score, used, freed, choices = found  # choices: a new list of tuples
        return RankDpSolution(score, used, freed, choices)


use_compiled = _CompiledRankDp is not None
"""Whether the rank DP runs compiled when it can (tests switch it off to run the
Python :class:`PythonRankDp`, which is the reference the compiled code is checked
against)."""


def compiled_in_use() -> bool:
    """Whether the rank DP runs compiled (built, and not switched off)."""
    return use_compiled and _CompiledRankDp is not None


def compiled_arguments(
    p: RankDpProblem,
) -> tuple[
    int,
    int,
    bool,
    bool,
    Sequence[int],
    Sequence[int],
    Sequence[int],
    Sequence[int],
    list[int],
    int,
    list[int],
    int,
    Sequence[int],
    Sequence[int],
    Sequence[int],
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


def make_dp(p: RankDpProblem) -> PythonRankDp | CompiledRankDp:
    """The rank DP of one problem: compiled when the module is built and the problem
    fits its limits (at most 7 wild jokers and 7 items of a face), else Python."""
    if use_compiled and _CompiledRankDp is not None:
        try:
            compiled = _CompiledRankDp(*compiled_arguments(p))
        except _CompiledUnsupported:
            return PythonRankDp(p)
        return CompiledRankDp(p, compiled)
    return PythonRankDp(p)


def suit_order(p: RankDpProblem) -> list[int]:
    """The order in which the DP visits the suits of a rank: fewest table cards first
    (then most hand cards). The problem is the same under any order, but the search is
    not: deciding the crowded suits last lets the groups they must feed be checked
    sooner (on 1,560 benchmark instances this halved the largest search)."""
    real, jokers, hand = p.real, p.jokers, p.hand
    keys = [
        (sum(real[s : s + 13]) + sum(jokers[s : s + 13]), -sum(hand[s : s + 13]), s // 13)
        for s in (0, 13, 26, 39)
    ]
    keys.sort()
    return [key[2] for key in keys]


def relabel(p: RankDpProblem, order: Sequence[int]) -> RankDpProblem:
    """The same problem with suit ``order[k]`` renamed ``k``."""
    a, b, c, d = (13 * suit for suit in order)

    def move(values: Sequence[int]) -> list[int]:
        # Faces are suit-major: the renamed suits are the old suits' 13 faces in turn.
        return [*values[a : a + 13], *values[b : b + 13], *values[c : c + 13], *values[d : d + 13]]

    return RankDpProblem(
        min_size=p.min_size,
        max_set=p.max_set,
        ace_low=p.ace_low,
        ace_high=p.ace_high,
        real=move(p.real),
        jokers=move(p.jokers),
        real_ext=move(p.real_ext),
        cap=move(p.cap),
        hand=move(p.hand),
        hand_jokers=p.hand_jokers,
        weight=move(p.weight),
        joker_weight=p.joker_weight,
        in_runs=move(p.in_runs),
        in_groups=move(p.in_groups),
        in_high=move(p.in_high),
        unit=p.unit,
    )


class SuitOrderDp:
    """A rank DP run with the suits renamed (see :func:`suit_order`); its choices are
    given back in the original suits, rank by rank, suit by suit. ``inner`` is the DP
    of the renamed problem (default: :func:`make_dp`'s)."""

    def __init__(
        self,
        p: RankDpProblem,
        order: list[int],
        inner: PythonRankDp | CompiledRankDp | None = None,
    ) -> None:
        self.p = p
        self.order = order
        self.inner = make_dp(relabel(p, order)) if inner is None else inner

    def upper_bound(self) -> int:
        return self.inner.upper_bound()

    def depth_first(self, floor: int = -1, target: int | None = None) -> RankDpSolution | None:
        found = self.inner.depth_first(floor=floor, target=target)
        if found is None:
            return None
        order = self.order
        choices = sorted((rank, order[suit], *rest) for rank, suit, *rest in found.choices)
        return RankDpSolution(found.score, found.used, found.freed, choices)  # type: ignore[arg-type]


def dp_for(
    p: RankDpProblem, order: list[int] | None = None
) -> PythonRankDp | CompiledRankDp | SuitOrderDp:
    """The rank DP of one problem, suits visited in :func:`suit_order` (the compiled
    DP renames the suits itself, the same way as :func:`relabel`). ``order``, when
    given, is :func:`suit_order` of ``p`` (a region knows it: see
    :class:`~rummykit.games.carousel.rank_dp_problem.Region`)."""
    if order is None:
        order = suit_order(p)
    named = None if order == _SUITS else order  # the suits as they are: no renaming
    if use_compiled and _CompiledRankDp is not None:
        try:
            compiled = _CompiledRankDp(*compiled_arguments(p), order)
        except _CompiledUnsupported:
            return _python_dp(p, named)
        return CompiledRankDp(p, compiled, named)
    return _python_dp(p, named)


_SUITS: Final = [0, 1, 2, 3]


def _python_dp(p: RankDpProblem, order: list[int] | None) -> PythonRankDp | SuitOrderDp:
    """The Python DP of ``p``, its suits visited in ``order`` when one is given."""
    if order is None:
        return PythonRankDp(p)
    return SuitOrderDp(p, order, PythonRankDp(relabel(p, order)))
