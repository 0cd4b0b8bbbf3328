"""Paired-hand evaluation of a GinExpertBot setting against the heuristic bot.

Every deal is played twice with the same cards and dealer, the expert bot in seat 0
and then in seat 1, so the luck of the deal cancels. Prints the expert's mean points
per hand (points won minus points lost) with one standard error over deals.

    python benchmarks/tune_gin_expert.py --level expert --hands 2000 -p danger_weight=6
"""

from __future__ import annotations

import argparse
import math
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from rummykit.games.gin import GinRules, new_hand
from rummykit.games.gin.expert_bot import GinExpertBot, with_params
from rummykit.games.gin.heuristic_bot import GinHeuristicBot


def _hand(level: str, changes: dict[str, Any], seed: int, expert_seat: int) -> int:
    rules = GinRules()
    expert = GinExpertBot(level, rules=rules, seed=seed, params=with_params(level, **changes))  # type: ignore[arg-type]
    heuristic = GinHeuristicBot(rules)
    bots = [expert, heuristic] if expert_seat == 0 else [heuristic, expert]
    hand = new_hand(rules, seed=seed, dealer=seed % 2)
    while not hand.is_over:
        seat = hand.current_player
        hand.apply(bots[seat].act(hand.observation(seat), hand.legal_actions()))
    result = hand.result
    assert result is not None
    if result.winner is None:
        return 0
    return result.points if result.winner == expert_seat else -result.points


def _pair(args: tuple[str, dict[str, Any], int]) -> int:
    level, changes, seed = args
    return _hand(level, changes, seed, 0) + _hand(level, changes, seed, 1)


def _value(text: str) -> Any:
    if text in ("true", "false"):
        return text == "true"
    try:
        return int(text)
    except ValueError:
        return float(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="expert")
    parser.add_argument("--hands", type=int, default=1000, help="deals (each played twice)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("-p", action="append", default=[], help="param=value")
    args = parser.parse_args()
    changes = {k: _value(v) for k, v in (item.split("=", 1) for item in args.p)}
    jobs = [(args.level, changes, args.seed * 1_000_003 + i) for i in range(args.hands)]
    start = time.perf_counter()
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as pool:
            totals = list(pool.map(_pair, jobs, chunksize=20))
    else:
        totals = [_pair(job) for job in jobs]
    n = len(totals)
    mean = sum(totals) / n / 2
    var = sum((t / 2 - mean) ** 2 for t in totals) / (n - 1)
    print(
        f"{args.level} {changes}: {mean:+.2f} +/- {math.sqrt(var / n):.2f} points/hand "
        f"over {n} paired deals ({time.perf_counter() - start:.0f} s)"
    )


if __name__ == "__main__":
    main()
