"""A single-agent Gymnasium environment: one gin seat against a bot.

Importing this module registers ``rummykit/Gin-v0``::

    import gymnasium
    import rummykit.rl.gymnasium  # registers the id

    env = gymnasium.make("rummykit/Gin-v0", opponent="heuristic")

The observation is the same ``float32`` array as PettingZoo's ``gin_v0`` (see
``docs/rl.md``); the legal actions come from :meth:`GinEnv.action_masks` (a boolean
array, the method masked policies such as sb3-contrib's ``MaskablePPO`` call) and
from ``info["action_mask"]`` (``int8``). The opponent acts inside ``step`` and
``reset`` until it is the agent's turn again; the reward of a step is the agent's
share of everything that happened in between (a hand that the bot ends before the
agent's first decision is dealt again).

Illegal actions: ``illegal_action="raise"`` (default) raises
:class:`~rummykit.core.IllegalActionError`; ``"terminate"`` ends the episode with
``illegal_reward`` and ``info["illegal_action"]`` (useful with unmasked samplers such
as Gymnasium's ``check_env``).

>>> env = GinEnv(opponent="random", seat=0)
>>> observation, info = env.reset(seed=3)
>>> observation.shape, int(env.action_masks().sum()) > 0
((480,), True)
"""

from __future__ import annotations

import random
from typing import Any, Literal

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from rummykit.bots.base import Bot
from rummykit.games.gin import GinAction, GinObservation, GinRules
from rummykit.rl.gin_observation import OBSERVATION_SIZE, encode_observation, observation_high
from rummykit.rl.gin_table import GinTable, KnockMelds, describe
from rummykit.rl.table import Episode, RewardKind, illegal_action_error
from rummykit.sim.registry import get_bot, make_bot

__all__ = ["ENV_ID", "GinEnv"]

ENV_ID = "rummykit/Gin-v0"
Observation = npt.NDArray[np.float32]


class GinEnv(gymnasium.Env[Observation, np.int64]):
    """The agent plays one seat of gin against a bot.

    Args:
        opponent: a gin bot of the registry (``random``, ``heuristic``, ``easy``,
            ``medium``, ``hard``, ``expert`` or a loaded plugin bot; see
            :mod:`rummykit.sim.registry`) or any bot object with
            ``act(observation, legal_actions)``.
        opponent_level: 0-1; the bot's own choice is played with this probability,
            otherwise a uniformly random legal action (1 = the bot at full strength).
        seat: the agent's seat, or ``None`` to draw it at every reset.
        rules, episode, reward, knock_melds, dealer: as for PettingZoo's ``gin_v0``.
        illegal_action: ``raise`` or ``terminate`` (see the module docstring).
        illegal_reward: the reward of an illegal action under ``terminate``.
        render_mode: ``None``, ``human`` or ``ansi``.
    """

    metadata = {"render_modes": ["human", "ansi"], "render_fps": 4}  # noqa: RUF012 - Gymnasium's API

    def __init__(
        self,
        *,
        opponent: str | Bot[GinObservation, GinAction] = "heuristic",
        opponent_level: float = 1.0,
        seat: int | None = None,
        rules: GinRules | dict[str, Any] | None = None,
        episode: Episode = "hand",
        reward: RewardKind = "points",
        knock_melds: KnockMelds = "auto",
        dealer: int | None = None,
        illegal_action: Literal["raise", "terminate"] = "raise",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        if isinstance(rules, dict):
            rules = GinRules.from_dict(rules)
        if isinstance(opponent, str):
            get_bot("gin", opponent)  # an unknown name fails here, not at reset
        if not 0.0 <= opponent_level <= 1.0:
            raise ValueError(f"opponent_level must be within 0-1, not {opponent_level!r}")
        if seat not in (None, 0, 1):
            raise ValueError(f"seat must be 0, 1 or None, not {seat!r}")
        if illegal_action not in ("raise", "terminate"):
            raise ValueError(
                f"illegal_action must be 'raise' or 'terminate', not {illegal_action!r}"
            )
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render_mode {render_mode!r}")
        self.table = GinTable(
            rules, episode=episode, reward=reward, knock_melds=knock_melds, dealer=dealer
        )
        self.opponent_spec = opponent
        self.opponent_level = opponent_level
        self.fixed_seat = seat
        self.illegal_action = illegal_action
        self.illegal_reward = illegal_reward
        self.render_mode = render_mode
        self.observation_space = spaces.Box(
            low=np.zeros(OBSERVATION_SIZE, dtype=np.float32),
            high=observation_high(),
            dtype=np.float32,
        )
        self.action_space = spaces.Discrete(self.table.num_actions)
        self.seat = 0 if seat is None else seat
        self._opponent: Bot[GinObservation, GinAction] | None = None
        self._level_rng = random.Random(0)
        self._over = True
        self._pending_reward = 0.0

    # -- Gymnasium API -------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        rng = self.np_random
        deal_seed = int(rng.integers(2**62))
        bot_seed = int(rng.integers(2**62))
        self.seat = self.fixed_seat if self.fixed_seat is not None else int(rng.integers(2))
        spec = self.opponent_spec
        rules = self.table.rules
        self._opponent = (
            make_bot("gin", spec, seed=bot_seed, rules=rules) if isinstance(spec, str) else spec
        )
        self._level_rng = random.Random(bot_seed)
        self._over = False
        self.table.reset(deal_seed)
        self._pending_reward = self._play_opponent()
        while self.table.is_over:
            # The bot ended a hand before the agent's first decision (it took the upcard
            # and knocked at once): deal again, so an episode never starts finished.
            self.table.reset(int(rng.integers(2**62)))
            self._pending_reward = self._play_opponent()
        return self._observation(), self._info()

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        table = self.table
        if self._over:
            raise RuntimeError("the episode is over: call reset()")
        legal = table.legal_ids()
        key = int(action) if isinstance(action, int | np.integer) else -1
        if key not in legal or isinstance(action, bool):
            if self.illegal_action == "raise":
                raise illegal_action_error(
                    action, self.seat, legal, [table.action_string(i) for i in legal]
                )
            self._over = True
            info = self._info()
            info["illegal_action"] = key
            return self._observation(), float(self.illegal_reward), True, False, info
        reward = self._pending_reward + table.step(key)[self.seat]
        reward += self._play_opponent()
        self._pending_reward = 0.0
        terminated = table.is_over
        self._over = terminated
        if self.render_mode == "human":
            self.render()
        return self._observation(), float(reward), terminated, False, self._info()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Boolean mask of the legal action ids (all false once the episode is over)."""
        mask = np.zeros(self.table.num_actions, dtype=np.bool_)
        if not self._over and not self.table.is_over:
            mask[self.table.legal_ids()] = True
        return mask

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = describe(self.table, self.seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self._opponent = None

    # -- internals ---------------------------------------------------------------------

    def _play_opponent(self) -> float:
        """Let the bot act until the agent is to act or the episode ends."""
        table = self.table
        reward = 0.0
        bot = self._opponent
        assert bot is not None
        while not table.is_over and table.current_player != self.seat:
            other = table.current_player
            game = table.match if table.match is not None else table.hand
            legal = table.hand.legal_actions()
            if self.opponent_level < 1.0 and self._level_rng.random() >= self.opponent_level:
                action = self._level_rng.choice(legal)
            else:
                action = bot.act(game.observation(other), legal)
            reward += table.apply_action(action)[self.seat]
        return reward

    def _observation(self) -> Observation:
        return encode_observation(self.table, self.seat)

    def _info(self) -> dict[str, Any]:
        info = self.table.info(self.seat)
        info["action_mask"] = self.action_masks().astype(np.int8)
        info["seat"] = self.seat
        return info


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="rummykit.rl.gymnasium:GinEnv")
