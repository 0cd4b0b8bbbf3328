"""The generic layer: games plug in through their registered encoding, and the
wrappers read rules, seats and presets from the catalog."""

from __future__ import annotations

import numpy as np
import pytest

from rummykit.errors import InvalidOptionError, UnknownVariantError
from rummykit.rl.encoding import encodings, get_encoding, new_table
from rummykit.rl.gin_table import GinTable
from rummykit.rl.pettingzoo import rami_v0
from rummykit.rl.pettingzoo.base import RummyAECEnv
from rummykit.rl.rami_table import RamiTable


def test_registered_games_and_their_names() -> None:
    assert sorted(encoding.game for encoding in encodings()) == ["carousel", "gin", "rami"]
    rami = get_encoding("rami51-house")
    assert (rami.pettingzoo_name, rami.gymnasium_id, rami.openspiel_name) == (
        "rami_v0",
        "rummykit/Rami-v0",
        "python_rummykit_rami",
    )
    assert rami.layout.size == rami.high().size == rami.observation_low().size == 781
    carousel = get_encoding("carousel")
    assert (carousel.pettingzoo_name, carousel.gymnasium_id, carousel.openspiel_name) == (
        "carousel_v0",
        "rummykit/Carousel-v0",
        "python_rummykit_carousel",
    )
    assert all(encoding.openspiel is not None for encoding in encodings())
    with pytest.raises(UnknownVariantError):
        get_encoding("canasta")


def test_rules_and_seats_come_from_the_catalog() -> None:
    assert new_table("rami40-house", players=2).rules.jokers == "per_deck"
    assert RamiTable("rami40").rules.opening_threshold == 40
    assert GinTable({"knock_limit": 7}).rules.knock_limit == 7
    with pytest.raises(InvalidOptionError, match="unknown gin option"):
        GinTable({"knock_limt": 7})
    with pytest.raises(InvalidOptionError, match="gin is for 2 players, not 3"):
        GinTable(players=3)
    with pytest.raises(InvalidOptionError, match="rami is for 2-6 players"):
        RamiTable(players=7)
    with pytest.raises(ValueError, match="dealer must be a seat 0-2 or None"):
        RamiTable(players=3, dealer=3)
    with pytest.raises(ValueError, match="episode must be 'round' or 'game'"):
        RamiTable(episode="hand")


def test_the_generic_environment_is_the_game_module() -> None:
    generic = RummyAECEnv(game="rami40", players=3)
    named = rami_v0.raw_env(rules="rami40", players=3)
    assert named.metadata["name"] == "rami_v0"
    for env in (generic, named):
        env.reset(seed=5)
    for agent in named.agents:
        ours, theirs = generic.observe(agent), named.observe(agent)
        assert np.array_equal(ours["observation"], theirs["observation"])
        assert np.array_equal(ours["action_mask"], theirs["action_mask"])
    with pytest.raises(ValueError, match="name the game"):
        RummyAECEnv()
