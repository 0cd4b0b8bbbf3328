"""Cards at a terminal: suit symbols and red hearts and diamonds on a colour terminal,
symbols alone under NO_COLOR, the input notation when output is not a terminal."""

from __future__ import annotations

import io

import pytest

from rummykit.cards import parse_card, parse_cards
from rummykit.games.gin import GinMatch
from rummykit.games.gin.terminal import GinScreen
from rummykit.terminal import card_style, coloured_card, plain_card, symbol_card

RED = "\x1b[31m"


def test_the_three_styles() -> None:
    cards = parse_cards("AS TD 7H QC JK JK=5H")
    assert [plain_card(c) for c in cards] == ["AS", "TD", "7H", "QC", "JK", "JK=5H"]
    assert [symbol_card(c) for c in cards] == ["A♠", "10♦", "7♥", "Q♣", "JK", "JK=5♥"]
    coloured = [coloured_card(c) for c in cards]
    assert coloured[0] == "A♠" and coloured[3] == "Q♣" and coloured[4] == "JK"
    assert coloured[1] == f"{RED}10♦\x1b[0m" and coloured[2] == f"{RED}7♥\x1b[0m"
    assert coloured[5] == f"JK={RED}5♥\x1b[0m"
    # Every copy of a face looks the same (players never see which deck a card is from).
    assert symbol_card(parse_card("7H") + 64) == "7♥"


def test_output_that_is_not_a_terminal_gets_the_input_notation() -> None:
    assert card_style(io.StringIO()) is plain_card


def test_a_colour_terminal_gets_colour(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    assert card_style(io.StringIO(), force_terminal=True) is coloured_card


def test_no_color_keeps_the_symbols_without_colour(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    style = card_style(io.StringIO(), force_terminal=True)
    assert style is symbol_card
    assert "\x1b" not in style(parse_card("7H"))


def test_a_terminal_that_cannot_encode_the_symbols_gets_the_notation() -> None:
    ascii_out = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    assert card_style(ascii_out, force_terminal=True) is plain_card


def test_screens_show_cards_in_their_style_and_hints_in_the_notation() -> None:
    match = GinMatch(seed=7)
    observation = match.observation(0)
    plain = "\n".join(GinScreen(match).table(observation))
    colour = "\n".join(GinScreen(match, card_text=coloured_card).table(observation))
    assert "\x1b" not in plain and "♥" not in plain and "KH" in plain
    assert f"{RED}K♥" in colour and "KH" not in colour
    # What a person may type back keeps the notation.
    assert "KH" in GinScreen(match, card_text=coloured_card).hint(observation)
