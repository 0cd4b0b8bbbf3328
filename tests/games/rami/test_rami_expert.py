"""RamiExpertBot: levels, legal play, determinism, and that it sees only its observation."""

from __future__ import annotations

import copy
import random

import pytest

from rummykit.cards import Card, parse_cards
from rummykit.errors import UnknownBotError
from rummykit.games.rami import RamiAction, RamiRound, RamiRules, new_round, preset
from rummykit.games.rami.expert_bot import LEVELS, RamiExpertBot, make_rami_expert
from rummykit.games.rami.heuristic_bot import RamiHeuristicBot
from rummykit.games.rami.selfplay import play_rami_game, play_rami_round
from rummykit.sim.registry import make_bot


def test_levels_are_registered_for_rami_and_its_presets() -> None:
    for variant in ("rami", "rami51", "rami40-house"):
        for level in LEVELS:
            bot = make_bot(variant, level, seed=3, rules=preset("rami51"), players=4)
            assert isinstance(bot, RamiExpertBot)
            assert bot.level == level and bot.name == level
    with pytest.raises(UnknownBotError, match="unknown rami level"):
        RamiExpertBot(seed=1, level="genius")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "rules",
    [
        RamiRules(),
        preset("rami40-house"),
        RamiRules(discard_must_be_melded=True),
        RamiRules(mandatory_final_discard=True, play_after_open_same_turn=False),
        RamiRules(opening_requires_pure_run=True, one_card_must_draw_stock=True),
        RamiRules(rami_sec="bonus:-50", unopened_penalty="flat:100"),
    ],
)
def test_every_level_plays_only_legal_moves(rules: RamiRules) -> None:
    # play_rami_round refuses an unlisted finite action and the engine raises on an
    # illegal open-ended one, so finishing the rounds is the check.
    for seed in range(3):
        bots = [make_rami_expert(seed=seed * 4 + i, rules=rules, level=LEVELS[i]) for i in range(4)]
        rnd = play_rami_round(bots, rules, seed=seed, dealer=seed % 4)
        assert rnd.is_over


def test_expert_plays_many_legal_rounds_against_the_heuristic() -> None:
    rules = preset("rami51")
    outcomes = set()
    for seed in range(24):
        bots: list[RamiExpertBot | RamiHeuristicBot] = [RamiHeuristicBot(rules) for _ in range(4)]
        bots[seed % 4] = RamiExpertBot(seed=seed, rules=rules)
        rnd = play_rami_round(bots, rules, seed=100 + seed, dealer=seed % 4)
        assert rnd.result is not None
        outcomes.add(rnd.result.outcome)
    assert "out" in outcomes


def test_same_seed_same_game() -> None:
    rules = preset("rami51")

    def record(seed: int) -> object:
        bots = [RamiExpertBot(seed=seed + i, rules=rules, level=LEVELS[i]) for i in range(4)]
        rnd = play_rami_round(bots, rules, seed=seed)
        return rnd.to_record()["actions"]

    assert record(11) == record(11)


def test_a_whole_game_ends() -> None:
    rules = RamiRules(end_mode="rounds", rounds=2)
    bots = [RamiExpertBot(seed=i, rules=rules) for i in range(3)]
    game = play_rami_game(bots, rules, seed=5)
    assert game.is_over


def _swap_hidden(rnd: RamiRound, seat: int, rng: random.Random) -> RamiRound:
    """The same round as ``seat`` sees it, with every card it cannot see dealt anew: the
    other hands (except the cards they are known to hold) and the stock order."""
    other = rnd.clone()
    hidden: list[Card] = list(other.stock)
    sizes: dict[int, int] = {}
    for s in range(other.players):
        if s == seat:
            continue
        known = list(other.known[s])
        free = list(other.hands[s])
        for card in known:
            free.remove(card)
        hidden.extend(free)
        sizes[s] = len(free)
        other.hands[s] = known
    rng.shuffle(hidden)
    for s, size in sizes.items():
        other.hands[s].extend(hidden[:size])
        del hidden[:size]
    other.stock = hidden
    return other


@pytest.mark.parametrize("level", LEVELS)
def test_decisions_depend_only_on_the_observation(level: str) -> None:
    """Swapping the hidden cards (other hands, stock order) never changes a decision."""
    rules = preset("rami51")
    rng = random.Random(2024)
    checked = 0
    for seed in range(3):
        seat = seed % 4
        bots: list[RamiExpertBot | RamiHeuristicBot] = [RamiHeuristicBot(rules) for _ in range(4)]
        expert = RamiExpertBot(seed=seed, rules=rules, level=level)  # type: ignore[arg-type]
        bots[seat] = expert
        rnd = new_round(rules, 4, seed=seed, dealer=seed % 4)
        while not rnd.is_over:
            current = rnd.current_player
            legal = rnd.legal_actions()
            if current == seat:
                twin = copy.deepcopy(expert)  # same RNG state, same caches
                swapped = _swap_hidden(rnd, seat, rng)
                assert sorted(swapped.all_cards()) == sorted(rnd.all_cards())
                assert swapped.observation(seat).hand == rnd.observation(seat).hand
                action = expert.act(rnd.observation(seat), legal)
                assert twin.act(swapped.observation(seat), swapped.legal_actions()) == action
                checked += 1
            else:
                action = bots[current].act(rnd.observation(current), legal)
            rnd.apply(action)
    assert checked > 20


def _position(hand: str, top: str, *, opened: bool = False) -> RamiRound:
    rnd = new_round(RamiRules(), 4, seed=1)
    cards = parse_cards(hand)
    wanted = [*cards, *parse_cards(top)]
    # Take the wanted cards out of wherever the deal put them, so the pack stays whole.
    pool = [c for c in rnd.all_cards() if c not in wanted]
    rnd.hands[0] = list(cards)
    rnd.discard_pile = list(parse_cards(top))
    for s in (1, 2, 3):
        rnd.hands[s] = [pool.pop() for _ in range(13)]
    rnd.stock = pool
    rnd.opened[0] = opened
    rnd.current_player = 0
    rnd.phase = "draw"
    return rnd


def test_expert_takes_the_discard_that_opens() -> None:
    rnd = _position("KH KS QH QS QD 4C 5C 2D 9S 7H 3C 8D 6H", "KD")
    action = RamiExpertBot(seed=1).act(rnd.observation(0), rnd.legal_actions())
    assert action == RamiAction.take_discard()


def test_expert_never_discards_a_joker_while_unopened() -> None:
    rnd = _position("JK 7H 7S 2C 9D KC 4D QS 3H 5C 8S TD 6D", "2S")
    rnd.apply(RamiAction.draw_stock())
    rnd.apply(RamiAction.end_play())
    action = RamiExpertBot(seed=1).act(rnd.observation(0), rnd.legal_actions())
    assert action.card is not None and action.card & 63 != 52
