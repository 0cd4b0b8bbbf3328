"""PettingZoo AEC environment for Rami 40 / Rami 51 (``rami_v0``), 2-6 players.

``env(**options)`` is the usual factory around :class:`raw_env`; see ``docs/rl.md``
for the 165 action ids (cards by face, draws, and the solvers' macro-actions: the best
opening, the best new combination, a lay-off or a joker swap per face), the 781
observation values, the episode and reward options and the illegal-action convention.

>>> env = env(players=3, rules="rami51")
>>> env.reset(seed=42)
>>> env.agents, env.agent_selection
(['player_0', 'player_1', 'player_2'], 'player_1')
>>> env.last()[0]["action_mask"].nonzero()[0].tolist()
[158, 159]
"""

from __future__ import annotations

from rummykit.rl.pettingzoo.base import RummyAECEnv, env_factory
from rummykit.rl.rami_table import RamiTable

__all__ = ["env", "raw_env"]


class raw_env(RummyAECEnv):  # noqa: N801 - PettingZoo's naming convention
    """Rami for 2-6 agents, ``player_0`` ... (seat ``k`` is ``player_k``).

    Options: ``render_mode`` and those of :class:`~rummykit.rl.rami_table.RamiTable`:
    ``rules`` (a :class:`~rummykit.games.rami.RamiRules`, a dict of its options or a
    preset name: ``rami51``, ``rami40``, ``rami51-house``, ``rami40-house``),
    ``players`` (2-6), ``episode`` (``round`` or ``game``), ``reward`` (``penalty``
    or ``win``) and ``dealer`` (of the first round, or ``None`` to draw it).
    """

    game = "rami"
    table: RamiTable


env = env_factory(raw_env)
