"""The strength levels every game's expert bot offers, weakest first.

Each game maps them to its own knobs (``rummykit.games.gin.expert_params``,
``rummykit.games.rami.expert_levels``, ...); the names are shared so that a table, a
tournament or the command line can ask any game for the same level.
"""

from __future__ import annotations

from typing import Final, Literal

__all__ = ["LEVELS", "Level"]

Level = Literal["easy", "medium", "hard", "expert"]
LEVELS: Final[tuple[Level, ...]] = ("easy", "medium", "hard", "expert")
