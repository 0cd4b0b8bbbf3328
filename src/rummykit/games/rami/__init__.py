"""Rami 51 / Rami 40: 2-6 players, 13 cards, two or three decks with jokers, an opening
threshold, joker swaps and reshuffles; rounds until the penalty limit.

The rules, the round engine, the whole game, combinations on the table and the exact
opening and lay-off solvers; bots, views and the terminal game are in the modules beside
them.
"""

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
