"""Play whole hands and matches between bots."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rummykit.bots.base import Bot
from rummykit.errors import BotError
from rummykit.games.gin.actions import GinAction
from rummykit.games.gin.hand import GinHand, new_hand
from rummykit.games.gin.match import GinMatch
from rummykit.games.gin.observation import GinObservation
from rummykit.games.gin.rules import GinRules

__all__ = ["play_gin_hand", "play_gin_match"]

GinBot = Bot[GinObservation, GinAction]


def _check(bot: Any, seat: int, action: GinAction, legal: Sequence[GinAction]) -> GinAction:
    if action not in legal and action.kind != "lay_off":
        name = getattr(bot, "name", bot)
        raise BotError(
            f"bot {name!r} at seat {seat} chose {action}, not a legal action",
            bot=str(name),
            seat=seat,
        )
    return action


def play_gin_hand(
    bots: Sequence[GinBot], rules: GinRules | None = None, seed: int | None = None, dealer: int = 0
) -> GinHand:
    """Play one hand between two bots; return the finished hand."""
    hand = new_hand(rules or GinRules(), seed, dealer=dealer)
    while not hand.is_over:
        seat = hand.current_player
        legal = hand.legal_actions()
        hand.apply(_check(bots[seat], seat, bots[seat].act(hand.observation(seat), legal), legal))
    return hand


def play_gin_match(
    bots: Sequence[GinBot],
    rules: GinRules | None = None,
    seed: int | None = None,
    *,
    first_dealer: int | None = None,
) -> GinMatch:
    """Play a match to the target between two bots (seat 0 is ``bots[0]``)."""
    match = GinMatch(rules, seed, first_dealer=first_dealer)
    while not match.is_over:
        seat = match.current_player
        legal = match.legal_actions()
        match.apply(_check(bots[seat], seat, bots[seat].act(match.observation(seat), legal), legal))
    return match
