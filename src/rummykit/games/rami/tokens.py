"""Rami card tokens: a physical card's notation with its deck, ``7H`` or ``7H@1``.

Rami plays with two or three decks, so records and actions name the physical card
(which copy), where players only ever see the face.

>>> card_token(parse_card_token("7H@1")), card_token(parse_card_token("JK"))
('7H@1', 'JK')
"""

from __future__ import annotations

from collections.abc import Iterable

from rummykit.cards import (
    FACES,
    JOKER_FACE,
    MAX_COPIES,
    PHYSICAL_IDS,
    Card,
    format_card,
    physical_card,
)
from rummykit.cards import parse_card as _parse_card
from rummykit.errors import InvalidActionError

__all__ = ["card_arg", "card_token", "cards_arg", "parse_card_token", "physical_card"]


def card_token(card: int) -> str:
    """Notation of one physical card: ``7H`` (first deck), ``7H@1``, ``JK@2``."""
    card = Card(card).physical
    copy = card.copy
    text = format_card(card)
    return text if copy == 0 else f"{text}@{copy}"


def parse_card_token(token: str) -> Card:
    """Inverse of :func:`card_token` (case-insensitive; ``T``/``10``; no ``@``: copy 0)."""
    base, sep, copy_text = token.strip().partition("@")
    try:
        card = _parse_card(base)
    except ValueError as error:
        raise InvalidActionError(str(error)) from error
    if card.declared is not None:
        raise InvalidActionError(f"{token!r}: name a physical card, not a declared joker")
    copy = 0
    if sep:
        if not copy_text.isdigit() or not 0 <= int(copy_text) < MAX_COPIES:
            raise InvalidActionError(
                f"bad card token {token!r}: the copy after @ is 0-{MAX_COPIES - 1}"
            )
        copy = int(copy_text)
    return physical_card(FACES[card], copy)


def card_arg(card: int | str) -> Card:
    """A card given to an action builder: a token, or a physical card id."""
    if isinstance(card, str):
        return parse_card_token(card)
    card = int(card)
    if not 0 <= card < PHYSICAL_IDS or FACES[card] > JOKER_FACE:
        raise InvalidActionError(f"{card} is not a rami card id")
    return Card(card)


def cards_arg(cards: Iterable[int | str] | str) -> tuple[Card, ...]:
    """Cards given to an action builder: tokens (one string, or one each) or ids."""
    if isinstance(cards, str):
        cards = cards.replace(",", " ").split()
    return tuple(card_arg(card) for card in cards)
