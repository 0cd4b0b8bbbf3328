"""The gin levels play legal moves, are reproducible, and see only their own seat.

Their strength is a measurement (docs/strong-bots-gin.md), not a test.
"""

from __future__ import annotations

import random

import pytest

from rummykit.bots import RandomBot
from rummykit.errors import UnknownBotError
from rummykit.games.gin import GinAction, GinHand, GinRules, new_hand
from rummykit.games.gin.deadwood import cards_of_mask, mask_of
from rummykit.games.gin.expert_bot import LEVELS, GinExpertBot, make_expert_bot
from rummykit.games.gin.heuristic_bot import GinHeuristicBot
from rummykit.games.gin.selfplay import play_gin_match
from rummykit.sim.registry import make_bot

AnyGinBot = GinExpertBot | GinHeuristicBot | RandomBot


def _play_hand(hand: GinHand, bots: list[AnyGinBot]) -> None:
    while not hand.is_over:
        seat = hand.current_player
        legal = hand.legal_actions()
        action = bots[seat].act(hand.observation(seat), legal)
        assert action in legal, f"{bots[seat].name} chose {action}, not one of {legal}"
        hand.apply(action)


@pytest.mark.parametrize("level", LEVELS)
def test_levels_play_only_legal_actions(level: str) -> None:
    # Against the heuristic (close, tactical hands) and the random bot (long hands that
    # reach the stock floor), from both seats.
    for seed in range(6):
        opponent: AnyGinBot = GinHeuristicBot() if seed % 2 else RandomBot(seed)
        bot: AnyGinBot = GinExpertBot(level, seed=seed)  # type: ignore[arg-type]
        bots = [bot, opponent] if seed % 4 < 2 else [opponent, bot]
        _play_hand(new_hand(seed=100 + seed, dealer=seed % 2), bots)


def test_levels_play_legal_actions_under_other_rules() -> None:
    rules = GinRules(knock_limit=5, ace_high_runs=True, first_turn_after_double_pass="stock_only")
    for level in LEVELS:
        bots: list[AnyGinBot] = [GinExpertBot(level, rules=rules, seed=3), GinHeuristicBot(rules)]
        _play_hand(new_hand(rules, seed=9), bots)


def test_a_match_is_a_function_of_the_seeds() -> None:
    def actions(seed: int) -> list[str]:
        bots = [make_expert_bot(seed=seed), make_expert_bot(seed=seed + 1, level="hard")]
        match = play_gin_match(bots, seed=5, first_dealer=0)
        return [str(action) for hand in match.finished_hands for action in hand.actions]

    assert actions(11) == actions(11)


def test_registered_levels_build_the_bot_of_that_level() -> None:
    for level in LEVELS:
        bot = make_bot("gin", level, seed=1)
        assert isinstance(bot, GinExpertBot)
        assert bot.level == level


def test_an_unknown_level_is_refused() -> None:
    with pytest.raises(UnknownBotError, match="unknown gin bot level"):
        GinExpertBot("grandmaster")  # type: ignore[arg-type]


def _swap_hidden(hand: GinHand, seat: int, rng: random.Random) -> GinHand:
    """The same position with the other seat's hidden cards and the stock reshuffled.

    The cards the other seat took from the pile stay in its hand (the seat saw them
    go there); every other card it holds and every stock card is dealt again at random
    among those places, which the seat cannot tell apart.
    """
    other = 1 - seat
    swapped = hand.clone()
    known = hand.known[other] & hand.hands[other]
    hidden = hand.hands[other] & ~known
    pool = [int(card) for card in cards_of_mask(hidden)] + list(hand.stock)
    rng.shuffle(pool)
    count = hidden.bit_count()
    swapped.hands[other] = known | mask_of(pool[:count])
    swapped.stock = pool[count:]
    return swapped


@pytest.mark.parametrize("level", LEVELS)
def test_hidden_cards_of_the_other_seat_never_change_a_decision(level: str) -> None:
    """Reshuffling what a seat cannot see (the other hand's hidden cards, the stock
    order) gives the same observation and, with the same RNG state, the same action,
    at every decision of several hands."""
    shuffler = random.Random(7)
    decisions = 0
    changed_hidden = 0
    for seed in range(3):
        bots = [GinExpertBot(level, seed=seed), GinExpertBot(level, seed=seed + 50)]  # type: ignore[arg-type]
        hand = new_hand(seed=200 + seed)
        while not hand.is_over:
            seat = hand.current_player
            legal = hand.legal_actions()
            bot = bots[seat]
            state = bot.rng.getstate()
            action = bot.act(hand.observation(seat), legal)
            after = bot.rng.getstate()
            for _ in range(2):
                swapped = _swap_hidden(hand, seat, shuffler)
                if swapped.hands[1 - seat] != hand.hands[1 - seat] or swapped.stock != hand.stock:
                    changed_hidden += 1
                assert swapped.observation(seat) == hand.observation(seat)
                bot.rng.setstate(state)
                assert bot.act(swapped.observation(seat), swapped.legal_actions()) == action
            bot.rng.setstate(after)
            decisions += 1
            hand.apply(action)
    assert decisions > 30
    # The swaps really moved hidden cards (otherwise the test proves nothing).
    assert changed_hidden > decisions


def test_knock_judgement_only_uses_cards_the_seat_has_not_seen() -> None:
    # Play until the expert may knock, then check its sampled opponent hands.
    for seed in range(40):
        hand = new_hand(seed=seed)
        expert = GinExpertBot("expert", seed=seed)
        bots: list[AnyGinBot] = [expert, GinHeuristicBot()]
        while not hand.is_over:
            seat = hand.current_player
            legal = hand.legal_actions()
            if seat == 0 and any(action.kind == "knock" for action in legal):
                observation = hand.observation(0)
                view = expert._read(observation)
                seen = mask_of(observation.hand) | mask_of(observation.discard_pile)
                assert view.unseen & seen == 0
                assert view.unseen | seen | hand.known[1] & hand.hands[1] == (1 << 52) - 1
                assert all(view.in_opponent[card] == 0.0 for card in cards_of_mask(seen))
                return
            hand.apply(bots[seat].act(hand.observation(seat), legal))
    pytest.fail("no knock chance in 40 hands")


def test_big_gin_and_gin_are_always_taken() -> None:
    # 11 melded cards after the draw: big gin beats any knock.
    rules = GinRules()
    bot = GinExpertBot("expert", rules=rules, seed=1)
    hand = new_hand(rules, seed=3)
    observation = hand.observation(hand.current_player)
    melded = mask_of([0, 1, 2, 3, 4, 18, 31, 44, 10, 11, 12])  # AS-5S, 6C 6D 6H, JS QS KS
    fake = type(observation)(
        **{
            **{field: getattr(observation, field) for field in observation.__dataclass_fields__},
            "phase": "discard",
            "hand": tuple(cards_of_mask(melded)),
        }
    )
    legal = [GinAction.big_gin(), GinAction.discard(0)]
    assert bot.act(fake, legal) == GinAction.big_gin()
