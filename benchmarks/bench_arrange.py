"""Carousel placement: rummykit's exact solver next to the ILP reference (HiGHS).

Both solve the same seeded instances (tables of random legal melds, random hands, as in
``tests/games/carousel/ilp_reference.py``), grouped by table size (10-20, 20-40, 40-60, 60-80
cards) and by the number of jokers in play (0, 1, 2). For each group the script prints
the median, 90th percentile and maximum time of each, in milliseconds, and the ratio
ILP / solver of the medians and of the maxima. With ``--baseline`` it also times the
rank DP alone (``rank_dp_placement``, which ``best_placement`` calls directly when the compiled
rank DP is built, and after the quick layout otherwise) in the same run. With
``--pure-python`` the compiled module is switched off. It checks that
both find the same optimum. Timings are information, never pass/fail: the script
only prints.

Run (from the repository root)::

    .venv/bin/python benchmarks/bench_arrange.py              # 20 instances per group
    .venv/bin/python benchmarks/bench_arrange.py --per-group 5 --seed 7
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "games" / "carousel"))

from ilp_reference import Instance, ilp_optimum, random_instance  # noqa: E402

from rummykit.games.carousel import rank_dp_select  # noqa: E402
from rummykit.games.carousel.arrange import best_placement, rank_dp_placement  # noqa: E402

SIZES = ((10, 20), (20, 40), (40, 60), (60, 80))
JOKERS = (0, 1, 2)


def instances(per_group: int, seed: int) -> dict[tuple[tuple[int, int], int], list[Instance]]:
    """``per_group`` instances for each (table size range, jokers) group."""
    rng = random.Random(seed)
    groups: dict[tuple[tuple[int, int], int], list[Instance]] = {}
    for low, high in SIZES:
        for jokers in JOKERS:
            found: list[Instance] = []
            while len(found) < per_group:
                decks = rng.choice((1, 2)) if high <= 40 else 2
                target = rng.randint(low, min(high, 35 if decks == 1 else high))
                inst = random_instance(
                    rng.randrange(1 << 30), decks=decks, jokers=jokers, table_size=target
                )
                if low <= inst.table_size <= high + 2:
                    found.append(inst)
            groups[(low, high), jokers] = found
    return groups


def timed(fn: object, repeat: int) -> tuple[float, object]:
    """Best of ``repeat`` wall times in ms, and the result."""
    best = float("inf")
    result: object = None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()  # type: ignore[operator]
        best = min(best, time.perf_counter() - start)
    return best * 1000, result


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def row(solver_ms: list[float], ilp_ms: list[float], dp_ms: list[float]) -> str:
    """One line of the table: median, p90, max of each, and the ILP / solver ratios."""
    s_med, i_med = statistics.median(solver_ms), statistics.median(ilp_ms)
    line = (
        f"{s_med:>10.1f} {percentile(solver_ms, 0.9):>7.1f} {max(solver_ms):>7.1f} | "
        f"{i_med:>8.1f} {percentile(ilp_ms, 0.9):>7.1f} {max(ilp_ms):>7.1f} | "
        f"{i_med / s_med:>8.1f}x {max(ilp_ms) / max(solver_ms):>8.1f}x"
    )
    if dp_ms:
        d_med = statistics.median(dp_ms)
        line += (
            f" | {d_med:>7.1f} {percentile(dp_ms, 0.9):>7.1f} {max(dp_ms):>7.1f} "
            f"{i_med / d_med:>9.1f}x"
        )
    return line


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-group", type=int, default=20, help="instances per group")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--repeat", type=int, default=1, help="best of N timings")
    parser.add_argument("--baseline", action="store_true", help="time the rank DP alone too")
    parser.add_argument(
        "--pure-python",
        action="store_true",
        help="switch the compiled rank DP off (the fallback without a C compiler)",
    )
    args = parser.parse_args()
    if args.pure_python:
        rank_dp_select.use_compiled = False

    print(f"python {platform.python_version()} on {platform.machine()}, seed {args.seed}")
    print(f"{args.per_group} instances per group; times in ms (best of {args.repeat})")
    print(f"rank DP: {'compiled (_rank_dp.c)' if rank_dp_select.use_compiled else 'pure Python'}")
    header = (
        f"{'table':>7} {'jokers':>6} | {'solver med':>10} {'p90':>7} {'max':>7} | "
        f"{'ILP med':>8} {'p90':>7} {'max':>7} | {'ratio med':>9} {'ratio max':>9}"
    )
    if args.baseline:
        header += f" | {'DP med':>7} {'p90':>7} {'max':>7} {'ILP/DP med':>10}"
    print(header)
    print("-" * len(header))
    mismatches = 0
    all_solver: list[float] = []
    all_ilp: list[float] = []
    all_dp: list[float] = []
    for (size, jokers), group in instances(args.per_group, args.seed).items():
        solver_ms: list[float] = []
        ilp_ms: list[float] = []
        dp_ms: list[float] = []
        for inst in group:
            if args.baseline:
                t_dp, _ = timed(
                    lambda inst=inst: rank_dp_placement(inst.table, inst.hand, decks=inst.decks),
                    args.repeat,
                )
                dp_ms.append(t_dp)
            t_solver, placement = timed(
                lambda inst=inst: best_placement(inst.table, inst.hand, decks=inst.decks),
                args.repeat,
            )
            t_ilp, optimum = timed(
                lambda inst=inst: ilp_optimum(inst.table, inst.hand, decks=inst.decks),
                args.repeat,
            )
            solver_ms.append(t_solver)
            ilp_ms.append(t_ilp)
            got = (0, 0) if placement is None else (placement.value, placement.count)  # type: ignore[attr-defined]
            if got != optimum:
                mismatches += 1
                print(f"  MISMATCH seed {inst.seed}: solver {got}, ILP {optimum}")
        all_solver += solver_ms
        all_ilp += ilp_ms
        all_dp += dp_ms
        print(f"{size[0]:>3}-{size[1]:<3} {jokers:>6} | " + row(solver_ms, ilp_ms, dp_ms))
    print("-" * len(header))
    print(f"{'all':>7} {'':>6} | " + row(all_solver, all_ilp, all_dp))
    print(f"optimum mismatches: {mismatches}")


if __name__ == "__main__":
    main()
