"""PettingZoo AEC environment for Rami 40 / Rami 51 (``rami_v0``), 2-6 players.

``env(**options)`` is the usual factory around :class:`raw_env`; see ``docs/rl.md``
for the 165 action ids (cards by face, draws, and the solvers' macro-actions: the best
opening, the best new combination, a lay-off or a joker swap per face), the 781
observation values, the episode and reward options and the illegal-action convention.

>>> env = env(players=3, rules="rami51")
>>> env.reset(seed=42)
>>> env.agents, env.agent_selection
(['player_0', 'player_1', 'player_2'], 'player_1')
>>> observation, reward, termination, truncation, info = env.last()
>>> observation["observation"].shape, observation["action_mask"].nonzero()[0].tolist()
((781,), [158, 159])
"""

from __future__ import annotations

from typing import Any, ClassVar

from pettingzoo import AECEnv

from rummykit.games.rami import RamiRules, preset
from rummykit.rl.pettingzoo.base import IllegalActionMode, RummyAECEnv, wrap
from rummykit.rl.rami_observation import encode_observation, observation_high, observation_low
from rummykit.rl.rami_table import RamiEpisode, RamiReward, RamiTable, describe

__all__ = ["env", "raw_env"]


class raw_env(RummyAECEnv):  # noqa: N801 - PettingZoo's naming convention
    """Rami for 2-6 agents, ``player_0`` ... (seat ``k`` is ``player_k``).

    Args:
        rules: a :class:`~rummykit.games.rami.round.RamiRules`, a dict of its options, or
            a preset name (``rami51``, ``rami40``, ``rami51-house``, ``rami40-house``).
        players: the number of seats, 2-6.
        episode: ``round`` (one round) or ``game`` (rounds until the game ends).
        reward: ``penalty`` (each round's penalty, negated) or ``win`` (+1 / -1 at the
            end of the episode).
        dealer: the dealer (of the first round), or ``None`` to draw it.
        render_mode: ``None``, ``human`` or ``ansi``.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"],
        "name": "rami_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        *,
        rules: RamiRules | dict[str, Any] | str | None = None,
        players: int = 4,
        episode: RamiEpisode = "round",
        reward: RamiReward = "penalty",
        dealer: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        if isinstance(rules, str):
            rules = preset(rules)
        elif isinstance(rules, dict):
            rules = RamiRules.from_dict(rules)
        table = RamiTable(rules, players=players, episode=episode, reward=reward, dealer=dealer)
        super().__init__(
            table,
            encode_observation,
            observation_high(),
            observation_low=observation_low(),
            render_mode=render_mode,
            describe=describe,
        )
        self.table: RamiTable = table


def env(
    *,
    illegal_action: IllegalActionMode = "raise",
    illegal_reward: float = -1.0,
    **options: Any,
) -> AECEnv[str, dict[str, Any], int]:
    """The wrapped environment; ``options`` are those of :class:`raw_env`."""
    return wrap(raw_env(**options), illegal_action, illegal_reward)
