"""Rami speed: self-play rounds per second, best-opening calls per second, and a profile.

What it measures (seeded, so two runs play the same cards):

1. **Random 4-player rounds per second**: four :class:`RamiRandomBot` (uniform among the
   legal actions and the solvers' macro-actions: the best opening, new combinations,
   every lay-off and joker swap) play a round of Rami 51 to its end, through the engine
   contract (``legal_actions``, ``observation``, ``apply``).
2. **Heuristic 4-player rounds per second**: four :class:`RamiHeuristicBot`; and a mixed
   table (one heuristic, three random), the shape of the win-rate test.
3. **Best opening of a 14-card hand, calls per second**: ``best_opening`` (exact: least
   penalty left among openings reaching 51) and ``can_open`` (stops at the first one),
   on hands dealt from the 108-card pack.
4. **Where the time goes**: per action, the time spent in ``observation``,
   ``legal_actions``, ``apply`` and the bots' ``act``; and a ``cProfile`` summary of
   random and heuristic rounds.

Each figure is given in wall-clock time and in CPU time of this process
(``time.process_time``): on a shared machine the CPU figure is the steadier one.
Timings are information, never pass/fail: the script only prints.

What bounds the random rounds: random bots rarely go out, so a round lasts about 83
turns and 260 actions (draw, end of play, discard, and the odd opening or lay-off).
Measured on the shared 2-core machine (load about 7), the engine contract costs about
6 us of CPU per action: ``observation`` about 3 (a frozen dataclass of 22 fields,
built through a mutable twin with the same slots), ``apply`` about 2.3 (openings and
lay-offs build combinations and describe them in their events), ``legal_actions``
under 1; the random bot about 4.3 more: half of its play phases ask the opening
solver (most hands are answered by the quick bit-parallel cut before any candidate is
built; the few openings found cost a real search), the other half list lay-offs and
new combinations. What is left is the Python cost of a few dozen small calls per
action. Heuristic rounds are short (about 21 turns), so they run faster despite the
heavier bot.

Run (from the repository root)::

    .venv/bin/python benchmarks/bench_rami.py            # full run
    .venv/bin/python benchmarks/bench_rami.py --quick    # a quick look
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import platform
import pstats
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from rummykit.cards import DeckSpec, shuffled_deck
from rummykit.games.rami import RamiRules, best_opening, can_open, new_round
from rummykit.games.rami.heuristic_bot import RamiHeuristicBot, RamiRandomBot


def progress(message: str) -> None:
    print(f"[bench] {message}", file=sys.stderr, flush=True)


def play_round(bots: Sequence[Any], rules: RamiRules, seed: int) -> tuple[int, int]:
    """One round through the engine contract; (turns, actions)."""
    rnd = new_round(rules, len(bots), seed=seed, dealer=seed % len(bots))
    actions = 0
    while not rnd.is_over:
        seat = rnd.current_player
        rnd.apply(bots[seat].act(rnd.observation(seat), rnd.legal_actions()))
        actions += 1
    return rnd.turn, actions


def timed(run: Callable[[], object]) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one call."""
    wall, cpu = time.perf_counter(), time.process_time()
    run()
    return time.perf_counter() - wall, time.process_time() - cpu


def bench_rounds(name: str, make_bots: Callable[[int], Sequence[Any]], rounds: int) -> None:
    rules = RamiRules()
    stats = {"turns": 0, "actions": 0}

    def run() -> None:
        for seed in range(rounds):
            turns, actions = play_round(make_bots(seed), rules, seed)
            stats["turns"] += turns
            stats["actions"] += actions

    play_round(make_bots(10**6), rules, 10**6)  # warm the solver tables
    wall, cpu = timed(run)
    print(
        f"{name:<34} {rounds / wall:8.1f} rounds/s wall  {rounds / cpu:8.1f} rounds/s CPU"
        f"   ({stats['turns'] / rounds:.0f} turns, {stats['actions'] / rounds:.0f} actions"
        f" per round; {stats['actions'] / cpu:,.0f} actions/s CPU)"
    )


def bench_openings(hands: int) -> None:
    rng = random.Random(2024)
    spec = DeckSpec(decks=2, jokers=4)
    dealt = [shuffled_deck(spec, rng)[:14] for _ in range(hands)]
    rules = RamiRules()
    for hand in dealt[:200]:
        best_opening(hand, rules)  # warm the run templates
    for name, solver in (("best_opening", best_opening), ("can_open", can_open)):
        found = 0

        def run(solver: Callable[..., object] = solver) -> None:
            nonlocal found
            found = sum(1 for hand in dealt if solver(hand, rules))

        wall, cpu = timed(run)
        print(
            f"{name + ' (14 cards)':<34} {hands / wall:8.0f} calls/s wall  "
            f"{hands / cpu:8.0f} calls/s CPU   ({found / hands:.0%} of hands can open 51)"
        )
    gc.disable()
    times = []
    for hand in dealt:
        start = time.process_time()
        best_opening(hand, rules)
        times.append(time.process_time() - start)
    gc.enable()
    times.sort()
    print(
        f"{'  per call (CPU)':<34} median {statistics.median(times) * 1e6:.0f} us, "
        f"90th {times[int(0.9 * len(times))] * 1e6:.0f} us, "
        f"99th {times[int(0.99 * len(times))] * 1e6:.0f} us, max {times[-1] * 1e6:.0f} us"
    )


def split(name: str, make_bots: Callable[[int], Sequence[Any]], rounds: int) -> None:
    """Per action, the CPU time of each call of the engine contract and of the bots.

    Measured with this thread's CPU clock (a wall clock on a shared machine counts the
    time other processes ran); the cost of reading the clock, measured on an empty
    interval, is taken off each part.
    """
    rules = RamiRules()
    clock = time.thread_time
    empty = [0.0] * 2000
    for index in range(len(empty)):
        start = clock()
        empty[index] = clock() - start
    reading = statistics.median(empty)
    spent = {"observation": 0.0, "legal_actions": 0.0, "apply": 0.0, "bots' act": 0.0}
    actions = 0
    for seed in range(rounds):
        bots = make_bots(seed)
        rnd = new_round(rules, len(bots), seed=seed, dealer=seed % len(bots))
        while not rnd.is_over:
            seat = rnd.current_player
            start = clock()
            view = rnd.observation(seat)
            listed = clock()
            legal = rnd.legal_actions()
            asked = clock()
            action = bots[seat].act(view, legal)
            acted = clock()
            rnd.apply(action)
            spent["apply"] += clock() - acted
            spent["bots' act"] += acted - asked
            spent["legal_actions"] += asked - listed
            spent["observation"] += listed - start
            actions += 1
    parts = ", ".join(
        f"{part} {max(seconds / actions - reading, 0.0) * 1e6:.1f}"
        for part, seconds in spent.items()
    )
    print(f"{name + ', CPU us per action':<34} {parts}")


def profile(name: str, make_bots: Callable[[int], Sequence[Any]], rounds: int, top: int) -> None:
    rules = RamiRules()
    profiler = cProfile.Profile()
    profiler.enable()
    for seed in range(rounds):
        play_round(make_bots(seed), rules, seed)
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.sort_stats("tottime").print_stats(top)
    lines = [
        line
        for line in out.getvalue().splitlines()
        if line.strip() and not line.startswith(("   Ordered", "   List reduced"))
    ]
    print(f"\n--- cProfile, {rounds} {name} rounds (by own time; the profiler slows it ~2x) ---")
    print("\n".join(lines[1:]))


def random_bots(seed: int) -> list[RamiRandomBot]:
    return [RamiRandomBot(seed * 4 + seat) for seat in range(4)]


def heuristic_bots(seed: int) -> list[RamiHeuristicBot]:
    return [RamiHeuristicBot() for _ in range(4)]


def mixed_bots(seed: int) -> list[RamiHeuristicBot | RamiRandomBot]:
    bots: list[RamiHeuristicBot | RamiRandomBot] = [
        RamiRandomBot(seed * 4 + seat) for seat in range(4)
    ]
    bots[seed % 4] = RamiHeuristicBot()
    return bots


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds and hands")
    parser.add_argument("--rounds", type=int, default=None, help="rounds per table")
    parser.add_argument("--hands", type=int, default=None, help="hands for the solver")
    parser.add_argument("--top", type=int, default=18, help="profile lines to show")
    args = parser.parse_args()
    rounds = args.rounds or (40 if args.quick else 300)
    hands = args.hands or (1000 if args.quick else 10_000)
    print(
        f"rummykit Rami benchmark - Python {platform.python_version()} on "
        f"{platform.machine()} ({platform.system()}), {rounds} rounds per table"
    )
    progress("self-play rounds")
    bench_rounds("random x4", random_bots, rounds)
    bench_rounds("heuristic x4", heuristic_bots, rounds)
    bench_rounds("heuristic + random x3", mixed_bots, rounds)
    progress("best opening")
    bench_openings(hands)
    progress("profiles")
    split("random x4", random_bots, max(rounds // 3, 10))
    split("heuristic x4", heuristic_bots, max(rounds // 3, 10))
    profile("random x4", random_bots, max(rounds // 10, 10), args.top)
    profile("heuristic x4", heuristic_bots, max(rounds // 10, 10), args.top)


if __name__ == "__main__":
    main()
