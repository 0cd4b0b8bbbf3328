"""Tournament statistics: win-rate confidence intervals and Elo ratings.

**Win rate.** A bot's win rate is its mean win share per game (1 for a sole win,
``1/k`` for a ``k``-way shared win). Its 95% confidence interval is the **Wilson score
interval** on that mean. Wilson behaves at 0% and 100% and for small ``n``, where the
normal ("Wald") interval collapses to a point or leaves [0, 1].

The games of one deal are not independent: every seat rotation plays the same cards, and
two deterministic bots replay the very same game in both rotations. So the deals are the
independent samples (:func:`clustered_wilson_interval`): the variance of the win rate is
estimated from the per-deal totals (the cluster-robust ratio estimator) and Wilson is
applied with the *effective* number of games, ``n`` divided by the design effect (that
variance over the binomial one). Identical replays count once; rotations that cancel each
other's luck narrow the interval, as pairing should.

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

from rummykit.errors import InvalidOptionError

__all__ = ["Z_95", "clustered_wilson_interval", "elo_ratings", "wilson_interval"]

Z_95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""

ELO_MEAN = 1500.0
ELO_SCALE = 400.0


def wilson_interval(successes: float, n: float, z: float = Z_95) -> tuple[float, float]:
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
        raise InvalidOptionError(f"successes must be within 0-{n}, not {successes!r}")
    p = successes / n
    z2 = z * z
    denominator = 1 + z2 / n
    center = (p + z2 / (2 * n)) / denominator
    half = z / denominator * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return max(0.0, center - half), min(1.0, center + half)


def clustered_wilson_interval(
    clusters: Sequence[tuple[float, int]], z: float = Z_95
) -> tuple[float, float]:
    """The Wilson interval of a win rate whose games come in dependent clusters (deals).

    ``clusters`` holds, per deal, the bot's summed win share and its number of games.
    The interval is Wilson's with the effective number of games ``n / deff``, where the
    design effect ``deff`` is the cluster-robust variance of the rate over the binomial
    variance ``p (1 - p) / n``. Independent games (one per cluster) give plain Wilson;
    every deal replayed identically twice gives Wilson on the deals.

    >>> clustered_wilson_interval([(1, 1)] * 60 + [(0, 1)] * 40) == wilson_interval(60, 100)
    True
    >>> twice = clustered_wilson_interval([(2, 2)] * 60 + [(0, 2)] * 40)
    >>> [round(x, 9) for x in twice] == [round(x, 9) for x in wilson_interval(60, 100)]
    True
    >>> [round(x, 3) for x in wilson_interval(120, 200)]  # what counting games would claim
    [0.531, 0.665]
    >>> clustered_wilson_interval([])
    (0.0, 1.0)
    """
    n = sum(games for _, games in clusters)
    if n <= 0:
        return 0.0, 1.0
    successes = sum(share for share, _ in clusters)
    used = [(share, games) for share, games in clusters if games > 0]
    p = successes / n
    binomial = p * (1 - p) / n
    if len(used) < 2 or binomial <= 0:
        return wilson_interval(successes, n, z)
    # Ratio estimator: residuals of each deal's total against p times its games.
    residual = sum((share - p * games) ** 2 for share, games in used)
    # No small-sample factor D/(D-1): then one game per deal gives exactly Wilson.
    clustered = residual / (n * n)
    if clustered <= 0:
        # Every deal exactly at the mean: no spread to learn from; keep Wilson on deals.
        return wilson_interval(successes * len(used) / n, len(used), z)
    effective = p * (1 - p) / clustered
    # Wilson needs successes <= n: scale both to the effective count.
    return wilson_interval(p * effective, effective, z)


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
