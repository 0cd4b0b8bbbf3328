"""Peer half of ``benchmarks/bench_env.py``: environment steps of OpenSpiel and RLCard.

Run by the *peer* interpreter (``benchmarks/.peers/bin/python``), never by the
project's virtualenv; imports nothing from rummykit. Job on standard input::

    {"steps": int, "seed": int}

Report on standard output::

    {"python": str, "versions": {...}, "peers": {NAME: {"steps", "wall", "cpu", "episodes"}},
     "errors": {NAME: traceback}}

Every peer plays uniformly random legal actions, one hand per episode, and produces
its observation at every step (OpenSpiel: ``observation_tensor``; RLCard: the state
``env.step`` returns). ``openspiel_no_obs`` is OpenSpiel without the tensor.
"""

from __future__ import annotations

import contextlib
import json
import platform
import random
import sys
import time
import traceback
from collections.abc import Callable
from importlib import metadata
from typing import Any


def progress(message: str) -> None:
    print(f"  [peers] {message}", file=sys.stderr, flush=True)


def timed(
    play: Callable[[int, random.Random], tuple[int, int]], steps: int, seed: int
) -> dict[str, Any]:
    rng = random.Random(seed)
    play(min(steps // 10, 2000), rng)  # warm-up
    wall, cpu = time.perf_counter(), time.process_time()
    done, episodes = play(steps, rng)
    return {
        "steps": done,
        "episodes": episodes,
        "wall": time.perf_counter() - wall,
        "cpu": time.process_time() - cpu,
    }


def openspiel(with_observation: bool) -> Callable[[int, random.Random], tuple[int, int]]:
    import pyspiel

    game = pyspiel.load_game("gin_rummy")

    def play(steps: int, rng: random.Random) -> tuple[int, int]:
        done = episodes = 0
        while done < steps:
            state = game.new_initial_state()
            episodes += 1
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(rng.choice(state.chance_outcomes())[0])
                    continue
                player = state.current_player()
                if with_observation:
                    state.observation_tensor(player)
                state.apply_action(rng.choice(state.legal_actions()))
                done += 1
        return done, episodes

    return play


def rlcard() -> Callable[[int, random.Random], tuple[int, int]]:
    import rlcard as rlcard_module

    env = rlcard_module.make("gin-rummy", config={"seed": 0})

    def play(steps: int, rng: random.Random) -> tuple[int, int]:
        done = episodes = 0
        while done < steps:
            state, _ = env.reset()
            episodes += 1
            while not env.is_over():
                state, _ = env.step(rng.choice(list(state["legal_actions"])))
                done += 1
        return done, episodes

    return play


def main() -> int:
    job = json.load(sys.stdin)
    steps, seed = int(job["steps"]), int(job["seed"])
    report: dict[str, Any] = {"python": platform.python_version(), "peers": {}, "errors": {}}
    versions = {}
    for package in ("open_spiel", "rlcard", "numpy"):
        try:
            versions[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            versions[package] = "missing"
    report["versions"] = versions
    peers: list[tuple[str, Callable[[], Callable[[int, random.Random], tuple[int, int]]]]] = [
        ("openspiel", lambda: openspiel(True)),
        ("openspiel_no_obs", lambda: openspiel(False)),
        ("rlcard", rlcard),
    ]
    out = sys.stdout
    with contextlib.redirect_stdout(sys.stderr):
        for name, factory in peers:
            progress(f"{name}: {steps} steps")
            try:
                report["peers"][name] = timed(factory(), steps, seed)
            except Exception:
                report["errors"][name] = traceback.format_exc(limit=3)
    json.dump(report, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
