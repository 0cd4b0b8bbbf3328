"""Property tests of the Gin Rummy hand engine (hypothesis).

Random games under random options, each action chosen either uniformly among the legal
actions or by the heuristic bot (so that knocks, gin, layoffs and undercuts happen, not
only drawn hands). Checked at every step or at random steps:

* every card is in exactly one place: a hand, the stock, the discard pile or the knock
  card (DESIGN.md: card conservation);
* a record through JSON replays the identical state, also for hands dealt without seed;
* the action log and the event history round-trip through JSON;
* ``observation(seat)`` does not change when the other seat's hidden cards are swapped
  with stock cards and the stock is reordered (DESIGN.md principle 4);
* ``clone()`` is independent of the original;
* every action outside ``legal_actions()`` raises IllegalActionError, changes nothing,
  and its message names the seat and the card (DESIGN.md principle 5).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

from gin_helpers import core_state, snapshot
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummykit.cards import format_card
from rummykit.core import Event, IllegalActionError
from rummykit.games.gin import GinAction, GinHand, GinRules, new_hand
from rummykit.games.gin.deadwood import mask_of
from rummykit.games.gin.heuristic_bot import GinHeuristicBot

RULES = st.builds(
    GinRules,
    knock_limit=st.sampled_from([0, 10, 10, 25]),
    big_gin_bonus=st.sampled_from([0, 31, 31]),
    undercut_on_tie=st.booleans(),
    stock_floor=st.sampled_from([0, 2, 2, 6]),
    first_turn_after_double_pass=st.sampled_from(["stock_only", "any"]),
    big_gin_from_discard=st.booleans(),
    chained_layoffs=st.booleans(),
    auto_layoff=st.booleans(),
    knocker_arrangement=st.sampled_from(["auto", "explicit"]),
    ace_high_runs=st.booleans(),
)
SEEDS = st.integers(0, 2**64)
SEEDS_OR_UNSEEDED = st.none() | SEEDS
"""``None``: a deal from the secure shuffle (the record must keep the deck)."""
CHOICES = st.integers(0, 2**32)
"""Seed of the RNG that picks the random actions."""
GREED = st.sampled_from([0.0, 0.5, 0.9, 1.0])

PROPERTY = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])

SIMPLE_ACTIONS = [
    GinAction.take_upcard(),
    GinAction.pass_(),
    GinAction.draw_stock(),
    GinAction.draw_discard(),
    GinAction.big_gin(),
    *(GinAction.discard(card) for card in range(52)),
    *(GinAction.knock(card) for card in range(52)),
]


def choose(hand: GinHand, rng: random.Random, greed: float, bot: GinHeuristicBot) -> GinAction:
    """The heuristic bot's action with probability ``greed``, else a random legal one."""
    legal = hand.legal_actions()
    if rng.random() < greed:
        return bot.act(hand.observation(hand.current_player), legal)
    return rng.choice(legal)


def play(
    rules: GinRules, seed: int | None, choices: int, greed: float, dealer: int
) -> Iterator[GinHand]:
    """Deal a hand and play it out, yielding the state before the first action and
    after every action."""
    rng = random.Random(choices)
    hand = new_hand(rules, seed, dealer=dealer)
    bot = GinHeuristicBot(rules)
    yield hand
    while not hand.is_over:
        hand.apply(choose(hand, rng, greed, bot))
        yield hand


def play_until(
    rules: GinRules, seed: int | None, choices: int, greed: float, dealer: int, stop: int
) -> GinHand:
    """The state after ``stop`` actions (or at the end of the hand, if sooner)."""
    states = play(rules, seed, choices, greed, dealer)
    hand = next(states)
    for _ in range(stop):
        hand = next(states, hand)
    return hand


def places(hand: GinHand) -> list[int]:
    cards = [*hand.hand_cards(0), *hand.hand_cards(1), *hand.stock, *hand.discard_pile]
    if hand.knock_card is not None:
        cards.append(hand.knock_card)
    return cards


def assert_card_conservation(hand: GinHand) -> None:
    cards = places(hand)
    assert sorted(cards) == list(range(52)), hand
    sizes = [len(hand.hand_cards(0)), len(hand.hand_cards(1))]
    if hand.phase in ("offer", "draw"):
        assert sizes == [10, 10]
    elif hand.phase == "discard":
        assert sizes[hand.current_player] == 11 and sizes[1 - hand.current_player] == 10
    elif hand.knocker is not None:
        # After a knock the knocker keeps 10 (the knock card is set apart); big gin 11.
        assert sizes[hand.knocker] == (11 if hand.knock_card is None else 10)
        assert sizes[1 - hand.knocker] == 10
    else:
        assert hand.result is not None and hand.result.is_draw
        assert sizes == [10, 10]
    assert len(hand.stock) >= hand.rules.stock_floor or hand.phase == "over"


@PROPERTY
@given(RULES, SEEDS, CHOICES, GREED, st.integers(0, 1))
def test_every_card_in_exactly_one_place(
    rules: GinRules, seed: int | None, choices: int, greed: float, dealer: int
) -> None:
    for hand in play(rules, seed, choices, greed, dealer):
        assert_card_conservation(hand)
    assert hand.result is not None
    assert set(hand.result.hands[0]) == set(hand.hand_cards(0))
    assert set(hand.result.hands[1]) == set(hand.hand_cards(1))


@PROPERTY
@given(RULES, SEEDS, CHOICES, GREED, st.integers(0, 1))
def test_scores_follow_section5(
    rules: GinRules, seed: int | None, choices: int, greed: float, dealer: int
) -> None:
    *_, hand = play(rules, seed, choices, greed, dealer)
    result = hand.result
    assert result is not None
    if result.is_draw:
        assert (result.winner, result.points, result.knocker) == (None, 0, None)
        return
    k, d = result.knocker_deadwood, result.defender_deadwood
    knocker = result.knocker
    assert knocker is not None
    assert k <= rules.knock_limit
    if result.outcome == "big_gin":
        assert (result.winner, result.points) == (knocker, d + rules.big_gin_bonus)
        assert result.layoffs == () and k == 0
    elif result.outcome == "gin":
        assert (result.winner, result.points) == (knocker, d + rules.gin_bonus)
        assert result.layoffs == () and k == 0
    elif k < d:
        assert (result.outcome, result.winner, result.points) == ("knock", knocker, d - k)
    elif k == d and not rules.undercut_on_tie:
        assert (result.winner, result.points) == (None, 0)
    else:
        assert result.outcome == "undercut"
        assert (result.winner, result.points) == (1 - knocker, rules.undercut_bonus + k - d)


def record_round_trip(hand: GinHand) -> GinHand:
    return GinHand.from_record(json.loads(json.dumps(hand.to_record())))


@PROPERTY
@given(
    RULES,
    SEEDS_OR_UNSEEDED,
    CHOICES,
    GREED,
    st.integers(0, 1),
    st.integers(0, 80),
)
def test_record_replays_identical_state(
    rules: GinRules, seed: int | None, choices: int, greed: float, dealer: int, stop: int
) -> None:
    hand = play_until(rules, seed, choices, greed, dealer, stop)
    replayed = record_round_trip(hand)
    assert core_state(replayed) == core_state(hand)
    assert snapshot(replayed) == snapshot(hand)
    assert replayed.legal_actions() == hand.legal_actions()
    assert replayed.observation(0) == hand.observation(0)
    assert replayed.observation(1) == hand.observation(1)


@PROPERTY
@given(RULES, SEEDS, CHOICES, GREED, st.integers(0, 1))
def test_action_log_and_history_round_trip_through_json(
    rules: GinRules, seed: int | None, choices: int, greed: float, dealer: int
) -> None:
    *_, hand = play(rules, seed, choices, greed, dealer)
    actions = json.loads(json.dumps([action.to_json() for action in hand.actions]))
    assert [GinAction.from_json(data) for data in actions] == hand.actions
    events = json.loads(json.dumps([event.to_json() for event in hand.history]))
    assert [Event.from_json(data) for data in events] == hand.history
    assert hand.result is not None
    assert json.loads(json.dumps(hand.result.to_json()))["points"] == hand.result.points


def test_unseeded_hands_replay_from_their_record() -> None:
    # Two unseeded deals differ (secure shuffle); each record keeps its own deck.
    rng = random.Random(5)
    hands = [play_until(GinRules(), None, rng.randrange(2**32), 0.7, 0, 500) for _ in range(3)]
    assert len({hand.deck for hand in hands}) == 3
    for hand in hands:
        assert hand.seed is None and hand.to_record()["seed"] is None
        assert snapshot(record_round_trip(hand)) == snapshot(hand)


def public_cards_of(hand: GinHand, seat: int) -> int:
    """The cards of ``seat`` everyone may know: taken from the discard pile, or all of
    them once shown by a knock (the defender's layoff phase)."""
    if hand.phase == "layoff" and hand.knocker == seat:
        return hand.hands[seat]
    return hand.known[seat] & hand.hands[seat]


def with_hidden_cards_shuffled(hand: GinHand, seat: int, rng: random.Random) -> GinHand:
    """A copy that differs only in what ``seat`` cannot see: the opponent's hidden
    cards are exchanged with stock cards, and the stock order is shuffled.

    Built by setting attributes of a clone (there is no deal that produces it from the
    same actions, since the actions name the cards)."""
    other = 1 - seat
    public = public_cards_of(hand, other)
    hidden = [card for card in hand.hand_cards(other) if not public >> card & 1]
    pool = [*hidden, *hand.stock]
    rng.shuffle(pool)
    changed = hand.clone()
    changed.hands[other] = public | mask_of(pool[: len(hidden)])
    changed.stock = pool[len(hidden) :]
    assert sorted(places(changed)) == list(range(52))
    return changed


@PROPERTY
@given(
    RULES,
    SEEDS,
    CHOICES,
    GREED,
    st.integers(0, 1),
    st.integers(0, 80),
    st.integers(0, 1),
)
def test_observation_ignores_hidden_cards(
    rules: GinRules,
    seed: int | None,
    choices: int,
    greed: float,
    dealer: int,
    stop: int,
    seat: int,
) -> None:
    hand = play_until(rules, seed, choices, greed, dealer, stop)
    rng = random.Random(choices + 1)
    if hand.is_over:
        return  # the showdown reveals both hands (and a drawn hand's result holds them)
    seen = hand.observation(seat)
    other = 1 - seat
    hidden = hand.hands[other] & ~public_cards_of(hand, other)
    for _ in range(3):
        changed = with_hidden_cards_shuffled(hand, seat, rng)
        assert changed.observation(seat) == seen
    # Nothing the seat sees names a hidden card.
    visible = [*seen.hand, *seen.discard_pile, *seen.opponent_known_cards]
    visible += [event.card for event in seen.history if event.card is not None]
    assert not mask_of(set(visible)) & hidden
    assert seen.stock_size == len(hand.stock)
    assert seen.opponent_hand_size == len(hand.hand_cards(other))


def test_observation_hides_the_stock_draw_from_the_other_seat() -> None:
    hand = new_hand(GinRules(), seed=3, dealer=1)
    hand.apply(GinAction.pass_())
    hand.apply(GinAction.pass_())
    drawn = hand.stock[-1]
    hand.apply(GinAction.draw_stock())
    mine, theirs = hand.observation(0), hand.observation(1)
    assert mine.history[-1].card == drawn and drawn in mine.hand
    assert theirs.history[-1].kind == "draw_stock" and theirs.history[-1].card is None
    assert drawn not in theirs.hand and drawn not in theirs.opponent_known_cards
    assert theirs.opponent_hand_size == 11


@PROPERTY
@given(
    RULES,
    SEEDS,
    CHOICES,
    GREED,
    st.integers(0, 1),
    st.integers(0, 80),
    st.integers(1, 12),
)
def test_clone_is_independent(
    rules: GinRules,
    seed: int | None,
    choices: int,
    greed: float,
    dealer: int,
    stop: int,
    ahead: int,
) -> None:
    hand = play_until(rules, seed, choices, greed, dealer, stop)
    rng = random.Random(choices + 1)
    before = snapshot(hand)
    copy = hand.clone()
    assert snapshot(copy) == before
    bot = GinHeuristicBot(rules)
    taken: list[GinAction] = []
    for _ in range(ahead):
        if copy.is_over:
            break
        action = choose(copy, rng, greed, bot)
        copy.apply(action)
        taken.append(action)
    assert snapshot(hand) == before
    # Replaying the same actions on the original gives the clone's state.
    for action in taken:
        hand.apply(action)
    assert snapshot(hand) == snapshot(copy)
    # And changing the original now does not touch the clone.
    after = snapshot(copy)
    if not hand.is_over:
        hand.apply(hand.legal_actions()[0])
        assert snapshot(copy) == after


def assert_message_names_seat_and_card(error: IllegalActionError) -> None:
    message = str(error)
    if error.seat is not None:
        assert f"seat {error.seat}" in message, message
    if error.card is not None:
        assert format_card(error.card) in message, message


@PROPERTY
@given(
    RULES,
    SEEDS,
    CHOICES,
    GREED,
    st.integers(0, 1),
    st.lists(st.integers(0, 80), min_size=1, max_size=3),
)
def test_illegal_actions_raise_and_change_nothing(
    rules: GinRules,
    seed: int | None,
    choices: int,
    greed: float,
    dealer: int,
    stops: list[int],
) -> None:
    checked = 0
    for step, hand in enumerate(play(rules, seed, choices, greed, dealer)):
        if step not in stops and not hand.is_over:
            continue
        checked += 1
        legal = hand.legal_actions()
        for action in legal:
            assert hand.is_legal(action), action
        before = snapshot(hand)
        for action in SIMPLE_ACTIONS:
            if action in legal:
                continue
            try:
                hand.apply(action)
            except IllegalActionError as error:
                assert error.code
                assert error.seat in (None, hand.current_player)
                assert_message_names_seat_and_card(error)
            else:
                raise AssertionError(f"{action} is not in legal_actions() but was applied")
            assert snapshot(hand) == before, action
    assert checked >= 1
