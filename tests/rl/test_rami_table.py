"""The Rami decision process: every id is one legal engine action, and the mask is
exactly the legal ones among them; the observation planes and what they hide."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping

import numpy as np
import pytest

from rummykit.cards import JOKER_FACE, Card, build_deck
from rummykit.core import IllegalActionError
from rummykit.games.rami import (
    RamiAction,
    RamiGame,
    RamiRound,
    RamiRules,
    best_opening,
    can_open,
    parse_card_token,
)
from rummykit.rl.rami_actions import (
    DRAW_STOCK,
    END_PLAY,
    FACES,
    LAYOFF_BASE,
    MELD,
    MELD_KEEP_JOKERS,
    NUM_ACTIONS,
    OPEN,
    OPEN_KEEP_JOKERS,
    SWAP_BASE,
    TAKE_DISCARD,
    action_string,
)
from rummykit.rl.rami_observation import (
    FIELDS,
    OBSERVATION_SIZE,
    encode,
    encode_observation,
    field_slices,
    observation_high,
    observation_low,
)
from rummykit.rl.rami_table import RamiTable, describe

PLAYS = frozenset({OPEN, OPEN_KEEP_JOKERS, MELD, MELD_KEEP_JOKERS})
"""Macro ids a greedy policy prefers, to reach positions with a full table quickly."""
RULE_SETS = [
    (RamiRules(), 4),
    (RamiRules(opening_threshold=40, jokers="per_deck", end_joker_shifts=True), 2),
    (RamiRules(mandatory_final_discard=True, play_after_open_same_turn=False), 3),
    (RamiRules(discard_must_be_melded=True, one_card_must_draw_stock=True), 5),
    (RamiRules(opening_requires_pure_run=True, discard_from_second_round=True), 6),
]


def cards(text: str) -> list[Card]:
    return [parse_card_token(token) for token in text.split()]


def rigged_deck(
    rules: RamiRules,
    players: int,
    hands: Mapping[int, str],
    *,
    dealer: int = 0,
    upcard: str | None = None,
    stock_top: str = "",
) -> list[Card]:
    """An explicit card order (top first) dealing ``hands`` (the rest filled from the
    pack), ``upcard``, then ``stock_top`` as the next stock draws."""
    pack = build_deck(rules.deck_spec(players))
    wanted = {seat: cards(text) for seat, text in hands.items()}
    named = [card for hand in wanted.values() for card in hand]
    named += cards(upcard or "") + cards(stock_top)
    for card in named:
        pack.remove(card)
    for seat in range(players):
        hand = wanted.setdefault(seat, [])
        while len(hand) < rules.hand_size:
            hand.append(pack.pop())
    order: list[Card] = []
    seat = dealer
    for index in range(rules.hand_size):
        for _ in range(players):
            seat = (seat + 1) % players
            order.append(wanted[seat][index])
    order += cards(upcard) if upcard else [pack.pop()]
    order += cards(stock_top) + pack
    return order


def greedy(rng: random.Random, legal: list[int]) -> int:
    """Lay whatever the macros offer, else a random id (never ending the play early)."""
    plays = [i for i in legal if i in PLAYS or LAYOFF_BASE <= i < SWAP_BASE + JOKER_FACE]
    return rng.choice(plays or legal)


def play(
    table: RamiTable,
    rng: random.Random,
    check: Callable[[RamiTable], None] | None = None,
    *,
    policy: Callable[[random.Random, list[int]], int] = greedy,
    limit: int = 100_000,
) -> int:
    steps = 0
    while not table.is_over and steps < limit:
        legal = table.legal_ids()
        assert legal, "a live table always offers an action"
        if check is not None:
            check(table)
        table.step(policy(rng, legal))
        steps += 1
    return steps


def check_ids_against_the_engine(table: RamiTable) -> None:
    """Every legal id is an action the engine accepts, and the finite ones are exactly
    the engine's ``legal_actions()``."""
    rnd = table.round
    legal = table.legal_ids()
    assert legal == sorted(set(legal)) and all(0 <= i < NUM_ACTIONS for i in legal)
    resolved = {}
    for action_id in legal:
        action = table.action_for(action_id)
        rnd.check(action)  # raises if the engine refuses it
        resolved[action_id] = action
    distinct = [a for i, a in resolved.items() if i not in (OPEN_KEEP_JOKERS, MELD_KEEP_JOKERS)]
    assert len({str(a) for a in distinct}) == len(distinct), "one engine action per id"
    engine = rnd.legal_actions()
    kinds = Counter(action.kind for action in engine)
    if rnd.phase == "discard":
        assert set(legal) == {int(a.card) & 63 for a in engine if a.card is not None}
        for action_id in legal:
            assert resolved[action_id] in engine
    elif rnd.phase == "draw":
        expected = {DRAW_STOCK} | ({TAKE_DISCARD} if kinds["take_discard"] else set())
        if rnd.rules.discard_must_be_melded:
            assert set(legal) - {TAKE_DISCARD} == expected
        else:
            assert set(legal) == expected
    else:
        assert (END_PLAY in legal) == bool(kinds["end_play"])
        seat = rnd.current_player
        hand = rnd.hand_cards(seat)
        taken = rnd.taken_card
        if not rnd.opened[seat]:
            assert (OPEN in legal) == can_open(hand, rnd.rules, taken=taken)
        for action in engine:  # the ways to lay a stranded taken card are all there
            if action.kind == "layoff":
                assert LAYOFF_BASE + (int(action.card or 0) & 63) in legal
            elif action.kind == "swap_joker":
                assert SWAP_BASE + (int(action.card or 0) & 63) in legal


@pytest.mark.parametrize(("rules", "players"), RULE_SETS, ids=range(len(RULE_SETS)))
def test_every_legal_id_is_one_engine_action(rules: RamiRules, players: int) -> None:
    for seed in range(5):
        table = RamiTable(rules, players=players)
        table.reset(seed)
        play(table, random.Random(seed), check_ids_against_the_engine, limit=400)


def brute_force_faces(rnd: RamiRound) -> tuple[set[int], set[int]]:
    """The faces of every lay-off and joker swap the engine accepts now (any card, any
    combination, any destination of the freed joker)."""
    seat = rnd.current_player
    hand = rnd.hand_cards(seat)
    layoffs: set[int] = set()
    swaps: set[int] = set()
    targets = range(len(rnd.table))
    for card in set(hand):
        face = card & 63
        for index in targets:
            if face not in layoffs and rnd.is_legal(RamiAction.layoff(card, index)):
                layoffs.add(face)
            if face in swaps or rnd.table[index].swap_face != face:
                continue
            rest = list(hand)
            rest.remove(card)
            options: list[dict[str, object]] = [{}]
            options += [{"joker_target": t} for t in targets]
            options += [{"joker_cards": [a, b]} for i, a in enumerate(rest) for b in rest[i + 1 :]]
            for option in options:
                if rnd.is_legal(RamiAction.swap_joker(card, index, **option)):  # type: ignore[arg-type]
                    swaps.add(face)
                    break
    return layoffs, swaps


def test_layoff_and_swap_ids_are_exactly_the_legal_faces() -> None:
    compared = with_swaps = 0
    for seed in range(24):
        rules = RamiRules(end_joker_shifts=seed % 2 == 0)
        table = RamiTable(rules, players=2 + seed % 3)
        table.reset(seed)
        rng = random.Random(seed)
        while not table.is_over:
            rnd = table.round
            if rnd.phase == "play" and rnd.opened[rnd.current_player] and rnd.table:
                layoffs, swaps = brute_force_faces(rnd)
                legal = set(table.legal_ids())
                assert {i - LAYOFF_BASE for i in legal if LAYOFF_BASE <= i < SWAP_BASE} == layoffs
                assert {i - SWAP_BASE for i in legal if SWAP_BASE <= i < DRAW_STOCK} == swaps
                compared += bool(layoffs)
                with_swaps += bool(swaps)
            table.step(greedy(rng, table.legal_ids()))
    assert compared > 80 and with_swaps > 5


def test_opening_macros_lay_the_solvers_openings() -> None:
    rules = RamiRules()
    hand = "QH KH AH 9C 9D 9H JK 2C 4D 6S 8C TD 3S"  # 31 + 27 = 58 with no joker
    deck = rigged_deck(rules, 2, {1: hand}, upcard="5H", stock_top="7D")
    table = RamiTable(rules, players=2, dealer=0)
    table.reset(deck=deck)
    assert table.current_player == 1
    table.step(DRAW_STOCK)
    legal = table.legal_ids()
    assert {OPEN, OPEN_KEEP_JOKERS, END_PLAY} <= set(legal)
    assert MELD not in legal  # not opened yet
    obs = table.observation(1)
    best = best_opening(obs.hand, rules)
    plain = best_opening(obs.hand, rules, use_jokers=False)
    assert best is not None and plain is not None
    assert table.action_for(OPEN) == best.action()
    assert table.action_for(OPEN_KEEP_JOKERS) == plain.action()
    assert all(card & 63 != JOKER_FACE for combo in plain.combos for card in combo)
    table.step(OPEN_KEEP_JOKERS)
    assert table.round.opened[1]
    assert OPEN not in table.legal_ids() and END_PLAY in table.legal_ids()


def test_discard_ids_name_a_face_and_discard_the_publicly_known_copy() -> None:
    rules = RamiRules()
    # Seat 1 holds 7H and takes 7H@1 from the pile: the other seat knows about 7H@1.
    deck = rigged_deck(
        rules,
        2,
        {1: "7H 2C 4D 6S 8C TD 3S QC 5S 9D JH KS AC"},
        upcard="7H@1",
        stock_top="2D 3D",
    )
    table = RamiTable(rules, players=2, dealer=0)
    table.reset(deck=deck)
    table.step(TAKE_DISCARD)
    table.step(END_PLAY)
    face = int(parse_card_token("7H")) & 63
    assert face in table.legal_ids()  # 7H itself (not the taken copy) may be discarded
    assert table.action_for(face) == RamiAction.discard("7H")
    table.step(int(parse_card_token("2C")))
    play_until(table, lambda t: t.current_player == 1 and t.round.phase == "discard")
    assert table.action_for(face) == RamiAction.discard("7H@1")


def play_until(table: RamiTable, done: Callable[[RamiTable], bool]) -> None:
    rng = random.Random(0)
    while not done(table):
        legal = [i for i in table.legal_ids() if i < LAYOFF_BASE or i in (DRAW_STOCK, END_PLAY)]
        table.step(rng.choice(legal))


def test_illegal_id_is_rejected_and_changes_nothing() -> None:
    table = RamiTable(players=3)
    table.reset(11)
    before = (table.version, list(table.legal_ids()), table.round.to_record())
    for bad in (END_PLAY, 0, OPEN, NUM_ACTIONS, -1, True, 158.0, "158", None):
        with pytest.raises(IllegalActionError) as caught:
            table.step(bad)  # type: ignore[arg-type]
        assert caught.value.code == "action_not_legal"
        assert "legal ids: 158 (Draw stock), 159 (Take discard)" in str(caught.value)
    assert (table.version, list(table.legal_ids()), table.round.to_record()) == before
    table.step(np.int64(DRAW_STOCK))  # type: ignore[arg-type]  # numpy integers are fine


def test_action_strings_and_fields() -> None:
    names = [action_string(i) for i in range(NUM_ACTIONS)]
    assert len(set(names)) == NUM_ACTIONS
    assert (
        names[LAYOFF_BASE + JOKER_FACE] == "Lay off JK"
        and names[SWAP_BASE] == "Swap AS for a joker"
    )
    start = 0
    for _, field_start, size, _ in FIELDS:
        assert field_start == start
        start += size
    assert start == OBSERVATION_SIZE == 14 * FACES + 39
    with pytest.raises(ValueError):
        action_string(NUM_ACTIONS)


def pack_counts(rules: RamiRules, active: int) -> np.ndarray:
    spec = rules.deck_spec(active)
    counts = np.full(FACES, spec.decks, dtype=np.float32)
    counts[JOKER_FACE] = spec.jokers
    return counts


def check_planes(table: RamiTable) -> None:
    """Every seat's array: within bounds, and its planes add up to the pack."""
    slices = field_slices()
    low, high = observation_low(), observation_high()
    rnd = table.round
    for seat in range(table.num_seats):
        obs = table.observation(seat)
        array = encode_observation(table, seat)
        assert array.shape == (OBSERVATION_SIZE,) and array.dtype == np.float32
        assert (array >= low).all() and (array <= high).all()
        hand = array[slices["hand"]]
        assert Counter(card & 63 for card in obs.hand) == {
            face: int(n) for face, n in enumerate(hand) if n
        }
        total = hand + array[slices["unknown"]] + array[slices["table"]]
        total += array[slices["discard_top"]] + array[slices["discard_pile"]]
        for k in range(1, 6):
            total += array[slices[f"known_{k}"]]
        assert np.array_equal(total, pack_counts(rnd.rules, len(rnd.active)))
        sizes = array[slices["hand_sizes"]] * (rnd.rules.hand_size + 1)
        assert np.allclose(
            sizes[: rnd.players],
            [len(rnd.hands[(seat + k) % rnd.players]) for k in range(rnd.players)],
        )
        assert array[slices["to_act"]][0] == (seat == rnd.current_player and not table.is_over)


def test_observation_planes_add_up_and_stay_in_bounds() -> None:
    for seed, players in ((1, 2), (2, 4), (3, 6)):
        table = RamiTable(players=players)
        table.reset(seed)
        play(table, random.Random(seed), check_planes, limit=150)


def hidden_cards(rnd: RamiRound, seat: int) -> list[Card]:
    """Cards of ``seat``'s hand nobody else has seen (not taken from the pile)."""
    return [card for card in rnd.hands[seat] if card not in rnd.known[seat]]


def test_other_hands_and_the_stock_order_never_change_a_seat_observation() -> None:
    rng = random.Random(3)
    compared = 0
    for seed in range(12):
        table = RamiTable(players=2 + seed % 5)
        table.reset(seed)
        play(table, rng, limit=rng.randrange(10, 120))
        if table.is_over:
            continue
        for seat in range(table.num_seats):
            copy = table.clone()
            rnd = copy.round
            others = [s for s in range(rnd.players) if s != seat and hidden_cards(rnd, s)]
            if not others or not rnd.stock:
                continue
            # Swap a hidden card of another seat with a stock card; shuffle the stock.
            other = rng.choice(others)
            card = rng.choice(hidden_cards(rnd, other))
            index = rng.randrange(len(rnd.stock))
            hand = rnd.hands[other]
            hand[hand.index(card)], rnd.stock[index] = rnd.stock[index], card
            rng.shuffle(rnd.stock)
            before = encode_observation(table, seat)
            after = encode(rnd.observation(seat))
            assert np.array_equal(before, after)
            assert not np.array_equal(after, encode(rnd.observation(other)))
            compared += 1
    assert compared > 30


def test_round_rewards_are_the_negated_penalties() -> None:
    for seed in range(4):
        table = RamiTable(players=3, reward="penalty")
        table.reset(seed)
        totals = [0.0, 0.0, 0.0]
        rng = random.Random(seed)
        while not table.is_over:
            gained = table.step(greedy(rng, table.legal_ids()))
            totals = [a + b for a, b in zip(totals, gained, strict=True)]
        result = table.round.result
        assert result is not None
        assert totals == [-float(p) for p in result.penalties]
        assert table.info(0)["last_round"] == result.to_json()


def test_game_episode_pays_the_win_at_the_end_and_keeps_the_totals() -> None:
    rules = RamiRules(limit=250)
    table = RamiTable(rules, players=3, episode="game", reward="win", dealer=2)
    table.reset(5)
    rng = random.Random(5)
    rewards = []
    rounds = set()
    while not table.is_over:
        rounds.add(table.observation(table.current_player).round_number)
        rewards.append(table.step(greedy(rng, table.legal_ids())))
    game = table.game
    assert game is not None and game.result is not None and len(rounds) >= 2
    assert all(r == [0.0, 0.0, 0.0] for r in rewards[:-1])
    assert rewards[-1] == [1.0 if s in game.result.winners else -1.0 for s in range(3)]
    assert table.info(1)["game"] == game.result.to_json()

    penalty = RamiTable(rules, players=3, episode="game", reward="penalty", dealer=2)
    penalty.reset(5)
    rng = random.Random(5)
    totals = [0.0, 0.0, 0.0]
    while not penalty.is_over:
        gained = penalty.step(greedy(rng, penalty.legal_ids()))
        totals = [a + b for a, b in zip(totals, gained, strict=True)]
    assert penalty.game is not None
    assert totals == [-float(t) for t in penalty.game.totals]


def test_load_describe_and_clone() -> None:
    table = RamiTable(players=4)
    table.reset(9)
    rnd = table.round.clone()
    other = RamiTable(players=4)
    other.load(rnd)
    assert other.legal_ids() == table.legal_ids()
    assert np.array_equal(encode_observation(other, 1), encode_observation(table, 1))
    copy = table.clone()
    copy.step(DRAW_STOCK)
    assert table.round.phase == "draw" and copy.round.phase == "play"
    text = describe(table, table.current_player)
    assert "to act" in text and "legal: 158 Draw stock" in text
    with pytest.raises(ValueError, match="episode='game'"):
        RamiTable(players=4).load(RamiGame(players=4, seed=1))
    with pytest.raises(ValueError, match="must match"):
        RamiTable(players=3).load(rnd)


def test_options_are_validated() -> None:
    for bad in (
        {"episode": "hand"},
        {"reward": "points"},
        {"dealer": 4},
        {"players": 1},
        {"players": 7},
    ):
        with pytest.raises(ValueError):
            RamiTable(**bad)  # type: ignore[arg-type]
