"""The strength levels every game's expert bot offers, weakest first.

Each game maps them to its own knobs (``rummykit.games.gin.expert_params``,
``rummykit.games.rami.expert_levels``, ...); the names are shared so that a table, a
tournament or the command line can ask any game for the same level.
"""

from __future__ import annotations

from typing import Final, Literal

from rummykit.errors import UnknownBotError

__all__ = ["LEVELS", "Level", "checked_level"]

Level = Literal["easy", "medium", "hard", "expert"]
LEVELS: Final[tuple[Level, ...]] = ("easy", "medium", "hard", "expert")


def checked_level(game: str, level: str) -> Level:
    """``level`` when it is one of :data:`LEVELS`; else the refusal naming ``game``."""
    if level not in LEVELS:
        raise UnknownBotError(
            f"unknown {game} bot level {level!r}; choose one of {', '.join(LEVELS)}"
        )
    return level
