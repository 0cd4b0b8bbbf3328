"""Rami invariants (hypothesis): card conservation across reshuffles, at most one joker per
combination at every step, replay equality, and observation hiding (DESIGN.md, "Quality
habits"); plus many random rounds that must finish without error."""

from __future__ import annotations

import json
import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rami_helpers import snapshot

from rummykit.cards import JOKER_FACE
from rummykit.games.rami import RamiRound, RamiRules, new_round, preset
from rummykit.games.rami.game import RamiGame
from rummykit.games.rami.heuristic_bot import RamiHeuristicBot, RamiRandomBot
from rummykit.melds import RAMI_MELDS, is_meld

RULE_SETS = [
    RamiRules(),
    preset("rami40"),
    preset("rami51-house"),
    RamiRules(max_turns=60, max_reshuffles=1),
    RamiRules(discard_must_be_melded=True, opening_threshold=30),
    RamiRules(mandatory_final_discard=True, end_joker_shifts=True, opening_threshold=40),
    RamiRules(rami_sec_exempt_opening=True, opening_threshold=30),
    RamiRules(discard_from_second_round=True, one_card_must_draw_stock=True),
    RamiRules(play_after_open_same_turn=False, opening_requires_pure_run=True),
]


def play(rnd: RamiRound, seed: int, *, each_step: object = None) -> RamiRound:
    """Random bots (macro-actions included) play the round to its end."""
    bots = [RamiRandomBot(seed * 7 + seat) for seat in range(rnd.players)]
    while not rnd.is_over:
        seat = rnd.current_player
        action = bots[seat].act(rnd.observation(seat), rnd.legal_actions())
        rnd.apply(action)
        if callable(each_step):
            each_step(rnd)
    return rnd


def check_invariants(rnd: RamiRound) -> None:
    everything = rnd.all_cards()
    assert sorted(everything) == sorted(rnd.deck), "a card appeared or vanished"
    for combo in rnd.table:
        jokers = sum(1 for card in combo.cards if card & 63 == JOKER_FACE)
        assert jokers <= 1, f"{combo} holds {jokers} jokers"
        assert combo.joker == (-1 if not jokers else combo.joker)
        assert is_meld(combo.physical_cards(), RAMI_MELDS), f"{combo} is no combination"
    for seat in range(rnd.players):
        for card in rnd.known[seat]:
            assert card in rnd.hands[seat]


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(2, 6),
    rules=st.sampled_from(RULE_SETS),
)
def test_cards_conserved_and_one_joker_per_combination_at_every_step(
    seed: int, players: int, rules: RamiRules
) -> None:
    rnd = new_round(rules, players, seed=seed, dealer=seed % players)
    check_invariants(rnd)
    play(rnd, seed, each_step=check_invariants)
    assert rnd.result is not None
    assert len(rnd.result.penalties) == players


def test_reshuffles_conserve_cards() -> None:
    """Rounds that refill the stock (discard pile reshuffled) still hold every card."""
    refilled = 0
    for seed in range(40):
        rnd = new_round(RamiRules(), 2, seed=seed)
        rng = random.Random(seed)
        while not rnd.is_over:
            legal = rnd.legal_actions()
            rnd.apply(legal[0] if rnd.phase == "draw" else rng.choice(legal))
            check_invariants(rnd)
        refilled += rnd.refills
    assert refilled >= 40


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 6), rules=st.sampled_from(RULE_SETS))
def test_replay_from_record_is_identical(seed: int, players: int, rules: RamiRules) -> None:
    rnd = play(new_round(rules, players, seed=seed), seed)
    record = json.loads(json.dumps(rnd.to_record()))
    again = RamiRound.from_record(record)
    assert snapshot(again) == snapshot(rnd)
    assert again.history == rnd.history
    for seat in range(players):
        assert again.observation(seat) == rnd.observation(seat)
    # An unseeded round keeps its deck and refill seed in the record.
    fresh = play(new_round(rules, players), seed)
    assert snapshot(RamiRound.from_record(fresh.to_record())) == snapshot(fresh)


def test_replay_of_a_whole_game() -> None:
    rules = RamiRules(limit=200)
    for seed in (3, None):
        game = RamiGame(rules, players=3, seed=seed)
        bots = [RamiHeuristicBot(), RamiRandomBot(1), RamiRandomBot(2)]
        while not game.is_over:
            seat = game.current_player
            game.apply(bots[seat].act(game.observation(seat), game.legal_actions()))
        again = RamiGame.from_record(json.loads(json.dumps(game.to_record())))
        assert again.totals == game.totals and again.result == game.result
        assert [r.penalties for r in again.results] == [r.penalties for r in game.results]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 6), steps=st.integers(0, 400))
def test_observation_hides_other_hands_and_the_stock(seed: int, players: int, steps: int) -> None:
    rnd = new_round(RamiRules(), players, seed=seed)
    bots = [RamiRandomBot(seed + seat) for seat in range(players)]
    for _ in range(steps):
        if rnd.is_over:
            break
        seat = rnd.current_player
        rnd.apply(bots[seat].act(rnd.observation(seat), rnd.legal_actions()))
    rng = random.Random(seed)
    for viewer in range(players):
        before = rnd.observation(viewer)
        others = [s for s in range(players) if s != viewer]
        changed = rnd.clone()
        # Swap hidden cards: between another hand and the stock, and shuffle the stock.
        seat = rng.choice(others)
        hidden = [c for c in changed.hands[seat] if c not in changed.known[seat]]
        if hidden and changed.stock:
            a = rng.choice(hidden)
            b = rng.randrange(len(changed.stock))
            changed.hands[seat][changed.hands[seat].index(a)] = changed.stock[b]
            changed.stock[b] = a
        if len(others) >= 2:
            first, second = rng.sample(others, 2)
            one = [c for c in changed.hands[first] if c not in changed.known[first]]
            two = [c for c in changed.hands[second] if c not in changed.known[second]]
            if one and two:
                x, y = rng.choice(one), rng.choice(two)
                changed.hands[first][changed.hands[first].index(x)] = y
                changed.hands[second][changed.hands[second].index(y)] = x
        rng.shuffle(changed.stock)
        after = changed.observation(viewer)
        if rnd.is_over:
            continue  # every hand is revealed at the end
        assert after == before
        assert after.hand == before.hand
        assert sum(after.hand_sizes) == sum(len(h) for h in rnd.hands)


def test_observation_never_holds_other_hands() -> None:
    rnd = new_round(RamiRules(), 4, seed=2)
    obs = rnd.observation(1)
    others = {c for seat in (0, 2, 3) for c in rnd.hands[seat]}
    visible = set(obs.hand) | set(obs.discard_pile)
    assert not others & visible
    assert obs.stock_size == len(rnd.stock)
    assert obs.hand_sizes == (13, 13, 13, 13)
    drawn = rnd.clone()
    drawn.apply(drawn.legal_actions()[0])  # seat 1 draws from the stock
    seen = drawn.observation(2).history[-1]
    assert seen.kind == "draw_stock" and seen.card is None
    assert drawn.observation(1).history[-1].card is not None


@pytest.mark.slow
@pytest.mark.parametrize("players", [4, 6])
def test_random_rounds_finish_without_error(players: int) -> None:
    """1,000 rounds each of 4 and 6 random players (random bots with macro-actions)."""
    start = time.perf_counter()
    outcomes = {"out": 0, "blocked": 0}
    for seed in range(1000):
        rnd = play(new_round(RamiRules(), players, seed=seed, dealer=seed % players), seed)
        assert rnd.result is not None
        outcomes[rnd.result.outcome] += 1
        assert sorted(rnd.all_cards()) == sorted(rnd.deck)
    assert outcomes["out"] > 0
    print(f"{players} players: {outcomes} in {time.perf_counter() - start:.1f} s")


def test_replay_from_rules_seed_and_actions_alone() -> None:
    """DESIGN.md: a round is a function of (rules, seed, actions); the deck and refill
    seed in the record are a convenience, not needed when the seed is known."""
    rules = RamiRules(max_reshuffles=2)
    for seed in (4, 12, 33):
        rnd = play(new_round(rules, 3, seed=seed, dealer=1), seed)
        record = rnd.to_record()
        minimal = {k: record[k] for k in ("variant", "rules", "players", "seed", "dealer")}
        minimal["actions"] = record["actions"]
        again = RamiRound.from_record(minimal)
        assert snapshot(again) == snapshot(rnd)
