"""Gin Rummy: two players, knock at 10, gin, big gin and undercut, a match to 100.

The engine, the match, and the exact deadwood solvers; bots, views and the terminal game
are in the modules beside them.
"""

from rummykit.games.gin import actions, deadwood, hand, layoffs, match, observation, result, rules
from rummykit.games.gin.actions import *  # noqa: F403
from rummykit.games.gin.deadwood import *  # noqa: F403
from rummykit.games.gin.hand import *  # noqa: F403
from rummykit.games.gin.layoffs import *  # noqa: F403
from rummykit.games.gin.match import *  # noqa: F403
from rummykit.games.gin.observation import *  # noqa: F403
from rummykit.games.gin.result import *  # noqa: F403
from rummykit.games.gin.rules import *  # noqa: F403

# The package's public names: every public name of these modules.
__all__: list[str] = []
__all__ += actions.__all__
__all__ += deadwood.__all__
__all__ += hand.__all__
__all__ += layoffs.__all__
__all__ += match.__all__
__all__ += observation.__all__
__all__ += result.__all__
__all__ += rules.__all__
