"""The experimental gin levels play only legal moves and sample consistent deals."""

from __future__ import annotations

import pytest

from rummykit.bots import GinHeuristicBot
from rummykit.bots.gin_expert import LEVELS, GinExpertBot
from rummykit.solvers.deadwood import mask_of
from rummykit.variants.gin import new_hand


@pytest.mark.parametrize("level", LEVELS)
def test_levels_play_whole_hands_with_legal_moves(level: str) -> None:
    for seed in range(2):
        hand = new_hand(seed=seed)
        bots = [GinExpertBot(level, seed=seed, playouts=6), GinHeuristicBot()]
        while not hand.is_over:
            seat = hand.current_player
            legal = hand.legal_actions()
            action = bots[seat].act(hand.observation(seat), legal)
            assert action in legal
            hand.apply(action)


def test_sampled_deals_never_contain_a_card_the_bot_has_seen() -> None:
    hand = new_hand(seed=4)
    bot = GinExpertBot("expert", seed=1, playouts=20)
    heuristic = GinHeuristicBot()
    for _ in range(12):
        seat = hand.current_player
        hand.apply(heuristic.act(hand.observation(seat), hand.legal_actions()))
    observation = hand.observation(hand.current_player)
    seen = mask_of(observation.hand) | mask_of(observation.discard_pile)
    known = mask_of(observation.opponent_known_cards)
    samples = bot._determinise(observation)
    assert len(samples) == 20
    for opponent, stock in samples:
        assert opponent & seen == 0
        assert opponent & known == known
        assert opponent.bit_count() == observation.opponent_hand_size
        assert len(stock) == observation.stock_size
        assert mask_of(stock) & (seen | opponent) == 0
