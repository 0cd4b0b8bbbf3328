"""PettingZoo AEC environment for Gin Rummy (``gin_v0``).

``env(**options)`` is the usual factory (PettingZoo's order-enforcing wrapper around
:class:`raw_env`); see ``docs/rl.md`` for the observation planes, the 241 action ids,
the episode and reward options and the illegal-action convention.

>>> env = env(episode="hand", reward="points")
>>> env.reset(seed=42)
>>> observation, reward, termination, truncation, info = env.last()
>>> observation["observation"].shape, observation["action_mask"].nonzero()[0].tolist()
((480,), [52, 54])
"""

from __future__ import annotations

from typing import Any, ClassVar

from pettingzoo import AECEnv

from rummykit.games.gin import GinRules
from rummykit.rl.gin_observation import encode_observation, observation_high
from rummykit.rl.gin_table import GinTable, KnockMelds, describe
from rummykit.rl.pettingzoo.base import IllegalActionMode, RummyAECEnv, wrap
from rummykit.rl.table import Episode, RewardKind

__all__ = ["env", "raw_env"]


class raw_env(RummyAECEnv):  # noqa: N801 - PettingZoo's naming convention
    """Gin Rummy for two agents, ``player_0`` and ``player_1`` (seats 0 and 1).

    Args:
        rules: a :class:`~rummykit.games.gin.hand.GinRules` or a dict of its options.
        episode: ``hand`` (one hand) or ``match`` (to the target, with every bonus).
        reward: ``points`` or ``win`` (see :class:`~rummykit.rl.gin_table.GinTable`).
        knock_melds: ``auto`` or ``choose`` (the knocker picks meld ids 56-240).
        dealer: fixed dealer (first dealer of a match), or ``None`` to draw it.
        render_mode: ``None``, ``human`` or ``ansi``.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"],
        "name": "gin_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        *,
        rules: GinRules | dict[str, Any] | None = None,
        episode: Episode = "hand",
        reward: RewardKind = "points",
        knock_melds: KnockMelds = "auto",
        dealer: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        if isinstance(rules, dict):
            rules = GinRules.from_dict(rules)
        table = GinTable(
            rules, episode=episode, reward=reward, knock_melds=knock_melds, dealer=dealer
        )
        super().__init__(
            table,
            encode_observation,
            observation_high(),
            render_mode=render_mode,
            describe=describe,
        )
        self.table: GinTable = table


def env(
    *,
    illegal_action: IllegalActionMode = "raise",
    illegal_reward: float = -1.0,
    **options: Any,
) -> AECEnv[str, dict[str, Any], int]:
    """The wrapped environment; ``options`` are those of :class:`raw_env`."""
    return wrap(raw_env(**options), illegal_action, illegal_reward)
