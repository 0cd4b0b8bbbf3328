"""Terminal games (platform): one turn loop for every game, and how cards look.

Each game supplies a screen (``rummykit.games.<game>.terminal``) that the loop drives;
see :mod:`rummykit.terminal.screen` for what a screen is.
"""

from rummykit.terminal.loop import TerminalSession, prompt_for
from rummykit.terminal.screen import Screen, TerminalGame
from rummykit.terminal.style import (
    CardText,
    card_style,
    coloured_card,
    plain_card,
    symbol_card,
)

__all__ = [
    "CardText",
    "Screen",
    "TerminalGame",
    "TerminalSession",
    "card_style",
    "coloured_card",
    "plain_card",
    "prompt_for",
    "symbol_card",
]
