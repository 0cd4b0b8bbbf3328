"""Types of the compiled rank DP (``_rank_dp.c``); see rank_dp.py's ``PythonRankDp``."""

from collections.abc import Sequence

class RankDpUnsupportedError(Exception):
    """The problem lies outside the compiled limits (then ``PythonRankDp`` runs)."""

class RankDp:
    def __init__(
        self,
        min_size: int,
        max_set: int,
        ace_low: bool,
        ace_high: bool,
        real: Sequence[int],
        jokers: Sequence[int],
        real_ext: Sequence[int],
        cap: Sequence[int],
        hand: Sequence[int],
        hand_jokers: int,
        weight: Sequence[int],
        joker_weight: int,
        in_runs: Sequence[int],
        in_groups: Sequence[int],
        in_high: Sequence[int],
        unit: int,
        order: Sequence[int] | None = None,
        /,
    ) -> None: ...
    def upper_bound(self) -> int: ...
    def depth_first(
        self, floor: int, target: int, /
    ) -> tuple[int, int, int, list[tuple[int, int, int, int, int, int, int, int]]] | None: ...
    def nodes(self) -> int: ...
