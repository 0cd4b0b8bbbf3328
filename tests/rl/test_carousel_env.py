"""Carousel in the research interfaces: ``carousel_v0`` passes PettingZoo's checks,
``rummykit/Carousel-v0`` Gymnasium's, and every id stands for one engine action."""

from __future__ import annotations

import random
import warnings
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from rummykit.cards import Card
from rummykit.core import IllegalActionError
from rummykit.games.carousel import CarouselAction, best_placement
from rummykit.melds import CAROUSEL_MELDS, is_meld
from rummykit.rl.carousel_actions import (
    DRAW,
    END_TURN,
    KNOCK,
    MELD_CARDS,
    NUM_ACTIONS,
    PLACE_BEST,
    PLACE_FEW_CHANGES,
    PLACE_MOST,
    RUN_BASE,
    SET_BASE,
    action_string,
    run_id,
    set_id,
)
from rummykit.rl.carousel_melds import layoff_faces, table_facts
from rummykit.rl.carousel_observation import (
    OBSERVATION_SIZE,
    encode_observation,
    field_slices,
    observation_high,
)
from rummykit.rl.carousel_table import CarouselTable
from rummykit.rl.pettingzoo import carousel_v0

CONFIGS: list[dict[str, Any]] = [
    {},
    {"players": 2, "episode": "game", "reward": "win", "rules": {"target": 40}},
    {"players": 5, "render_mode": "ansi", "dealer": 4, "rules": {"knock_limit": 15}},
]
_FINITE = {DRAW: "draw", END_TURN: "end_turn", KNOCK: "knock"}


@pytest.mark.parametrize("config", CONFIGS, ids=["default", "game", "five"])
def test_pettingzoo_api_and_seed(config: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Dict observations: PettingZoo's usual notes
        api_test(carousel_v0.env(**config), num_cycles=150)
        seed_test(lambda: carousel_v0.env(**config), num_cycles=150)


def test_action_ids_are_named_once() -> None:
    assert NUM_ACTIONS == 158
    assert len({action_string(i) for i in range(NUM_ACTIONS)}) == NUM_ACTIONS
    assert len({frozenset(faces) for faces in MELD_CARDS.values()}) == len(MELD_CARDS) == 100
    for action_id, faces in MELD_CARDS.items():
        assert is_meld(faces, CAROUSEL_MELDS), action_string(action_id)
        found = set_id(faces) if action_id < RUN_BASE else run_id(faces)
        assert found == action_id
    assert action_string(SET_BASE) == "Set AC AD AH"
    with pytest.raises(ValueError, match="ids are 0-157"):
        action_string(NUM_ACTIONS)


def _play(table: CarouselTable, rng: random.Random, check: Any) -> int:
    steps = 0
    while not table.is_over:
        check(table)
        legal = table.legal_ids()
        table.step(rng.choice(legal))
        steps += 1
    return steps


@pytest.mark.parametrize("players", [2, 3, 5])
def test_every_legal_id_is_one_engine_action(players: int) -> None:
    """At every decision: the finite ids are exactly the engine's legal actions, each
    meld id lays what its name says and passes the engine's layout rule, and the
    solver's ids are offered exactly when the solver lays a card."""
    seen: set[int] = set()

    def check(table: CarouselTable) -> None:
        hand = table.hand
        legal = table.legal_ids()
        assert legal == sorted(set(legal)) and legal
        finite = {_FINITE[i] for i in legal if i in _FINITE}
        assert finite == {action.kind for action in hand.legal_actions()}
        seat = hand.current_player
        before = {int(card) for card in hand.hands[seat]}
        for action_id in legal:
            if action_id in _FINITE:
                continue
            action = table.action_for(action_id)
            assert action.kind == "meld" and hand.may_meld()
            laid = hand.check(action)
            assert laid is not None and laid.cards
            assert {int(card) for card in laid.cards} <= before
            faces = sorted(card.face for card in laid.cards)
            if action_id < SET_BASE:
                assert faces == [action_id]
            elif action_id < DRAW:
                assert faces == sorted(MELD_CARDS[action_id])
            seen.add(action_id)
        placed = PLACE_BEST in legal
        assert placed == (PLACE_MOST in legal) == (PLACE_FEW_CHANGES in legal)
        if hand.may_meld():  # the mask's shortcuts agree with the solver itself
            rules = table.rules
            found = best_placement(
                hand.table,
                hand.hands[seat],
                rules=rules.meld_rules,
                decks=table.decks,
                joker_copy_limit=rules.joker_copy_limit,
                joker_value=rules.joker_value,
            )
            assert placed == (found is not None and bool(found.cards))
        simple = [i for i in legal if i < DRAW]
        assert not simple or placed  # a simple meld lays a card: so does the solver

    table = CarouselTable(players=players)
    rng = random.Random(players)
    for seed in range(4):
        table.reset(seed=seed)
        _play(table, rng, check)
    assert any(i < SET_BASE for i in seen) and PLACE_BEST in seen


def test_observation_planes_add_up_and_stay_in_bounds() -> None:
    table = CarouselTable(players=4)
    rng = random.Random(1)
    slices = field_slices()
    high = observation_high()
    table.reset(seed=3)
    while not table.is_over:
        for seat in range(4):
            values = encode_observation(table, seat)
            assert values.shape == (OBSERVATION_SIZE,)
            assert (values >= 0).all() and (values <= high).all()
            pack = values[slices["hand"]] + values[slices["table"]] + values[slices["unknown"]]
            assert pack.tolist() == [2.0] * 53  # two decks, two jokers
            assert values[slices["hand_sizes"]][0] * 10 == len(table.hand.hands[seat])
        table.step(rng.choice(table.legal_ids()))


def test_illegal_id_is_rejected_and_changes_nothing() -> None:
    table = CarouselTable(players=3)
    table.reset(seed=1)
    version = table.version
    with pytest.raises(IllegalActionError, match=r"legal ids: 152 \(Draw\)"):
        table.step(KNOCK)
    for bad in (True, 2.0, "152", -1, NUM_ACTIONS):
        with pytest.raises(IllegalActionError):
            table.step(bad)  # type: ignore[arg-type]
    assert table.version == version
    assert table.step(np.int64(DRAW)) == [0.0, 0.0, 0.0]


def test_rewards_hand_points_and_game_bonuses() -> None:
    rng = random.Random(5)
    table = CarouselTable(players=3)
    for seed in range(3):
        table.reset(seed=seed)
        total = [0.0] * 3
        while not table.is_over:
            for seat, value in enumerate(table.step(rng.choice(table.legal_ids()))):
                total[seat] += value
        assert table.hand.result is not None
        assert total == list(table.hand.result.points)
        assert table.info(0)["last_hand"]["points"] == total
    game = CarouselTable(players=2, episode="game", rules={"target": 30})
    game.reset(seed=2)
    total = [0.0, 0.0]
    while not game.is_over:
        for seat, value in enumerate(game.step(rng.choice(game.legal_ids()))):
            total[seat] += value
    assert game.game is not None and game.game.result is not None
    assert total == list(game.game.result.totals)
    assert game.info(0)["game"]["totals"] == total


def test_render_and_the_meld_macro_text() -> None:
    env = carousel_v0.env(players=3, render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str) and "legal: 152 Draw" in text
    table = CarouselTable(players=2)
    table.reset(seed=4)
    rng = random.Random(0)
    while PLACE_BEST not in table.legal_ids():
        table.step(rng.choice(table.legal_ids()))
    best = table.action_for(PLACE_BEST)
    assert isinstance(best, CarouselAction) and best.kind == "meld"
    assert table.action_for(PLACE_MOST).kind == "meld"


def test_gymnasium_carousel_against_catalog_bots() -> None:
    import gymnasium
    from gymnasium.utils.env_checker import check_env

    import rummykit.rl.gymnasium  # noqa: F401 - registers the ids
    from rummykit.rl.gymnasium import RummyEnv

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(RummyEnv(game="carousel", players=3, illegal_action="terminate"))
        env = gymnasium.make("rummykit/Carousel-v0", players=3, opponent="random", seat=1)
    rng = np.random.default_rng(2)
    _, info = env.reset(seed=2)
    terminated, total = False, 0.0
    while not terminated:
        legal = np.flatnonzero(info["action_mask"])
        _, reward, terminated, _, info = env.step(int(rng.choice(legal)))
        total += float(reward)
    assert total == info["last_hand"]["points"][1]


def test_layoff_faces_kept_by_shape_answer_for_every_copy() -> None:
    """Lay-off faces are kept per meld and per meld shape (the cards without their copy
    bits): a meld of other copies gets the meld rule's own answer."""
    rng = random.Random(5)
    table = CarouselTable(players=3)
    melds: set[tuple[Card, ...]] = set()
    for seed in range(6):
        table.reset(seed=seed)
        while not table.is_over and len(melds) < 300:
            legal = table.legal_ids()
            table.step(legal[rng.randrange(len(legal))])
            melds.update(table.hand.table)
    assert len(melds) > 20
    for meld in sorted(melds):
        table_facts([meld])  # keeps this meld's faces, and its shape's
        other = tuple(Card(int(card) ^ (rng.randrange(1, 8) << 6)) for card in meld)
        assert [c.face for c in other] == [c.face for c in meld]
        assert [c.declared for c in other] == [c.declared for c in meld]
        assert table_facts([other]).layoffs == (frozenset(layoff_faces(other)),)
