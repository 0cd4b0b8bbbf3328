"""Environment steps per second: rummykit's gin environments next to OpenSpiel and RLCard.

Every row plays uniformly random *legal* actions, one hand per episode, and counts
decisions (steps) per second:

* ``engine``: rummykit's ``GinHand`` alone (``legal_actions()`` + ``apply``), no ids,
  no observation: the bound every wrapper sits on.
* ``table``: :class:`rummykit.rl.gin_table.GinTable`, the 241-id decision process,
  without observations.
* ``pettingzoo gin_v0``: the AEC loop users write (``agent_iter``, ``last()`` with the
  observation array and the action mask, a random id from the mask, ``step``).
* ``gymnasium GinEnv (random bot)``: the agent's steps only, the bot's moves included
  in their time.
* peers, in a subprocess of ``benchmarks/.peers`` (see ``_peer_env.py``): OpenSpiel's
  ``gin_rummy`` with ``observation_tensor`` at every step (and without), and RLCard's
  ``gin-rummy`` through ``env.step``.

Rates use CPU time of the measuring process (``time.process_time``), one core, so a
busy machine skews them less; wall-clock rates are printed beside them. Timings are
information, never pass/fail.

Run from the repository root::

    .venv/bin/python benchmarks/bench_env.py            # 100,000 steps per row
    .venv/bin/python benchmarks/bench_env.py --quick    # 10,000
    .venv/bin/python benchmarks/bench_env.py --profile  # cProfile of the PettingZoo loop
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import random
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
PEER_SCRIPT = HERE / "_peer_env.py"
DEFAULT_PEER_PYTHON = HERE / ".peers" / "bin" / "python"
PEER_INSTALL = (
    "python3 -m venv benchmarks/.peers && benchmarks/.peers/bin/pip install open_spiel rlcard numpy"
)
Play = Callable[[int, random.Random], tuple[int, int]]


def progress(message: str) -> None:
    print(f"[bench] {message}", file=sys.stderr, flush=True)


def timed(play: Play, steps: int, seed: int) -> dict[str, float]:
    rng = random.Random(seed)
    play(min(steps // 10, 2000), rng)  # warm-up (caches, tables)
    wall, cpu = time.perf_counter(), time.process_time()
    done, episodes = play(steps, rng)
    return {
        "steps": done,
        "episodes": episodes,
        "wall": time.perf_counter() - wall,
        "cpu": time.process_time() - cpu,
    }


def engine_play(steps: int, rng: random.Random) -> tuple[int, int]:
    from rummykit.variants.gin import GinRules, new_hand

    rules = GinRules()
    done = episodes = 0
    while done < steps:
        hand = new_hand(rules, rng.getrandbits(63), dealer=episodes % 2)
        episodes += 1
        while not hand.is_over:
            legal = hand.legal_actions()
            hand.apply(legal[rng.randrange(len(legal))])
            done += 1
    return done, episodes


def table_play(steps: int, rng: random.Random) -> tuple[int, int]:
    from rummykit.rl.gin_table import GinTable

    table = GinTable()
    done = episodes = 0
    while done < steps:
        table.reset(rng.getrandbits(63))
        episodes += 1
        while not table.is_over:
            legal = table.legal_ids()
            table.step(legal[rng.randrange(len(legal))])
            done += 1
    return done, episodes


def pettingzoo_play(steps: int, rng: random.Random) -> tuple[int, int]:
    import numpy as np

    from rummykit.rl.pettingzoo import gin_v0

    env = gin_v0.env()
    done = episodes = 0
    flatnonzero = np.flatnonzero
    while done < steps:
        env.reset(seed=rng.getrandbits(63))
        episodes += 1
        for _agent in env.agent_iter():
            observation, _reward, termination, truncation, _info = env.last()
            if termination or truncation:
                env.step(None)
                continue
            legal = flatnonzero(observation["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
            done += 1
    return done, episodes


def gymnasium_play(steps: int, rng: random.Random) -> tuple[int, int]:
    import numpy as np

    from rummykit.rl.gymnasium import GinEnv

    env = GinEnv(opponent="random")
    done = episodes = 0
    while done < steps:
        env.reset(seed=rng.getrandbits(62))
        episodes += 1
        terminated = False
        while not terminated:
            legal = np.flatnonzero(env.action_masks())
            _, _, terminated, _, _ = env.step(int(legal[rng.randrange(len(legal))]))
            done += 1
    return done, episodes


def run_peers(peer_python: Path, steps: int, seed: int) -> tuple[dict[str, Any] | None, str]:
    if not peer_python.exists():
        return (
            None,
            f"peer virtualenv not found ({peer_python}); create it with:\n    {PEER_INSTALL}",
        )
    progress(f"peers: {PEER_SCRIPT.name} with {peer_python}")
    completed = subprocess.run(
        [str(peer_python), str(PEER_SCRIPT)],
        input=json.dumps({"steps": steps, "seed": seed}),
        stdout=subprocess.PIPE,
        text=True,
        check=False,
    )
    if completed.returncode != 0:
        return None, f"the peer script failed (exit {completed.returncode})"
    report: dict[str, Any] = json.loads(completed.stdout)
    notes = "\n".join(f"{name} failed:\n{error}" for name, error in report["errors"].items())
    return report, notes


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--steps", type=int, help="steps per row (default 100000)")
    parser.add_argument("--quick", action="store_true", help="10,000 steps per row")
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument("--profile", action="store_true", help="profile the PettingZoo loop")
    parser.add_argument("--no-peers", action="store_true", help="rummykit's rows only")
    parser.add_argument("--peers-python", type=Path, default=DEFAULT_PEER_PYTHON)
    args = parser.parse_args(argv)
    steps = args.steps or (10_000 if args.quick else 100_000)

    if args.profile:
        profiler = cProfile.Profile()
        profiler.runcall(pettingzoo_play, steps, random.Random(args.seed))
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
        return 0

    rows: list[tuple[str, dict[str, float]]] = []
    for label, play in (
        ("rummykit engine (GinHand)", engine_play),
        ("rummykit table (241 ids, no observation)", table_play),
        ("rummykit pettingzoo gin_v0", pettingzoo_play),
        ("rummykit gymnasium GinEnv vs random bot", gymnasium_play),
    ):
        progress(f"{label}: {steps} steps")
        rows.append((label, timed(play, steps, args.seed)))
    notes = ""
    if not args.no_peers:
        report, notes = run_peers(args.peers_python, steps, args.seed)
        titles = {
            "openspiel": "OpenSpiel gin_rummy + observation_tensor",
            "openspiel_no_obs": "OpenSpiel gin_rummy, no observation",
            "rlcard": "RLCard gin-rummy env.step",
        }
        for key, title in titles.items():
            if report is not None and key in report["peers"]:
                rows.append((title, report["peers"][key]))

    print(f"\nGin environment steps per second ({steps:,} steps per row, random legal actions)")
    header = f"{'environment':<44} {'steps/s (cpu)':>14} {'steps/s (wall)':>15} {'steps/hand':>11}"
    print(header)
    print("-" * len(header))
    rates = {}
    for label, stats in rows:
        cpu_rate = stats["steps"] / stats["cpu"] if stats["cpu"] > 0 else float("inf")
        wall_rate = stats["steps"] / stats["wall"] if stats["wall"] > 0 else float("inf")
        rates[label] = cpu_rate
        print(
            f"{label:<44} {cpu_rate:>14,.0f} {wall_rate:>15,.0f} "
            f"{stats['steps'] / max(stats['episodes'], 1):>11.1f}"
        )
    ours = rates.get("rummykit pettingzoo gin_v0")
    rlcard = rates.get("RLCard gin-rummy env.step")
    if ours and rlcard:
        print(f"\npettingzoo gin_v0 / RLCard: {ours / rlcard:.1f}x (target >= 3x)")
    if ours:
        print(f"pettingzoo gin_v0: {ours:,.0f} steps/s (target >= 20,000 on one core)")
    if notes:
        print(f"\n{notes}")
    print(
        "\nHands differ between engines (rules and random choices), hence steps/hand."
        "\nCPU rates count only this process's time; on an idle machine wall = cpu."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
