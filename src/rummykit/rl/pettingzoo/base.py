"""A PettingZoo AEC environment for any game with a registered encoding.

Each game's environment (``gin_v0``, ``rami_v0``) is this class with the game's
:class:`~rummykit.rl.encoding.GameEncoding`: its table and observation encoder.
Observations are dicts
``{"observation": float32 array, "action_mask": int8 array}``; the mask of a seat that
is not to act (or of a finished episode) is all zeros.

Illegal actions: the raw environment raises
:class:`~rummykit.core.IllegalActionError` (state unchanged). The ``env()`` factories
take ``illegal_action="terminate"`` to follow PettingZoo's convention instead
(``TerminateIllegalWrapper``: the episode ends and the offender gets
``illegal_reward``).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable
from typing import Any, ClassVar, Literal

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from rummykit.rl.encoding import GameEncoding, get_encoding, new_table

__all__ = ["IllegalActionMode", "RummyAECEnv", "env_factory", "wrap"]

Observation = dict[str, npt.NDArray[Any]]
IllegalActionMode = Literal["raise", "terminate"]


class RummyAECEnv(AECEnv[str, Observation, int]):
    """Two or more seats taking turns at a rummy table, as ``player_0``, ``player_1``...

    Args:
        game: the catalog name of the game, or of a preset (its rules); a subclass
            sets :attr:`game` instead.
        render_mode: ``None``, ``human`` or ``ansi``.
        options: the options of the game's table (``rules``, ``players``, ``episode``,
            ``reward``, ``dealer`` and the game's own).

    The configuration lives in the table and survives every ``reset(seed=...)``; a
    seed reseeds the deal generator, and later unseeded resets continue from it.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"],
        "name": "rummy_v0",
        "is_parallelizable": False,
    }
    game: ClassVar[str | None] = None
    """The catalog name of the game a subclass serves."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.game is not None:
            cls.metadata = {**RummyAECEnv.metadata, "name": f"{cls.game}_v0"}

    def __init__(
        self, game: str | None = None, *, render_mode: str | None = None, **options: Any
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}"
            )
        name = game or self.game
        if name is None:
            raise ValueError("name the game: RummyAECEnv(game=...)")
        encoding: GameEncoding = get_encoding(name)
        table = new_table(name, **options)
        self.table = table
        self.render_mode = render_mode
        self._encode = encoding.encode
        self._describe: Callable[[Any, int], str] = encoding.describe
        self.possible_agents = [f"player_{seat}" for seat in range(table.num_seats)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        observation_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    low=encoding.observation_low(), high=encoding.high(), dtype=np.float32
                ),
                "action_mask": spaces.Box(0, 1, shape=(table.num_actions,), dtype=np.int8),
            }
        )
        action_space = spaces.Discrete(table.num_actions)
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, action_space)
        self._seed_rng: random.Random | None = None
        self._cache: dict[int, tuple[int, Observation]] = {}
        self._mask_cache: tuple[int, npt.NDArray[np.int8]] | None = None
        self._zero_mask = bytes(table.num_actions)
        self._rewards_clear = True
        self.agents: list[str] = []
        self._has_reset = False

    # -- spaces ----------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- episode -----------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seed_rng = random.Random(seed)
        elif self._seed_rng is None:
            self._seed_rng = random.Random(secrets.randbits(128))
        self.table.reset(self._seed_rng.getrandbits(63))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._cache.clear()
        self._mask_cache = None
        self._rewards_clear = True
        self.agent_selection = self.possible_agents[self.table.current_player]
        self._has_reset = True

    def observe(self, agent: str) -> Observation:
        table = self.table
        version = table.version
        seat = self._seat[agent]
        cached = self._cache.get(seat)
        if cached is not None and cached[0] == version:
            # A new dict, so a caller may change it; the arrays themselves are never
            # changed after they are handed out (a new state makes new ones).
            return cached[1].copy()
        if not self._has_reset:
            raise RuntimeError("call reset() before observe()")
        if not table.is_over and table.current_player == seat:
            cached_mask = self._mask_cache
            if cached_mask is not None and cached_mask[0] == version:
                mask = cached_mask[1]
            else:
                flags = bytearray(self._zero_mask)
                for action_id in table.legal_ids():
                    flags[action_id] = 1
                mask = np.frombuffer(flags, np.int8)
                self._mask_cache = (version, mask)
        else:
            mask = np.zeros(table.num_actions, dtype=np.int8)
        observation: Observation = {"observation": self._encode(table, seat), "action_mask": mask}
        self._cache[seat] = (version, observation)
        return observation.copy()

    def last(
        self, observe: bool = True
    ) -> tuple[Observation | None, float, bool, bool, dict[str, Any]]:
        """PettingZoo's ``last()`` (observation, cumulative reward, terminated, truncated,
        info of the agent to act), without its extra indirections."""
        agent = self.agent_selection
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def step(self, action: int | None) -> None:
        if not self._has_reset:
            raise RuntimeError("call reset() before step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: step(None) is only for finished agents")
        table = self.table
        gained = table.step(action)  # raises IllegalActionError, state unchanged
        cumulative = self._cumulative_rewards
        cumulative[agent] = 0.0
        # Most steps pay nothing: then the rewards dict is only cleared, once.
        if any(gained):
            seat_of = self._seat
            rewards = {name: gained[seat_of[name]] for name in self.agents}
            self.rewards = rewards
            for name, reward in rewards.items():
                cumulative[name] += reward
            self._rewards_clear = False
        elif not self._rewards_clear:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._rewards_clear = True
        if table.is_over:
            self.terminations = dict.fromkeys(self.agents, True)
            self.infos = {name: table.info(self._seat[name]) for name in self.agents}
        else:
            self.agent_selection = self.possible_agents[table.current_player]
        if self.render_mode == "human":
            self.render()

    # -- rendering -------------------------------------------------------------------------

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = self._describe(self.table, self._seat.get(self.agent_selection, 0))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self._cache.clear()


def wrap(
    raw: RummyAECEnv, illegal_action: IllegalActionMode = "raise", illegal_reward: float = -1.0
) -> AECEnv[str, Observation, int]:
    """The raw environment with PettingZoo's usual wrappers.

    ``raise``: an illegal action raises :class:`~rummykit.core.IllegalActionError`
    (the raw environment itself, which also checks that ``reset`` comes first).
    ``terminate``: PettingZoo's convention, the episode ends and the offender is paid
    ``illegal_reward``.
    """
    if illegal_action not in ("raise", "terminate"):
        raise ValueError(f"illegal_action must be 'raise' or 'terminate', not {illegal_action!r}")
    if illegal_action == "raise":
        # The raw environment enforces the call order itself; PettingZoo's
        # OrderEnforcingWrapper would cost a third of the step time.
        return raw
    wrapped = wrappers.TerminateIllegalWrapper(raw, illegal_reward=illegal_reward)
    return wrappers.OrderEnforcingWrapper(wrapped)


def env_factory(
    raw_env: Callable[..., RummyAECEnv],
) -> Callable[..., AECEnv[str, Observation, int]]:
    """A game module's ``env()``: its ``raw_env`` with PettingZoo's usual wrappers."""

    def env(
        *, illegal_action: IllegalActionMode = "raise", illegal_reward: float = -1.0, **options: Any
    ) -> AECEnv[str, Observation, int]:
        """The wrapped environment; ``options`` are those of ``raw_env`` (see :func:`wrap`
        for ``illegal_action`` and ``illegal_reward``)."""
        return wrap(raw_env(**options), illegal_action, illegal_reward)

    return env
