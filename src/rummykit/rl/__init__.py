"""Research interfaces: PettingZoo, Gymnasium and OpenSpiel environments.

The modules here are the only part of rummykit that needs numpy, Gymnasium,
PettingZoo or OpenSpiel (install them with ``pip install "rummykit[rl]"``); importing
:mod:`rummykit.rl` itself needs none of them.

Layout, one encoding module per variant and thin wrappers per framework:

* :mod:`rummykit.rl.gin_actions` - the 241-action encoding of gin, identical to
  OpenSpiel's ``gin_rummy`` (pure Python).
* :mod:`rummykit.rl.gin_table` - the decision process the wrappers share: a gin hand
  or match driven by action ids, with the knock macro, rewards and each seat's view
  (pure Python).
* :mod:`rummykit.rl.gin_observation` - the observation planes as a numpy array.
* :mod:`rummykit.rl.rami_actions`, :mod:`rummykit.rl.rami_table`,
  :mod:`rummykit.rl.rami_observation` - the same three for Rami (2-6 players): 165 ids
  (cards by face, draws, and the solvers' openings, combinations, lay-offs and joker
  swaps as macro-actions), the decision process, and the 781-value observation.
* :mod:`rummykit.rl.table` - the variant-neutral protocol a table implements; a
  variant plugs in by providing a table and an encoder.
* :mod:`rummykit.rl.pettingzoo` - AEC environments (``gin_v0``, ``rami_v0``).
* :mod:`rummykit.rl.gymnasium` - single-agent ``GinEnv`` against a bot
  (``rummykit/Gin-v0``).
* :mod:`rummykit.rl.openspiel` - ``python_rummykit_gin`` for pyspiel.

The design and every plane and action id are documented in ``docs/rl.md``.
"""
