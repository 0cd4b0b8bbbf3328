"""rummykit: rules-exact rummy engines, solvers, bots and interfaces."""

__version__ = "0.1.0"
