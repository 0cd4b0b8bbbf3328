"""Bots playing a hand, a round or a whole game to its end (tests, studies, examples).

Every game's self-play is this loop: the seat to act gets its observation and the
legal actions, and its bot's choice is applied. An open-ended action (a Rami opening, a
Gin defender's show) is never listed, so a bot may choose one of those kinds too; the
engine validates it.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any, Protocol, TypeVar

from rummykit.bots.base import Bot
from rummykit.errors import BotError

__all__ = ["play_out"]


class _Playable(Protocol):
    """What bots play through: a hand, a round, or a whole game."""

    @property
    def is_over(self) -> bool: ...

    @property
    def current_player(self) -> int: ...

    def legal_actions(self) -> list[Any]: ...

    def observation(self, seat: int) -> Any: ...

    def apply(self, action: Any) -> object: ...


PlayableT = TypeVar("PlayableT", bound=_Playable)


def play_out(
    table: PlayableT, bots: Sequence[Bot[Any, Any]], open_kinds: Collection[str] = ()
) -> PlayableT:
    """Let each seat's bot (``bots[seat]``) act until ``table`` is over; return it.

    Raises:
        BotError: a bot chose an action that is neither listed nor of ``open_kinds``.
    """
    while not table.is_over:
        seat = table.current_player
        legal = table.legal_actions()
        bot = bots[seat]
        action = bot.act(table.observation(seat), legal)
        if action not in legal and action.kind not in open_kinds:
            name = getattr(bot, "name", bot)
            raise BotError(
                f"bot {name!r} at seat {seat} chose {action}, not a legal action",
                bot=str(name),
                seat=seat,
            )
        table.apply(action)
    return table
