"""Decision times of a gin level against the heuristic bot (p50, p90, p99, max).

Plays ``--matches`` matches to 100 (seats alternating) and times every ``act`` call of
the measured bot with ``time.perf_counter_ns``. Information only: nothing is asserted.

    python benchmarks/bench_gin_expert_time.py --level expert --matches 40
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import defaultdict
from typing import Any

from rummykit.games.gin import GinMatch, GinRules
from rummykit.games.gin.expert_bot import LEVELS, GinExpertBot
from rummykit.games.gin.heuristic_bot import GinHeuristicBot


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="expert", choices=LEVELS)
    parser.add_argument("--matches", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rules = GinRules()
    times: list[float] = []
    by_phase: dict[str, list[float]] = defaultdict(list)
    for index in range(args.matches):
        seat = index % 2
        bot = GinExpertBot(args.level, rules=rules, seed=args.seed + index)
        bots: list[Any] = [bot, GinHeuristicBot(rules)]
        if seat:
            bots.reverse()
        match = GinMatch(rules, args.seed * 10_000 + index // 2, first_dealer=0)
        while not match.is_over:
            player = match.current_player
            observation = match.observation(player)
            legal = match.legal_actions()
            start = time.perf_counter_ns()
            action = bots[player].act(observation, legal)
            elapsed = (time.perf_counter_ns() - start) / 1e6
            if player == seat:
                times.append(elapsed)
                by_phase[observation.phase].append(elapsed)
            match.apply(action)

    def row(label: str, values: list[float]) -> str:
        values = sorted(values)
        cut = statistics.quantiles(values, n=100)
        return (
            f"{label:8s} n={len(values):6d}  p50 {cut[49]:6.2f} ms  p90 {cut[89]:6.2f} ms  "
            f"p99 {cut[98]:6.2f} ms  max {values[-1]:6.2f} ms"
        )

    print(f"{args.level} vs heuristic, {args.matches} matches")
    print(row("all", times))
    for phase, values in sorted(by_phase.items()):
        if len(values) > 1:
            print(row(phase, values))


if __name__ == "__main__":
    main()
