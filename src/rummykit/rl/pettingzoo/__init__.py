"""PettingZoo AEC environments: ``gin_v0``, ``rami_v0`` and ``carousel_v0``.

>>> from rummykit.rl.pettingzoo import gin_v0, rami_v0
>>> env = gin_v0.env()
>>> env.reset(seed=1)
>>> env.agent_selection
'player_0'
>>> rami_v0.env(players=5).possible_agents[-1]
'player_4'
"""

from rummykit.rl.pettingzoo import carousel_v0, gin_v0, rami_v0

__all__ = ["carousel_v0", "gin_v0", "rami_v0"]
