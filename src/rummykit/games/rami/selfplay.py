"""Play Rami rounds and games between bots."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, TypeVar

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


class _Playable(Protocol):
    """What bots play through: a round, or a whole game."""

    @property
    def is_over(self) -> bool: ...

    @property
    def current_player(self) -> int: ...

    def legal_actions(self) -> list[RamiAction]: ...

    def observation(self, seat: int) -> RamiObservation: ...

    def apply(self, action: RamiAction) -> object: ...


_PlayableT = TypeVar("_PlayableT", bound=_Playable)


def _check(bot: Any, action: RamiAction, legal: Sequence[RamiAction]) -> RamiAction:
    """A bot's action must be listed, or be an open-ended play (the engine validates)."""
    if action not in legal and action.kind not in _OPEN_ENDED:
        name = getattr(bot, "name", None)
        raise BotError(f"bot {name or bot!r} chose {action}, not a legal action", bot=name)
    return action


def _play_out(table: _PlayableT, bots: Sequence[RamiBot]) -> _PlayableT:
    """Let each seat's bot act until ``table`` is over; return it."""
    while not table.is_over:
        seat = table.current_player
        legal = table.legal_actions()
        bot = bots[seat]
        table.apply(_check(bot, bot.act(table.observation(seat), legal), legal))
    return table


def play_rami_round(
    bots: Sequence[RamiBot],
    rules: RamiRules | None = None,
    seed: int | None = None,
    *,
    dealer: int = 0,
) -> RamiRound:
    """Play one round between ``len(bots)`` bots (seat ``i`` is ``bots[i]``)."""
    return _play_out(new_round(rules or RamiRules(), len(bots), seed, dealer=dealer), bots)


def play_rami_game(
    bots: Sequence[RamiBot],
    rules: RamiRules | None = None,
    seed: int | None = None,
    *,
    first_dealer: int | None = None,
) -> RamiGame:
    """Play a whole game (section 6) between ``len(bots)`` bots."""
    return _play_out(RamiGame(rules, len(bots), seed, first_dealer=first_dealer), bots)
