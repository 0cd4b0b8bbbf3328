"""The catalog of games: every game rummykit hosts, its bots, and how to play it.

One :class:`Variant` per game, registered once by name, tells the platform everything it
needs: the name and title, the seat range, the rules type with its options (each
declared once on the rules field, :mod:`rummykit.options`) and presets, the action type
and its JSON form, the whole-game factory and replay from a record, the table game with
its views (:mod:`rummykit.table_game`), and the bots registered for it. The command
line, the table server, the tournament runner, the terminal games and the research
wrappers read the catalog; none of them names a game.

The games rummykit ships (Gin, Carousel, Rami) register themselves from their packages
(:data:`BUILTIN_GAMES`) on the first look-up, and so do installed packages that name a
module under the entry-point group ``rummykit.games``. Another game is a
:class:`Variant` subclass registered with :func:`register_variant`; bots are
registered per game with :func:`register_bot` (a factory called as
``factory(seed=..., rules=..., players=...)``; given as ``"module:attribute"`` it is
imported on first use, so registering costs nothing and cannot create import cycles).

>>> gin = get_variant("gin")
>>> gin.title, gin.min_players, gin.max_players
('Gin Rummy', 2, 2)
>>> bots = [make_bot("gin", "heuristic", seed=1), make_bot("gin", "random", seed=2)]
>>> outcome = gin.play(bots, rules=gin.default_rules(), seed=7, first_dealer=0)
>>> outcome.shares
(1.0, 0.0)
>>> find_variant("rami40")[1], get_variant("rami40").name
('rami40', 'rami')
"""

from rummykit.catalog.bots import *  # noqa: F403
from rummykit.catalog.registry import *  # noqa: F403
from rummykit.catalog.variant import *  # noqa: F403
