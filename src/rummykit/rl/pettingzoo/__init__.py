"""PettingZoo AEC environments: ``gin_v0`` (``rami_v0`` will follow the Rami engine).

>>> from rummykit.rl.pettingzoo import gin_v0
>>> env = gin_v0.env()
>>> env.reset(seed=1)
>>> env.agent_selection
'player_0'
"""

from rummykit.rl.pettingzoo import gin_v0

__all__ = ["gin_v0"]
