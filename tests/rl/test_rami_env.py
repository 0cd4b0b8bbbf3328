"""``rami_v0`` passes PettingZoo's own checks and keeps its configuration."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from rummykit.core import IllegalActionError
from rummykit.rl.pettingzoo import rami_v0
from rummykit.rl.rami_actions import DRAW_STOCK, END_PLAY, TAKE_DISCARD
from rummykit.rl.rami_observation import OBSERVATION_SIZE

CONFIGS: list[dict[str, Any]] = [
    {},
    {"players": 2, "episode": "game", "reward": "win", "rules": {"limit": 60}},
    {"players": 4, "episode": "game", "rules": {"end_mode": "elimination", "limit": 80}},
    {"players": 6, "rules": "rami40-house", "render_mode": "ansi", "dealer": 5},
    {"players": 3, "rules": {"discard_must_be_melded": True, "mandatory_final_discard": True}},
]


@pytest.mark.parametrize(
    "config", CONFIGS, ids=["default", "game", "elimination", "six", "options"]
)
def test_pettingzoo_api_and_seed(config: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Dict observations: PettingZoo's usual notes
        api_test(rami_v0.env(**config), num_cycles=200)
        seed_test(lambda: rami_v0.env(**config), num_cycles=200)


def test_configuration_survives_seeded_reset() -> None:
    env = rami_v0.raw_env(players=5, episode="game", reward="win", rules={"limit": 300})
    for seed in (1, 2, 1):
        env.reset(seed=seed)
        table = env.table
        assert (table.num_seats, table.episode, table.reward) == (5, "game", "win")
        assert table.rules.limit == 300 and len(env.agents) == 5
    env.reset(seed=1)
    first = env.observe(env.agent_selection)["observation"]
    env.reset(seed=2)
    env.reset(seed=1)
    assert np.array_equal(first, env.observe(env.agent_selection)["observation"])
    assert first.shape == (OBSERVATION_SIZE,)


def test_masks_and_episode_end() -> None:
    env = rami_v0.env(players=3)
    env.reset(seed=4)
    acting = env.agent_selection
    for agent in env.agents:
        mask = env.observe(agent)["action_mask"]
        expected = [DRAW_STOCK, TAKE_DISCARD] if agent == acting else []
        assert mask.dtype == np.int8 and mask.nonzero()[0].tolist() == expected
    rng = np.random.default_rng(4)
    steps = 0
    for _agent in env.agent_iter():
        observation, _reward, termination, truncation, info = env.last()
        if termination or truncation:
            assert not observation["action_mask"].any()
            assert "last_round" in info
            env.step(None)
            continue
        legal = observation["action_mask"].nonzero()[0]
        env.step(int(rng.choice(legal)))
        steps += 1
    assert steps > 10 and not env.agents


def test_illegal_action_raises_or_terminates() -> None:
    env = rami_v0.env(players=2)
    env.reset(seed=3)
    with pytest.raises(IllegalActionError, match="not legal"):
        env.step(END_PLAY)
    env = rami_v0.env(players=4, illegal_action="terminate", illegal_reward=-5.0)
    env.reset(seed=3)
    offender = env.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(END_PLAY)
    assert all(env.terminations.values())
    assert env._cumulative_rewards[offender] == -5.0  # type: ignore[attr-defined]


def test_render_shows_what_the_seat_to_act_sees() -> None:
    env = rami_v0.env(players=2, render_mode="ansi")
    env.reset(seed=8)
    text = env.render()
    assert isinstance(text, str)
    assert "to act" in text and "legal: 158 Draw stock, 159 Take discard" in text


def test_gymnasium_rami_against_catalog_bots() -> None:
    """``rummykit/Rami-v0``: one seat against a bot at every other seat."""
    import gymnasium
    from gymnasium.utils.env_checker import check_env

    import rummykit.rl.gymnasium  # noqa: F401 - registers the ids
    from rummykit.rl.gymnasium import RummyEnv

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(RummyEnv(game="rami", players=3, illegal_action="terminate"))
        env = gymnasium.make("rummykit/Rami-v0", players=4, opponent="random", seat=2)
    rng = np.random.default_rng(2)
    _, info = env.reset(seed=2)
    unwrapped: Any = env.unwrapped
    assert sorted(unwrapped._opponents) == [0, 1, 3]
    terminated, total = False, 0.0
    while not terminated:
        legal = np.flatnonzero(info["action_mask"])
        _, reward, terminated, _, info = env.step(int(rng.choice(legal)))
        total += float(reward)
    assert total == -info["last_round"]["penalties"][2]
    preset = RummyEnv(game="rami40", players=2, opponent="heuristic")
    assert preset.table.rules.opening_threshold == 40
