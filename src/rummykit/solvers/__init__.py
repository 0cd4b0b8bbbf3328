"""The solvers under their first import paths.

Each game's solvers live in its package (:mod:`rummykit.games.gin.deadwood`,
:mod:`rummykit.games.carousel.arrange`, ...); :mod:`rummykit.solvers.deadwood` and
:mod:`rummykit.solvers.arrange` keep the public names people already import.
"""
