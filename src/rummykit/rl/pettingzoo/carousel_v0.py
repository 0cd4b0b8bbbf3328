"""PettingZoo AEC environment for Carousel (``carousel_v0``), 2-5 players.

``env(**options)`` is the usual factory around :class:`raw_env`; see ``docs/rl.md``
for the 158 action ids (lay-offs and new melds of three by name, the exact solver's
placements as macro-actions, draw, end of turn, knock), the 286 observation values,
the episode and reward options and the illegal-action convention.

>>> env = env(players=3)
>>> env.reset(seed=42)
>>> env.agents, env.agent_selection
(['player_0', 'player_1', 'player_2'], 'player_1')
>>> env.last()[0]["action_mask"].nonzero()[0].tolist()
[152]
"""

from __future__ import annotations

from rummykit.rl.carousel_table import CarouselTable
from rummykit.rl.pettingzoo.base import RummyAECEnv, env_factory

__all__ = ["env", "raw_env"]


class raw_env(RummyAECEnv):  # noqa: N801 - PettingZoo's naming convention
    """Carousel for 2-5 agents, ``player_0`` ... (seat ``k`` is ``player_k``).

    Options: ``render_mode`` and those of
    :class:`~rummykit.rl.carousel_table.CarouselTable`: ``rules`` (a
    :class:`~rummykit.games.carousel.CarouselRules` or a dict of its options),
    ``players`` (2-5, default 3), ``episode`` (``hand`` or ``game``), ``reward``
    (``points`` or ``win``) and ``dealer`` (of the first hand, or ``None`` to draw it).
    """

    game = "carousel"
    table: CarouselTable


env = env_factory(raw_env)
