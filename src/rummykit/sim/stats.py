"""Tournament statistics: win-rate confidence intervals and Elo ratings.

**Win rate.** A bot's win rate is its mean win share per game (1 for a sole win,
``1/k`` for a ``k``-way shared win). Its 95% confidence interval is the **Wilson score
interval** on that mean, with the number of games as ``n``. Wilson behaves at 0% and
100% and for small ``n``, where the normal ("Wald") interval collapses to a point or
leaves [0, 1]. Paired deals make a bot's games negatively correlated (the same cards
are played from both sides), so the interval is, if anything, conservative.

**Elo.** Every game is split into pairwise results between seats held by different
bots: 1 to the seat with the larger win share, 0.5 each for equal shares. A
Bradley-Terry model is fitted to those results by maximum likelihood (Hunter's MM
iteration), with a prior of one drawn game between every pair that met (so a bot that
always wins gets a large but finite rating). Ratings are ``400 * log10(strength)``,
shifted so that their **mean is 1500**; a difference of 400 means 10:1 odds.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

__all__ = ["Z_95", "elo_ratings", "wilson_interval"]

Z_95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""

ELO_MEAN = 1500.0
ELO_SCALE = 400.0


def wilson_interval(successes: float, n: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval for ``successes`` out of ``n`` (fractions allowed).

    >>> low, high = wilson_interval(50, 100)
    >>> round(low, 4), round(high, 4)
    (0.4038, 0.5962)
    >>> [round(x, 4) for x in wilson_interval(0, 10)]
    [0.0, 0.2775]
    >>> [round(x, 4) for x in wilson_interval(10, 10)]
    [0.7225, 1.0]
    >>> wilson_interval(0, 0)
    (0.0, 1.0)
    """
    if n <= 0:
        return 0.0, 1.0
    if not 0 <= successes <= n:
        raise ValueError(f"successes must be within 0-{n}, not {successes!r}")
    p = successes / n
    z2 = z * z
    denominator = 1 + z2 / n
    center = (p + z2 / (2 * n)) / denominator
    half = z / denominator * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return max(0.0, center - half), min(1.0, center + half)


def elo_ratings(
    names: Sequence[str],
    scores: Mapping[tuple[str, str], float],
    games: Mapping[tuple[str, str], int],
    *,
    prior_games: float = 1.0,
    tolerance: float = 1e-10,
    max_iterations: int = 100_000,
) -> dict[str, float]:
    """Elo ratings (mean 1500) from pairwise results.

    ``games[(a, b)]`` counts the pairwise games between ``a`` and ``b`` (either key
    order, counted once) and ``scores[(a, b)]`` is ``a``'s score in them (1 a win, 0.5 a
    draw). Each pair that met gets ``prior_games`` extra games drawn evenly.

    >>> ratings = elo_ratings(["a", "b"], {("a", "b"): 75.0}, {("a", "b"): 100})
    >>> round(ratings["a"] - ratings["b"])   # 75.5 : 25.5 with the prior -> 3:1
    189
    >>> elo_ratings(["a"], {}, {})
    {'a': 1500.0}
    """
    index = {name: i for i, name in enumerate(names)}
    size = len(names)
    played = [[0.0] * size for _ in range(size)]
    won = [0.0] * size
    for (a, b), count in games.items():
        if count <= 0 or a == b:
            continue
        i, j = index[a], index[b]
        score_a = scores.get((a, b), count / 2)
        total = count + prior_games
        played[i][j] += total
        played[j][i] += total
        won[i] += score_a + prior_games / 2
        won[j] += count - score_a + prior_games / 2
    strength = [1.0] * size
    for _ in range(max_iterations):
        updated = []
        for i in range(size):
            denominator = sum(
                played[i][j] / (strength[i] + strength[j]) for j in range(size) if played[i][j]
            )
            updated.append(won[i] / denominator if denominator else strength[i])
        # Fix the scale: geometric mean 1 (the model only fixes ratios).
        logs = [math.log(s) for s in updated]
        shift = sum(logs) / size if size else 0.0
        updated = [math.exp(x - shift) for x in logs]
        change = max((abs(u - s) / s for u, s in zip(updated, strength, strict=True)), default=0)
        strength = updated
        if change < tolerance:
            break
    return {name: ELO_MEAN + ELO_SCALE * math.log10(strength[index[name]]) for name in names}
