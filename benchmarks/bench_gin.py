"""Gin rummy speed of rummykit next to OpenSpiel's ``gin_rummy`` and RLCard's ``gin-rummy``.

What it measures, on the same seeded inputs for all three libraries:

1. **Random-vs-random hands per second**: a hand is dealt and played with uniformly
   random legal actions until a knock (or gin) or until the stock is down to two cards
   (the default stock floor of all three). OpenSpiel's chance nodes (the deal) are
   sampled with the same kind of RNG; RLCard is driven through ``env.step``.
2. **Minimum deadwood of a 10-card hand, calls per second**: rummykit's
   ``min_deadwood_mask(mask)`` and ``min_deadwood(cards)`` (which also returns an
   arrangement) against OpenSpiel's ``GinRummyUtils.min_deadwood`` and RLCard's
   ``melding.get_best_meld_clusters`` + ``utils.get_deadwood_count``.
3. **Exact best discard of an 11-card hand, calls per second**: rummykit's
   ``best_discard(cards)`` against, for each peer, the minimum of its 10-card call
   over the 11 possible discards.

Measurements 2 and 3 run on two hand sets: uniformly random hands (most hold no
meld at all) and meld-rich hands (drawn from six consecutive ranks of all four suits).
The solvers' answers are compared card for card: the card-id mapping is checked by
names and by the deadwood of the first ``--check`` hands of each set, then every
result is compared. OpenSpiel's own 11-card ``min_deadwood`` (one best meld group of
all 11 cards, then drop its highest-ranked deadwood card) is compared with the exact
best discard too.

Timings are information, never pass/fail: the script only prints. Progress goes to
standard error, the report to standard output.

The peers live in a throwaway virtualenv, not in the project's dependencies::

    python3 -m venv benchmarks/.peers
    benchmarks/.peers/bin/pip install open_spiel rlcard numpy

Run (from the repository root)::

    .venv/bin/python benchmarks/bench_gin.py            # full run
    .venv/bin/python benchmarks/bench_gin.py --quick    # a quick look

The peer half is ``benchmarks/_peer_gin.py``, run with the peer interpreter and fed
JSON on standard input. Without the peer virtualenv only rummykit's figures print.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from rummykit.cards import Card
from rummykit.games.gin import best_discard, min_deadwood, min_deadwood_mask

HERE = Path(__file__).resolve().parent
PEER_SCRIPT = HERE / "_peer_gin.py"
DEFAULT_PEER_PYTHON = HERE / ".peers" / "bin" / "python"
PEER_INSTALL = (
    "python3 -m venv benchmarks/.peers && benchmarks/.peers/bin/pip install open_spiel rlcard numpy"
)
PEERS = (("openspiel", "OpenSpiel"), ("rlcard", "RLCard"))
WARMUP = 50
T = TypeVar("T")
EXAMPLES = 3


def progress(message: str) -> None:
    print(f"[bench] {message}", file=sys.stderr, flush=True)


# --------------------------------------------------------------------------- inputs


@dataclass(frozen=True)
class HandSet:
    """Seeded 10- and 11-card hands (card ids) for the solver measurements."""

    name: str
    description: str
    hands10: list[list[int]]
    hands11: list[list[int]]


def random_hands(rng: random.Random, count: int, size: int) -> list[list[int]]:
    return [rng.sample(range(52), size) for _ in range(count)]


def meld_rich_hands(rng: random.Random, count: int, size: int) -> list[list[int]]:
    """Hands drawn from six consecutive ranks of all four suits (24 cards)."""
    hands = []
    for _ in range(count):
        low = rng.randrange(13 - 6 + 1)
        deck = [suit * 13 + rank for suit in range(4) for rank in range(low, low + 6)]
        hands.append(rng.sample(deck, size))
    return hands


def make_inputs(seed: int, hands: int, calls: int) -> tuple[list[int], list[HandSet]]:
    rng = random.Random(seed)
    play_seeds = [rng.randrange(2**31) for _ in range(hands)]
    sets = [
        HandSet(
            "random",
            "uniformly random hands",
            random_hands(rng, calls, 10),
            random_hands(rng, calls, 11),
        ),
        HandSet(
            "meld-rich",
            "six consecutive ranks x four suits",
            meld_rich_hands(rng, calls, 10),
            meld_rich_hands(rng, calls, 11),
        ),
    ]
    return play_seeds, sets


# --------------------------------------------------------------------------- timing


@dataclass
class Timed:
    """How many calls (or hands) took how long, and what they answered."""

    count: int
    seconds: float
    values: list[int] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return self.count / self.seconds if self.seconds > 0 else float("inf")


def timed(function: Callable[[T], int], inputs: Sequence[T]) -> Timed:
    """Call ``function`` once per input after a short warm-up."""
    for item in inputs[:WARMUP]:
        function(item)
    start = time.perf_counter()
    values = [function(item) for item in inputs]
    return Timed(len(inputs), time.perf_counter() - start, values)


@dataclass
class PlayStats:
    hands: int
    seconds: float
    actions: int
    went_out: int | None
    """Hands ended by a knock or gin; ``None`` where the engine does not say."""

    @property
    def rate(self) -> float:
        return self.hands / self.seconds if self.seconds > 0 else float("inf")


# --------------------------------------------------------------------------- rummykit


def went_out(state: object) -> bool | None:
    """Whether a finished hand ended by a knock or gin (not drawn), if the state says."""
    result = getattr(state, "result", None)
    is_draw = getattr(result, "is_draw", None)
    return None if is_draw is None else not is_draw


def rummykit_play(seeds: Sequence[int]) -> PlayStats | str:
    """Random-vs-random hands with rummykit, or why they could not be played."""
    try:
        from rummykit.games.gin import GinRules, new_hand
    except ImportError as error:
        return f"rummykit.games.gin.hand is not available yet ({error})"
    rules = GinRules()

    def play(seed: int) -> tuple[int, bool | None]:
        rng = random.Random(seed)
        state = new_hand(rules, seed=seed)
        actions = 0
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
            actions += 1
        return actions, went_out(state)

    if seeds:
        play(seeds[0])  # warm-up
    total_actions = 0
    outs: int | None = 0
    start = time.perf_counter()
    for seed in seeds:
        taken, out = play(seed)
        total_actions += taken
        if out is None or outs is None:
            outs = None
        else:
            outs += out
    return PlayStats(len(seeds), time.perf_counter() - start, total_actions, outs)


@dataclass
class RummykitSolvers:
    mask: Timed
    arrangement: Timed
    discard: Timed


def rummykit_solvers(hand_set: HandSet) -> RummykitSolvers:
    masks = [sum(1 << card for card in hand) for hand in hand_set.hands10]
    progress(f"rummykit: min_deadwood_mask, {len(masks)} {hand_set.name} hands")
    mask = timed(min_deadwood_mask, masks)
    progress(f"rummykit: min_deadwood (arrangement), {len(masks)} {hand_set.name} hands")
    arrangement = timed(lambda hand: min_deadwood(hand).deadwood, hand_set.hands10)
    progress(f"rummykit: best_discard, {len(hand_set.hands11)} {hand_set.name} hands")
    discard = timed(lambda hand: best_discard(hand).deadwood, hand_set.hands11)
    return RummykitSolvers(mask, arrangement, discard)


# --------------------------------------------------------------------------- peers


def run_peers(
    peer_python: Path, play_seeds: Sequence[int], sets: Sequence[HandSet]
) -> tuple[dict[str, Any] | None, list[str]]:
    """The peer report (see ``_peer_gin.py``) or ``None``, and notes to print about it."""
    if not peer_python.exists():
        return None, [
            f"Peer virtualenv not found ({peer_python}): rummykit's figures only.\n"
            f"Create it from the repository root with:\n    {PEER_INSTALL}",
        ]
    job = {
        "play_seeds": list(play_seeds),
        "sets": {s.name: {"hands10": s.hands10, "hands11": s.hands11} for s in sets},
    }
    progress(f"peers: running {PEER_SCRIPT.name} with {peer_python}")
    completed = subprocess.run(
        [str(peer_python), str(PEER_SCRIPT)],
        input=json.dumps(job),
        stdout=subprocess.PIPE,
        text=True,
        check=False,
    )
    if completed.returncode != 0:
        return None, [
            f"The peer script failed (exit {completed.returncode}, its error is above): "
            "rummykit's figures only.\n"
            f"If the peer virtualenv is broken, recreate it with:\n    {PEER_INSTALL}",
        ]
    report: dict[str, Any] = json.loads(completed.stdout)
    notes = [
        f"{name} could not be measured:\n{error}"
        for name, error in report.get("errors", {}).items()
    ]
    return report, notes


def peer_timed(entry: dict[str, Any]) -> Timed:
    return Timed(int(entry["count"]), float(entry["seconds"]), list(entry["values"]))


# --------------------------------------------------------------------------- report


def machine_lines(report: dict[str, Any] | None) -> list[str]:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    lines = [
        f"python    {platform.python_implementation()} {platform.python_version()} "
        f"({sys.executable})",
        f"machine   {platform.platform()}; {cpu}; cpu_count={os.cpu_count()}"
        + (f", usable={usable}" if usable is not None else ""),
    ]
    if report is not None:
        found = ", ".join(f"{k} {v}" for k, v in report["versions"].items())
        lines.append(f"peers     Python {report['python']}; {found}")
    return lines


def fmt_rate(rate: float | None) -> str:
    return "-" if rate is None else f"{rate:,.0f}"


def fmt_ratio(ours: float | None, theirs: float | None) -> str:
    if ours is None or theirs is None or theirs <= 0:
        return "-"
    return f"{ours / theirs:.2f}x"


def print_table(rows: Sequence[tuple[str, float | None, float | None, float | None]]) -> None:
    header = ("measurement (per second)", "rummykit", "OpenSpiel", "RLCard", "rk/OS", "rk/RLC")
    body = [
        (
            label,
            fmt_rate(ours),
            fmt_rate(os_),
            fmt_rate(rl),
            fmt_ratio(ours, os_),
            fmt_ratio(ours, rl),
        )
        for label, ours, os_, rl in rows
    ]
    widths = [max(len(row[i]) for row in (header, *body)) for i in range(len(header))]
    rule = "  ".join("-" * width for width in widths)
    print(
        "  ".join(
            h.ljust(w) if i == 0 else h.rjust(w)
            for i, (h, w) in enumerate(zip(header, widths, strict=True))
        )
    )
    print(rule)
    for row in body:
        print(
            "  ".join(
                c.ljust(w) if i == 0 else c.rjust(w)
                for i, (c, w) in enumerate(zip(row, widths, strict=True))
            )
        )


def show(hand: Sequence[int]) -> str:
    return " ".join(str(Card(card)) for card in sorted(hand))


def compare(
    label: str,
    hands: Sequence[Sequence[int]],
    ours: Sequence[int],
    theirs: Sequence[int],
    limit: int | None = None,
) -> int:
    """Print how many answers differ (over the first ``limit`` hands) and a few examples."""
    pairs = list(zip(hands, ours, theirs, strict=True))[:limit]
    wrong = [(hand, a, b) for hand, a, b in pairs if a != b]
    print(f"  {label}: {len(wrong)} of {len(pairs)} disagree")
    for hand, a, b in wrong[:EXAMPLES]:
        print(f"      {show(hand)}: rummykit {a}, peer {b}")
    return len(wrong)


def check_names(report: dict[str, Any]) -> None:
    ours = [str(Card(card)) for card in range(52)]
    for key, title in PEERS:
        peer = report["peers"].get(key)
        if peer is None:
            continue
        names = [name.upper() for name in peer["card_names"]]
        bad = [f"{a}->{b}" for a, b in zip(ours, names, strict=True) if a != b]
        shown = f" ({' '.join(bad[:5])})" if bad else ""
        print(f"  card names, ids 0..51, {title}: {len(bad)} mismatches{shown}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--hands", type=int, help="random-vs-random hands (default 500)")
    parser.add_argument("--calls", type=int, help="hands per solver set (default 10000)")
    parser.add_argument("--seed", type=int, default=20240601, help="seed of every input")
    parser.add_argument("--check", type=int, default=200, help="hands in the mapping check")
    parser.add_argument("--quick", action="store_true", help="small defaults: 50 hands, 1000 calls")
    parser.add_argument(
        "--peers-python",
        type=Path,
        default=DEFAULT_PEER_PYTHON,
        help="interpreter of the peer virtualenv (default benchmarks/.peers/bin/python)",
    )
    args = parser.parse_args(argv)
    hands = args.hands if args.hands is not None else (50 if args.quick else 500)
    calls = args.calls if args.calls is not None else (1000 if args.quick else 10000)

    play_seeds, sets = make_inputs(args.seed, hands, calls)
    progress(f"seed {args.seed}: {hands} hands to play, {calls} hands per solver set")

    progress(f"rummykit: {hands} random-vs-random hands")
    play = rummykit_play(play_seeds)
    if isinstance(play, str):
        progress(f"rummykit: play skipped: {play}")
    solvers = {hand_set.name: rummykit_solvers(hand_set) for hand_set in sets}

    report, notes = run_peers(args.peers_python, play_seeds, sets)
    peers: dict[str, dict[str, Any]] = report["peers"] if report else {}

    print("\nGin rummy benchmark: rummykit vs OpenSpiel gin_rummy vs RLCard gin-rummy")
    print(f"seed {args.seed}; {hands} hands played; {calls} hands per solver set")
    for line in machine_lines(report):
        print(line)
    for note in notes:
        print(f"\n{note}")

    def peer_rate(key: str, getter: Callable[[dict[str, Any]], float]) -> float | None:
        return getter(peers[key]) if key in peers else None

    def play_rate(peer: dict[str, Any]) -> float:
        entry = peer["play"]
        return float(entry["count"]) / float(entry["seconds"])

    rows: list[tuple[str, float | None, float | None, float | None]] = [
        (
            "random-vs-random hands",
            None if isinstance(play, str) else play.rate,
            peer_rate("openspiel", play_rate),
            peer_rate("rlcard", play_rate),
        )
    ]
    for hand_set in sets:
        mine = solvers[hand_set.name]

        def rate_of(measure: str, name: str = hand_set.name) -> Callable[[dict[str, Any]], float]:
            return lambda peer: peer_timed(peer["sets"][name][measure]).rate

        deadwood10 = rate_of("deadwood10")
        discard = rate_of("best_discard")
        rows += [
            (
                f"{hand_set.name}: 10-card deadwood, mask",
                mine.mask.rate,
                peer_rate("openspiel", deadwood10),
                peer_rate("rlcard", deadwood10),
            ),
            (
                f"{hand_set.name}: 10-card deadwood, arrangement",
                mine.arrangement.rate,
                peer_rate("openspiel", deadwood10),
                peer_rate("rlcard", deadwood10),
            ),
            (
                f"{hand_set.name}: best discard of 11",
                mine.discard.rate,
                peer_rate("openspiel", discard),
                peer_rate("rlcard", discard),
            ),
        ]
    print()
    print_table(rows)
    print(
        "\nrk/X > 1 means rummykit is faster. 'mask' is rummykit's min_deadwood_mask(mask),"
        "\n'arrangement' its min_deadwood(cards), which also returns the melds; each peer has"
        "\none 10-card call, shown on both rows. A peer's best discard is 11 such calls."
    )

    print("\nRandom-vs-random play (rules differ per engine, so do the hands):")
    stats: list[tuple[str, PlayStats | str | None]] = [("rummykit", play)]
    for key, title in PEERS:
        entry = peers.get(key, {}).get("play")
        stats.append(
            (
                title,
                None
                if entry is None
                else PlayStats(
                    int(entry["count"]),
                    float(entry["seconds"]),
                    int(entry["actions"]),
                    int(entry["went_out"]),
                ),
            )
        )
    for title, stat in stats:
        if stat is None:
            print(f"  {title}: not measured")
        elif isinstance(stat, str):
            print(f"  {title}: skipped: {stat}")
        else:
            out = (
                "?" if stat.went_out is None else f"{100 * stat.went_out / max(stat.hands, 1):.1f}%"
            )
            print(
                f"  {title}: {stat.hands} hands in {stat.seconds:.2f}s, "
                f"{stat.actions / max(stat.hands, 1):.1f} decisions a hand, "
                f"ended by a knock or gin: {out}"
            )

    if not peers:
        return 0
    print("\nChecks (rummykit against each peer; examples show rummykit's and the peer's value):")
    check_names(report or {})
    disagreements = 0
    internal = 0
    for hand_set in sets:
        mine = solvers[hand_set.name]
        for key, title in PEERS:
            if key not in peers:
                continue
            theirs = peers[key]["sets"][hand_set.name]
            compare(
                f"mapping, first {args.check} {hand_set.name} hands, 10-card deadwood, {title}",
                hand_set.hands10,
                mine.mask.values,
                theirs["deadwood10"]["values"],
                args.check,
            )
            disagreements += compare(
                f"all {hand_set.name} hands, 10-card deadwood, {title}",
                hand_set.hands10,
                mine.mask.values,
                theirs["deadwood10"]["values"],
            )
            disagreements += compare(
                f"all {hand_set.name} hands, best discard of 11, {title}",
                hand_set.hands11,
                mine.discard.values,
                theirs["best_discard"]["values"],
            )
        internal += compare(
            f"all {hand_set.name} hands, mask vs arrangement, rummykit itself",
            hand_set.hands10,
            mine.mask.values,
            mine.arrangement.values,
        )
        if "openspiel" in peers:
            compare(
                f"{hand_set.name}: OpenSpiel's own 11-card min_deadwood vs exact best discard",
                hand_set.hands11,
                mine.discard.values,
                peers["openspiel"]["sets"][hand_set.name]["native11"],
            )
    print(
        f"\nSolver disagreements: {disagreements} with the peers' exact answers, "
        f"{internal} between rummykit's own two deadwood calls"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
