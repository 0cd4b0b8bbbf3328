"""Check once: a meld checked by ``check()`` is applied without checking its layout again.

The layout check (``check_layout``) is the expensive part of a meld. A server checks a
move (and shows what it lays) before it applies it; the hand keeps the check so that
``apply()`` of the same action in the same state reuses it.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from carousel_helpers import DRAW, END, deal, meld, position, snapshot

from rummykit.cards import format_cards
from rummykit.core import IllegalActionError
from rummykit.games.carousel import under_rules
from rummykit.games.carousel.actions import CarouselAction
from rummykit.games.carousel.game import CarouselGame
from rummykit.games.carousel.layout import LayoutCheck

HANDS3 = [
    "7H 8H 9H 2S 4C 6D 8S TC QD KS",
    "AS 3C 5D 7S 9C JD KH 2D 4S 6C",
    "AC 3D 5S 7C 9D JS KC 2C 4D 6S",
]


@pytest.fixture
def layout_checks(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Counts the calls of ``check_layout`` (the engine's go through ``under_rules``)."""
    calls: list[int] = []
    real = under_rules.check_layout

    def counted(*args: object, **kwargs: object) -> LayoutCheck:
        calls.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(under_rules, "check_layout", counted)
    yield calls


def test_check_then_apply_checks_the_layout_once(layout_checks: list[int]) -> None:
    hand = deal(HANDS3)
    action = meld("7H 8H 9H")
    laid = hand.check(action)
    assert isinstance(laid, LayoutCheck)
    assert format_cards(laid.cards) == "7H 8H 9H" and laid.value == 24
    assert len(laid.remaining) == 8
    # The same action parsed again from its JSON (as a server does) is reused.
    hand.apply(CarouselAction.from_json(action.to_json()))
    assert len(layout_checks) == 1
    assert hand.melded and format_cards(hand.table[0]) == "7H 8H 9H"


def test_a_game_checks_then_applies_once(layout_checks: list[int]) -> None:
    game = CarouselGame(players=3, seed=1, first_dealer=2)
    game.hand = deal(HANDS3, dealer=2)
    action = meld("7H 8H 9H")
    laid = game.check(action)
    assert laid is not None and format_cards(laid.cards) == "7H 8H 9H"
    game.apply(action)
    assert len(layout_checks) == 1


def test_a_check_is_not_reused_in_another_state(layout_checks: list[int]) -> None:
    hand = deal(HANDS3, stock="QS 3H")
    hand.check(meld("7H 8H 9H"))
    hand.apply(DRAW)
    hand.apply(meld("7H 8H 9H"))
    assert len(layout_checks) == 2
    # Nor for another action.
    other = deal(HANDS3)
    other.check(meld("7H 8H 9H"))
    other.apply(meld("8H 9H 7H"))
    assert len(layout_checks) == 4


def test_check_changes_nothing_and_refusals_are_not_kept(layout_checks: list[int]) -> None:
    hand = position(["7H 8H", "QC QD"], table=["4S 5S 6S"])
    before = snapshot(hand)
    bad = meld("4S 5S", "7H 8H")
    with pytest.raises(IllegalActionError) as checked:
        hand.check(bad)
    assert snapshot(hand) == before
    with pytest.raises(IllegalActionError) as applied:
        hand.apply(bad)
    assert str(applied.value) == str(checked.value)
    assert snapshot(hand) == before
    assert hand.check(DRAW) is None
    with pytest.raises(IllegalActionError):
        hand.check(END)  # one draw made, no meld: the turn goes on
    assert len(layout_checks) == 2


def test_a_table_checks_then_plays_a_meld_with_one_layout_check(
    layout_checks: list[int],
) -> None:
    """The browser asks the table to check a move, then plays it: one check in all."""
    from rummykit.games.carousel.views import CarouselTableGame

    game = CarouselGame(players=3, seed=1, first_dealer=2)
    game.hand = deal(HANDS3, dealer=2)
    table = CarouselTableGame(game)
    table.apply(0, DRAW.to_json())
    action = meld("7H 8H 9H").to_json()
    answer = table.check(0, action)
    assert answer["ok"] and answer["cards"] == ["7H", "8H", "9H"] and answer["value"] == 24
    table.apply(0, action)
    assert len(layout_checks) == 1
    assert format_cards(game.hand.table[0]) == "7H 8H 9H"
