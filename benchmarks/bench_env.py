"""Environment steps per second: rummykit's gin environments next to OpenSpiel and RLCard,
and rummykit's Rami environment.

Every row plays uniformly random *legal* actions and counts decisions (steps) per
second:

* ``engine``: rummykit's ``GinHand`` alone (``legal_actions()`` + ``apply``), no ids,
  no observation: the bound every wrapper sits on.
* ``table``: :class:`rummykit.rl.gin_table.GinTable`, the 241-id decision process,
  without observations.
* ``pettingzoo gin_v0``: the AEC loop users write (``agent_iter``, ``last()`` with the
  observation array and the action mask, a random id among the mask's nonzero
  entries, ``step``). The ``np.flatnonzero`` row is the same loop reading the mask with
  ``np.flatnonzero`` (numpy's wrapper costs about 8% of a step here), to compare with
  figures measured before the loop switched to ``mask.nonzero()[0]``.
* ``gymnasium GinEnv (random bot)``: the agent's steps only, the bot's moves included
  in their time.
* peers, in a subprocess of ``benchmarks/.peers`` (see ``_peer_env.py``): OpenSpiel's
  ``gin_rummy`` with ``observation_tensor`` at every step (and without), and RLCard's
  ``gin-rummy`` through ``env.step``.
* Rami (no peer exists): the engine round with random legal finite actions (draws,
  end of play, discards: no macro-actions), the 165-id ``RamiTable`` and the
  PettingZoo ``rami_v0`` loop, 4 players, one round per episode. The id rows also
  open, meld, lay off and swap jokers, so their solver calls are part of the figure.

Gin episodes are one hand. Rates use CPU time of the measuring process
(``time.process_time``), one core, so a busy machine skews them less; wall-clock rates
are printed beside them. Timings are information, never pass/fail.

Run from the repository root::

    .venv/bin/python benchmarks/bench_env.py            # 100,000 steps per row
    .venv/bin/python benchmarks/bench_env.py --quick    # 10,000
    .venv/bin/python benchmarks/bench_env.py --profile  # cProfile of the PettingZoo loop
    .venv/bin/python benchmarks/bench_env.py --profile rami
    .venv/bin/python benchmarks/bench_env.py --only carousel --steps 50000   # its rows only
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
RAMI_PLAYERS = 4
CAROUSEL_PLAYERS = 3


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
    from rummykit.games.gin import GinRules, new_hand

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


def aec_play(env: Any, steps: int, rng: random.Random, *, flat: bool = False) -> tuple[int, int]:
    """The PettingZoo AEC loop with random masked actions; (steps, episodes)."""
    import numpy as np

    flatnonzero = np.flatnonzero
    done = episodes = 0
    while done < steps:
        env.reset(seed=rng.getrandbits(63))
        episodes += 1
        for _agent in env.agent_iter():
            observation, _reward, termination, truncation, _info = env.last()
            if termination or truncation:
                env.step(None)
                continue
            mask = observation["action_mask"]
            legal = flatnonzero(mask) if flat else mask.nonzero()[0]
            env.step(int(legal[rng.randrange(len(legal))]))
            done += 1
    return done, episodes


def pettingzoo_play(steps: int, rng: random.Random) -> tuple[int, int]:
    from rummykit.rl.pettingzoo import gin_v0

    return aec_play(gin_v0.env(), steps, rng)


def pettingzoo_flat_play(steps: int, rng: random.Random) -> tuple[int, int]:
    from rummykit.rl.pettingzoo import gin_v0

    return aec_play(gin_v0.env(), steps, rng, flat=True)


def rami_engine_play(steps: int, rng: random.Random) -> tuple[int, int]:
    from rummykit.games.rami import RamiRules, new_round

    rules = RamiRules()
    done = episodes = 0
    while done < steps:
        rnd = new_round(rules, RAMI_PLAYERS, rng.getrandbits(63), dealer=episodes % RAMI_PLAYERS)
        episodes += 1
        while not rnd.is_over:
            legal = rnd.legal_actions()
            rnd.apply(legal[rng.randrange(len(legal))])
            done += 1
    return done, episodes


def rami_table_play(steps: int, rng: random.Random) -> tuple[int, int]:
    from rummykit.rl.rami_table import RamiTable

    table = RamiTable(players=RAMI_PLAYERS)
    done = episodes = 0
    while done < steps:
        table.reset(rng.getrandbits(63))
        episodes += 1
        while not table.is_over:
            legal = table.legal_ids()
            table.step(legal[rng.randrange(len(legal))])
            done += 1
    return done, episodes


def rami_play(steps: int, rng: random.Random) -> tuple[int, int]:
    from rummykit.rl.pettingzoo import rami_v0

    return aec_play(rami_v0.env(players=RAMI_PLAYERS), steps, rng)


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


def rami_gymnasium_play(steps: int, rng: random.Random) -> tuple[int, int]:
    return gymnasium_game_play("rami", steps, rng, players=RAMI_PLAYERS)


def gymnasium_game_play(
    game: str, steps: int, rng: random.Random, **options: Any
) -> tuple[int, int]:
    """A Gymnasium ``RummyEnv`` of ``game`` against the random bot at the other seats:
    the agent's steps, the bots' moves included in their time."""
    import numpy as np

    from rummykit.rl.gymnasium import RummyEnv

    env = RummyEnv(game=game, opponent="random", **options)
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


def openspiel_play(name: str) -> Play:
    """rummykit's pyspiel game ``name`` (seeded deals: no chance nodes), the
    observation tensor read at every step, as the OpenSpiel peer row does."""

    def play(steps: int, rng: random.Random) -> tuple[int, int]:
        import pyspiel

        import rummykit.rl.openspiel  # noqa: F401 - registers the games

        done = episodes = 0
        while done < steps:
            separator = "," if "(" in name else "("
            base = name[:-1] if name.endswith(")") else name
            game = pyspiel.load_game(f"{base}{separator}seed={rng.getrandbits(31)})")
            state = game.new_initial_state()
            episodes += 1
            while not state.is_terminal():
                state.observation_tensor(state.current_player())
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                done += 1
        return done, episodes

    return play


def carousel_engine_play(steps: int, rng: random.Random) -> tuple[int, int]:
    """The Carousel engine with random finite actions (draw, end turn, knock; no meld)."""
    from rummykit.games.carousel import CarouselRules, new_hand

    rules = CarouselRules()
    done = episodes = 0
    while done < steps:
        hand = new_hand(rules, players=CAROUSEL_PLAYERS, seed=rng.getrandbits(63))
        episodes += 1
        while not hand.is_over:
            legal = hand.legal_actions()
            hand.apply(legal[rng.randrange(len(legal))])
            done += 1
    return done, episodes


def carousel_table_play(steps: int, rng: random.Random) -> tuple[int, int]:
    from rummykit.rl.carousel_table import CarouselTable

    table = CarouselTable(players=CAROUSEL_PLAYERS)
    done = episodes = 0
    while done < steps:
        table.reset(rng.getrandbits(63))
        episodes += 1
        while not table.is_over:
            legal = table.legal_ids()
            table.step(legal[rng.randrange(len(legal))])
            done += 1
    return done, episodes


def carousel_play(steps: int, rng: random.Random) -> tuple[int, int]:
    from rummykit.rl.pettingzoo import carousel_v0

    return aec_play(carousel_v0.env(players=CAROUSEL_PLAYERS), steps, rng)


def carousel_gymnasium_play(steps: int, rng: random.Random) -> tuple[int, int]:
    return gymnasium_game_play("carousel", steps, rng, players=CAROUSEL_PLAYERS)


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


def print_rows(title: str, rows: list[tuple[str, dict[str, float]]], unit: str) -> dict[str, float]:
    print(f"\n{title}")
    header = f"{'environment':<44} {'steps/s (cpu)':>14} {'steps/s (wall)':>15} {unit:>11}"
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
    return rates


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--steps", type=int, help="steps per row (default 100000)")
    parser.add_argument("--quick", action="store_true", help="10,000 steps per row")
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument(
        "--profile",
        nargs="?",
        const="gin",
        choices=("gin", "rami", "carousel"),
        help="profile the PettingZoo loop of gin_v0 (default), rami_v0 or carousel_v0",
    )
    parser.add_argument("--no-peers", action="store_true", help="rummykit's rows only")
    parser.add_argument("--no-rami", action="store_true", help="skip the Rami rows")
    parser.add_argument("--no-carousel", action="store_true", help="skip the Carousel rows")
    parser.add_argument(
        "--only", choices=("gin", "rami", "carousel"), help="one game's rows (no peers but gin's)"
    )
    parser.add_argument("--peers-python", type=Path, default=DEFAULT_PEER_PYTHON)
    args = parser.parse_args(argv)
    steps = args.steps or (10_000 if args.quick else 100_000)

    if args.profile:
        profiler = cProfile.Profile()
        play = {"gin": pettingzoo_play, "rami": rami_play, "carousel": carousel_play}[args.profile]
        profiler.runcall(play, steps, random.Random(args.seed))
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
        return 0

    if args.only:
        args.no_rami = args.only != "rami"
        args.no_carousel = args.only != "carousel"
    rows: list[tuple[str, dict[str, float]]] = []
    gin_rows = (
        ("rummykit engine (GinHand)", engine_play),
        ("rummykit table (241 ids, no observation)", table_play),
        ("rummykit pettingzoo gin_v0", pettingzoo_play),
        ("rummykit pettingzoo gin_v0 (np.flatnonzero)", pettingzoo_flat_play),
        ("rummykit gymnasium GinEnv vs random bot", gymnasium_play),
        ("rummykit openspiel python_rummykit_gin", openspiel_play("python_rummykit_gin")),
    )
    for label, play in gin_rows if args.only in (None, "gin") else ():
        progress(f"{label}: {steps} steps")
        rows.append((label, timed(play, steps, args.seed)))
    notes = ""
    if not args.no_peers and args.only in (None, "gin"):
        report, notes = run_peers(args.peers_python, steps, args.seed)
        titles = {
            "openspiel": "OpenSpiel gin_rummy + observation_tensor",
            "openspiel_no_obs": "OpenSpiel gin_rummy, no observation",
            "rlcard": "RLCard gin-rummy env.step",
        }
        for key, title in titles.items():
            if report is not None and key in report["peers"]:
                rows.append((title, report["peers"][key]))
    rami_rows: list[tuple[str, dict[str, float]]] = []
    if not args.no_rami:
        rami_steps = max(steps // 4, 1000)
        for label, play in (
            ("rummykit engine (RamiRound, finite actions)", rami_engine_play),
            ("rummykit table (165 ids, no observation)", rami_table_play),
            ("rummykit pettingzoo rami_v0", rami_play),
            ("rummykit gymnasium Rami-v0 vs random bots", rami_gymnasium_play),
            (
                "rummykit openspiel python_rummykit_rami",
                openspiel_play(f"python_rummykit_rami(players={RAMI_PLAYERS})"),
            ),
        ):
            progress(f"{label}: {rami_steps} steps")
            rami_rows.append((label, timed(play, rami_steps, args.seed)))
    carousel_rows: list[tuple[str, dict[str, float]]] = []
    carousel_steps = max(steps // 10, 1000)
    if not args.no_carousel:
        for label, play in (
            ("rummykit engine (CarouselHand, finite actions)", carousel_engine_play),
            ("rummykit table (158 ids, no observation)", carousel_table_play),
            ("rummykit pettingzoo carousel_v0", carousel_play),
            ("rummykit gymnasium Carousel-v0 vs random bots", carousel_gymnasium_play),
            (
                "rummykit openspiel python_rummykit_carousel",
                openspiel_play(f"python_rummykit_carousel(players={CAROUSEL_PLAYERS})"),
            ),
        ):
            progress(f"{label}: {carousel_steps} steps")
            carousel_rows.append((label, timed(play, carousel_steps, args.seed)))

    rates = (
        print_rows(
            f"Gin environment steps per second ({steps:,} steps per row, random legal actions)",
            rows,
            "steps/hand",
        )
        if rows
        else {}
    )
    ours = rates.get("rummykit pettingzoo gin_v0")
    rlcard = rates.get("RLCard gin-rummy env.step")
    if ours and rlcard:
        print(f"\npettingzoo gin_v0 / RLCard: {ours / rlcard:.1f}x (target >= 3x)")
    if ours:
        print(f"pettingzoo gin_v0: {ours:,.0f} steps/s (target >= 20,000 on one core)")
    if rami_rows:
        rami_rates = print_rows(
            f"Rami environment steps per second ({RAMI_PLAYERS} players, "
            f"{rami_steps:,} steps per row, random legal actions; no peer)",
            rami_rows,
            "steps/round",
        )
        rami = rami_rates.get("rummykit pettingzoo rami_v0")
        if rami:
            print(f"\npettingzoo rami_v0: {rami:,.0f} steps/s (target >= 20,000 on one core)")
    if carousel_rows:
        carousel_rates = print_rows(
            f"Carousel environment steps per second ({CAROUSEL_PLAYERS} players, "
            f"{carousel_steps:,} steps per row, random legal actions; no peer)",
            carousel_rows,
            "steps/hand",
        )
        carousel = carousel_rates.get("rummykit pettingzoo carousel_v0")
        if carousel:
            print(
                f"\npettingzoo carousel_v0: {carousel:,.0f} steps/s (target >= 5,000 on one core)"
            )
    if notes:
        print(f"\n{notes}")
    print(
        "\nHands differ between engines (rules and random choices), hence steps/hand."
        "\nCPU rates count only this process's time; on an idle machine wall = cpu."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
