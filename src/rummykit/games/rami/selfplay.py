"""Play Rami rounds and games between bots."""

from __future__ import annotations

from collections.abc import Sequence

from rummykit.bots.base import Bot
from rummykit.bots.play_out import play_out
from rummykit.games.rami.actions import OPEN_KINDS, RamiAction
from rummykit.games.rami.game import RamiGame
from rummykit.games.rami.observation import RamiObservation
from rummykit.games.rami.round import RamiRound, new_round
from rummykit.games.rami.rules import RamiRules

__all__ = ["play_rami_game", "play_rami_round"]

RamiBot = Bot[RamiObservation, RamiAction]


def play_rami_round(
    bots: Sequence[RamiBot],
    rules: RamiRules | None = None,
    seed: int | None = None,
    *,
    dealer: int = 0,
) -> RamiRound:
    """Play one round between ``len(bots)`` bots (seat ``i`` is ``bots[i]``)."""
    return play_out(
        new_round(rules or RamiRules(), len(bots), seed, dealer=dealer), bots, OPEN_KINDS
    )


def play_rami_game(
    bots: Sequence[RamiBot],
    rules: RamiRules | None = None,
    seed: int | None = None,
    *,
    first_dealer: int | None = None,
) -> RamiGame:
    """Play a whole game (section 6) between ``len(bots)`` bots."""
    return play_out(RamiGame(rules, len(bots), seed, first_dealer=first_dealer), bots, OPEN_KINDS)
