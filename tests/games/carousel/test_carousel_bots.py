"""Carousel bots: the random bot stays legal, the heuristic bot beats two random bots.

The strength test plays 3-player games to 150 with the heuristic bot rotated through
the seats (about 0.8 s a game, nearly all of it in ``best_placement``).
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from carousel_helpers import DRAW, END, KNOCK, position

from rummykit.cards import format_cards, parse_cards
from rummykit.games.carousel.actions import CarouselAction
from rummykit.games.carousel.game import CarouselGame
from rummykit.games.carousel.rules import CarouselRules
from rummykit.games.carousel.simple_bots import (
    CarouselHeuristicBot,
    CarouselRandomBot,
    simple_placements,
)

GAMES = 120
"""40 games with the heuristic bot in each seat (about 100 s)."""


def test_heuristic_bot_wins_at_least_95_percent_against_two_random_bots() -> None:
    started = time.perf_counter()
    wins = 0
    losses: list[tuple[int, tuple[int, ...]]] = []
    for number in range(GAMES):
        rules = CarouselRules()
        seat = number % 3
        bots = [
            CarouselHeuristicBot(rules) if s == seat else CarouselRandomBot(number * 3 + s)
            for s in range(3)
        ]
        game = CarouselGame(rules, players=3, seed=1000 + number)
        while not game.is_over:
            acting = game.current_player
            game.apply(bots[acting].act(game.observation(acting), game.legal_actions()))
        assert game.result is not None
        if game.result.winners == (seat,):
            wins += 1
        else:
            losses.append((number, game.result.totals))
    elapsed = time.perf_counter() - started
    print(f"heuristic won {wins}/{GAMES} in {elapsed:.0f} s")
    assert wins >= 0.95 * GAMES, losses


def test_random_bot_never_breaks_the_copy_limit() -> None:
    # Two decks: a real 5S is on the table and a joker stands for the other one, so the
    # held 5S may not join 2S-4S even though 2S 3S 4S 5S is a run.
    hand = position(
        ["5S KH QD", "KC KD", "QC JD"],
        table=["2S 3S 4S", "JK=5S 6S 7S", "5S 5H 5D"],
    )
    observation = hand.observation(0)
    layouts = simple_placements(observation.table, observation.hand)
    assert [format_cards(layout[0]) for layout in layouts] == ["2S 3S 4S 5S"]
    for seed in range(20):
        action = CarouselRandomBot(seed).act(observation, hand.legal_actions())
        assert action == DRAW
    # Without the copy limit the same layout is legal and the bot plays it.
    free = CarouselRules(joker_copy_limit=False)
    loose = position(
        ["5S KH QD", "KC KD", "QC JD"],
        table=["2S 3S 4S", "JK=5S 6S 7S", "5S 5H 5D"],
        rules=free,
    )
    action = CarouselRandomBot(1, rules=free).act(loose.observation(0), loose.legal_actions())
    assert action.kind == "meld"
    loose.apply(action)


def test_random_bot_follows_the_draw_options() -> None:
    rules = CarouselRules(max_draws=2)
    hand = position(["7H 8H 9H KS", "KC KD", "QC JD"], draws=2, rules=rules)
    assert not hand.may_meld()
    for seed in range(10):
        action = CarouselRandomBot(seed, rules=rules).act(hand.observation(0), hand.legal_actions())
        assert action in (END, KNOCK) and hand.is_legal(action)
    # Under the default rules the second draw still allows a meld.
    open_hand = position(["7H 8H 9H KS", "KC KD", "QC JD"], draws=2)
    action = CarouselRandomBot(3).act(open_hand.observation(0), open_hand.legal_actions())
    assert action == CarouselAction.meld([*open_hand.table, open_hand.hand_cards(0)[:3]])


def test_simple_placements_are_new_trios_and_single_additions() -> None:
    hand = position(["AS QS KS 2S 7D 7C 7H 9H", "KC KD"], table=["4H 5H 6H", "7S 8S 9S"])
    observation = hand.observation(0)
    layouts = {
        tuple(format_cards(m) for m in layout)
        for layout in simple_placements(observation.table, observation.hand)
    }
    assert layouts == {
        ("4H 5H 6H", "7S 8S 9S", "QS KS AS"),  # ace high, never K-A-2
        ("4H 5H 6H", "7S 8S 9S", "7C 7D 7H"),
        ("4H 5H 6H 7H", "7S 8S 9S"),
    }


def faces(table: Sequence[Sequence[int]]) -> list[list[int]]:
    return sorted(sorted(c & 63 for c in meld) for meld in table)


def test_heuristic_bot_places_the_most_value_then_ends_or_knocks() -> None:
    bot = CarouselHeuristicBot()
    # 8C 8D can join 8H (splitting the run); KS fits nowhere.
    hand = position(["8C 8D KS", "KC KD QC", "QH QD JC"], table=["5H 6H 7H 8H"])
    action = bot.act(hand.observation(0), hand.legal_actions())
    assert action.kind == "meld"
    hand.apply(action)
    expected = [tuple(parse_cards("5H 6H 7H")), tuple(parse_cards("8H 8C 8D"))]
    assert faces(hand.table) == faces(expected)
    assert bot.act(hand.observation(0), hand.legal_actions()) == END  # KS: 10, no knock
    # Left with an ace after melding: it knocks.
    low = position(["AC 9S", "KC KD QC", "QH QD JC"], table=["6S 7S 8S"])
    low.apply(bot.act(low.observation(0), low.legal_actions()))
    assert low.hand_value(0) == 1
    assert bot.act(low.observation(0), low.legal_actions()) == KNOCK
    # Nothing fits: it draws again.
    stuck = position(["KH 2C 9D", "QC QD", "JC JD"], table=["7D 7S 7C"], top="5H JS")
    assert bot.act(stuck.observation(0), stuck.legal_actions()) == DRAW
