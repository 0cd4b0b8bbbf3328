"""Every game as an OpenSpiel game: pyspiel's own checks, information states, the
resampling imperfect-information search needs, and OpenSpiel's ISMCTS playing them."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

import rummykit.rl.openspiel  # noqa: E402, F401 - registers the games
from rummykit.cards import FACES  # noqa: E402

GAMES = [
    "python_rummykit_gin",
    "python_rummykit_rami(players=3)",
    "python_rummykit_carousel(players=3)",
]
SEEDED = [
    "python_rummykit_gin(seed=3)",
    "python_rummykit_rami(players=2,seed=3)",
    "python_rummykit_carousel(players=2,seed=3)",
]


@pytest.mark.parametrize("name", [*GAMES, "python_rummykit_rami(players=6)"])
def test_random_simulation(name: str) -> None:
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


@pytest.mark.parametrize("name", SEEDED)
def test_random_simulation_with_serialization(name: str) -> None:
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_game_types_and_shapes() -> None:
    for name, players, size, actions in (
        ("python_rummykit_gin", 2, 480, 241),
        ("python_rummykit_rami", 4, 781, 165),
        ("python_rummykit_carousel", 3, 286, 158),
        ("python_rummykit_carousel(players=5,dealer=0)", 5, 286, 158),
    ):
        game = pyspiel.load_game(name)
        kind = game.get_type()
        assert kind.provides_information_state_tensor and kind.provides_information_state_string
        assert game.num_players() == players
        assert game.num_distinct_actions() == actions
        assert game.observation_tensor_shape() == [size]
        assert game.information_state_tensor_shape() == [size]
        state = game.new_initial_state()
        assert state.is_chance_node()
        assert len(state.information_state_tensor(0)) == size


def _dealt(game: Any, seed: int, moves: int) -> Any:
    """A state after the deal and ``moves`` random decisions (seeded)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("name", [*GAMES, "python_rummykit_gin(knock_melds=choose,knock_limit=40)"])
def test_resampled_states_look_the_same_to_the_player(name: str) -> None:
    """At every decision of seeded games, for every player: the resampled state gives
    that player the same information-state string and tensor, observation and legal
    ids (when it is to act), and it plays on."""
    game = pyspiel.load_game(name)
    rng = random.Random(7)
    for seed in range(2):
        state = _dealt(game, seed, 0)
        steps = 0
        while not state.is_terminal() and steps < 400:
            if steps % 3 == 0:
                for player in range(game.num_players()):
                    sampler = pyspiel.UniformProbabilitySampler(rng.randrange(10**6), 0.0, 1.0)
                    other = state.resample_from_infostate(player, sampler)
                    key = state.information_state_string(player)
                    assert other.information_state_string(player) == key
                    assert other.information_state_tensor(player) == (
                        state.information_state_tensor(player)
                    )
                    assert other.observation_string(player) == state.observation_string(player)
                    assert other.current_player() == state.current_player()
                    if player == state.current_player():
                        assert other.legal_actions() == state.legal_actions()
                    assert len(other.history()) == len(state.history())
                    other.apply_action(rng.choice(other.legal_actions()))
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1


def test_resampling_is_seeded_and_covers_the_chance_nodes() -> None:
    game = pyspiel.load_game("python_rummykit_gin")
    state = _dealt(game, 3, 6)
    first = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(5, 0.0, 1.0))
    again = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(5, 0.0, 1.0))
    other = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(6, 0.0, 1.0))
    assert first.history() == again.history() != other.history()
    assert first.information_state_string(1) != state.information_state_string(1)
    dealing = game.new_initial_state()
    for card in (4, 8, 15):
        dealing.apply_action(card)
    sampled = dealing.resample_from_infostate(1, pyspiel.UniformProbabilitySampler(1, 0.0, 1.0))
    assert sampled.is_chance_node() and len(sampled.history()) == 3


def _locations(state: Any) -> dict[str, list[int]]:
    """Where the cards are (physical ids): each seat's hand and the stock."""
    deal = state.table.deal
    seats = state.get_game().num_players()
    where = {f"seat {seat}": [int(c) for c in deal.observation(seat).hand] for seat in range(seats)}
    where["stock"] = [int(card) for card in deal.stock]
    return where


@pytest.mark.parametrize(
    ("name", "moves"),
    [
        ("python_rummykit_gin", 9),
        ("python_rummykit_rami(players=3)", 14),
        ("python_rummykit_carousel(players=3)", 12),
    ],
)
def test_each_unseen_card_lands_in_each_hidden_place_uniformly(name: str, moves: int) -> None:
    """Over many seeded samples, each card the player cannot place lands in each
    hidden place (another seat's hand, the stock) in proportion to the hidden cards
    there: a chi-square statistic over (face, place) within a generous bound. Cards
    the player knows another seat holds stay there."""
    game = pyspiel.load_game(name)
    state = _dealt(game, 11, moves)
    player = state.current_player()
    classes = state.table.hidden_classes(player)
    assert len(classes) == 1
    hidden = classes[0]
    truth = _locations(state)
    mine = f"seat {player}"
    known = {
        place: Counter(FACES[c] for c in cards if c not in hidden)
        for place, cards in truth.items()
        if place != mine
    }
    slots = {place: sum(c in hidden for c in truth[place]) for place in known}
    assert sum(slots.values()) == len(hidden)  # every hidden card is in a hidden place
    copies = Counter(FACES[card] for card in hidden)
    samples = 240
    counts: Counter[tuple[int, str]] = Counter()
    rng = random.Random(1)
    for _ in range(samples):
        sampler = pyspiel.UniformProbabilitySampler(rng.randrange(10**9), 0.0, 1.0)
        where = _locations(state.resample_from_infostate(player, sampler))
        assert sorted(where[mine]) == sorted(truth[mine])
        for place, kept in known.items():
            faces = Counter(FACES[card] for card in where[place])
            assert not kept - faces  # the known cards are still there
            for face, count in (faces - kept).items():
                counts[face, place] += count
    statistic = 0.0
    cells = 0
    for place, size in slots.items():
        for face, number in copies.items():
            expected = samples * number * size / len(hidden)
            if expected > 0:
                statistic += (counts[face, place] - expected) ** 2 / expected
                cells += 1
    # A chi-square variable with about ``cells`` degrees of freedom has mean ``cells``
    # and standard deviation sqrt(2 cells); the bound allows ten of them.
    assert statistic < cells + 10 * (2 * cells) ** 0.5, (statistic, cells)


def test_rami_resampling_after_stock_refills() -> None:
    """Players who never meld run the stock out: the refilled stock is its own class
    of hidden cards (public in the pile before), and the samples still look the same."""
    game = pyspiel.load_game("python_rummykit_rami(players=2,max_reshuffles=5)")
    rng = random.Random(3)
    state = _dealt(game, 5, 0)
    checked = 0
    while not state.is_terminal():
        table = state.table
        if table.round.refills and rng.random() < 0.1:
            player = rng.randrange(2)
            classes = table.hidden_classes(player)
            assert len(classes) == 1 + table.round.refills
            sampler = pyspiel.UniformProbabilitySampler(rng.randrange(10**6), 0.0, 1.0)
            other = state.resample_from_infostate(player, sampler)
            assert other.information_state_string(player) == state.information_state_string(player)
            assert other.information_state_tensor(player) == state.information_state_tensor(player)
            checked += 1
        legal = state.legal_actions()
        quiet = [a for a in legal if a < 53 or a in (158, 160)]  # draw, end play, discard
        state.apply_action(rng.choice(quiet or legal))
    assert checked >= 5
