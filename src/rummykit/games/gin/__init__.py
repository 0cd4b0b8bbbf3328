"""Gin Rummy: two players, knock at 10, gin, big gin and undercut, a match to 100.

The engine, the match, and the exact deadwood solvers; bots, views and the terminal game
are in the modules beside them.
"""

from rummykit.games.gin.actions import *  # noqa: F403
from rummykit.games.gin.deadwood import *  # noqa: F403
from rummykit.games.gin.hand import *  # noqa: F403
from rummykit.games.gin.layoffs import *  # noqa: F403
from rummykit.games.gin.match import *  # noqa: F403
from rummykit.games.gin.observation import *  # noqa: F403
from rummykit.games.gin.result import *  # noqa: F403
from rummykit.games.gin.rules import *  # noqa: F403
