"""The 241-id gin encoding: identical to OpenSpiel's gin_rummy, and a faithful map of
the engine's actions."""

from __future__ import annotations

import pytest

from rummykit.games.gin import GinAction
from rummykit.melds import GIN_MELDS, is_meld
from rummykit.rl.gin_actions import (
    MELD_BASE,
    MELD_CARDS,
    NUM_ACTIONS,
    NUM_MELDS,
    action_string,
    encode_action,
    meld_id,
    split_meld,
)


def test_every_meld_is_a_gin_meld_and_distinct() -> None:
    assert len(MELD_CARDS) == NUM_MELDS == 185
    assert len({frozenset(meld) for meld in MELD_CARDS}) == NUM_MELDS
    assert all(is_meld(meld, GIN_MELDS) for meld in MELD_CARDS)
    for index, meld in enumerate(MELD_CARDS):
        assert meld_id(reversed(meld)) == MELD_BASE + index


def test_action_strings_match_openspiel_gin_rummy() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("gin_rummy")
    assert game.num_distinct_actions() == NUM_ACTIONS
    state = game.new_initial_state()
    prefix = "Player: 0 Action: "
    theirs = [state.action_to_string(0, action) for action in range(NUM_ACTIONS)]
    assert [text.removeprefix(prefix) for text in theirs] == [
        action_string(action) for action in range(NUM_ACTIONS)
    ]


def test_split_meld_cuts_long_runs_into_encoded_pieces() -> None:
    run = list(range(13))  # AS..KS
    for length in range(3, 14):
        pieces = split_meld(run[:length])
        assert sorted(card for piece in pieces for card in piece) == run[:length]
        assert all(3 <= len(piece) <= 5 for piece in pieces)
        for piece in pieces:
            meld_id(piece)


def test_encode_simple_actions() -> None:
    assert encode_action(GinAction.take_upcard()) == (52,)
    assert encode_action(GinAction.draw_discard()) == (52,)
    assert encode_action(GinAction.draw_stock()) == (53,)
    assert encode_action(GinAction.pass_()) == (54,)
    assert encode_action(GinAction.discard("KH")) == (51,)
    assert encode_action(GinAction.knock("AS")) == (55, 0)
    assert encode_action(GinAction.big_gin()) == (55, 54)
    melds = ["AS 2S 3S 4S 5S 6S", "9C 9D 9H"]
    assert encode_action(GinAction.knock("KH", melds)) == (
        55,
        51,
        meld_id("9C 9D 9H"),
        meld_id("AS 2S 3S"),
        meld_id("4S 5S 6S"),
        54,
    )
    with pytest.raises(ValueError, match="lay off"):
        encode_action(GinAction.lay_off())
    with pytest.raises(ValueError, match="not one of the 185"):
        meld_id("AS 2S")
