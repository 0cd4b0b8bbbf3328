"""The variant adapter: rules from lobby options, replay, and what each view hides."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummykit.core import IllegalActionError, InvalidActionError
from rummykit.games.gin import GinRules
from rummykit.games.gin.views import GinTableGame
from rummykit.server.variants import ADAPTERS, get_adapter


def test_gin_adapter_lists_every_rule_option() -> None:
    adapter = get_adapter("gin")
    options = {option.name: option for option in adapter.rule_options()}
    assert set(options) == set(GinRules().to_dict())
    assert options["knock_limit"].kind == "int"
    assert options["undercut_on_tie"].kind == "bool"
    assert options["first_turn_after_double_pass"].choices == ("stock_only", "any")


def test_make_rules_applies_options_over_the_preset_and_validates() -> None:
    adapter = get_adapter("gin")
    assert adapter.make_rules("gin", {"target": 50})["target"] == 50
    with pytest.raises(ValueError, match="unknown gin option"):
        adapter.make_rules("gin", {"bogus": 1})
    with pytest.raises(ValueError, match="knock_limit"):
        adapter.make_rules("gin", {"knock_limit": -3})
    with pytest.raises(ValueError, match="unknown gin preset"):
        adapter.make_rules("oklahoma", {})
    with pytest.raises(ValueError, match="unknown variant"):
        get_adapter("canasta")


def test_out_of_turn_and_malformed_actions_are_refused_without_change() -> None:
    adapter = get_adapter("gin")
    game = adapter.new_game(adapter.make_rules("gin", {}), seats=2, seed=5)
    before = json.dumps(game.view(0), sort_keys=True)
    other = 1 - (game.current_seat or 0)
    with pytest.raises(IllegalActionError) as error:
        game.apply(other, {"kind": "pass"})
    assert error.value.code == "not_your_turn"
    with pytest.raises(InvalidActionError):
        game.apply(game.current_seat or 0, {"kind": "fly"})
    assert json.dumps(game.view(0), sort_keys=True) == before


def play_random(seed: int, steps: int) -> tuple[GinTableGame, list[tuple[int, dict[str, Any]]]]:
    adapter = get_adapter("gin")
    game = adapter.new_game(adapter.make_rules("gin", {"target": 60}), seats=2, seed=seed)
    assert isinstance(game, GinTableGame)
    rng = random.Random(seed)
    log = []
    for _ in range(steps):
        if game.is_over:
            break
        seat = game.current_seat
        assert seat is not None
        action = rng.choice(game.legal_actions())
        applied = game.apply(seat, action)
        log.append((seat, applied.action))
    return game, log


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31), steps=st.integers(0, 120))
def test_replay_rebuilds_every_view(seed: int, steps: int) -> None:
    game, log = play_random(seed, steps)
    adapter = ADAPTERS["gin"]
    again = adapter.replay(game.match.rules.to_dict(), seats=2, seed=seed, actions=log)
    for seat in (0, 1, None):
        assert again.view(seat) == game.view(seat)


def hidden_cards(game: GinTableGame) -> dict[int, set[str]]:
    """Per seat, the cards of its hand nobody else may know (not taken from the pile)."""
    hand = game.match.hand
    result = {}
    for seat in (0, 1):
        known = set(game.match.observation(1 - seat).opponent_known_cards)
        result[seat] = {str(card) for card in hand.hand_cards(seat) if card not in known}
    return result


def cards_in(data: Any) -> set[str]:
    """Every card-like token anywhere in a JSON value (except the showdown of the last
    finished hand, which both players saw: its cards are those of another deal)."""
    found: set[str] = set()
    if isinstance(data, dict):
        for key, value in data.items():
            if key != "last_result":
                found |= cards_in(value)
    elif isinstance(data, list):
        for value in data:
            found |= cards_in(value)
    elif isinstance(data, str):
        found |= {token for token in data.split() if len(token) == 2}
    return found


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31), steps=st.integers(0, 80))
def test_views_never_show_hidden_cards_or_the_stock(seed: int, steps: int) -> None:
    game, _ = play_random(seed, steps)
    hand = game.match.hand
    if hand.is_over:
        return  # a showdown reveals both hands to everyone
    hidden = hidden_cards(game)
    stock = {str(card) for card in hand.stock}
    for seat in (0, 1):
        seen = cards_in(game.view(seat))
        assert not seen & hidden[1 - seat], "a seat's view shows the other hand"
        assert not seen & stock, "a seat's view shows the stock"
        assert hidden[seat] <= seen
    spectator = cards_in(game.view(None))
    assert not spectator & (hidden[0] | hidden[1] | stock)
    history = [event.seen_by(None).to_json() for event in hand.history]
    assert not cards_in(history) & (hidden[0] | hidden[1] | stock)


def test_view_of_a_seat_does_not_depend_on_the_other_hand() -> None:
    """Two deals that differ only in the other seat's hidden cards give the same view."""
    from rummykit.cards import parse_cards
    from rummykit.games.gin import GinMatch, new_hand

    adapter = get_adapter("gin")
    rules = adapter.make_rules("gin", {})
    first = adapter.new_game(rules, seats=2, seed=3)
    assert isinstance(first, GinTableGame)
    deck = parse_cards(first.match.hand.to_record()["deck"])
    # Swap two cards of the dealer's hand (positions 1 and 3) with two stock cards.
    swapped = list(deck)
    swapped[1], swapped[40] = swapped[40], swapped[1]
    swapped[3], swapped[41] = swapped[41], swapped[3]
    dealer = first.match.hand.dealer
    games = []
    for order in (deck, swapped):
        match = GinMatch(GinRules.from_dict(rules), seed=3)
        match.hand = new_hand(match.rules, dealer=dealer, deck=order)
        games.append(GinTableGame(match))
    starter = 1 - dealer
    assert games[0].view(starter) == games[1].view(starter)
    assert games[0].view(None) == games[1].view(None)
    assert games[0].view(dealer) != games[1].view(dealer)
