"""rules/carousel.md section 6: a Carousel game to 150 -- the end of the game and its
bonuses (Example 10, both ``round_bonus_to`` options), dealer rotation, replay of game
records through JSON, and the score sheet.

Scripted games replace each freshly dealt hand by a constructed position with the same
dealer (``CarouselGame.hand`` is a plain attribute) and end it with a knock, so that each
hand scores exactly what the script says.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from carousel_helpers import KNOCK, cards_worth, core_state, position

from rummykit.core import IllegalActionError
from rummykit.errors import InvalidOptionError, InvalidRecordError
from rummykit.games.carousel.actions import CarouselAction
from rummykit.games.carousel.game import CarouselGame
from rummykit.games.carousel.hand import CarouselHandResult
from rummykit.games.carousel.rules import CarouselRules
from rummykit.games.carousel.simple_bots import CarouselHeuristicBot, CarouselRandomBot

SUITS = "SCDH"


def play_knock(game: CarouselGame, knocker: int, hand_values: list[int]) -> CarouselHandResult:
    """Replace the fresh hand by a position in which ``knocker`` ends his turn (three
    draws made) holding ``hand_values[knocker]`` and the others theirs; he knocks."""
    fresh = game.hand
    assert not fresh.actions and fresh.draws == 1
    hands = [cards_worth(value, SUITS[seat]) for seat, value in enumerate(hand_values)]
    game.hand = position(hands, current=knocker, draws=3, dealer=fresh.dealer, rules=game.rules)
    before = len(game.results)
    game.apply(KNOCK)
    assert len(game.results) == before + 1
    return game.results[-1]


# Example 10 with 3 players (seat 0 = A, 1 = B, 2 = C). A wins four knocks of 37, B
# three of 45 + 46 + 46, C three of 40 -- 148, 137, 120, all below 150 -- then C knocks
# with 5 against A and B holding an ace each: A and B co-win (5 - 1) + 10 = 14 and pass
# 150 together: 162 (5 rounds won), 151 (4), 120 (3).
EXAMPLE10_SCRIPT: list[tuple[int, list[int], tuple[int, int, int]]] = [
    (0, [1, 20, 19], (37, 0, 0)),
    (1, [20, 1, 27], (0, 45, 0)),
    (2, [21, 21, 1], (0, 0, 40)),
    (0, [1, 20, 19], (37, 0, 0)),
    (1, [21, 1, 27], (0, 46, 0)),
    (2, [21, 21, 1], (0, 0, 40)),
    (0, [1, 20, 19], (37, 0, 0)),
    (1, [20, 1, 28], (0, 46, 0)),
    (2, [21, 21, 1], (0, 0, 40)),
    (0, [1, 20, 19], (37, 0, 0)),
    (2, [1, 1, 5], (14, 14, 0)),
]


def play_example10(rules: CarouselRules) -> CarouselGame:
    game = CarouselGame(rules, players=3, seed=10, first_dealer=2)
    for number, (knocker, hand_values, points) in enumerate(EXAMPLE10_SCRIPT, start=1):
        assert not game.is_over
        # Dealer rotation: the deal passes to the left each hand (section 1).
        assert game.hand_number == number
        assert game.hand.dealer == (2 + number - 1) % 3
        result = play_knock(game, knocker, hand_values)
        assert result.points == points
    assert game.is_over
    assert game.scores == (162, 151, 120)
    assert game.rounds_won == (5, 4, 3)
    return game


def test_section6_example10_default_round_bonus_to_others() -> None:
    game = play_example10(CarouselRules())
    final = game.result
    assert final is not None
    assert final.game_bonus == (100, 100, 0)
    assert final.round_bonus == (0, 0, 75)
    assert final.totals == (262, 251, 195)
    assert final.winners == (0,)
    assert game.results[-1].winners == (0, 1)  # the last hand: A and B co-win


def test_section6_example10_round_bonus_to_all() -> None:
    game = play_example10(CarouselRules(round_bonus_to="all"))
    final = game.result
    assert final is not None
    assert final.round_bonus == (125, 100, 75)
    assert final.totals == (387, 351, 195)
    assert final.winners == (0,)


def test_section6_game_ends_after_the_hand_reaching_the_target() -> None:
    game = CarouselGame(players=3, seed=3, first_dealer=2)
    play_knock(game, 0, [1, 75, 75])  # 74 + 74
    assert not game.is_over and game.scores == (148, 0, 0)
    play_knock(game, 1, [10, 1, 3])  # 9 + 2
    play_knock(game, 0, [1, 2, 1])  # the knocker ties seat 2, who wins 0 + 1 + 10
    assert game.results[-1].winners == (2,)
    assert not game.is_over and game.scores == (148, 11, 11)
    play_knock(game, 0, [1, 2, 2])  # exactly 150 ends the game
    assert game.is_over and game.scores == (150, 11, 11)
    final = game.result
    assert final is not None
    assert final.game_bonus == (100, 0, 0)
    assert final.totals == (250, 11 + 25, 11 + 25)
    assert final.winners == (0,)


def test_section6_equal_totals_share_the_win() -> None:
    game = CarouselGame(players=3, seed=4, first_dealer=2)
    play_knock(game, 2, [3, 3, 5])  # seats 0 and 1 undercut together: 2 + 0 + 10 each
    while not game.is_over:
        play_knock(game, 2, [1, 1, 5])  # 14 each
    assert game.scores == (152, 152, 0)
    final = game.result
    assert final is not None
    assert final.totals == (252, 252, 0)
    assert final.winners == (0, 1)
    assert game.score_sheet().splitlines()[-1] == "winners: seat 0, seat 1"


def test_finished_game_refuses_actions() -> None:
    game = play_example10(CarouselRules())
    assert game.legal_actions() == []
    with pytest.raises(IllegalActionError) as info:
        game.apply(CarouselAction.end_turn())
    assert info.value.code == "game_over"


def test_dealer_rotation_and_first_player_over_a_whole_game() -> None:
    bots: list[Any] = [CarouselHeuristicBot(), CarouselRandomBot(1), CarouselRandomBot(2)]
    game = CarouselGame(players=3, seed=21, first_dealer=1)
    starts: list[tuple[int, int, int]] = []
    while not game.is_over:
        hand = game.hand
        if not hand.actions:
            first = hand.current_player
            starts.append((hand.dealer, first, len(hand.hand_cards(first))))
        seat = game.current_player
        game.apply(bots[seat].act(game.observation(seat), game.legal_actions()))
    assert len(starts) == len(game.results) >= 1
    for number, (dealer, first, cards) in enumerate(starts):
        assert dealer == (1 + number) % 3
        assert first == (dealer + 1) % 3
        assert cards == 11  # ten dealt plus the automatic first draw
    assert [h.dealer for h in game.finished_hands] == [d for d, _, _ in starts]


def test_first_dealer_is_drawn_from_the_seed() -> None:
    dealers = {CarouselGame(players=4, seed=seed).first_dealer for seed in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert (
        CarouselGame(players=4, seed=7).first_dealer == CarouselGame(players=4, seed=7).first_dealer
    )


def play_bots(game: CarouselGame, actions: int | None = None) -> CarouselGame:
    bots: list[Any] = [CarouselHeuristicBot(game.rules)]
    bots += [CarouselRandomBot(seat, rules=game.rules) for seat in range(1, game.players)]
    done = 0
    while not game.is_over and (actions is None or done < actions):
        seat = game.current_player
        game.apply(bots[seat].act(game.observation(seat), game.legal_actions()))
        done += 1
    return game


def assert_same_game(one: CarouselGame, other: CarouselGame) -> None:
    assert other.results == one.results
    assert other.scores == one.scores and other.rounds_won == one.rounds_won
    assert other.result == one.result
    assert other.first_dealer == one.first_dealer
    assert [core_state(h) for h in other.finished_hands] == [
        core_state(h) for h in one.finished_hands
    ]
    assert core_state(other.hand) == core_state(one.hand)


@pytest.mark.parametrize("seed", [5, None])
@pytest.mark.parametrize("players", [2, 4])
def test_game_record_replays_through_json(seed: int | None, players: int) -> None:
    rules = CarouselRules(target=100)
    game = play_bots(CarouselGame(rules, players=players, seed=seed))
    assert game.is_over
    record = game.to_record()
    assert ("decks" in record) == (seed is None)
    text = json.dumps(record)
    replayed = CarouselGame.from_record(json.loads(text))
    assert_same_game(game, replayed)
    assert replayed.score_sheet() == game.score_sheet()
    assert json.dumps(replayed.to_record()) == text


@pytest.mark.parametrize("seed", [8, None])
def test_unfinished_game_record_replays_and_continues(seed: int | None) -> None:
    game = play_bots(CarouselGame(players=3, seed=seed), actions=25)
    assert not game.is_over
    replayed = CarouselGame.from_record(json.loads(json.dumps(game.to_record())))
    assert_same_game(game, replayed)
    # Both continue identically (the seeded game deals its next hands from the seed).
    play_bots(game, actions=40)
    play_bots(replayed, actions=40)
    if seed is not None or game.hand_number == replayed.hand_number == 1:
        assert core_state(replayed.hand) == core_state(game.hand)


def test_game_record_errors() -> None:
    game = play_bots(CarouselGame(CarouselRules(target=60), players=3, seed=2))
    record = game.to_record()
    with pytest.raises(InvalidRecordError, match="not a carousel-game record"):
        CarouselGame.from_record({**record, "variant": "gin"})
    extra = {**record, "actions": [*record["actions"], {"kind": "end_turn"}]}
    with pytest.raises(InvalidRecordError, match="actions after the end"):
        CarouselGame.from_record(extra)
    no_seed = {**record, "seed": None}
    with pytest.raises(InvalidRecordError, match="must list its decks"):
        CarouselGame.from_record(no_seed)
    with pytest.raises(InvalidOptionError, match="first_dealer must be a seat 0-2"):
        CarouselGame(players=3, seed=1, first_dealer=3)


def test_score_sheet_lists_hands_bonuses_and_totals() -> None:
    game = play_example10(CarouselRules())
    lines = game.score_sheet().splitlines()
    assert lines[0].split() == ["hand", "seat", "0", "seat", "1", "seat", "2"]
    hands = lines[1:12]
    assert [line.split()[0] for line in hands] == [str(n) for n in range(1, 12)]
    assert hands[0].split() == ["1", "+37", "knock"]
    assert hands[1].split() == ["2", "+45", "knock"]
    assert hands[-1].split() == ["11", "+14", "+14", "knock"]
    # The blank cells keep the columns: +45 sits under seat 1.
    assert hands[1].index("+45") > hands[0].index("+37")
    assert lines[12].split() == ["score", "162", "151", "120"]
    assert lines[13].split() == ["game", "bonus", "100", "100", "0"]
    assert lines[14].split() == ["round", "bonus", "0", "0", "75"]
    assert lines[15].split() == ["total", "262", "251", "195"]
    assert lines[16] == "seat 0 wins"
    assert len(lines) == 17


def test_score_sheet_before_the_end_has_no_bonus_lines() -> None:
    game = CarouselGame(players=3, seed=3, first_dealer=2)
    play_knock(game, 1, [10, 1, 3])
    sheet = game.score_sheet().splitlines()
    assert sheet[1].split() == ["1", "+11", "knock"]
    assert sheet[2].split() == ["score", "0", "11", "0"]
    assert len(sheet) == 3


def test_game_observation_carries_scores_and_target() -> None:
    game = CarouselGame(CarouselRules(target=120), players=3, seed=3, first_dealer=2)
    play_knock(game, 1, [10, 1, 3])
    observation = game.observation(0)
    assert observation.scores == (0, 11, 0) and observation.target == 120
    assert sorted(observation.hand) == sorted(game.hand.hand_cards(0))
    assert observation.current_player == game.current_player
