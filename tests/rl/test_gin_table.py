"""The gin decision process: masks, the encoding round trip, views and rewards."""

from __future__ import annotations

import random

import numpy as np
import pytest

from rummykit.core import IllegalActionError, InvalidActionError
from rummykit.games.gin import GinAction, GinRules
from rummykit.rl.gin_actions import KNOCK, MELD_BASE, PASS, encode_action
from rummykit.rl.gin_observation import OBSERVATION_SIZE, encode_observation, encode_view
from rummykit.rl.gin_table import GinTable

RULE_SETS = [
    GinRules(),
    GinRules(knock_limit=3, first_turn_after_double_pass="stock_only", big_gin_from_discard=False),
    GinRules(auto_layoff=False, knocker_arrangement="explicit", stock_floor=0),
    GinRules(ace_high_runs=True, chained_layoffs=False),
]


def play_random(
    table: GinTable, rng: random.Random, check: object = None, *, knock: bool = False
) -> int:
    """Random legal ids (knocking whenever possible with ``knock``) until the end."""
    steps = 0
    while not table.is_over:
        legal = table.legal_ids()
        assert legal, "a live table always offers an action"
        if callable(check):
            check(table)
        table.step(KNOCK if knock and KNOCK in legal else rng.choice(legal))
        steps += 1
    return steps


@pytest.mark.parametrize("rules", RULE_SETS, ids=range(len(RULE_SETS)))
def test_mask_is_the_engine_legal_set_and_every_action_round_trips(rules: GinRules) -> None:
    rng = random.Random(5)
    checked = 0
    for seed in range(12):
        table = GinTable(rules)
        table.reset(seed)
        while not table.is_over:
            hand = table.hand
            engine_legal = hand.legal_actions()
            sequences = [encode_action(action, melds=False) for action in engine_legal]
            assert sorted({ids[0] for ids in sequences}) == table.legal_ids()
            assert len(set(sequences)) == len(sequences), "one id sequence per action"
            for action, ids in zip(engine_legal, sequences, strict=True):
                copy = table.clone()
                done_before = len(copy.hand.actions)
                for action_id in ids:
                    assert action_id in copy.legal_ids()
                    copy.step(action_id)
                assert copy.hand.actions[done_before] == action
                checked += 1
            table.step(rng.choice(table.legal_ids()))
    assert checked > 1000


def test_knock_and_big_gin_macros() -> None:
    for seed in range(400):
        table = GinTable()
        table.reset(seed)
        rng = random.Random(seed)
        while not table.is_over and KNOCK not in table.legal_ids():
            table.step(rng.choice(table.legal_ids()))
        if table.is_over:
            continue
        knocks = {
            int(a.card) for a in table.hand.legal_actions() if a.kind == "knock" and a.card
        } | {0 for a in table.hand.legal_actions() if a.kind == "knock" and a.card == 0}
        with pytest.raises(InvalidActionError):
            table.action_for(KNOCK)  # the macro's first id stands for no action yet
        assert table.knock_stage(table.current_player) == (None, 0)
        table.step(KNOCK)
        stage, _ = table.knock_stage(table.current_player)
        assert stage == "knock_card"
        assert set(table.legal_ids()) - {PASS} == knocks
        card = min(knocks)
        assert table.action_for(card) == GinAction.knock(card)
        with pytest.raises(IllegalActionError):
            table.step(53)
        table.step(table.legal_ids()[0])
        assert table.is_over
        assert table.hand.result is not None and table.hand.result.outcome != "draw"
        return
    pytest.fail("no knock in 400 random hands")


def test_choose_melds_always_completes_a_legal_knock() -> None:
    knocked = 0
    for seed in range(300):
        table = GinTable(knock_melds="choose")
        table.reset(seed)
        rng = random.Random(seed)
        while not table.is_over:
            legal = table.legal_ids()
            assert legal
            # Prefer knocking and laying melds, to exercise the macro.
            preferred = [i for i in legal if i == KNOCK or i >= MELD_BASE]
            table.step(rng.choice(preferred or legal))
        result = table.hand.result
        assert result is not None
        if result.knock_card is not None:
            knocked += 1
            melded = [card for meld in result.knocker_melds for card in meld]
            assert len(melded) == len(set(melded))
    assert knocked > 20


def test_choose_melds_needs_ace_low_runs() -> None:
    with pytest.raises(ValueError, match="ace-low"):
        GinTable(GinRules(ace_high_runs=True), knock_melds="choose")


@pytest.mark.parametrize("episode", ["hand", "match"])
def test_incremental_views_equal_views_from_full_observations(episode: str) -> None:
    def check(table: GinTable) -> None:
        for seat in (0, 1):
            assert table.view(seat) == table.reference_view(seat)

    for seed in range(8 if episode == "hand" else 1):
        table = GinTable(episode=episode, reward="points")  # type: ignore[arg-type]
        table.reset(seed)
        play_random(table, random.Random(seed), check, knock=episode == "match")
        check(table)


def test_illegal_id_is_rejected_and_changes_nothing() -> None:
    table = GinTable()
    table.reset(11)
    before = (table.version, list(table.legal_ids()), table.hand.to_record())
    for bad in (53, 0, 240, 241, -1, True, 52.0, "52", None):
        with pytest.raises(IllegalActionError) as caught:
            table.step(bad)  # type: ignore[arg-type]
        assert caught.value.code == "action_not_legal"
        assert "legal ids: 52 (Draw upcard), 54 (Pass)" in str(caught.value)
    assert (table.version, list(table.legal_ids()), table.hand.to_record()) == before
    table.step(np.int64(54))  # numpy integers are fine


def test_hidden_cards_never_change_a_seat_observation() -> None:
    rng = random.Random(3)
    compared = 0
    for seed in range(60):
        table = GinTable()
        table.reset(seed)
        for _ in range(rng.randrange(1, 40)):
            if table.is_over:
                break
            table.step(rng.choice(table.legal_ids()))
        if table.is_over:
            continue
        for seat in (0, 1):
            other = 1 - seat
            copy = table.clone()
            hand = copy.hand
            hidden = hand.hands[other] & ~hand.known[other]
            hidden_cards = [card for card in range(52) if hidden >> card & 1]
            if not hidden_cards or not hand.stock:
                continue
            # Swap a hidden card of the opponent with a stock card, and shuffle the stock.
            card = rng.choice(hidden_cards)
            index = rng.randrange(len(hand.stock))
            hand.hands[other] ^= (1 << card) | (1 << hand.stock[index])
            hand.stock[index] = card
            rng.shuffle(hand.stock)
            original = encode_observation(table, seat)
            changed = encode_view(copy.reference_view(seat))
            assert original.shape == (OBSERVATION_SIZE,)
            assert np.array_equal(original, changed)
            compared += 1
    assert compared > 50


def test_match_rewards_sum_to_the_final_totals() -> None:
    table = GinTable(episode="match", reward="points", dealer=0)
    table.reset(4)
    totals = [0.0, 0.0]
    rng = random.Random(4)
    while not table.is_over:
        legal = table.legal_ids()
        # Knock whenever possible so the match ends quickly.
        gained = table.step(KNOCK if KNOCK in legal else rng.choice(legal))
        totals = [totals[0] + gained[0], totals[1] + gained[1]]
        assert gained[0] == -gained[1]
    match = table.match
    assert match is not None and match.result is not None
    final = match.result.totals
    assert totals[0] == final[0] - final[1]
    info = table.info(0)
    assert info["match"]["totals"] == list(final)

    win = GinTable(episode="match", reward="win", dealer=0)
    win.reset(4)
    rewards = []
    rng = random.Random(4)
    while not win.is_over:
        legal = win.legal_ids()
        rewards.append(win.step(KNOCK if KNOCK in legal else rng.choice(legal)))
    assert all(r == [0.0, 0.0] for r in rewards[:-1])
    assert rewards[-1] in ([1.0, -1.0], [-1.0, 1.0], [0.0, 0.0])


def test_hand_rewards_are_the_hand_points() -> None:
    for seed in range(200):
        table = GinTable(reward="points")
        table.reset(seed)
        rng = random.Random(seed)
        total = [0.0, 0.0]
        while not table.is_over:
            legal = table.legal_ids()
            gained = table.step(KNOCK if KNOCK in legal else rng.choice(legal))
            total = [total[0] + gained[0], total[1] + gained[1]]
        result = table.hand.result
        assert result is not None
        if result.winner is None:
            assert total == [0.0, 0.0]
        else:
            assert total[result.winner] == result.points
            assert total[1 - result.winner] == -result.points
