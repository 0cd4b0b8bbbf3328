"""A game of Rami (``rummykit.games.rami.game``): rules/rami.md sections 1, 5 and 6."""

from __future__ import annotations

import json

import pytest

from rummykit.core import IllegalActionError
from rummykit.errors import InvalidOptionError, InvalidRecordError
from rummykit.games.rami import RamiAction, RamiRules
from rummykit.games.rami.game import RamiGame
from rummykit.games.rami.heuristic_bot import RamiHeuristicBot, RamiRandomBot
from rummykit.games.rami.selfplay import play_rami_game


def bots(count: int) -> list[RamiHeuristicBot | RamiRandomBot]:
    return [RamiHeuristicBot() if s == 0 else RamiRandomBot(s) for s in range(count)]


def test_section6_limit_mode_ends_when_a_total_reaches_500() -> None:
    game = play_rami_game(bots(4), RamiRules(), seed=1)
    result = game.result
    assert result is not None
    assert max(result.totals) >= 500
    before_last = [t - p for t, p in zip(result.totals, game.results[-1].penalties, strict=True)]
    assert max(before_last) < 500  # it ended after the first round that reached the limit
    low = min(result.totals)
    assert result.winners == tuple(s for s in range(4) if result.totals[s] == low)
    assert result.rounds == len(game.results) == game.round_number


def test_section6_rounds_mode() -> None:
    game = play_rami_game(bots(3), RamiRules(end_mode="rounds", rounds=2), seed=2)
    assert game.result is not None and game.result.rounds == 2


def test_section6_elimination_mode() -> None:
    rules = RamiRules(end_mode="elimination", limit=150)
    game = play_rami_game(bots(5), rules, seed=3)
    result = game.result
    assert result is not None
    standing = [s for s in range(5) if s not in result.eliminated]
    assert result.winners[0] in standing
    for seat in result.eliminated:
        assert result.totals[seat] >= 150
    # Eliminated players sit out later rounds: no cards, no penalty.
    for rnd, res in zip(game.finished_rounds, game.results, strict=True):
        for seat in range(5):
            if seat not in rnd.active:
                assert res.penalties[seat] == 0 and not rnd.hands[seat]
    # The pack follows the number of active players (3 decks for 5, 2 for 4 or fewer).
    for rnd in game.finished_rounds:
        assert len(rnd.deck) == (160 if len(rnd.active) >= 5 else 108)


def test_section1_dealer_passes_left_and_left_of_dealer_starts() -> None:
    game = RamiGame(RamiRules(end_mode="rounds", rounds=5), players=4, seed=9, first_dealer=2)
    players = bots(4)
    seen = []
    while not game.is_over:
        if len(seen) < game.round_number:
            seen.append((game.round.dealer, game.round.current_player))
        seat = game.current_player
        game.apply(players[seat].act(game.observation(seat), game.legal_actions()))
    assert seen == [(2, 3), (3, 0), (0, 1), (1, 2), (2, 3)]


def test_observation_carries_the_totals() -> None:
    game = RamiGame(RamiRules(), players=3, seed=4)
    obs = game.observation(0)
    assert obs.scores == (0, 0, 0) and obs.round_number == 1


def test_no_action_after_the_game_and_records() -> None:
    game = play_rami_game(bots(2), RamiRules(limit=100), seed=5)
    with pytest.raises(IllegalActionError, match="game is over"):
        game.apply(RamiAction.draw_stock())
    again = RamiGame.from_record(json.loads(json.dumps(game.to_record())))
    assert again.result == game.result
    clone = game.clone()
    assert clone.totals == game.totals and clone.result == game.result
    sheet = game.score_sheet()
    assert sheet.splitlines()[0].startswith("round") and " wins" in sheet.splitlines()[-1]


def test_the_platform_words_and_rami_words_name_the_same_things() -> None:
    game = RamiGame(RamiRules(end_mode="rounds", rounds=3), players=3, seed=12)
    assert game.hand is game.round and game.hand_number == game.round_number == 1
    players = bots(3)
    while game.round_number < 2:
        seat = game.current_player
        game.apply(players[seat].act(game.observation(seat), game.legal_actions()))
    assert game.finished_hands is game.finished_rounds and len(game.finished_hands) == 1
    assert game.scores == game.totals == game.results[0].penalties
    # A clone plays on alone: its totals, eliminated seats and round are its own.
    clone = game.clone()
    while not clone.is_over:
        seat = clone.current_player
        clone.apply(players[seat].act(clone.observation(seat), clone.legal_actions()))
    assert game.round_number == 2 and len(game.finished_rounds) == 1
    assert game.totals == game.results[0].penalties != clone.totals
    result = clone.result
    assert result is not None and result.totals == clone.scores and result.winners


def test_an_unseeded_game_replays_from_its_decks_and_refill_seeds() -> None:
    game = play_rami_game(bots(3), RamiRules(end_mode="rounds", rounds=2), seed=None)
    record = json.loads(json.dumps(game.to_record()))
    assert record["seed"] is None and len(record["decks"]) == len(record["refill_seeds"]) == 2
    again = RamiGame.from_record(record)
    assert again.result == game.result and again.to_record() == record
    with pytest.raises(InvalidRecordError, match="decks"):
        RamiGame.from_record({**record, "decks": []})
    with pytest.raises(InvalidRecordError, match="rami-game"):
        RamiGame.from_record({**record, "variant": "gin-match"})
    with pytest.raises(InvalidOptionError, match="first_dealer"):
        RamiGame(players=3, seed=1, first_dealer=3)
