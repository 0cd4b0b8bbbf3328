"""Property tests of the Carousel hand engine (hypothesis).

Random hands for 2-5 players under random options, each action chosen by the
solver-driven heuristic bot with probability ``greed`` (so that jokers are laid, freed
and re-declared, and hands end by knocks and by going out) and otherwise by the random
bot. Checked at every step or at random steps:

* every physical card is in exactly one place: a hand, the table or the stock
  (DESIGN.md: card conservation);
* a table joker keeps its declaration unless a real card of its old face is on the new
  table, and never leaves the table (rules/carousel.md section 3);
* a record through JSON replays the identical state, also for unseeded deals;
* ``observation(seat)`` does not change when the other seats' hidden cards and the stock
  order are shuffled (DESIGN.md principle 4);
* an illegal action raises IllegalActionError, changes nothing, and its message names
  the seat, the card and the rule (DESIGN.md principle 5).

And 2,000 random 3-5 player hands between random bots finish without error.
"""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from collections.abc import Iterator

import pytest
from carousel_helpers import core_state, full_pack, physical_cards, snapshot
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummykit.cards import JOKER_FACE, Card, format_card
from rummykit.core import IllegalActionError
from rummykit.errors import rule_citation
from rummykit.games.carousel.actions import CarouselAction
from rummykit.games.carousel.arrange import best_placement
from rummykit.games.carousel.hand import CarouselHand, new_hand
from rummykit.games.carousel.rules import CarouselRules, score_carousel_hand
from rummykit.games.carousel.simple_bots import CarouselHeuristicBot, CarouselRandomBot

RULES = st.builds(
    CarouselRules,
    knock_limit=st.sampled_from([5, 5, 10, 0]),
    max_draws=st.sampled_from([3, 3, 2, 4]),
    meld_after_last_draw=st.booleans(),
    joker_value=st.sampled_from([25, 25, 5]),
    ace_high_value=st.sampled_from([1, 1, 11]),
    nonknocker_ties=st.sampled_from(["all_win", "knocker_rule_only"]),
    joker_copy_limit=st.booleans(),
)
PLAYERS = st.integers(2, 5)
SEEDS = st.integers(0, 2**64)
SEEDS_OR_UNSEEDED = st.none() | SEEDS
CHOICES = st.integers(0, 2**32)
GREED = st.sampled_from([0.0, 0.3, 0.7, 1.0])

PROPERTY = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


class Chooser:
    """The heuristic bot's action with probability ``greed``, else the random bot's."""

    def __init__(self, rules: CarouselRules, choices: int, greed: float) -> None:
        self.rng = random.Random(choices)
        self.greed = greed
        self.heuristic = CarouselHeuristicBot(rules)
        self.random = CarouselRandomBot(self.rng, rules=rules)

    def __call__(self, hand: CarouselHand) -> CarouselAction:
        seat = hand.current_player
        bot = self.heuristic if self.rng.random() < self.greed else self.random
        return bot.act(hand.observation(seat), hand.legal_actions())


def play(
    rules: CarouselRules, players: int, seed: int | None, choices: int, greed: float
) -> Iterator[CarouselHand]:
    """Deal a hand and play it out, yielding the state before the first action and
    after every action (the same object, changed in place)."""
    dealer = (choices >> 8) % players
    hand = new_hand(rules, players=players, seed=seed, dealer=dealer)
    choose = Chooser(rules, choices, greed)
    yield hand
    while not hand.is_over:
        hand.apply(choose(hand))
        yield hand


def play_until(
    rules: CarouselRules, players: int, seed: int | None, choices: int, greed: float, stop: int
) -> CarouselHand:
    """The state after ``stop`` actions (or at the end of the hand, if sooner)."""
    states = play(rules, players, seed, choices, greed)
    hand = next(states)
    for _ in range(stop):
        hand = next(states, hand)
    return hand


def assert_card_conservation(hand: CarouselHand) -> None:
    pack = Counter(int(c) for c in full_pack(hand.decks))
    assert physical_cards(hand) == pack
    # A joker is declared exactly when it is on the table.
    assert all(c.declared is None for cards in hand.hands for c in cards)
    assert all(c.declared is None for c in hand.stock)
    assert all((c.declared is not None) == c.is_joker for meld in hand.table for c in meld)


@PROPERTY
@given(RULES, PLAYERS, SEEDS_OR_UNSEEDED, CHOICES, GREED)
def test_every_card_in_exactly_one_place(
    rules: CarouselRules, players: int, seed: int | None, choices: int, greed: float
) -> None:
    sizes_before: list[int] | None = None
    for hand in play(rules, players, seed, choices, greed):
        assert_card_conservation(hand)
        sizes = [len(cards) for cards in hand.hands]
        if sizes_before is not None and hand.actions[-1].kind == "draw":
            grown = [after - before for after, before in zip(sizes, sizes_before, strict=True)]
            assert grown == [int(seat == hand.current_player) for seat in range(players)]
        sizes_before = sizes
    result = hand.result
    assert result is not None
    assert result.hands == tuple(tuple(cards) for cards in hand.hands)
    assert result.values == tuple(hand.hand_value(seat) for seat in range(players))
    first = (hand.current_player + 1) % players
    expected = score_carousel_hand(
        result.values,
        knocker=result.knocker,
        went_out=result.reason == "went_out",
        rules=rules,
        first_seat=first,
    )
    assert (result.winners, result.points) == expected
    if result.reason == "went_out":
        assert result.knocker is not None and hand.hands[result.knocker] == []
    if result.reason == "knock":
        assert result.knocker is not None
        assert result.values[result.knocker] <= rules.knock_limit


def table_jokers(hand: CarouselHand) -> dict[int, Card]:
    """Physical joker id -> the joker as it sits on the table (with its declaration)."""
    return {int(c.physical): c for meld in hand.table for c in meld if c.face == JOKER_FACE}


@PROPERTY
@given(RULES, PLAYERS, SEEDS, CHOICES, st.sampled_from([0.7, 1.0]))
def test_joker_declarations_are_kept_until_freed(
    rules: CarouselRules, players: int, seed: int, choices: int, greed: float
) -> None:
    before: dict[int, Card] = {}
    for hand in play(rules, players, seed, choices, greed):
        after = table_jokers(hand)
        # A joker never leaves the table once laid (it can never enter a hand).
        assert set(before) <= set(after)
        held = {int(c) for cards in hand.hands for c in cards if c.is_joker}
        assert not held & set(after)
        real_on_table = Counter(c.face for meld in hand.table for c in meld if c.face != JOKER_FACE)
        changed_away: Counter[int] = Counter()
        for joker, old in before.items():
            new = after[joker]
            assert old.declared is not None and new.declared is not None
            if new.declared != old.declared:
                changed_away[old.declared.face] += 1
        for face, count in changed_away.items():
            assert real_on_table[face] >= count, (format_card(face), hand.table)
        before = after


def record_round_trip(hand: CarouselHand) -> CarouselHand:
    return CarouselHand.from_record(json.loads(json.dumps(hand.to_record())))


@PROPERTY
@given(RULES, PLAYERS, SEEDS_OR_UNSEEDED, CHOICES, GREED, st.integers(0, 150))
def test_record_replays_identical_state(
    rules: CarouselRules,
    players: int,
    seed: int | None,
    choices: int,
    greed: float,
    stop: int,
) -> None:
    hand = play_until(rules, players, seed, choices, greed, stop)
    replayed = record_round_trip(hand)
    assert core_state(replayed) == core_state(hand)
    assert replayed.legal_actions() == hand.legal_actions()
    for seat in range(players):
        assert replayed.observation(seat) == hand.observation(seat)
    assert [json.dumps(e.to_json()) for e in replayed.history] == [
        json.dumps(e.to_json()) for e in hand.history
    ]
    if hand.result is not None:
        assert json.loads(json.dumps(hand.result.to_json()))["points"] == list(hand.result.points)


def test_unseeded_hands_replay_from_their_record() -> None:
    hands = [play_until(CarouselRules(), 3, None, n, 0.5, 400) for n in range(3)]
    assert len({hand.deck for hand in hands}) == 3
    for hand in hands:
        assert hand.to_record()["seed"] is None
        assert core_state(record_round_trip(hand)) == core_state(hand)


def with_hidden_cards_shuffled(hand: CarouselHand, seat: int, rng: random.Random) -> CarouselHand:
    """A copy that differs only in what ``seat`` cannot see: the other seats' cards and
    the stock are dealt out again at random (every hand keeps its size)."""
    changed = hand.clone()
    others = [s for s in range(hand.players) if s != seat]
    pool = [c for s in others for c in hand.hands[s]] + list(hand.stock)
    rng.shuffle(pool)
    for s in others:
        size = len(hand.hands[s])
        changed.hands[s], pool = pool[:size], pool[size:]
    changed.stock = pool
    assert physical_cards(changed) == physical_cards(hand)
    return changed


@PROPERTY
@given(RULES, PLAYERS, SEEDS, CHOICES, GREED, st.integers(0, 150), st.integers(0, 4))
def test_observation_ignores_hidden_cards(
    rules: CarouselRules,
    players: int,
    seed: int,
    choices: int,
    greed: float,
    stop: int,
    seat: int,
) -> None:
    hand = play_until(rules, players, seed, choices, greed, stop)
    seat %= players
    if hand.is_over:
        return  # the hand's result shows every hand
    seen = hand.observation(seat)
    rng = random.Random(choices)
    for _ in range(3):
        changed = with_hidden_cards_shuffled(hand, seat, rng)
        assert changed.observation(seat) == seen
    # Nothing the seat sees names a card hidden from it.
    hidden = {int(c) for s in range(players) if s != seat for c in hand.hands[s]}
    hidden |= {int(c) for c in hand.stock}
    visible = {int(c) for c in seen.hand}
    visible |= {int(e.card) for e in seen.history if e.card is not None}
    assert not visible & hidden
    assert seen.hand_sizes == tuple(len(cards) for cards in hand.hands)
    assert seen.stock_size == len(hand.stock)


def test_observation_hides_a_draw_from_the_other_seats() -> None:
    hand = new_hand(CarouselRules(), players=3, seed=4, dealer=2)
    drawn = hand.stock[-1]
    hand.apply(CarouselAction.draw())
    mine, theirs = hand.observation(0), hand.observation(1)
    assert mine.history[-1].card == drawn and drawn in mine.hand
    assert theirs.history[-1].kind == "draw" and theirs.history[-1].card is None
    assert theirs.hand_sizes == (12, 10, 10)


def test_observed_history_is_every_event_as_the_seat_sees_it() -> None:
    """The kept per-seat views of the history match a fresh view at every step, in
    clones, and after the history list is replaced."""
    hand = new_hand(CarouselRules(), players=3, seed=11)
    rng = random.Random(11)
    for _ in range(60):
        if hand.phase == "over":
            break
        for seat in range(3):
            expected = tuple(event.seen_by(seat) for event in hand.history)
            assert hand.observation(seat).history == expected
        clone = hand.clone()
        assert clone.observation(1).history == hand.observation(1).history
        hand.apply(rng.choice(hand.legal_actions()))
    hand.history = hand.history[:3]
    assert hand.observation(0).history == tuple(e.seen_by(0) for e in hand.history[:3])


SIMPLE_ACTIONS = [CarouselAction.draw(), CarouselAction.end_turn(), CarouselAction.knock()]


def bad_layouts(hand: CarouselHand, rng: random.Random) -> list[tuple[CarouselAction, str]]:
    """Meld actions that break one rule each, with the word their message must hold."""
    seat = hand.current_player
    table = [list(meld) for meld in hand.table]
    cards = hand.hands[seat]
    out: list[tuple[CarouselAction, str]] = []
    out.append((CarouselAction.meld(table), "no card from your hand"))
    held = Counter(c.face for c in cards)
    missing = [f for f in range(52) if held[f] == 0]
    foreign = Card(rng.choice(missing))
    out.append((CarouselAction.meld([*table, [foreign]]), format_card(foreign)))
    naturals = [c for c in cards if not c.is_joker]
    if table and naturals:
        shorter = [list(m) for m in table]
        victim = shorter[0].pop(rng.randrange(len(shorter[0])))
        extra = naturals[0]
        if not victim.is_joker and extra.face != victim.face:
            out.append((CarouselAction.meld([*shorter, [extra]]), "cannot remove"))
        jokers = [(m, i) for m, meld in enumerate(table) for i, c in enumerate(meld) if c.is_joker]
        if jokers:
            m, i = rng.choice(jokers)
            old = table[m][i]
            assert old.declared is not None
            real = sum(1 for meld in table for c in meld if c.face == old.declared.face)
            held_real = held[old.declared.face]
            if real == 0 and held_real == 0:
                moved = [list(meld) for meld in table]
                new_face = (old.declared.face + 1) % 52
                moved[m][i] = old.physical.declare(new_face)
                out.append((CarouselAction.meld([*moved, [extra]]), "was not freed"))
    if naturals:
        loner = rng.choice(naturals)
        out.append((CarouselAction.meld([*table, [loner]]), format_card(loner)))
    return out


@PROPERTY
@given(
    RULES,
    PLAYERS,
    SEEDS,
    CHOICES,
    GREED,
    st.lists(st.integers(0, 120), min_size=1, max_size=3),
)
def test_illegal_actions_raise_and_change_nothing(
    rules: CarouselRules,
    players: int,
    seed: int,
    choices: int,
    greed: float,
    stops: list[int],
) -> None:
    rng = random.Random(choices)
    checked = 0
    for step, hand in enumerate(play(rules, players, seed, choices, greed)):
        if step not in stops and not hand.is_over:
            continue
        checked += 1
        seat = hand.current_player
        legal = hand.legal_actions()
        for action in legal:
            assert hand.is_legal(action), action
        before = snapshot(hand)
        attempts: list[tuple[CarouselAction, str]] = [
            (action, "") for action in SIMPLE_ACTIONS if action not in legal
        ]
        placement = None
        if not hand.is_over:
            placement = best_placement(
                hand.table,
                hand.hands[seat],
                decks=hand.decks,
                joker_copy_limit=rules.joker_copy_limit,
            )
        if hand.may_meld():
            attempts += bad_layouts(hand, rng)
        elif placement is not None:
            attempts.append((CarouselAction.meld(placement.layout), "cannot meld now"))
        for action, word in attempts:
            with pytest.raises(IllegalActionError) as info:
                hand.apply(action)
            error = info.value
            message = str(error)
            assert error.code and error.seat == seat, message
            assert f"seat {seat}" in message, message
            assert word in message, (word, message)
            if error.card is not None:
                assert format_card(error.card).split("=")[0] in message, message
            assert error.rule, message
            assert message.endswith(f"({rule_citation(error.rule)})"), message
            assert snapshot(hand) == before, action
        if placement is not None and hand.may_meld():
            # The solver's placement is legal (and is left unapplied by check()).
            hand.check(CarouselAction.meld(placement.layout))
            assert snapshot(hand) == before
    assert checked >= 1


@pytest.mark.slow
def test_two_thousand_random_hands_finish() -> None:
    """2,000 hands of 3-5 random bots (about 2.5 minutes)."""
    started = time.perf_counter()
    reasons: Counter[str] = Counter()
    for number in range(2000):
        players = 3 + number % 3
        rules = CarouselRules()
        hand = new_hand(rules, players=players, seed=number, dealer=number % players)
        bots = [CarouselRandomBot(number * 7 + seat, rules=rules) for seat in range(players)]
        steps = 0
        while not hand.is_over:
            seat = hand.current_player
            hand.apply(bots[seat].act(hand.observation(seat), hand.legal_actions()))
            steps += 1
            assert steps < 1000, "a hand that never ends"
        result = hand.result
        assert result is not None
        reasons[result.reason] += 1
        assert result.winners and min(result.points) >= 0
        assert all(result.points[s] == 0 for s in range(players) if s not in result.winners)
        if number % 100 == 0:
            assert physical_cards(hand) == Counter(int(c) for c in full_pack(hand.decks))
    assert sum(reasons.values()) == 2000
    print(f"2000 random hands in {time.perf_counter() - started:.0f} s: {dict(reasons)}")
