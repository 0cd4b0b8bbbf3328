"""Strength and decision time of the Rami bot levels, by paired rounds.

For each level and each deal, the level plays one round in every seat against three
:class:`~rummykit.games.rami.heuristic_bot.RamiHeuristicBot`; the same deal is also played by
four heuristic bots. Per round the script compares the level's seat with the heuristic
that sat there on the same cards:

* ``penalty``: the level's round penalty minus the heuristic's (negative: better);
* ``relative``: the same for (own penalty - mean penalty of the three others), which also
  counts what a rami sec or a quick going out costs the others (negative: better);
* ``won``: rounds the level went out (or won a blocked round) against the heuristic's;
* ``unopened``: rounds ended without having opened; ``sec``: rami secs made;
* decision time: every ``act`` call of the level is timed (p50, p90, p99, max in ms).

Means carry one standard error. Timings are information, never pass/fail.

Run (from the repository root)::

    .venv/bin/python benchmarks/bench_rami_levels.py --deals 150
    .venv/bin/python benchmarks/bench_rami_levels.py --levels expert --deals 40 --preset rami40
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections.abc import Sequence

from rummykit.games.rami import RamiRoundResult, RamiRules, new_round, preset
from rummykit.games.rami.expert_bot import LEVELS, RamiExpertBot
from rummykit.games.rami.heuristic_bot import RamiHeuristicBot

Bot = RamiExpertBot | RamiHeuristicBot


def play(
    bots: Sequence[Bot], rules: RamiRules, seed: int, dealer: int, timed: int, times: list[float]
) -> RamiRoundResult:
    """One round; the ``act`` calls of seat ``timed`` are timed into ``times``."""
    rnd = new_round(rules, len(bots), seed, dealer=dealer)
    while not rnd.is_over:
        seat = rnd.current_player
        observation = rnd.observation(seat)
        legal = rnd.legal_actions()
        start = time.perf_counter()
        action = bots[seat].act(observation, legal)
        if seat == timed:
            times.append(time.perf_counter() - start)
        rnd.apply(action)
    assert rnd.result is not None
    return rnd.result


def mean_se(values: Sequence[float]) -> str:
    if len(values) < 2:
        return f"{values[0]:+.2f}" if values else "-"
    return (
        f"{statistics.mean(values):+6.2f} ± {statistics.stdev(values) / math.sqrt(len(values)):.2f}"
    )


def percentile(sorted_values: Sequence[float], q: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))] * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else "")
    parser.add_argument("--levels", default=",".join(LEVELS), help="comma-separated levels")
    parser.add_argument("--deals", type=int, default=100, help="deals per level")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0, help="first deal's seed")
    parser.add_argument("--preset", default="rami51")
    args = parser.parse_args()
    rules = preset(args.preset)
    players = args.players
    print(
        f"{args.preset}, {players} players, {args.deals} deals x {players} seats per level, "
        f"deal seeds {args.seed}-{args.seed + args.deals - 1}"
    )
    header = (
        f"{'level':7} {'rounds':>6} {'penalty':>15} {'relative':>15} {'won':>9} "
        f"{'unopened':>9} {'sec':>7} {'p50 ms':>7} {'p90 ms':>7} {'p99 ms':>7} {'max ms':>7}"
    )
    print(header)
    baselines: dict[int, RamiRoundResult] = {}
    unused: list[float] = []
    for level in args.levels.split(","):
        penalty: list[float] = []
        relative: list[float] = []
        times: list[float] = []
        won = base_won = unopened = base_unopened = sec = base_sec = 0
        for seed in range(args.seed, args.seed + args.deals):
            dealer = seed % players
            base = baselines.get(seed)
            if base is None:
                heuristics: list[Bot] = [RamiHeuristicBot(rules) for _ in range(players)]
                base = baselines[seed] = play(heuristics, rules, seed, dealer, -1, unused)
            for seat in range(players):
                bots: list[Bot] = [RamiHeuristicBot(rules) for _ in range(players)]
                bots[seat] = RamiExpertBot(
                    seed=seed * players + seat,
                    rules=rules,
                    players=players,
                    level=level,
                )
                result = play(bots, rules, seed, dealer, seat, times)

                def rel(r: RamiRoundResult, seat: int = seat) -> float:
                    others = [r.penalties[s] for s in range(players) if s != seat]
                    return r.penalties[seat] - sum(others) / len(others)

                penalty.append(result.penalties[seat] - base.penalties[seat])
                relative.append(rel(result) - rel(base))
                won += seat in result.winners
                base_won += seat in base.winners
                unopened += not result.opened[seat]
                base_unopened += not base.opened[seat]
                sec += result.rami_sec and seat in result.winners
                base_sec += base.rami_sec and seat in base.winners
        times.sort()
        print(
            f"{level:7} {len(penalty):6} {mean_se(penalty):>15} {mean_se(relative):>15} "
            f"{won:>4}/{base_won:<4} {unopened:>4}/{base_unopened:<4} {sec:>3}/{base_sec:<3} "
            f"{percentile(times, 0.5):7.1f} {percentile(times, 0.9):7.1f} "
            f"{percentile(times, 0.99):7.1f} {times[-1] * 1000:7.1f}"
        )
    print("a/b columns: the level / the heuristic in the same seat of the same deal")


if __name__ == "__main__":
    main()
