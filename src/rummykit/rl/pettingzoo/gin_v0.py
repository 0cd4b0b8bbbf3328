"""PettingZoo AEC environment for Gin Rummy (``gin_v0``).

``env(**options)`` is the usual factory around :class:`raw_env`; see ``docs/rl.md``
for the observation planes, the 241 action ids, the episode and reward options and
the illegal-action convention.

>>> env = env(episode="hand", reward="points")
>>> env.reset(seed=42)
>>> observation, reward, termination, truncation, info = env.last()
>>> observation["observation"].shape, observation["action_mask"].nonzero()[0].tolist()
((480,), [52, 54])
"""

from __future__ import annotations

from rummykit.rl.gin_table import GinTable
from rummykit.rl.pettingzoo.base import RummyAECEnv, env_factory

__all__ = ["env", "raw_env"]


class raw_env(RummyAECEnv):  # noqa: N801 - PettingZoo's naming convention
    """Gin Rummy for two agents, ``player_0`` and ``player_1`` (seats 0 and 1).

    Options: ``render_mode`` and those of :class:`~rummykit.rl.gin_table.GinTable`:
    ``rules`` (a :class:`~rummykit.games.gin.GinRules` or a dict of its options),
    ``episode`` (``hand`` or ``match``), ``reward`` (``points`` or ``win``),
    ``knock_melds`` (``auto`` or ``choose``: the knocker picks meld ids 56-240) and
    ``dealer`` (fixed, or ``None`` to draw it).
    """

    game = "gin"
    table: GinTable


env = env_factory(raw_env)
