"""Bot and tournament speed for every registered variant and bot.

What it measures, for each variant the registry knows (``rummykit.sim.registry``) and
each pairing of its available bots (self-play included; a pairing of two bots fills
the seats in turn, ``a b a`` at three seats):

1. **Games per second**: whole games (a Gin match to 100, a Carousel game to 150, a
   Rami game to the penalty limit) played in this process on the tournament's own job
   list (paired deals, rotated seats), for about ``--seconds`` per pairing.
2. **Decision time per bot**: every ``act`` call is timed; p50, p90 and p99 in
   milliseconds, over all the pairings the bot played.
3. **Speed-up from 1 to 2 workers**: the same tournament (the variant's default
   lineup, sized for about ``--scale-seconds`` on one worker) with ``workers=1`` (in
   process) and ``workers=2`` (a process pool), start-up included, and a check that
   both give the same results.

Bots and variants that cannot run yet (a module they need is missing) are listed with
the reason. Timings are information, never pass/fail: the script only prints. Progress
goes to standard error, the report to standard output.

Run (from the repository root)::

    .venv/bin/python benchmarks/bench_bots.py             # about a minute or two
    .venv/bin/python benchmarks/bench_bots.py --quick     # a quick look
    .venv/bin/python benchmarks/bench_bots.py --variants gin --seconds 10
"""

from __future__ import annotations

import argparse
import itertools
import os
import platform
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rummykit.sim.registry import (
    available_bots,
    bot_names,
    default_lineup,
    get_bot,
    get_variant,
    variant_names,
)
from rummykit.sim.tournament import TournamentSpec, prepare_tournament, run_tournament


def progress(message: str) -> None:
    print(f"[bench] {message}", file=sys.stderr, flush=True)


class TimedBot:
    """Wraps a bot and records the wall time of every decision (nanoseconds)."""

    def __init__(self, bot: Any, sink: list[int]) -> None:
        self.bot = bot
        self.name: str = bot.name
        self.sink = sink

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        start = time.perf_counter_ns()
        action = self.bot.act(observation, legal_actions)
        self.sink.append(time.perf_counter_ns() - start)
        return action


@dataclass
class PairingRun:
    lineup: tuple[str, ...]
    games: int = 0
    seconds: float = 0.0
    hands: int = 0
    decisions: int = 0

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0


@dataclass
class VariantReport:
    variant: str
    players: int
    runs: list[PairingRun] = field(default_factory=list)
    decision_ns: dict[str, list[int]] = field(default_factory=dict)
    unavailable: dict[str, str] = field(default_factory=dict)
    scaling: dict[str, Any] | None = None


def play_pairing(
    spec: TournamentSpec, seconds: float, max_games: int, decision_ns: dict[str, list[int]]
) -> PairingRun:
    """Play the spec's jobs in order until the time budget or ``max_games`` is spent."""
    names = tuple(entry.name for entry in spec.lineup)
    run = PairingRun(names)
    start = time.perf_counter()
    for index in range(min(spec.total_games, max_games)):
        job = spec.job(index)
        bots = []
        for seat, position in enumerate(job.seats):
            entry = spec.lineup[position]
            bot = entry.create(seed=job.bot_seeds[seat], rules=spec.rules, players=spec.players)
            bots.append(TimedBot(bot, decision_ns.setdefault(entry.name, [])))
        outcome = spec.driver.play(
            bots, rules=spec.rules, seed=job.seed, first_dealer=job.first_dealer
        )
        run.games += 1
        run.hands += outcome.hands
        run.decisions += outcome.decisions
        run.seconds = time.perf_counter() - start
        if run.seconds >= seconds:
            break
    return run


def percentile(sorted_values: Sequence[int], fraction: float) -> float:
    """Nearest-rank percentile of an ascending list."""
    if not sorted_values:
        return float("nan")
    rank = max(1, min(len(sorted_values), round(fraction * len(sorted_values) + 0.5)))
    return float(sorted_values[rank - 1])


def bench_variant(variant: str, args: argparse.Namespace) -> VariantReport:
    driver = get_variant(variant)
    players = args.players or driver.default_players
    report = VariantReport(variant, players)
    for name in bot_names(variant):
        try:
            get_bot(variant, name)
        except ValueError as error:
            report.unavailable[name] = str(error)
    bots = available_bots(variant)
    for pair in itertools.combinations_with_replacement(bots, 2):
        lineup = list(pair) if pair[0] != pair[1] else [pair[0]]
        spec = prepare_tournament(
            variant, lineup, games=max(1, args.max_games), seed=args.seed, players=players
        )
        progress(f"{variant}: {' vs '.join(pair)} ({players} players)")
        try:
            run = play_pairing(spec, args.seconds, args.max_games, report.decision_ns)
        except Exception as error:  # a bot still being written may fail: report, go on
            report.unavailable[" vs ".join(pair)] = f"{type(error).__name__}: {error}"
            continue
        report.runs.append(run)
    if args.scale_seconds > 0 and bots:
        lineup = default_lineup(variant)
        # Enough deals for about --scale-seconds on one worker, judged by the pairing run.
        rates = [r.games_per_second for r in report.runs if set(r.lineup) == set(lineup)]
        deals = args.max_deals
        if rates and rates[0] > 0:
            deals = round(rates[0] * args.scale_seconds / players)
        deals = max(1, min(args.max_deals, deals))
        times = {}
        results = {}
        for workers in (1, 2):
            progress(f"{variant}: {' vs '.join(lineup)}, {deals} deals, {workers} worker(s)")
            start = time.perf_counter()
            results[workers] = run_tournament(
                variant,
                lineup,
                games=deals,
                seed=args.seed,
                workers=workers,
                players=players,
                progress=False,
            )
            times[workers] = time.perf_counter() - start
        report.scaling = {
            "lineup": lineup,
            "games": results[1].games_played,
            "times": times,
            "same": results[1] == results[2],
        }
    return report


def print_report(reports: Sequence[VariantReport], unknown: dict[str, str]) -> None:
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(
        f"rummykit bot benchmark: Python {platform.python_version()} on "
        f"{platform.machine()}, {cpus} CPUs available"
    )
    for variant, reason in unknown.items():
        print(f"\n{variant}: not available ({reason})")
    for report in reports:
        print(f"\n== {report.variant} ({report.players} players)")
        if report.runs:
            width = max(len(" vs ".join(run.lineup)) for run in report.runs)
            print(
                f"  {'pairing':<{width}}  {'games':>6}  {'seconds':>8}  {'games/s':>8}  "
                f"{'hands/game':>10}  {'decisions/s':>11}"
            )
            for run in report.runs:
                label = (
                    " vs ".join(run.lineup)
                    if len(run.lineup) > 1
                    else (f"{run.lineup[0]} (self-play)")
                )
                print(
                    f"  {label:<{width}}  {run.games:>6}  {run.seconds:>8.2f}  "
                    f"{run.games_per_second:>8.2f}  {run.hands / max(1, run.games):>10.1f}  "
                    f"{run.decisions / run.seconds if run.seconds else 0:>11.0f}"
                )
        if report.decision_ns:
            print(
                f"  {'bot':<12}  {'decisions':>9}  {'p50 ms':>8}  {'p90 ms':>8}  "
                f"{'p99 ms':>8}  {'mean ms':>8}"
            )
            for name, values in report.decision_ns.items():
                ordered = sorted(values)
                if not ordered:
                    continue
                cells = [percentile(ordered, f) / 1e6 for f in (0.5, 0.9, 0.99)]
                mean = statistics.fmean(ordered) / 1e6
                print(
                    f"  {name:<12}  {len(ordered):>9}  {cells[0]:>8.3f}  {cells[1]:>8.3f}  "
                    f"{cells[2]:>8.3f}  {mean:>8.3f}"
                )
        for name, reason in report.unavailable.items():
            print(f"  {name}: not available ({reason})")
        if report.scaling:
            scaling = report.scaling
            one, two = scaling["times"][1], scaling["times"][2]
            games = scaling["games"]
            print(
                f"  workers ({' vs '.join(scaling['lineup'])}, {games} games, start-up "
                f"included): 1 worker {one:.2f} s ({games / one:.1f} games/s), 2 workers "
                f"{two:.2f} s ({games / two:.1f} games/s), speed-up x{one / two:.2f}; "
                f"same results: {'yes' if scaling['same'] else 'NO'}"
            )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else "")
    parser.add_argument("--variants", help="comma-separated (default: every registered one)")
    parser.add_argument("--seconds", type=float, default=3.0, help="time per pairing")
    parser.add_argument("--max-games", type=int, default=400, help="games per pairing at most")
    parser.add_argument(
        "--scale-seconds",
        type=float,
        default=10.0,
        help="about this long on one worker for the 1-vs-2-workers run (0 skips it)",
    )
    parser.add_argument("--max-deals", type=int, default=500, help="deals for that run at most")
    parser.add_argument(
        "--players", type=int, default=None, help="seats (default: each variant's usual number)"
    )
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--quick", action="store_true", help="short runs")
    args = parser.parse_args(argv)
    if args.quick:
        args.seconds, args.max_games, args.scale_seconds = 0.5, 50, 3.0
    wanted = (
        [v.strip() for v in args.variants.split(",")]
        if args.variants
        else variant_names(presets=False)
    )
    reports = []
    unknown: dict[str, str] = {}
    for variant in wanted:
        try:
            get_variant(variant)
        except ValueError as error:
            unknown[variant] = str(error)
            continue
        reports.append(bench_variant(variant, args))
    print_report(reports, unknown)


if __name__ == "__main__":
    main()
