"""Evaluate a random masked policy against the heuristic bot (needs the ``rl`` extra).

Run ``python examples/rl_random_vs_heuristic.py --hands 200``: the agent picks a
uniformly random legal action id from ``env.action_masks()`` in every decision and
plays one hand per episode of ``rummykit/Gin-v0`` against ``GinHeuristicBot``.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

import gymnasium
import numpy as np

import rummykit.rl.gymnasium  # noqa: F401 - registers rummykit/Gin-v0


def evaluate(hands: int, seed: int = 0, opponent: str = "heuristic") -> dict[str, float]:
    """Mean hand points and win rate of the random masked policy over ``hands`` hands."""
    env = gymnasium.make("rummykit/Gin-v0", opponent=opponent)
    rng = np.random.default_rng(seed)
    points, wins = [], 0
    for episode in range(hands):
        _observation, info = env.reset(seed=seed + episode)
        terminated = truncated = False
        total = 0.0
        while not (terminated or truncated):
            legal = np.flatnonzero(info["action_mask"])  # same as env.unwrapped.action_masks()
            _observation, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
            total += float(reward)
        points.append(total)
        wins += total > 0
    env.close()
    return {"hands": hands, "mean_points": float(np.mean(points)), "win_rate": wins / hands}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--opponent", default="heuristic", choices=["heuristic", "random"])
    args = parser.parse_args(argv)
    stats = evaluate(args.hands, args.seed, args.opponent)
    print(
        f"random masked policy vs {args.opponent} over {stats['hands']:.0f} hands: "
        f"{stats['mean_points']:+.1f} points a hand, won {100 * stats['win_rate']:.0f}%"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
