"""PettingZoo, Gymnasium and OpenSpiel wrappers pass their frameworks' own checks."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from rummykit.core import IllegalActionError
from rummykit.rl.gin_observation import OBSERVATION_SIZE
from rummykit.rl.pettingzoo import gin_v0

CONFIGS: list[dict[str, Any]] = [
    {},
    {"episode": "match", "reward": "win", "knock_melds": "choose", "render_mode": "ansi"},
    {"rules": {"knock_limit": 5, "auto_layoff": False}, "reward": "win", "dealer": 0},
]


@pytest.mark.parametrize("config", CONFIGS, ids=["default", "match", "options"])
def test_pettingzoo_api_and_seed(config: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Dict observations: PettingZoo's usual notes
        api_test(gin_v0.env(**config), num_cycles=200)
        seed_test(lambda: gin_v0.env(**config), num_cycles=200)


def test_pettingzoo_configuration_survives_seeded_reset() -> None:
    env = gin_v0.raw_env(episode="match", reward="win", rules={"knock_limit": 7})
    for seed in (1, 2, 1):
        env.reset(seed=seed)
        assert env.table.episode == "match" and env.table.reward == "win"
        assert env.table.rules.knock_limit == 7
    env.reset(seed=1)
    first = env.observe(env.agent_selection)["observation"]
    env.reset(seed=2)
    env.reset(seed=1)
    assert np.array_equal(first, env.observe(env.agent_selection)["observation"])


def test_pettingzoo_illegal_action_raises_or_terminates() -> None:
    env = gin_v0.env()
    env.reset(seed=3)
    with pytest.raises(IllegalActionError, match="not legal"):
        env.step(53)
    observation, *_ = env.last()
    assert observation["action_mask"].nonzero()[0].tolist() == [52, 54]

    env = gin_v0.env(illegal_action="terminate", illegal_reward=-5.0)
    env.reset(seed=3)
    offender = env.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(53)
    assert all(env.terminations.values())
    assert env._cumulative_rewards[offender] == -5.0  # type: ignore[attr-defined]


def test_pettingzoo_needs_reset_first() -> None:
    env = gin_v0.env()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(52)


def test_gymnasium_check_env_and_registration() -> None:
    import gymnasium
    from gymnasium.utils.env_checker import check_env

    from rummykit.rl.gymnasium import ENV_ID, GinEnv

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        # check_env samples actions without the mask: use the terminate convention.
        check_env(GinEnv(illegal_action="terminate"), skip_render_check=True)
        check_env(GinEnv(opponent="random", episode="match", illegal_action="terminate"))
        env = gymnasium.make(ENV_ID, opponent="heuristic", opponent_level=0.5)
    observation, info = env.reset(seed=0)
    assert observation.shape == (OBSERVATION_SIZE,)
    assert env.observation_space.contains(observation)
    mask = env.unwrapped.action_masks()  # type: ignore[attr-defined]
    assert mask.dtype == np.bool_ and np.array_equal(mask, info["action_mask"].astype(bool))


def test_gymnasium_illegal_action_raises() -> None:
    from rummykit.rl.gymnasium import GinEnv

    env = GinEnv(opponent="random", seat=1)
    env.reset(seed=5)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    with pytest.raises(IllegalActionError):
        env.step(illegal)
    env = GinEnv(opponent="random", seat=1, illegal_action="terminate", illegal_reward=-2.0)
    env.reset(seed=5)
    _, reward, terminated, _, info = env.step(illegal)
    assert terminated and reward == -2.0 and info["illegal_action"] == illegal


def test_gymnasium_episode_against_heuristic_is_zero_sum_with_the_bot() -> None:
    from rummykit.rl.gymnasium import GinEnv

    env = GinEnv(opponent="heuristic", seat=0)
    rng = np.random.default_rng(0)
    for seed in range(5):
        env.reset(seed=seed)
        terminated = False
        total = 0.0
        while not terminated:
            action = int(rng.choice(np.flatnonzero(env.action_masks())))
            _, reward, terminated, _, _ = env.step(action)
            total += reward
        result = env.table.hand.result
        assert result is not None
        expected = 0 if result.winner is None else result.points * (1 if result.winner == 0 else -1)
        assert total == expected


def test_openspiel_random_simulation() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import rummykit.rl.openspiel  # noqa: F401 - registers the game

    game = pyspiel.load_game("python_rummykit_gin")
    assert game.num_distinct_actions() == 241
    assert game.observation_tensor_shape() == [OBSERVATION_SIZE]
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)
    seeded = pyspiel.load_game("python_rummykit_gin(seed=7,knock_melds=choose,knock_limit=8)")
    pyspiel.random_sim_test(seeded, num_sims=2, serialize=True, verbose=False)
    state = seeded.new_initial_state()
    assert state.current_player() == 0
    assert [state.action_to_string(0, a) for a in state.legal_actions()] == [
        "Draw upcard",
        "Pass",
    ]
    assert "history" in state.information_state_string(0)


def test_gymnasium_opponent_can_be_any_registered_level() -> None:
    """The strong bots' levels serve as opponents; an unknown name fails at once."""
    from rummykit.rl.gymnasium import GinEnv
    from rummykit.sim.registry import UnknownBotError

    env = GinEnv(opponent="expert", seat=0)
    _, info = env.reset(seed=3)
    assert type(env._opponent).__name__ == "GinExpertBot"
    rng = np.random.default_rng(1)
    for _ in range(40):
        legal = np.flatnonzero(info["action_mask"])
        _, _, terminated, _, info = env.step(int(rng.choice(legal)))
        if terminated:
            break
    with pytest.raises(UnknownBotError, match="unknown gin bot"):
        GinEnv(opponent="grandmaster")
