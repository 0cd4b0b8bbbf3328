"""How cards look at a terminal: suit symbols, red hearts and diamonds, or plain notation.

A screen shows every card through a *card style*, a function from a card id to its
text. Three styles:

* :func:`plain_card`: the input notation (``7H``, ``TD``, ``JK=5S``), for output that
  is not a terminal (pipes, files, tests) or cannot encode the symbols;
* :func:`symbol_card`: ``7♥``, ``10♦``, ``JK=5♠``, for a terminal with ``NO_COLOR`` set
  (https://no-color.org: no colour, but the symbols are still text);
* :func:`coloured_card`: the symbols with hearts and diamonds in red.

:func:`card_style` picks one for an output stream, asking rich whether the stream is a
terminal and whether colour is wanted. Input notation never changes: people type ``7H``.

>>> from rummykit.cards import parse_card
>>> [style(parse_card("TD")) for style in (plain_card, symbol_card)]
['TD', '10♦']
>>> symbol_card(parse_card("JK=5S")), coloured_card(parse_card("7H"))
('JK=5♠', '\\x1b[31m7♥\\x1b[0m')
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Final, TextIO

from rich.color import ColorSystem
from rich.console import Console
from rich.style import Style

from rummykit.cards import JOKER_FACE, RANKS, SUITS, Card, face_of, format_card

__all__ = ["SUIT_SYMBOLS", "CardText", "card_style", "coloured_card", "plain_card", "symbol_card"]

CardText = Callable[[int], str]
"""A card style: a card id in, its text out."""

SUIT_SYMBOLS: Final = {"S": "♠", "C": "♣", "D": "♦", "H": "♥"}
_RED: Final = Style(color="red")
_RED_SUITS: Final = "DH"


def plain_card(card: int) -> str:
    """The input notation: ``7H``, ``TD``, ``JK``, ``JK=5S``."""
    return format_card(card)


def _symbol(face: int, paint: Callable[[str, str], str]) -> str:
    rank = RANKS[face % 13]
    suit = SUITS[face // 13]
    return paint(("10" if rank == "T" else rank) + SUIT_SYMBOLS[suit], suit)


def _styled(card: int, paint: Callable[[str, str], str]) -> str:
    face = face_of(card)
    if face != JOKER_FACE:
        return _symbol(face, paint)
    declared = Card(card).declared
    return "JK" if declared is None else "JK=" + _symbol(declared.face, paint)


def _unpainted(text: str, suit: str) -> str:
    return text


def _red(text: str, suit: str) -> str:
    # Standard ANSI red: every colour terminal has it, whatever its colour system.
    return _RED.render(text, color_system=ColorSystem.STANDARD) if suit in _RED_SUITS else text


def symbol_card(card: int) -> str:
    """Suit symbols, no colour: ``7♥``, ``10♦``, ``JK=5♠``."""
    return _styled(card, _unpainted)


def coloured_card(card: int) -> str:
    """Suit symbols with hearts and diamonds in red (ANSI escape codes)."""
    return _styled(card, _red)


def card_style(file: TextIO | None = None, *, force_terminal: bool | None = None) -> CardText:
    """The card style for ``file`` (standard output by default): plain notation unless
    it is a terminal that can encode the suit symbols; colour unless ``NO_COLOR`` is set
    or the terminal has none (rich decides, e.g. ``TERM=dumb``)."""
    console = Console(file=file or sys.stdout, force_terminal=force_terminal)
    if not console.is_terminal or not _encodes(console.encoding, "".join(SUIT_SYMBOLS.values())):
        return plain_card
    if console.no_color or console.color_system is None:
        return symbol_card
    return coloured_card


def _encodes(encoding: str, text: str) -> bool:
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True
