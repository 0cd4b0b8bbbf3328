"""Play Rami rounds and games between bots."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rummykit.bots.base import Bot
from rummykit.errors import BotError
from rummykit.games.rami.actions import RamiAction
from rummykit.games.rami.game import RamiGame
from rummykit.games.rami.observation import RamiObservation
from rummykit.games.rami.round import RamiRound, new_round
from rummykit.games.rami.rules import RamiRules

__all__ = ["play_rami_game", "play_rami_round"]

RamiBot = Bot[RamiObservation, RamiAction]
_OPEN_ENDED = frozenset({"open", "meld", "layoff", "swap_joker", "take_discard"})


def _check(bot: Any, action: RamiAction, legal: Sequence[RamiAction]) -> RamiAction:
    """A bot's action must be listed, or be an open-ended play (the engine validates)."""
    if action not in legal and action.kind not in _OPEN_ENDED:
        name = getattr(bot, "name", None)
        raise BotError(f"bot {name or bot!r} chose {action}, not a legal action", bot=name)
    return action


def play_rami_round(
    bots: Sequence[RamiBot],
    rules: RamiRules | None = None,
    seed: int | None = None,
    *,
    dealer: int = 0,
) -> RamiRound:
    """Play one round between ``len(bots)`` bots (seat ``i`` is ``bots[i]``)."""
    rnd = new_round(rules or RamiRules(), len(bots), seed, dealer=dealer)
    while not rnd.is_over:
        seat = rnd.current_player
        legal = rnd.legal_actions()
        bot = bots[seat]
        rnd.apply(_check(bot, bot.act(rnd.observation(seat), legal), legal))
    return rnd


def play_rami_game(
    bots: Sequence[RamiBot],
    rules: RamiRules | None = None,
    seed: int | None = None,
    *,
    first_dealer: int | None = None,
) -> RamiGame:
    """Play a whole game (section 6) between ``len(bots)`` bots."""
    game = RamiGame(rules, len(bots), seed, first_dealer=first_dealer)
    while not game.is_over:
        seat = game.current_player
        legal = game.legal_actions()
        bot = bots[seat]
        game.apply(_check(bot, bot.act(game.observation(seat), legal), legal))
    return game
