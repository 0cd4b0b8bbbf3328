"""Gin's exact deadwood solvers under their first import path
(:mod:`rummykit.games.gin.deadwood` is their home; the lay-off solver is in
:mod:`rummykit.games.gin.layoffs`).

>>> from rummykit.cards import parse_cards
>>> min_deadwood(parse_cards("AS 2S 3S 4S 4H 4D 9C")).deadwood
9
"""

from rummykit.games.gin.deadwood import *  # noqa: F403
from rummykit.games.gin.layoffs import *  # noqa: F403
