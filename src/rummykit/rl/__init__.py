"""Research interfaces: PettingZoo, Gymnasium and OpenSpiel environments.

The modules here are the only part of rummykit that needs numpy, Gymnasium,
PettingZoo or OpenSpiel (install them with ``pip install "rummykit[rl]"``); importing
:mod:`rummykit.rl` itself needs none of them.

Layout: the stepping and the wrappers are written once; each game adds only its
encoding (ids, macro-actions, observation planes) and registers it:

* :mod:`rummykit.rl.table` - :class:`~rummykit.rl.table.EpisodeTable`, the decision
  process every wrapper drives: an episode (one deal, or a whole game from the
  catalog) played by action id, with rewards, id macros and illegal ids (pure Python).
* :mod:`rummykit.rl.action_layout` - a game's action ids, declared in order with their
  names.
* :mod:`rummykit.rl.observation` - the named layout of an observation array.
* :mod:`rummykit.rl.encoding` - :class:`~rummykit.rl.encoding.GameEncoding`, what a
  game plugs in (table class, observation encoder, text), and the registry of games.
* :mod:`rummykit.rl.gin_actions`, :mod:`rummykit.rl.gin_table`,
  :mod:`rummykit.rl.gin_observation` - gin: the 241 ids of OpenSpiel's ``gin_rummy``,
  the knock macro and seat views, the 480-value observation.
* :mod:`rummykit.rl.rami_actions`, :mod:`rummykit.rl.rami_table`,
  :mod:`rummykit.rl.rami_observation` - Rami (2-6 players): 165 ids (cards by face,
  draws, and the solvers' openings, combinations, lay-offs and joker swaps as
  macro-actions), and the 781-value observation.
* :mod:`rummykit.rl.pettingzoo` - AEC environments (``gin_v0``, ``rami_v0``).
* :mod:`rummykit.rl.gymnasium` - one seat against catalog bots (``rummykit/Gin-v0``,
  ``rummykit/Rami-v0``).
* :mod:`rummykit.rl.openspiel` - ``python_rummykit_gin`` for pyspiel.

The design and every plane and action id are documented in ``docs/rl.md``.
"""
