"""Collection rules shared by the whole repository (tests and doctests).

The modules of ``rummykit.rl`` need the optional ``[rl]`` extra; without it their
doctests are not collected (``tests/rl`` skips itself the same way).
"""

from __future__ import annotations

import importlib.util

_NEEDS = {
    "src/rummykit/rl/gin_observation.py": ("numpy",),
    "src/rummykit/rl/gymnasium.py": ("numpy", "gymnasium"),
    "src/rummykit/rl/openspiel.py": ("numpy", "pyspiel"),
    "src/rummykit/rl/pettingzoo/*": ("numpy", "gymnasium", "pettingzoo"),
}

# The test-only game is loaded as a plugin by its test; importing it for doctests too
# would register it twice.
collect_ignore = ["tests/platform/tiny_game.py"]

collect_ignore_glob = [
    path
    for path, modules in _NEEDS.items()
    if any(importlib.util.find_spec(module) is None for module in modules)
]
