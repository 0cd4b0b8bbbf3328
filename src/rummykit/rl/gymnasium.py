"""Single-agent Gymnasium environments: one seat of a game against catalog bots.

Importing this module registers ``rummykit/<Game>-v0`` for every game whose encoding
offers it (:mod:`rummykit.rl.encoding`), ``rummykit/Gin-v0`` among them::

    import gymnasium
    import rummykit.rl.gymnasium  # registers the ids

    env = gymnasium.make("rummykit/Gin-v0", opponent="heuristic")

The observation is the same ``float32`` array as the game's PettingZoo environment (see
``docs/rl.md``); the legal actions come from :meth:`RummyEnv.action_masks` (a boolean
array, the method masked policies such as sb3-contrib's ``MaskablePPO`` call) and
from ``info["action_mask"]`` (``int8``). The bots act inside ``step`` and ``reset``
until it is the agent's turn again; the reward of a step is the agent's share of
everything that happened in between (a deal that the bots end before the agent's
first decision is dealt again).

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
from typing import Any, ClassVar, Literal

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from rummykit.bots.base import Bot
from rummykit.catalog import get_bot, make_bot
from rummykit.rl.encoding import encodings, get_encoding, new_table
from rummykit.rl.table import illegal_action_error

__all__ = ["ENV_ID", "GinEnv", "RummyEnv"]

ENV_ID = "rummykit/Gin-v0"
"""Gin's id (the first registered; every game's is ``GameEncoding.gymnasium_id``)."""
Observation = npt.NDArray[np.float32]
AnyBot = Bot[Any, Any]


class RummyEnv(gymnasium.Env[Observation, np.int64]):
    """The agent plays one seat of a game; registered bots play the others.

    Args:
        game: the catalog name of the game, or of a preset (its rules); a subclass
            sets :attr:`game` instead.
        opponent: a bot of the catalog registered for the game (``random``,
            ``heuristic``, ``easy``, ``medium``, ``hard``, ``expert`` or a loaded
            plugin bot; see :func:`rummykit.catalog.available_bots`), made afresh for
            every other seat at each reset, or any bot object with
            ``act(observation, legal_actions)`` (then shared by the other seats).
        opponent_level: 0-1; a bot's own choice is played with this probability,
            otherwise a uniformly random legal action (1 = the bot at full strength).
        seat: the agent's seat, or ``None`` to draw it at every reset.
        illegal_action: ``raise`` or ``terminate`` (see the module docstring).
        illegal_reward: the reward of an illegal action under ``terminate``.
        render_mode: ``None``, ``human`` or ``ansi``.
        options: the options of the game's table, as for its PettingZoo environment
            (``rules``, ``players``, ``episode``, ``reward``, ``dealer``, ...).
    """

    metadata = {"render_modes": ["human", "ansi"], "render_fps": 4}  # noqa: RUF012 - Gymnasium's API
    game: ClassVar[str | None] = None
    """The catalog name of the game a subclass serves."""

    def __init__(
        self,
        *,
        game: str | None = None,
        opponent: str | AnyBot = "heuristic",
        opponent_level: float = 1.0,
        seat: int | None = None,
        illegal_action: Literal["raise", "terminate"] = "raise",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        name = game or self.game
        if name is None:
            raise ValueError("name the game: RummyEnv(game=...)")
        encoding = get_encoding(name)
        self.encoding = encoding
        self.table = new_table(name, **options)
        seats = self.table.num_seats
        if isinstance(opponent, str):
            get_bot(encoding.game, opponent)  # an unknown name fails here, not at reset
        if not 0.0 <= opponent_level <= 1.0:
            raise ValueError(f"opponent_level must be within 0-1, not {opponent_level!r}")
        if seat is not None and (
            isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < seats
        ):
            raise ValueError(f"seat must be a seat 0-{seats - 1} or None, not {seat!r}")
        if illegal_action not in ("raise", "terminate"):
            raise ValueError(
                f"illegal_action must be 'raise' or 'terminate', not {illegal_action!r}"
            )
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render_mode {render_mode!r}")
        self.opponent_spec = opponent
        self.opponent_level = opponent_level
        self.fixed_seat = seat
        self.illegal_action = illegal_action
        self.illegal_reward = illegal_reward
        self.render_mode = render_mode
        self.observation_space = spaces.Box(
            low=encoding.observation_low(), high=encoding.high(), dtype=np.float32
        )
        self.action_space = spaces.Discrete(self.table.num_actions)
        self.seat = 0 if seat is None else seat
        self._opponents: dict[int, AnyBot] = {}
        self._level_rng = random.Random(0)
        self._over = True
        self._pending_reward = 0.0

    @property
    def _opponent(self) -> AnyBot | None:
        """The bot of the first other seat (two-seat games have only that one)."""
        return next(iter(self._opponents.values()), None)

    # -- Gymnasium API -------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        rng = self.np_random
        table = self.table
        deal_seed = int(rng.integers(2**62))
        bot_seed = int(rng.integers(2**62))
        seats = table.num_seats
        self.seat = self.fixed_seat if self.fixed_seat is not None else int(rng.integers(seats))
        others = [other for other in range(seats) if other != self.seat]
        spec = self.opponent_spec
        self._opponents = {
            other: make_bot(
                self.encoding.game, spec, seed=bot_seed + index, rules=table.rules, players=seats
            )
            if isinstance(spec, str)
            else spec
            for index, other in enumerate(others)
        }
        self._level_rng = random.Random(bot_seed)
        self._over = False
        table.reset(deal_seed)
        self._pending_reward = self._play_opponents()
        while table.is_over:
            # The bots ended a deal before the agent's first decision (a bot took the
            # upcard and knocked at once): deal again, so an episode never starts finished.
            table.reset(int(rng.integers(2**62)))
            self._pending_reward = self._play_opponents()
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
        reward += self._play_opponents()
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
        text = self.encoding.describe(self.table, self.seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self._opponents = {}

    # -- internals ---------------------------------------------------------------------

    def _play_opponents(self) -> float:
        """Let the bots act until the agent is to act or the episode ends."""
        table = self.table
        reward = 0.0
        level = self.opponent_level
        level_rng = self._level_rng
        while not table.is_over and table.current_player != self.seat:
            other = table.current_player
            legal = table.deal.legal_actions()
            if level < 1.0 and level_rng.random() >= level:
                action = level_rng.choice(legal)
            else:
                action = self._opponents[other].act(table.observation(other), legal)
            reward += table.apply_action(action)[self.seat]
        return reward

    def _observation(self) -> Observation:
        return self.encoding.encode(self.table, self.seat)

    def _info(self) -> dict[str, Any]:
        info = self.table.info(self.seat)
        info["action_mask"] = self.action_masks().astype(np.int8)
        info["seat"] = self.seat
        return info


class GinEnv(RummyEnv):
    """:class:`RummyEnv` for gin (``rummykit/Gin-v0``): one seat against a gin bot.

    Options as for :class:`RummyEnv`, with the table options of ``gin_v0``
    (``rules``, ``episode``, ``reward``, ``knock_melds``, ``dealer``).
    """

    game = "gin"


for _encoding in encodings():
    if _encoding.gymnasium and _encoding.gymnasium_id not in gymnasium.registry:
        gymnasium.register(
            id=_encoding.gymnasium_id,
            entry_point="rummykit.rl.gymnasium:RummyEnv",
            kwargs={"game": _encoding.game},
        )
