"""The gin view keeps some parts between moves (each hand's best arrangement, the
score sheet, the last showdown) and reads the hand's observation instead of the
match's: after every move of whole matches it equals the view computed afresh."""

from __future__ import annotations

import random
from typing import Any

from rummykit.cards import format_card
from rummykit.games.gin import min_deadwood
from rummykit.games.gin.views import GinTableGame
from rummykit.server.variants import get_adapter


def fresh_parts(game: GinTableGame, seat: int) -> dict[str, Any]:
    """The parts of ``seat``'s view that are kept or taken elsewhere, from scratch."""
    observation = game.match.observation(seat)
    best = min_deadwood(observation.hand, ace_high=game.match.rules.ace_high_runs)
    return {
        "scores": list(observation.scores),
        "target": observation.target,
        "melds": [[format_card(card) for card in meld] for meld in best.melds],
        "deadwood": best.deadwood,
        "deadwood_cards": [format_card(card) for card in best.deadwood_cards],
        "hand": [format_card(card) for card in observation.hand],
    }


def test_kept_view_parts_equal_fresh_ones_after_every_move() -> None:
    adapter = get_adapter("gin")
    rules = adapter.make_rules("gin", {"target": 60})
    for seed in range(6):
        game = adapter.new_game(rules, seats=2, seed=seed)
        assert isinstance(game, GinTableGame)
        rng = random.Random(seed)
        bot = adapter.make_bot("heuristic", rules, seed=seed)
        moves = 0
        while not game.is_over and moves < 3000:
            seat = game.current_seat
            assert seat is not None
            if seat == 1 or rng.random() < 0.5:
                action = game.bot_action(seat, bot)
            else:
                action = rng.choice(game.legal_actions())
            game.apply(seat, action)
            moves += 1
            for viewer in (0, 1):
                view = game.view(viewer)
                for name, value in fresh_parts(game, viewer).items():
                    assert view[name] == value, (seed, moves, viewer, name)
            spectator = game.view(None)
            assert spectator["scores"] == list(game.match.points)
            assert "hand" not in spectator and "melds" not in spectator
        assert game.is_over, "the match should end well within 3000 moves"
