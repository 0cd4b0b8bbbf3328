"""Rami 51 / Rami 40: 2-6 players, 13 cards, two or three decks with jokers, an opening
threshold, joker swaps and reshuffles; rounds until the penalty limit.

The rules, the round engine, the whole game, combinations on the table and the exact
opening and lay-off solvers; bots, views and the terminal game are in the modules beside
them.
"""

from rummykit.games.rami import (
    actions,
    candidates,
    game,
    layoffs,
    observation,
    opening,
    round,
    rules,
    scoring,
    table,
    tokens,
)
from rummykit.games.rami.actions import *  # noqa: F403
from rummykit.games.rami.candidates import *  # noqa: F403
from rummykit.games.rami.game import *  # noqa: F403
from rummykit.games.rami.layoffs import *  # noqa: F403
from rummykit.games.rami.observation import *  # noqa: F403
from rummykit.games.rami.opening import *  # noqa: F403
from rummykit.games.rami.round import *  # noqa: F403
from rummykit.games.rami.rules import *  # noqa: F403
from rummykit.games.rami.scoring import *  # noqa: F403
from rummykit.games.rami.table import *  # noqa: F403
from rummykit.games.rami.tokens import *  # noqa: F403

# The package's public names: every public name of these modules.
__all__: list[str] = []
__all__ += actions.__all__
__all__ += candidates.__all__
__all__ += game.__all__
__all__ += layoffs.__all__
__all__ += observation.__all__
__all__ += opening.__all__
__all__ += round.__all__
__all__ += rules.__all__
__all__ += scoring.__all__
__all__ += table.__all__
__all__ += tokens.__all__
