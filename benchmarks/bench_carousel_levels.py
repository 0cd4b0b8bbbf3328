"""Carousel levels against the heuristic bot: paired hands and decision times.

For each level named, every deal ``seed .. seed + hands - 1`` (3 players) is played once
per seat with the level in that seat and :class:`CarouselHeuristicBot` in the other two,
and again with the heuristic bot in that seat. The report gives, per level:

* the **paired score difference**: the level's points in a hand minus the heuristic
  bot's points from the same seat of the same deal, mean and standard error;
* the level's **hand win share** (a shared win counts 1/k; a third is par);
* **decision times**: p50, p90, p99 and max of every ``act`` call, and the same for
  the calls that decide a meld (melding open, nothing laid yet this turn).

Timings are information only. Run from the repository root::

    PYTHONPATH=src .venv/bin/python benchmarks/bench_carousel_levels.py --hands 100
    PYTHONPATH=src .venv/bin/python benchmarks/bench_carousel_levels.py expert --hands 30
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Sequence

from rummykit.games.carousel import CarouselRules, new_hand
from rummykit.games.carousel.expert_bot import LEVELS, CarouselExpertBot
from rummykit.games.carousel.simple_bots import CarouselHeuristicBot

RULES = CarouselRules()


def play(
    seed: int, seat: int, level: str | None, times: list[float], meld_times: list[float]
) -> tuple[int, float]:
    """Points and win share of ``seat`` (the level, or the heuristic bot when ``None``)."""
    hand = new_hand(RULES, players=3, seed=seed, dealer=seed % 3)
    bots: list[CarouselExpertBot | CarouselHeuristicBot] = [
        CarouselHeuristicBot(RULES, decks=2) for _ in range(3)
    ]
    if level is not None:
        bots[seat] = CarouselExpertBot(level, rules=RULES, seed=seed * 3 + seat)
    while not hand.is_over:
        acting = hand.current_player
        observation = hand.observation(acting)
        legal = hand.legal_actions()
        if acting == seat and level is not None:
            started = time.perf_counter()
            action = bots[acting].act(observation, legal)
            elapsed = time.perf_counter() - started
            times.append(elapsed)
            if hand.may_meld() and not hand.melded:
                meld_times.append(elapsed)
        else:
            action = bots[acting].act(observation, legal)
        hand.apply(action)
    result = hand.result
    assert result is not None
    share = (seat in result.winners) / len(result.winners)
    return result.points[seat], share


def percentiles(values: Sequence[float]) -> str:
    if not values:
        return "-"
    ordered = sorted(values)

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000

    return (
        f"p50 {at(0.5):.1f} ms, p90 {at(0.9):.1f}, p99 {at(0.99):.1f}, "
        f"max {ordered[-1] * 1000:.0f} ({len(ordered)} calls)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("levels", nargs="*", default=list(LEVELS))
    parser.add_argument("--hands", type=int, default=50, help="deals (each played 3 times)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    base: dict[tuple[int, int], tuple[int, float]] = {}
    for level in args.levels:
        diffs: list[float] = []
        shares: list[float] = []
        times: list[float] = []
        meld_times: list[float] = []
        for seed in range(args.seed, args.seed + args.hands):
            for seat in range(3):
                if (seed, seat) not in base:
                    base[seed, seat] = play(seed, seat, None, [], [])
                points, share = play(seed, seat, level, times, meld_times)
                diffs.append(points - base[seed, seat][0])
                shares.append(share)
        error = statistics.stdev(diffs) / len(diffs) ** 0.5 if len(diffs) > 1 else 0.0
        print(
            f"{level:>7}: {statistics.mean(diffs):+.2f} +/- {error:.2f} points a hand vs "
            f"heuristic (paired, {len(diffs)} hands), hand win share "
            f"{statistics.mean(shares):.3f}"
        )
        print(f"         all decisions: {percentiles(times)}")
        print(f"         meld decisions: {percentiles(meld_times)}", flush=True)


if __name__ == "__main__":
    main()
