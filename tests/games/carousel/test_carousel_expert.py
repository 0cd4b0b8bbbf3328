"""Carousel levels: legal play, determinism, decisions from the observation alone.

Strength is measured by tournaments (docs/strong-bots-carousel.md), not asserted here;
these tests only play a few hands, so they stay quick.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from carousel_helpers import DRAW, END, KNOCK, position

from rummykit.cards import Card, parse_cards
from rummykit.games.carousel.expert_bot import (
    LEVELS,
    CarouselExpertBot,
    _shape,
    fits_table,
    undercut_probability,
    unseen_counts,
)
from rummykit.games.carousel.game import CarouselGame
from rummykit.games.carousel.hand import CarouselHand, new_hand
from rummykit.games.carousel.rules import CarouselRules
from rummykit.games.carousel.simple_bots import CarouselHeuristicBot
from rummykit.sim.registry import make_bot


def _play_hand(
    hand: CarouselHand, bots: Sequence[CarouselExpertBot | CarouselHeuristicBot]
) -> list[str]:
    """Play to the end; every action goes through the engine, which rejects illegal ones."""
    actions: list[str] = []
    while not hand.is_over:
        seat = hand.current_player
        action = bots[seat].act(hand.observation(seat), hand.legal_actions())
        hand.apply(action)
        actions.append(str(action))
    return actions


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_only_legal_actions(level: str) -> None:
    rules = CarouselRules()
    for seed in range(3):
        hand = new_hand(rules, players=3, seed=100 + seed, dealer=seed % 3)
        bots = [CarouselExpertBot(level, rules=rules, seed=seed * 3 + s) for s in range(3)]
        _play_hand(hand, bots)
        assert hand.result is not None


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (2, {}),
        (4, {"max_draws": 2}),
        (3, {"meld_after_last_draw": True, "knock_limit": 8}),
        (3, {"joker_copy_limit": False, "joker_value": 15}),
    ],
)
def test_levels_follow_the_rule_options(players: int, options: dict[str, object]) -> None:
    rules = CarouselRules.from_dict(options)
    for seed in range(2):
        hand = new_hand(rules, players=players, seed=7 + seed, dealer=0)
        bots = [
            CarouselExpertBot(LEVELS[(seed + s) % 4], rules=rules, seed=s, players=players)
            for s in range(players)
        ]
        _play_hand(hand, bots)


def test_a_whole_game_through_the_registry() -> None:
    rules = CarouselRules(target=60)
    game = CarouselGame(rules, players=3, seed=5)
    bots = [
        make_bot("carousel", name, seed=s, rules=rules, players=3)
        for s, name in enumerate(("expert", "hard", "easy"))
    ]
    while not game.is_over:
        seat = game.current_player
        game.apply(bots[seat].act(game.observation(seat), game.legal_actions()))
    assert game.result is not None


@pytest.mark.parametrize("level", LEVELS)
def test_same_seed_same_play(level: str) -> None:
    rules = CarouselRules()
    runs = []
    for _ in range(2):
        hand = new_hand(rules, players=3, seed=42, dealer=1)
        bots = [CarouselExpertBot(level, rules=rules, seed=9 + s) for s in range(3)]
        runs.append(_play_hand(hand, bots))
    assert runs[0] == runs[1]


def _swap_hidden(hand: CarouselHand, seat: int, rng: random.Random) -> CarouselHand:
    """The same position for ``seat`` with every card it cannot see dealt anew: the other
    hands (same sizes) and the stock order are a random permutation of the hidden cards."""
    other = hand.clone()
    hidden = [c for s in range(other.players) if s != seat for c in other.hands[s]]
    hidden += other.stock
    rng.shuffle(hidden)
    for s in range(other.players):
        if s != seat:
            size = len(other.hands[s])
            other.hands[s], hidden = hidden[:size], hidden[size:]
    other.stock = hidden
    return other


@pytest.mark.parametrize("level", LEVELS)
def test_decisions_depend_only_on_the_observation(level: str) -> None:
    """Swapping the hidden cards (other hands, stock order) never changes a decision."""
    rules = CarouselRules()
    shuffler = random.Random(3)
    checked = 0
    # Every decision of a whole hand, each seen three ways (two re-deals of the hidden
    # cards); one hand keeps the solver calls few.
    for seed in range(1):
        hand = new_hand(rules, players=3, seed=200 + seed, dealer=seed)
        drivers = [CarouselHeuristicBot(rules, decks=2) for _ in range(3)]
        while not hand.is_over:
            seat = hand.current_player
            observation = hand.observation(seat)
            decisions = set()
            for trial in range(3):
                view = hand if trial == 0 else _swap_hidden(hand, seat, shuffler)
                seen = view.observation(seat)
                assert seen == observation  # the swap is invisible to the seat
                bot = CarouselExpertBot(level, rules=rules, seed=1234)
                decisions.add(bot.act(seen, view.legal_actions()))
            assert len(decisions) == 1
            checked += 1
            hand.apply(drivers[seat].act(observation, hand.legal_actions()))
    assert checked > 15


def test_unseen_pool_and_table_fits() -> None:
    hand = position(["5S KH", "QC JD", "2C 3C"], table=["2S 3S 4S", "JK=5H 6H 7H", "9D 9C 9H"])
    observation = hand.observation(0)
    counts = unseen_counts(observation, 2)
    assert counts[parse_cards("5S")[0].face] == 1  # one copy held
    assert counts[parse_cards("JK")[0].face] == 1  # one joker on the table
    assert counts[parse_cards("AS")[0].face] == 2
    shapes = [_shape(meld) for meld in observation.table]
    fits = {str(Card(face)) for face in range(52) if fits_table(face, shapes)}
    # Run ends, the joker's declaration, and the missing suit of the group.
    assert fits == {"AS", "5S", "4H", "5H", "8H", "9S"}


def test_undercut_probability_is_exact_on_small_cases() -> None:
    rules = CarouselRules()
    weights = [0.0] * 53
    weights[0] = 1.0  # ace of spades: value 1
    weights[12] = 3.0  # king of spades: value 10
    # One opponent with one card: 1/4 an ace.
    assert undercut_probability(1, [1], weights, rules) == pytest.approx(0.25)
    # Two cards, both aces needed for 2: 1/16; a second opponent too: 1 - (15/16)^2.
    assert undercut_probability(2, [2], weights, rules) == pytest.approx(1 / 16)
    assert undercut_probability(2, [2, 2], weights, rules) == pytest.approx(1 - (15 / 16) ** 2)
    # Three cards cannot total 2 or less.
    assert undercut_probability(2, [3], weights, rules) == 0.0


def test_medium_knocks_where_the_heuristic_waits() -> None:
    # Seat 0 melds to an ace; seat 1 holds two cards, so the heuristic bot does not knock.
    low = position(["AC 9S", "KC KD", "QH QD JC"], table=["6S 7S 8S"])
    heuristic = CarouselHeuristicBot()
    low.apply(heuristic.act(low.observation(0), low.legal_actions()))
    assert heuristic.act(low.observation(0), low.legal_actions()) == KNOCK  # value 1
    two = position(["2C 9S", "KC KD", "QH QD JC"], table=["6S 7S 8S"])
    two.apply(heuristic.act(two.observation(0), two.legal_actions()))
    assert heuristic.act(two.observation(0), two.legal_actions()) == END
    medium = CarouselExpertBot("medium")
    assert medium.act(two.observation(0), two.legal_actions()) == KNOCK


def test_hard_declines_a_risky_knock() -> None:
    # Holding 5 while both opponents hold a single card: over a third of the unseen
    # cards are worth 5 or less, so one of them very likely holds as little, and the
    # knock is refused; with an ace it is taken.
    hard = CarouselExpertBot("hard")
    risky = position(["5C 9S", "KC", "QH"], table=["6S 7S 8S"])
    risky.apply(hard.act(risky.observation(0), risky.legal_actions()))
    assert risky.hand_value(0) == 5
    assert hard.act(risky.observation(0), risky.legal_actions()) == END
    assert CarouselExpertBot("medium").act(risky.observation(0), risky.legal_actions()) == KNOCK
    safe = position(["AC 9S", "KC", "QH"], table=["6S 7S 8S"])
    safe.apply(hard.act(safe.observation(0), safe.legal_actions()))
    assert hard.act(safe.observation(0), safe.legal_actions()) == KNOCK


def test_easy_sometimes_sees_only_simple_melds() -> None:
    # 8C 8D can join 8H only by splitting the run: medium always melds; easy, when its
    # RNG gives it the simple view, finds nothing and draws.
    split = position(["8C 8D KS", "KC KD QC", "QH QD JC"], table=["5H 6H 7H 8H"])
    kinds = {
        CarouselExpertBot("easy", seed=seed).act(split.observation(0), split.legal_actions()).kind
        for seed in range(12)
    }
    assert kinds == {"meld", "draw"}
    # Simple melds go down one after another: 9H, then TH, then the trio: out either way.
    for seed in range(6):
        hand = position(["9H TH 2C 2D 2S", "KC KD QC", "QH QD JC"], table=["5H 6H 7H 8H"])
        bot = CarouselExpertBot("easy", seed=seed)
        while not hand.is_over and hand.current_player == 0:
            hand.apply(bot.act(hand.observation(0), hand.legal_actions()))
        assert hand.result is not None and hand.result.reason == "went_out"


def test_expert_draws_again_for_a_chance_to_knock() -> None:
    # Laying the kings now leaves 3C 4C (7): no knock. A second card 2C, 5C or a joker
    # would let 3C 4C go down too, so the expert draws again; medium melds at once.
    hand = position(
        ["KS KH KD 3C 4C", "QC QD JC JD 9S 8S", "QH QS JH JS 9C 8C"], table=["9H TH JH"]
    )
    medium = CarouselExpertBot("medium")
    assert medium.act(hand.observation(0), hand.legal_actions()).kind == "meld"
    expert = CarouselExpertBot("expert")
    assert expert.act(hand.observation(0), hand.legal_actions()) == DRAW
    # With the knock already in reach (3C 4C gone, an ace left) it melds now.
    ready = position(
        ["KS KH KD 3C 4C 5C AD", "QC QD JC JD 9S 8S", "QH QS JH JS 9C 8C"], table=["9H TH JH"]
    )
    assert expert.act(ready.observation(0), ready.legal_actions()).kind == "meld"


def test_expert_holds_melds_back_until_they_knock_or_go_out() -> None:
    # After the second draw the kings would go down leaving 9S 8C (17): no knock, so
    # the expert keeps them and draws its third card; medium melds.
    hand = position(
        ["KS KH KD 9S 8C", "QC QD JC JD 9D 8S", "QH QS JH JS 9C 8D"],
        table=["9H TH JH"],
        draws=2,
    )
    assert CarouselExpertBot("medium").act(hand.observation(0), hand.legal_actions()).kind == "meld"
    assert CarouselExpertBot("expert").act(hand.observation(0), hand.legal_actions()) == DRAW
    # When the meld leaves 5 or less it goes down (and the expert may knock).
    low = position(
        ["KS KH KD 2S 3C", "QC QD JC JD 9D 8S", "QH QS JH JS 9C 8D"],
        table=["9H TH JH"],
        draws=2,
    )
    assert CarouselExpertBot("expert").act(low.observation(0), low.legal_actions()).kind == "meld"
    # With the stock empty it cannot draw again, so it melds what it can.
    last = position(
        ["KS KH KD 9S 8C", "QC QD JC JD 9D 8S", "QH QS JH JS 9C 8D"],
        table=["9H TH JH"],
        stock=[],
    )
    assert CarouselExpertBot("expert").act(last.observation(0), last.legal_actions()).kind == "meld"
