"""Carousel: 2-5 players, up to three draws a turn, the whole table open to
rearrangement, declared jokers, knock at 5, a game to 150.

The rules (:mod:`.rules`), actions (:mod:`.actions`), the layout rule (:mod:`.layout`),
the hand engine (:mod:`.hand`), the whole game (:mod:`.game`) and the exact placement
solver (:mod:`.arrange`); bots and the terminal game are in the modules beside them.
"""

from rummykit.games.carousel.actions import *  # noqa: F403
from rummykit.games.carousel.arrange import *  # noqa: F403
from rummykit.games.carousel.game import *  # noqa: F403
from rummykit.games.carousel.hand import *  # noqa: F403
from rummykit.games.carousel.layout import *  # noqa: F403
from rummykit.games.carousel.rules import *  # noqa: F403
