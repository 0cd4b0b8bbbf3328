"""The bot protocol: an observation and the legal actions in, one action out.

A bot sees only what :meth:`observation` gives its seat (never another hand, never the
stock order) and the list of legal actions. Bots draw any randomness from their own
seeded RNG, so a game between bots is a function of the seeds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

__all__ = ["Bot"]

ObservationT_contra = TypeVar("ObservationT_contra", contravariant=True)
ActionT = TypeVar("ActionT")


class Bot(Protocol[ObservationT_contra, ActionT]):
    """Anything with a ``name`` and an ``act`` method is a bot."""

    name: str

    def act(self, observation: ObservationT_contra, legal_actions: Sequence[ActionT]) -> ActionT:
        """Choose one of ``legal_actions`` (never an action outside that list)."""
        ...
