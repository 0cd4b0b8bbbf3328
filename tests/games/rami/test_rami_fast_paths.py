"""The Rami engine's fast paths agree with the straightforward ones (hypothesis).

Observations are built through a mutable twin class and then given their frozen class;
the events of draws, takes and discards are shared objects. Both must be
indistinguishable from objects built the ordinary way. Combinations are read directly
from their cards; the general meld check must agree on every card list.
"""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummykit.cards import JOKER_FACE, Card, DeckSpec, build_deck
from rummykit.core import Event
from rummykit.games.rami import (
    RamiAction,
    RamiObservation,
    RamiRound,
    RamiRules,
    new_round,
)
from rummykit.games.rami.game import RamiGame
from rummykit.games.rami.heuristic_bot import RamiRandomBot
from rummykit.games.rami.table import (
    Combination,
    _checked_combination,
    _plain_combination,
    combination_from_cards,
)
from rummykit.melds import InvalidMeldError


def _positions(seed: int, players: int) -> list[RamiRound]:
    rnd = new_round(RamiRules(), players, seed=seed)
    bots = [RamiRandomBot(seed * 7 + seat) for seat in range(players)]
    seen = [rnd.clone()]
    while not rnd.is_over:
        seat = rnd.current_player
        rnd.apply(bots[seat].act(rnd.observation(seat), rnd.legal_actions()))
        if (rnd.phase == "play" and rnd.turn % 9 == 0) or rnd.is_over:
            seen.append(rnd.clone())
    return seen


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 6))
def test_observations_equal_ordinary_frozen_dataclasses(seed: int, players: int) -> None:
    for rnd in _positions(seed, players):
        for seat in range(players):
            fast = rnd.observation(seat)
            ordinary = RamiObservation(
                *(getattr(fast, field.name) for field in dataclasses.fields(RamiObservation))
            )
            assert type(fast) is RamiObservation
            assert fast == ordinary
            assert fast.hand == tuple(sorted(rnd.hands[seat], key=lambda c: (c & 63, c >> 6)))
            with pytest.raises(dataclasses.FrozenInstanceError):
                fast.turn = 0  # type: ignore[misc]
            replaced = dataclasses.replace(fast, scores=(1,) * players, round_number=2)
            assert replaced.scores == (1,) * players and replaced.hand == fast.hand


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10_000))
def test_shared_events_equal_freshly_built_ones(seed: int) -> None:
    rnd = _positions(seed, 4)[-1]
    for event in rnd.history:
        fresh = Event(event.kind, event.seat, event.card, event.visible_to, dict(event.detail))
        assert event == fresh
    for seat in range(4):
        for event in rnd.observation(seat).history:
            if event.kind == "draw_stock":
                assert event.card is None or event.visible_to == seat
    replayed = RamiRound.from_record(rnd.to_record())
    assert replayed.history == rnd.history


PACK = build_deck(DeckSpec(decks=2, jokers=4))


@st.composite
def near_combinations(draw: st.DrawFn) -> list[Card]:
    """Card lists that are often combinations: stretches of one suit, ranks in several
    suits, with or without jokers, sometimes spoiled by a stray card."""
    size = draw(st.integers(3, 13))
    shape = draw(st.sampled_from(["run", "set", "any"]))
    if shape == "run":
        suit, start = draw(st.integers(0, 3)), draw(st.integers(0, 12))
        faces = [suit * 13 + (start + i) % 13 for i in range(size)]
    elif shape == "set":
        rank = draw(st.integers(0, 12))
        faces = [suit * 13 + rank for suit in draw(st.permutations(range(4)))[: min(size, 4)]]
    else:
        return draw(st.lists(st.sampled_from(PACK), min_size=3, max_size=size, unique=True))
    cards = [face | draw(st.integers(0, 1)) << 6 for face in faces]
    for _ in range(draw(st.integers(0, 2))):
        cards[draw(st.integers(0, len(cards) - 1))] = JOKER_FACE | draw(st.integers(0, 3)) << 6
    if draw(st.booleans()) and len(cards) > 3:
        cards.pop(draw(st.integers(0, len(cards) - 1)))
    if draw(st.integers(0, 4)) == 0:
        cards[0] = draw(st.sampled_from(PACK))
    return [Card(card) for card in draw(st.permutations(cards))]


@settings(max_examples=600, deadline=None)
@given(near_combinations(), st.booleans())
def test_plain_reading_of_combinations_agrees_with_the_meld_check(
    cards: list[Card], shifts: bool
) -> None:
    try:
        expected: Combination | None = _checked_combination(cards, 1, shifts)
    except InvalidMeldError:
        expected = None
    found = _plain_combination(cards, 1, shifts)
    assert found == expected
    if expected is not None:
        assert combination_from_cards(cards, 1, shifts=shifts) == expected
    else:
        with pytest.raises(InvalidMeldError):
            combination_from_cards(cards, 1, shifts=shifts)


def test_game_observations_carry_the_totals_like_a_replaced_round_observation() -> None:
    game = RamiGame(RamiRules(end_mode="rounds", rounds=3), players=3, seed=5)
    bots = [RamiRandomBot(seat) for seat in range(3)]
    while not game.is_over:
        seat = game.round.current_player
        view = game.observation(seat)
        expected = dataclasses.replace(
            game.round.observation(seat), scores=game.totals, round_number=game.round_number
        )
        assert view == expected and type(view) is RamiObservation
        game.apply(bots[seat].act(view, game.legal_actions()))


def _plain_legal_actions(rnd: RamiRound) -> list[RamiAction]:
    """legal_actions as written before the remembered sorted hands and discard lists."""
    seat = rnd.current_player
    if rnd.phase == "draw":
        ok = rnd._take_discard_error(seat) is None and not rnd.rules.discard_must_be_melded
        return (
            [RamiAction.draw_stock(), RamiAction.take_discard()]
            if ok
            else [RamiAction.draw_stock()]
        )
    if rnd.phase == "discard":
        ordered = sorted(rnd.hands[seat], key=lambda c: (c & 63, c >> 6))
        return [RamiAction.discard(card) for card in ordered if card != rnd.taken_card]
    return rnd.legal_actions()  # play and over: unchanged


@settings(max_examples=15, deadline=None)
@given(
    st.integers(0, 10_000),
    st.sampled_from(
        [RamiRules(), RamiRules(discard_from_second_round=True, one_card_must_draw_stock=True)]
    ),
)
def test_legal_actions_equal_the_plain_listing_even_after_outside_edits(
    seed: int, rules: RamiRules
) -> None:
    rnd = new_round(rules, 4, seed=seed)
    bots = [RamiRandomBot(seed + seat) for seat in range(4)]
    while not rnd.is_over:
        seat = rnd.current_player
        assert rnd.legal_actions() == _plain_legal_actions(rnd)
        view = rnd.observation(seat)
        hand = rnd.hands[seat]
        if rnd.phase == "discard" and rnd.stock and hand[0] != rnd.taken_card and seed % 2:
            # A hand edited from outside (as tests do: a card swapped with the stock's
            # top) is seen by the remembered sorted hand and discard list.
            hand[0], rnd.stock[-1] = rnd.stock[-1], hand[0]
            assert rnd.legal_actions() == _plain_legal_actions(rnd)
            assert rnd.observation(seat).hand != view.hand
        rnd.apply(bots[seat].act(rnd.observation(seat), rnd.legal_actions()))
