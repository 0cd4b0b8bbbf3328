"""Bots: the protocol every bot follows and a random bot for every game.

Each game's own bots live in its package (``rummykit.games.gin.heuristic_bot``, ...) and
are found by name through the catalog of games.
"""

from rummykit.bots.base import Bot
from rummykit.bots.random_bot import RandomBot

__all__ = ["Bot", "RandomBot"]
