"""Play whole hands and matches between bots."""

from __future__ import annotations

from collections.abc import Sequence

from rummykit.bots.base import Bot
from rummykit.bots.play_out import play_out
from rummykit.games.gin.actions import OPEN_KINDS, GinAction
from rummykit.games.gin.hand import GinHand, new_hand
from rummykit.games.gin.match import GinMatch
from rummykit.games.gin.observation import GinObservation
from rummykit.games.gin.rules import GinRules

__all__ = ["play_gin_hand", "play_gin_match"]

GinBot = Bot[GinObservation, GinAction]


def play_gin_hand(
    bots: Sequence[GinBot], rules: GinRules | None = None, seed: int | None = None, dealer: int = 0
) -> GinHand:
    """Play one hand between two bots; return the finished hand."""
    return play_out(new_hand(rules or GinRules(), seed, dealer=dealer), bots, OPEN_KINDS)


def play_gin_match(
    bots: Sequence[GinBot],
    rules: GinRules | None = None,
    seed: int | None = None,
    *,
    first_dealer: int | None = None,
) -> GinMatch:
    """Play a match to the target between two bots (seat 0 is ``bots[0]``)."""
    return play_out(GinMatch(rules, seed, first_dealer=first_dealer), bots, OPEN_KINDS)
